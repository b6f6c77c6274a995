// The fallback's registry of tools, as modelcontext.ts keeps it and form-tools.ts (forms) and
// frame-tools.ts (other frames' tools) read it: the types they share, so that none of them imports
// another for its types.
import type { SchemaRef } from "./host.ts";
import type { ModelContextTool, ToolAnnotations } from "./types.ts";

/** What getTools() says of a tool, as frames exchange it: its schema as JSON text. */
export interface ToolInfo {
  name: string;
  title: string;
  description: string;
  text: string | undefined;
  annotations: ToolAnnotations | undefined;
}

/** The member that marks the bridge's messages between frames (frame-tools.ts, frame-tools-loader.ts). */
export const FRAMES_KEY = "webmcpBridge";

/** hints are a tool's annotations with every member the draft defines, as booleans, debugging
 * among them (the newest tests, as native Chromium gives them). */
export const hints = (a: Record<string, unknown>): ToolAnnotations => ({
  consequentialHint: !!a.consequentialHint,
  debugging: !!a.debugging,
  readOnlyHint: !!a.readOnlyHint,
  untrustedContentHint: !!a.untrustedContentHint,
});

/** A tool registered with registerTool. */
export interface ScriptEntry extends ToolInfo {
  tool: ModelContextTool;
  schema: SchemaRef | null;
  exposedTo: string[];
  announced?: boolean;
  form?: undefined;
}

/** A form that is a tool, in the fallback's registry. */
export interface FormEntry extends ToolInfo {
  form: HTMLFormElement;
  auto: boolean;
}

/** The fallback's registry: name → a script tool or a form. */
export type Entry = ScriptEntry | FormEntry;
export type Registry = Map<string, Entry>;
