// Type definitions for webmcp-bridge: window.WebMCPBridge, the ES module's exports (the same API)
// and the WebMCP ModelContext it provides or wraps.

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

export interface TextContent extends BlockBase { type: "text"; text: string }
export interface ImageContent extends BlockBase { type: "image"; data: string; mimeType: string }
export interface AudioContent extends BlockBase { type: "audio"; data: string; mimeType: string }
export interface ResourceLink extends BlockBase {
  type: "resource_link"; uri: string; name: string; title?: string; description?: string; mimeType?: string; size?: number;
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
  | { type: "image"; data: string; mimeType?: string; alt?: string }
  | { type: "html"; html: string }
  | { type: "link"; url: string; title?: string }
  | { type: "table"; headers?: unknown[]; rows: unknown[][] }
  | { type: "error"; message: string; code?: string | number };

/** The core's policy; every setting is optional and falls back to its default. */
export interface Policy {
  maxImageBytes?: number; maxImageWidth?: number; maxImageHeight?: number; maxImagePixels?: number;
  imageTypes?: string[]; maxAudioBytes?: number; audioTypes?: string[];
  linkSchemes?: string[]; maxURLLength?: number; maxHTMLBytes?: number; maxTextChars?: number;
  maxResultBytes?: number; maxTableRows?: number; maxTableColumns?: number; maxTableCellChars?: number;
  strict?: boolean;
}

/** A policy rule a result broke, and the notice the agent sees instead. */
export interface Violation {
  /** The tool whose result it was ("" for WebMCPBridge.normalize). */
  tool: string;
  /** Index of the offending item in what the tool returned (its array or envelope content; 0 for one value). */
  item: number;
  type: string; limit: string; reason: string; notice: string;
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
  name: string; title: string; description: string;
  inputSchema: Record<string, unknown>;
  annotations: { readOnlyHint?: boolean; untrustedContentHint?: boolean; consequentialHint?: boolean };
}

export interface ModelInput {
  text: string;
  attachments: { type: "image" | "audio" | "resource" | "resource_link"; mimeType?: string; data?: string; uri?: string; name?: string }[];
  isError: boolean;
}

/** A base URL for webmcp-bridge.wasm and webmcp-bridge-worker.js, or each one's URL. */
export type Assets = string | URL | { wasm: string | URL; worker: string | URL };

export type ImageSource = string | Blob | ArrayBuffer | ArrayBufferView | HTMLCanvasElement | OffscreenCanvas | ImageBitmap;

export interface WebMCPBridge {
  /** The package version (web/package.json); the module's own once ready. */
  version: string;
  /**
   * Settles when the Go module runs. The module starts on first need; reading `ready` starts it.
   * Rejects, saying why, where the module cannot run (a CSP without 'wasm-unsafe-eval').
   */
  readonly ready: Promise<WebMCPBridge>;
  /** Starts the module now, as data-start="eager" does; the same promise as ready. */
  start(): Promise<WebMCPBridge>;
  /**
   * Where the module's files are served: a base URL (they keep their names there) or each file's
   * URL. Throws an InvalidStateError once the module has started.
   */
  setAssets(where: Assets): void;
  /** false when the script tag has data-normalize="off". */
  normalizing: boolean;
  /** true when the browser has its own WebMCP and the bridge wraps it. */
  native: boolean;
  /** A copy of the policy in force (null before ready). Reading it does not call the module. */
  readonly policy: Required<Policy> | null;
  /** Sets the policy; rejects with a TypeError whose `setting` names the bad setting. */
  configure(policy: Policy): Promise<Required<Policy>>;
  normalize(value: unknown): Promise<CallToolResult>;
  /** Called for every policy violation (a console warning and a "webmcpbridgeviolation" event on window too). */
  onViolation(listener: (v: Violation) => void): () => void;
  content: {
    text(text: string): ProposedBlock;
    html(html: string): ProposedBlock;
    link(url: string, title?: string): ProposedBlock;
    table(headers: unknown[], rows: unknown[][]): ProposedBlock;
    error(message: string, code?: string | number): ProposedBlock;
    image(src: ImageSource, options?: { mimeType?: string; alt?: string }): Promise<ProposedBlock>;
  };
  agent: {
    listTools(): Promise<AgentTool[]>;
    /** Runs the tool through executeTool and normalizes its raw output again; rejects for an unknown tool or an abort. */
    callTool(name: string, args?: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<CallToolResult>;
    /** callTool with the violations, the model input and the table rows as well. */
    callToolDetailed(name: string, args?: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<ToolOutput>;
    /** The model input of a result; free for results the agent side returned. */
    toModelInput(result: CallToolResult): Promise<ModelInput>;
    /** Normalizes a raw executeTool output from anywhere (another page, a tab), trusting nothing. */
    parseToolOutput(raw: string | object, tool?: string): Promise<ToolOutput>;
  };
}

export interface ModelContextTool {
  name: string;
  title?: string;
  description: string;
  inputSchema?: Record<string, unknown>;
  execute(input: any, client: { signal: AbortSignal }): unknown;
  annotations?: { readOnlyHint?: boolean; untrustedContentHint?: boolean; consequentialHint?: boolean };
}

export interface RegisteredTool {
  name: string; title: string; description: string; inputSchema?: Record<string, unknown>;
  window: Window; origin: string; annotations?: Record<string, boolean>;
}

export interface ModelContext extends EventTarget {
  registerTool(tool: ModelContextTool, options?: { signal?: AbortSignal; exposedTo?: string[] }): Promise<undefined>;
  getTools(): Promise<RegisteredTool[]>;
  executeTool(tool: RegisteredTool, input?: object, options?: { signal?: AbortSignal }): Promise<string>;
}

/** toolactivated and toolcancel: the tool an agent started or cancelled. */
export interface ToolEvent extends Event { readonly toolName: string }

// More of the ModelContext: tools of other frames (fromOrigins) and the event handler attributes.
export interface ModelContext {
  /** fromOrigins adds the tools that frames of those (secure) origins expose to this one. */
  getTools(options?: { fromOrigins?: string[] }): Promise<RegisteredTool[]>;
  ontoolchange: ((event: Event) => any) | null;
  ontoolactivated: ((event: ToolEvent) => any) | null;
  ontoolcancel: ((event: ToolEvent) => any) | null;
}

declare global {
  /** The declarative API: a form's submit event when an agent's call submits it. */
  interface SubmitEvent {
    /** True when the submission is an agent's tool call (the form has toolname and tooldescription). */
    readonly agentInvoked: boolean;
    /** After preventDefault(), during the dispatch: what the agent gets (the promise's value). */
    respondWith(response: unknown): void;
  }
  interface Window { WebMCPBridge: WebMCPBridge }
  interface Document { readonly modelContext: ModelContext }
  interface Navigator { /** @deprecated use document.modelContext */ readonly modelContext: ModelContext }
  const WebMCPBridge: WebMCPBridge;
}

// The ES module (import ... from "webmcp-bridge-wasm"): importing it installs the bridge.
declare const bridge: WebMCPBridge;
export default bridge;
export const content: WebMCPBridge["content"];
export const agent: WebMCPBridge["agent"];
export const native: boolean;
export const normalizing: boolean;
export const version: string;
/** WebMCPBridge.ready: starts the module on first call. */
export function ready(): Promise<WebMCPBridge>;
export function start(): Promise<WebMCPBridge>;
export function setAssets(where: Assets): void;
export function configure(policy: Policy): Promise<Required<Policy>>;
export function normalize(value: unknown): Promise<CallToolResult>;
export function onViolation(listener: (v: Violation) => void): () => void;
