"use client";
// A client component (Next renders it on the server too) that imports the bridge statically and
// keeps the "recipe" tool registered with the hook.
import { content } from "webmcp-bridge-wasm";
import { useWebMCPTool } from "webmcp-bridge-wasm/react";

export default function Recipes() {
  useWebMCPTool({
    name: "recipe",
    description: "The recipe of the day, as HTML",
    execute: () => content.html("<article><h2>Soup</h2><p>Boil</p><script>alert(1)</script></article>"),
  });
  return <p id="recipes">Soup of the day</p>;
}
