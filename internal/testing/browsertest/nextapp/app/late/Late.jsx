"use client";
// Registers "late_recipe" with the hook at mount, then imports the bridge: the tool must be
// registered once the bridge is installed.
import { useEffect } from "react";
import { useWebMCPTool } from "webmcp-bridge-wasm/react";

export default function Late() {
  useWebMCPTool({
    name: "late_recipe",
    description: "A recipe registered before the bridge arrived",
    execute: () => ({ type: "html", html: "<p>Bread</p><img src=x onerror=alert(1)>" }),
  });
  useEffect(() => {
    import("webmcp-bridge-wasm");
  }, []);
  return <p id="late">Bread</p>;
}
