// The agent side: a tool's output read again, as an agent (the extension, a test, an in-page
// agent) receives it, with what the renderer and the model need. A call through agent.callTool
// crosses into the module at most twice: its result comes back from the guarded flow with the
// model input and the tables (flow.ts agentCalls), so it is not parsed again; an output from
// anywhere else (parseToolOutput) is normalized again, trusting nothing, in one crossing.
import { MESSAGE_PREFIX } from "./generated/boundary.ts";
import { POLICY_DEFAULTS } from "./generated/policy.ts";
import { callGo, startModule, state } from "./host.ts";
import { encode } from "./encode.ts";
import { agentCalls, takeAgentHead } from "./flow.ts";
import { errorResult, reread, type NormalizedHead } from "./results.ts";
import { defineProperty, hasOwn, parse } from "./builtins.ts";
import type { AgentTool, CallToolResult, ModelContext, ModelInput, RegisteredTool, ToolOutput } from "./types.ts";

/** modelInputOf is where a result handed out keeps its model input, so toModelInput(result)
 * does not cross again: an own property under a symbol of this module, defined non-writable and
 * non-configurable, which no WeakMap or setter a later script patches ever sees. */
const modelInputOf = Symbol();

/** toolOutput is what the agent side hands out for a result and its head. */
function toolOutput(tool: string, body: string, head: NormalizedHead, modelInput: ModelInput): ToolOutput {
  const result = parse(body) as CallToolResult;
  defineProperty(result, modelInputOf, { value: modelInput });
  return {
    result,
    violations: (head.violations ?? []).map((v) => ({ tool, ...v })),
    modelInput,
    tables: head.tables || {},
  };
}

/** parseOutput normalizes a raw output from anywhere again, trusting nothing. */
export async function parseOutput(raw: unknown, tool: string): Promise<ToolOutput> {
  const { head, body } = await reread(raw, tool);
  const modelInput =
    head.modelInput ?? (await callGo<"toModelInput", { modelInput: ModelInput }>("toModelInput", body)).head.modelInput;
  return toolOutput(tool, body, head, modelInput);
}

/** describeTool is how the agent side (and the extension) sees a registered tool. */
export function describeTool(t: RegisteredTool): AgentTool {
  let inputSchema: unknown = t.inputSchema;
  if (typeof inputSchema === "string") {
    try {
      inputSchema = inputSchema ? parse(inputSchema) : { type: "object" };
    } catch {
      inputSchema = { type: "object" };
    }
  }
  return {
    name: t.name,
    title: t.title || "",
    description: t.description || "",
    inputSchema: (inputSchema || { type: "object" }) as Record<string, unknown>,
    annotations: { ...t.annotations },
  };
}

/** callDetailed runs a tool through executeTool and hands out its result with what the module
 * said of it. A tool that fails gives an isError result; an unknown tool, or a call aborted
 * through signal, rejects. */
export async function callDetailed(
  modelContext: ModelContext,
  name: string,
  args: object = {},
  options: { signal?: AbortSignal } = {},
): Promise<ToolOutput> {
  const tool = (await modelContext.getTools()).find((t) => t.name === name);
  if (!tool) throw new Error(`${MESSAGE_PREFIX}no tool named "${name}" on this page`);
  let raw: string | null;
  agentCalls.set(name, (agentCalls.get(name) ?? 0) + 1);
  try {
    raw = await modelContext.executeTool(tool, args, { signal: options.signal });
  } catch (e) {
    if (options.signal && options.signal.aborted) throw e;
    const { head, body } = await errorResult(e, true);
    return toolOutput(name, body, head, head.modelInput ?? emptyInput);
  } finally {
    const n = (agentCalls.get(name) ?? 1) - 1;
    if (n > 0) agentCalls.set(name, n);
    else agentCalls.delete(name);
  }
  const head = typeof raw === "string" ? takeAgentHead(raw) : undefined;
  if (head && head.modelInput && typeof raw === "string") return toolOutput(name, raw, head, head.modelInput);
  return parseOutput(raw, name);
}

const emptyInput: ModelInput = { text: "", attachments: [], isError: true };

/** toModelInput is the model input of a result: free for results the agent side handed out. */
export async function toModelInput(result: CallToolResult): Promise<ModelInput> {
  const known = hasOwn(result, modelInputOf) ? (result as { [modelInputOf]?: ModelInput })[modelInputOf] : undefined;
  if (known) return structuredClone(known);
  await startModule();
  const json = encode(result);
  if (typeof json !== "string")
    throw new TypeError(
      `the result is too ${json.refuse === "nesting" ? "deep" : "large"} to read ` +
        `(the limit is ${(state.policy ?? POLICY_DEFAULTS).maxResultBytes} bytes)`,
    );
  return (await callGo<"toModelInput", { modelInput: ModelInput }>("toModelInput", json)).head.modelInput;
}
