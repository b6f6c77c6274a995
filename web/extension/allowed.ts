// The origins the person allowed in the side panel: their tools reach MCP clients
// (webmcp-mcp -extension). Kept in chrome.storage.local; nothing is allowed by default.
/// <reference types="chrome" />

const KEY = "allowedOrigins";

/** The allowed origins. */
export async function allowedOrigins(): Promise<Set<string>> {
  const got = await chrome.storage.local.get(KEY);
  const list: unknown = got[KEY];
  return new Set(Array.isArray(list) ? list.filter((o): o is string => typeof o === "string") : []);
}

/** Allows or disallows one origin. */
export async function setAllowed(origin: string, on: boolean): Promise<void> {
  const now = await allowedOrigins();
  if (on) now.add(origin);
  else now.delete(origin);
  await chrome.storage.local.set({ [KEY]: [...now].sort() });
}

/** Calls f whenever the allowed origins change. */
export function onAllowedChange(f: () => void): void {
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === "local" && KEY in changes) f();
  });
}

/** The origin of an http(s) URL; "" for anything else (which is never exposed). */
export function webOrigin(url: string | undefined): string {
  try {
    const u = new URL(url ?? "");
    return u.protocol === "https:" || u.protocol === "http:" ? u.origin : "";
  } catch {
    return "";
  }
}
