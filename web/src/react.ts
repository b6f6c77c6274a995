// webmcp-bridge-wasm/react (dist/webmcp-bridge-react.mjs): a React hook that keeps one WebMCP
// tool registered while a component is mounted. It is its own entry point: it does not import
// the bridge (the app imports "webmcp-bridge-wasm" once, or the browser has WebMCP of its own),
// and React is a peer dependency, left external by the build.
//
// The registration is owned by an AbortSignal, as the WebMCP draft has it: the hook registers in
// an effect with a fresh AbortController and aborts it in the effect's cleanup. Aborting removes
// the tool at once, so React's StrictMode (mount, unmount, mount again) and a hot reload register
// the name again without an InvalidStateError. The tool's execute is read through a ref at each
// call, so an agent always runs the execute of the latest render, and a new execute (a new
// closure at every render) never registers the tool again; a change of name, title, description,
// inputSchema, annotations or exposedTo does.

import { useEffect, useLayoutEffect, useRef } from "react";
import { INSTALLED_EVENT } from "./installed.ts";

/** The WebMCP annotations of a tool. */
export interface ToolAnnotations {
  readOnlyHint?: boolean;
  untrustedContentHint?: boolean;
  consequentialHint?: boolean;
}

/** The second argument of execute: the call's signal, aborted when the agent cancels. */
export interface ToolCall {
  signal?: AbortSignal;
}

/** A WebMCP tool, as document.modelContext.registerTool takes it. */
export interface WebMCPTool<Input = Record<string, unknown>> {
  name: string;
  title?: string;
  description: string;
  /** A JSON Schema object (the WebMCP subset); compared by its JSON, so a literal is fine. */
  inputSchema?: object;
  annotations?: ToolAnnotations;
  execute(input: Input, call: ToolCall): unknown;
}

export interface UseWebMCPToolOptions {
  /** The origins whose frames may see the tool (registerTool's exposedTo). */
  exposedTo?: string[];
  /** Called when registration fails (a name taken by another tool, a schema refused);
   *  console.error by default. Without a document.modelContext yet, the hook waits for one. */
  onError?: (error: unknown) => void;
}

interface ModelContextLike {
  registerTool(tool: object, options: { signal: AbortSignal; exposedTo?: string[] }): Promise<unknown>;
}

function modelContext(): ModelContextLike | undefined {
  if (typeof document === "undefined") return undefined;
  const mc = (document as unknown as { modelContext?: ModelContextLike }).modelContext;
  return mc && typeof mc.registerTool === "function" ? mc : undefined;
}

// useLayoutEffect keeps the ref current before any effect or event of the same commit; on a
// server (no document) it would warn and is not needed.
const useLatestEffect = typeof document === "undefined" ? useEffect : useLayoutEffect;

/**
 * Keeps `tool` registered with document.modelContext while the component is mounted, and
 * unregisters it (by aborting its signal) on unmount. Agents always run the latest `execute`.
 */
export function useWebMCPTool<Input = Record<string, unknown>>(
  tool: WebMCPTool<Input>,
  options: UseWebMCPToolOptions = {},
): void {
  const latest = useRef({ tool, options });
  useLatestEffect(() => {
    latest.current = { tool, options };
  });
  const { name, title, description } = tool;
  const schema = tool.inputSchema === undefined ? undefined : JSON.stringify(tool.inputSchema);
  const annotations = tool.annotations === undefined ? undefined : JSON.stringify(tool.annotations);
  const exposedTo = options.exposedTo === undefined ? undefined : JSON.stringify(options.exposedTo);

  useEffect(() => {
    const fail = (error: unknown): void => {
      const onError = latest.current.options.onError;
      if (onError) onError(error);
      else console.error(`webmcp-bridge-wasm/react: the tool "${name}" is not registered:`, error);
    };
    const definition: Record<string, unknown> = {
      name,
      description,
      execute: (input: Input, call: ToolCall) => latest.current.tool.execute(input, call),
    };
    if (title !== undefined) definition.title = title;
    if (schema !== undefined) definition.inputSchema = JSON.parse(schema) as object;
    if (annotations !== undefined) definition.annotations = JSON.parse(annotations) as ToolAnnotations;
    const controller = new AbortController();
    const registration: { signal: AbortSignal; exposedTo?: string[] } = { signal: controller.signal };
    if (exposedTo !== undefined) registration.exposedTo = JSON.parse(exposedTo) as string[];
    const register = (mc: ModelContextLike): void => {
      try {
        mc.registerTool(definition, registration).catch((e: unknown) => {
          if (!controller.signal.aborted) fail(e);
        });
      } catch (e) {
        fail(e);
      }
    };
    const mc = modelContext();
    if (mc) register(mc);
    else {
      // No WebMCP yet: register once a bridge is installed (the listener goes with the signal).
      const installed = (): void => {
        const now = modelContext();
        if (!now || controller.signal.aborted) return;
        window.removeEventListener(INSTALLED_EVENT, installed);
        register(now);
      };
      window.addEventListener(INSTALLED_EVENT, installed, { signal: controller.signal });
    }
    return () => controller.abort();
  }, [name, title, description, schema, annotations, exposedTo]);
}
