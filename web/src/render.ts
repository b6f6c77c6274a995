// webmcp-bridge-wasm/render: the result renderer, shared by the demo page, the extension panel
// and webmcp-mcp's viewer, and published for extension authors (dist/render.mjs; the classic
// script dist/render.js defines it as globalThis.WebMCPBridgeRender, entry-render.ts). It turns
// a normalized CallToolResult into DOM without ever parsing markup into the host page: text is
// set as textContent, sanitized HTML goes into a sandboxed iframe with scripts off, CSV becomes
// a table built cell by cell, links open in a new tab with no opener. Its classes are styled by
// render.css (webmcp-bridge-wasm/render.css).
import { POLICY_DEFAULTS } from "./generated/policy.ts";
import type { ContentBlock, ToolOutput } from "./types.ts";

/** FRAME_HEAD starts the document of a sanitized-HTML frame: a CSP that runs nothing and loads
 * only https and data: images, and the frame's style. */
const FRAME_HEAD =
  '<!doctype html><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" ' +
  "content=\"default-src 'none'; img-src https: data:; style-src 'unsafe-inline'\">" +
  "<style>body{font:14px/1.5 system-ui,sans-serif;margin:.5rem;color:#1d2330}" +
  "table{border-collapse:collapse}td,th{border:1px solid #ccd;padding:.2rem .5rem}img{max-width:100%}</style>";

type Props = Record<string, string>;
/** A tool as the renderer lists it: what agent.listTools (or a page link's listTools) gives. */
export interface ListedTool {
  name: string;
  title?: string;
  description: string;
  inputSchema?: Record<string, unknown>;
}
type FieldSchema = { enum?: unknown[]; type?: string; default?: unknown; description?: string };

// linkable says whether a link goes somewhere when clicked: the default policy's schemes.
const linkable = (href: string): boolean =>
  POLICY_DEFAULTS.linkSchemes.some((s) => href.toLowerCase().startsWith(s + ":"));

// hostOf is the host of a URL as the browser reads it (IDN as punycode).
function hostOf(uri: string): string {
  try {
    const u = new URL(uri);
    return u.host || u.protocol;
  } catch {
    return "invalid URL";
  }
}

/** fitHTMLFrames sizes each sanitized-HTML frame render put in box to the height of its document;
 * call it once box is laid out (and again when its width changes). */
// The frame stays sandbox="" (no script, an opaque origin), so nothing in it can say how high it
// is: a hidden twin with the same srcdoc, sandboxed with allow-same-origin but still without
// allow-scripts (and under the srcdoc's own CSP, default-src 'none'), is laid out at the frame's
// width, read once it has loaded, images included, and removed. The frame then gets that height:
// no blank space, no scrolling inside.
export function fitHTMLFrames(box: Element): void {
  for (const frame of box.querySelectorAll<HTMLIFrameElement>("iframe.wmb-html")) {
    const twin = document.createElement("iframe");
    twin.setAttribute("sandbox", "allow-same-origin");
    twin.setAttribute("aria-hidden", "true");
    twin.tabIndex = -1;
    twin.style.cssText =
      "position:absolute;left:-99999px;top:0;visibility:hidden;border:0;height:0;" + `width:${frame.clientWidth}px`;
    twin.onload = () => {
      const height = twin.contentDocument ? twin.contentDocument.documentElement.scrollHeight : 0;
      twin.remove();
      if (!height || !frame.isConnected) return;
      Object.assign(frame.style, { boxSizing: "content-box", minHeight: "0", height: `${height}px` });
      frame.dataset.fitted = "true";
    };
    twin.srcdoc = frame.srcdoc;
    document.body.append(twin);
  }
}

// shown is a schema's default as an input shows it.
const shown = (v: unknown): string => (typeof v === "object" && v !== null ? JSON.stringify(v) : String(v));

const el = <K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else e.setAttribute(k, v);
  }
  e.append(...children);
  return e;
};

const forUser = (block: ContentBlock): boolean => {
  const a = block.annotations && block.annotations.audience;
  return !a || a.length === 0 || a.includes("user");
};

/** render draws what agent.callToolDetailed or agent.parseToolOutput gave — {result, violations,
 * tables} — into container, replacing what it held. The violations' notices are highlighted;
 * tables holds the rows of each text/csv resource by block index, read by the module, so nothing
 * is parsed here. Blocks for the assistant only (audience) are not shown. */
export function render(
  { result, violations = [], tables = {} }: Pick<ToolOutput, "result"> & Partial<ToolOutput>,
  container: Element,
): void {
  container.replaceChildren();
  const box = el("div", { class: "wmb-result" + (result.isError ? " wmb-error" : "") });
  if (result.isError) box.append(el("div", { class: "wmb-badge", text: "Error" }));
  const noticeSet = new Set(violations.map((v) => v.notice));
  (result.content || []).forEach((block, index) => {
    if (!forUser(block)) return;
    switch (block.type) {
      case "text": {
        // Only the notices of this parse are styled as notices: page text can look like one.
        const isNotice = noticeSet.has(block.text);
        box.append(el("div", { class: isNotice ? "wmb-notice" : "wmb-text", text: block.text }));
        break;
      }
      case "image": {
        const alt = block._meta && typeof block._meta.alt === "string" ? block._meta.alt : "";
        const fig = el(
          "figure",
          { class: "wmb-image" },
          el("img", { src: `data:${block.mimeType};base64,${block.data}`, alt }),
        );
        if (alt) fig.append(el("figcaption", { text: alt }));
        box.append(fig);
        break;
      }
      case "audio":
        box.append(el("audio", { controls: "", src: `data:${block.mimeType};base64,${block.data}` }));
        break;
      case "resource_link": {
        let href = block.uri;
        if (!linkable(href)) href = "about:blank";
        // The host as the browser reads it (IDN as punycode) stands beside the name the page
        // chose, so a name cannot pass for another site.
        const host = hostOf(block.uri);
        box.append(
          el(
            "div",
            { class: "wmb-link" },
            el("a", { href, target: "_blank", rel: "noopener noreferrer nofollow", text: block.title || block.name }),
            el("span", { class: "wmb-host", text: ` (${host})` }),
          ),
        );
        break;
      }
      case "resource": {
        const r = block.resource;
        if (r.mimeType === "text/html" && "text" in r && typeof r.text === "string") {
          const frame = el("iframe", {
            class: "wmb-html",
            sandbox: "",
            referrerpolicy: "no-referrer",
            title: "tool HTML",
          });
          frame.srcdoc = FRAME_HEAD + r.text;
          box.append(frame);
        } else if (r.mimeType === "text/csv" && Array.isArray(tables[index])) {
          const table = el("table", { class: "wmb-table" });
          tables[index].forEach((cells, i) => {
            const tr = el("tr");
            for (const c of cells) tr.append(el(i === 0 ? "th" : "td", { text: c }));
            table.append(tr);
          });
          box.append(table);
        } else if ("text" in r && typeof r.text === "string") {
          box.append(el("pre", { class: "wmb-text", text: r.text }));
        } else {
          box.append(el("div", { class: "wmb-text", text: `[${r.mimeType || "binary"} resource ${r.uri}]` }));
        }
        break;
      }
    }
  });
  if (result.structuredContent) {
    box.append(
      el(
        "details",
        { class: "wmb-structured" },
        el("summary", { text: "structuredContent" }),
        el("pre", { text: JSON.stringify(result.structuredContent, null, 2) }),
      ),
    );
  }
  box.append(
    el(
      "details",
      { class: "wmb-raw" },
      el("summary", { text: "CallToolResult JSON" }),
      el("pre", {
        text: JSON.stringify(
          result,
          (k, v: unknown) => (k === "data" && typeof v === "string" && v.length > 120 ? v.slice(0, 120) + "…" : v),
          2,
        ),
      }),
    ),
  );
  container.append(box);
}

/** formFor builds inputs for a tool's inputSchema (its top-level properties) and returns {form,
 * read}: read() gives the arguments object (it throws for a JSON field that does not parse). */
export function formFor(schema: Record<string, unknown> | undefined): {
  form: HTMLElement;
  read: () => Record<string, unknown>;
} {
  const form = el("div", { class: "wmb-form" });
  const props = ((schema && schema.properties) || {}) as Record<string, FieldSchema>;
  const required = new Set(((schema && schema.required) || []) as string[]);
  const readers: (() => [string, unknown] | null)[] = [];
  for (const [name, s] of Object.entries(props)) {
    const id = "wmb-" + name + "-" + Math.random().toString(36).slice(2, 7);
    const label = el("label", { for: id, text: name + (required.has(name) ? " *" : "") });
    let input: HTMLElement;
    if (Array.isArray(s.enum)) {
      const select = (input = el("select", { id }));
      for (const v of s.enum) select.append(el("option", { value: JSON.stringify(v), text: String(v) }));
      readers.push(() => [name, JSON.parse(select.value)]);
    } else if (s.type === "boolean") {
      const box = (input = el("input", { id, type: "checkbox" }));
      readers.push(() => [name, box.checked]);
    } else if (s.type === "number" || s.type === "integer") {
      const num = (input = el("input", { id, type: "number" }));
      if (s.default !== undefined) num.value = shown(s.default);
      readers.push(() => (num.value === "" ? null : [name, Number(num.value)]));
    } else if (s.type === "string" || !s.type) {
      const text = (input = el("input", { id, type: "text", placeholder: s.description || "" }));
      if (s.default !== undefined) text.value = shown(s.default);
      readers.push(() => (text.value === "" ? null : [name, text.value])); // left empty: missing, required or not
    } else {
      const area = (input = el("textarea", { id, placeholder: "JSON" }));
      readers.push(() => (area.value === "" ? null : [name, JSON.parse(area.value)]));
    }
    form.append(el("div", { class: "wmb-field" }, label, input));
  }
  return { form, read: () => Object.fromEntries(readers.map((r) => r()).filter((e) => e !== null)) };
}

/** toolList fills container with one card per tool — name, description, a form built from its
 * inputSchema and a Call button — and calls onCall(tool, args, card) when a button is pressed
 * (args null when a field did not parse). */
export function toolList(
  tools: ListedTool[],
  container: Element,
  onCall: (tool: ListedTool, args: Record<string, unknown> | null, card: HTMLElement) => void,
): void {
  container.replaceChildren();
  for (const tool of tools) {
    const button = el("button", { text: "Call" });
    const { form, read } = formFor(tool.inputSchema);
    const card = el(
      "div",
      { class: "tool", "data-tool": tool.name },
      el("div", { class: "tool-head" }, el("span", { class: "tool-name", text: tool.name }), button),
      el("p", { class: "tool-desc", text: tool.description }),
      form,
    );
    const nameEl = card.querySelector<HTMLElement>(".tool-name");
    if (tool.title && nameEl) nameEl.title = tool.title;
    button.onclick = () => {
      container.querySelectorAll(".tool").forEach((c) => c.classList.toggle("active", c === card));
      let args: Record<string, unknown> | null;
      try {
        args = read();
      } catch {
        args = null;
      }
      onCall(tool, args, card);
    };
    container.append(card);
  }
}
