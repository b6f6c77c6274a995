// The agent side: a tool's output read again, as an agent (the extension, a test, an in-page
// agent) receives it, with what the renderer and the model need, in one crossing.
import { callGo, policy, startModule } from "./host.js";
import { encode, utf8Size } from "./encode.js";
import { errorText, reportViolations } from "./results.js";

// What the agent and the renderer need from one output, computed in one crossing:
// {result, violations, modelInput, tables}. modelInputs remembers the model input of every
// result handed out, so toModelInput(result) does not sanitize the same output again.
export const modelInputs = new WeakMap();
export async function parseOutput(raw, tool) {
  await startModule();
  let json = raw;
  if (typeof raw !== "string") json = encode(raw);
  else {
    const max = policy.maxResultBytes;
    const size = utf8Size(raw, max);
    if (max > 0 && (size < 0 || size > max)) json = { refuse: "maxResultBytes", size };
  }
  const { head, body } = typeof json === "string" ? await callGo("parseToolOutput", json, document.baseURI) : await callGo("refuse", json.refuse, json.size || 0);
  reportViolations(tool, head.violations);
  const result = JSON.parse(body);
  if (!head.modelInput) head.modelInput = (await callGo("toModelInput", body)).head.modelInput;
  modelInputs.set(result, head.modelInput);
  return { result, violations: head.violations, modelInput: head.modelInput, tables: head.tables || {} };
}

// describeTool is how the agent side (and the extension) sees a registered tool.
export function describeTool(t) {
  let inputSchema = t.inputSchema;
  if (typeof inputSchema === "string") {
    try { inputSchema = inputSchema ? JSON.parse(inputSchema) : { type: "object" }; } catch (e) { inputSchema = { type: "object" }; }
  }
  return { name: t.name, title: t.title || "", description: t.description || "",
    inputSchema: inputSchema || { type: "object" }, annotations: Object.assign({}, t.annotations) };
}

// callDetailed runs a tool through executeTool and normalizes its raw output again. A tool that
// fails gives an isError result; an unknown tool, or a call aborted through signal, rejects.
export async function callDetailed(modelContext, name, args = {}, options = {}) {
  const tool = (await modelContext.getTools()).find((t) => t.name === name);
  if (!tool) throw new Error(`webmcp-bridge: no tool named "${name}" on this page`);
  let raw;
  try {
    raw = await modelContext.executeTool(tool, args, { signal: options.signal });
  } catch (e) {
    if (options.signal && options.signal.aborted) throw e;
    raw = await errorText(e);
  }
  return parseOutput(raw, name);
}

