// The data the bridge's API takes and gives: MCP's result types, the proposed WebMCP result types,
// violations, the agent side's answers and the WebMCP ModelContext types. The published typings
// are generated from this file and the API (bridge.ts) by tsc.
export type { Policy, PolicySettings } from "./generated/boundary.ts";
export type { Assets, Fallback } from "./host.ts";

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
