// The data the bridge's API takes and gives: MCP's result types, the proposed WebMCP result types,
// violations, the agent side's answers and the WebMCP ModelContext types. The published typings
// are generated from this file and the two entries (entry-module.ts, react.ts) by tsc: what a user
// imports and nothing else (internal/build/tstools keeps only what those import).
export type { Policy, PolicySettings } from "./generated/policy.ts";
import type { Policy, PolicySettings } from "./generated/policy.ts";

/** Where the module's files are: a base URL, or each file's URL. */
export type Assets = string | URL | { wasm: string | URL; worker: string | URL };

/** What the calls that need the module answer where it cannot run: the tools' results as the
 * page wrote them ("raw", the default), or an isError result that says why ("refuse"). */
export type Fallback = "raw" | "refuse";

export type Role = "user" | "assistant";

export interface Annotations {
  audience?: Role[];
  priority?: number;
  lastModified?: string;
}

interface BlockBase {
  annotations?: Annotations;
  _meta?: Record<string, unknown>;
}

export interface TextContent extends BlockBase {
  type: "text";
  text: string;
}
export interface ImageContent extends BlockBase {
  type: "image";
  data: string;
  mimeType: string;
}
export interface AudioContent extends BlockBase {
  type: "audio";
  data: string;
  mimeType: string;
}
export interface ResourceLink extends BlockBase {
  type: "resource_link";
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
}
export interface EmbeddedResource extends BlockBase {
  type: "resource";
  resource: { uri: string; mimeType?: string; _meta?: Record<string, unknown> } & ({ text: string } | { blob: string });
}
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/** An MCP CallToolResult as the bridge produces it. */
export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  resultType: "complete";
  _meta?: Record<string, unknown>;
}

/** The result types proposed for WebMCP tools. */
export type ProposedBlock =
  | { type: "text"; text: string }
  | { type: "image"; data: string | Blob | ArrayBuffer | ArrayBufferView; mimeType?: string; alt?: string }
  | { type: "html"; html: string }
  | { type: "link"; url: string; title?: string }
  | { type: "table"; headers?: unknown[]; rows: unknown[][] }
  | { type: "error"; message: string; code?: string | number };

/** A policy rule a result broke, and the notice the agent sees instead. */
export interface Violation {
  /** The tool whose result it was ("" for WebMCPBridge.normalize). */
  tool: string;
  /** Index of the offending item in what the tool returned (its array or envelope content; 0 for one value). */
  item: number;
  type: string;
  limit: string;
  reason: string;
  notice: string;
}

/** Everything the agent side learns from one tool output, computed in one call into the module. */
export interface ToolOutput {
  result: CallToolResult;
  violations: Violation[];
  modelInput: ModelInput;
  /** The rows of each text/csv resource, by block index, for display. */
  tables: Record<string, string[][]>;
}

export interface AgentTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: { readOnlyHint?: boolean; untrustedContentHint?: boolean; consequentialHint?: boolean };
}

export interface ModelInput {
  text: string;
  attachments: {
    type: "image" | "audio" | "resource" | "resource_link";
    mimeType?: string;
    data?: string;
    uri?: string;
    name?: string;
  }[];
  isError: boolean;
}

/** What content.image takes: base64 or a data: URL, or a binary. */
export type ImageSource =
  string | Blob | ArrayBuffer | ArrayBufferView | HTMLCanvasElement | OffscreenCanvas | ImageBitmap;

/** A tool as a page registers it. */
export interface ModelContextTool {
  name: string;
  title?: string;
  description: string;
  inputSchema?: Record<string, unknown>;
  execute(input: Record<string, unknown>, client: { signal: AbortSignal }): unknown;
  annotations?: { readOnlyHint?: boolean; untrustedContentHint?: boolean; consequentialHint?: boolean };
}

export interface RegisteredTool {
  name: string;
  title: string;
  description: string;
  inputSchema?: Record<string, unknown>;
  window: Window;
  origin: string;
  annotations?: ToolAnnotations;
}

/** A tool's annotations as getTools() gives them: every member the draft defines. */
export interface ToolAnnotations {
  readOnlyHint: boolean;
  untrustedContentHint: boolean;
  consequentialHint: boolean;
  debugging: boolean;
}

export interface ModelContext extends EventTarget {
  registerTool(tool: ModelContextTool, options?: { signal?: AbortSignal; exposedTo?: string[] }): Promise<undefined>;
  getTools(): Promise<RegisteredTool[]>;
  /** The tool's result as JSON text; null when a form's submission navigated instead. */
  executeTool(tool: RegisteredTool, input?: object, options?: { signal?: AbortSignal }): Promise<string | null>;
}

/** toolactivated and toolcancel: the tool an agent started or cancelled. */
export interface ToolEvent extends Event {
  readonly toolName: string;
}

// More of the ModelContext: tools of other frames (fromOrigins) and the event handler attributes.
export interface ModelContext {
  /** fromOrigins adds the tools that frames of those (secure) origins expose to this one. */
  getTools(options?: { fromOrigins?: string[] }): Promise<RegisteredTool[]>;
  ontoolchange: ((event: Event) => unknown) | null;
  ontoolactivated: ((event: ToolEvent) => unknown) | null;
  ontoolcancel: ((event: ToolEvent) => unknown) | null;
}

/** The API of window.WebMCPBridge and of the ES module. */
export interface WebMCPBridge {
  /** The package version; the module's own once it runs. */
  readonly version: string;
  /** Settles when the Go module runs; reading it starts the module. Rejects, saying why, where
   * the module cannot run (a CSP without 'wasm-unsafe-eval'). */
  readonly ready: Promise<WebMCPBridge>;
  /** Starts the module now, as data-start="eager" does; the same promise as ready. */
  start(): Promise<WebMCPBridge>;
  /** Where the module's files are served: a base URL (they keep their names there) or each
   * file's URL. Throws an InvalidStateError once the module has started. */
  setAssets(where: Assets): void;
  /** What calls that need the module answer where it cannot run (a CSP without
   * 'wasm-unsafe-eval', no WebAssembly): "raw", the default, the tools' results as the page wrote
   * them; "refuse" (data-fallback="refuse"), an isError result that names what to change. */
  setFallback(mode: Fallback): void;
  /** false when the script tag has data-normalize="off". */
  readonly normalizing: boolean;
  /** true when the browser has WebMCP of its own: Chromium's, which the bridge wraps, or
   * Firefox's prototype, which the bridge's own ModelContext stands in front of. */
  readonly native: boolean;
  /** A copy of the policy in force (null before the module first ran). */
  readonly policy: Policy | null;
  /** Sets the policy; rejects with a TypeError whose `setting` names the bad setting. */
  configure(settings: PolicySettings): Promise<Policy>;
  /** Normalizes any value as a tool result would be. */
  normalize(value: unknown): Promise<CallToolResult>;
  /** Called for every policy violation (a console warning and a "webmcpbridgeviolation" event on window too). */
  onViolation(listener: (v: Violation) => void): () => void;
  readonly content: Content;
  readonly agent: Agent;
}

/** Builders of the proposed WebMCP result types. */
export interface Content {
  text(text: string): ProposedBlock;
  html(html: string): ProposedBlock;
  link(url: string, title?: string): ProposedBlock;
  table(headers: unknown[], rows: unknown[][]): ProposedBlock;
  error(message: string, code?: string | number): ProposedBlock;
  /** An image block; a binary is handed to the module as bytes (never base64 on this thread). */
  image(src: ImageSource, options?: { mimeType?: string; alt?: string }): Promise<ProposedBlock>;
}

/** The agent side: tools as an agent calls them, results validated and ready for a model. */
export interface Agent {
  listTools(): Promise<AgentTool[]>;
  /** Runs the tool through executeTool and hands out its normalized result; rejects for an unknown tool or an abort. */
  callTool(name: string, args?: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<CallToolResult>;
  /** callTool with the violations, the model input and the table rows as well. */
  callToolDetailed(
    name: string,
    args?: Record<string, unknown>,
    options?: { signal?: AbortSignal },
  ): Promise<ToolOutput>;
  /** The model input of a result; free for results the agent side handed out. */
  toModelInput(result: CallToolResult): Promise<ModelInput>;
  /** Normalizes a raw executeTool output from anywhere (another page, a tab), trusting nothing. */
  parseToolOutput(raw: string | object, tool?: string): Promise<ToolOutput>;
}

declare global {
  /** The declarative API: a form's submit event when an agent's call submits it. */
  interface SubmitEvent {
    /** True when the submission is an agent's tool call (the form has toolname and tooldescription). */
    readonly agentInvoked: boolean;
    /** After preventDefault(), during the dispatch: what the agent gets (the promise's value). */
    respondWith(response: unknown): void;
  }
  interface Document {
    readonly modelContext: ModelContext;
  }
  interface Navigator {
    /** @deprecated use document.modelContext */ readonly modelContext: ModelContext;
  }
}

/** What an agent says of a call's arguments (PageLink.callTool's checked): that args, exactly
 * this JSON text, passed schema, this JSON text, in its own check with the bridge's validator
 * (bridge/inputschema, as webmcp-mcp runs it natively) within the default limits. The page's
 * bridge then neither checks them again nor starts its module for the call, when schema is the
 * tool's schema (the same JSON) and args the arguments' JSON as the tool gets it, and the page
 * runs the default policy; otherwise it checks them as always. */
export interface CheckedArguments {
  schema: string;
  args: string;
}
