// webmcp-bridge result renderer, shared by the demo page and the extension panel. It turns a
// normalized CallToolResult into DOM without ever parsing markup into the host page: text is
// set as textContent, sanitized HTML goes into a sandboxed iframe with scripts off, CSV becomes
// a table built cell by cell, links open in a new tab with no opener.
"use strict";
(() => {
  const el = (tag, props = {}, ...children) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(props)) {
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = v;
      else e.setAttribute(k, v);
    }
    e.append(...children);
    return e;
  };

  const forUser = (block) => {
    const a = block.annotations && block.annotations.audience;
    return !a || a.length === 0 || a.includes("user");
  };

  // render draws what agent.callToolDetailed or agent.parseToolOutput gave —
  // {result, violations, tables} — into container. The violations' notices are highlighted;
  // tables holds the rows of each text/csv resource by block index, read by the module, so
  // nothing is parsed here.
  function render({ result, violations = [], tables = {} }, container) {
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
          const fig = el("figure", { class: "wmb-image" }, el("img", { src: `data:${block.mimeType};base64,${block.data}`, alt: (block._meta && block._meta.alt) || "" }));
          if (block._meta && block._meta.alt) fig.append(el("figcaption", { text: block._meta.alt }));
          box.append(fig);
          break;
        }
        case "audio":
          box.append(el("audio", { controls: "", src: `data:${block.mimeType};base64,${block.data}` }));
          break;
        case "resource_link": {
          let href = block.uri;
          if (!/^(https?:|mailto:)/i.test(href)) href = "about:blank";
          // The host as the browser reads it (IDN as punycode) stands beside the name the page
          // chose, so a name cannot pass for another site.
          let host = "";
          try { const u = new URL(block.uri); host = u.host || u.protocol; } catch (e) { host = "invalid URL"; }
          box.append(el("div", { class: "wmb-link" }, el("a", { href, target: "_blank", rel: "noopener noreferrer nofollow", text: block.title || block.name }),
            el("span", { class: "wmb-host", text: ` (${host})` })));
          break;
        }
        case "resource": {
          const r = block.resource;
          if (r.mimeType === "text/html" && typeof r.text === "string") {
            const frame = el("iframe", { class: "wmb-html", sandbox: "", referrerpolicy: "no-referrer", title: "tool HTML" });
            frame.srcdoc = `<!doctype html><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src https: data:; style-src 'unsafe-inline'"><style>body{font:14px/1.5 system-ui,sans-serif;margin:.5rem;color:#1d2330}table{border-collapse:collapse}td,th{border:1px solid #ccd;padding:.2rem .5rem}img{max-width:100%}</style>${r.text}`;
            box.append(frame);
          } else if (r.mimeType === "text/csv" && Array.isArray(tables[index])) {
            const table = el("table", { class: "wmb-table" });
            tables[index].forEach((cells, i) => {
              const tr = el("tr");
              for (const c of cells) tr.append(el(i === 0 ? "th" : "td", { text: c }));
              table.append(tr);
            });
            box.append(table);
          } else if (typeof r.text === "string") {
            box.append(el("pre", { class: "wmb-text", text: r.text }));
          } else {
            box.append(el("div", { class: "wmb-text", text: `[${r.mimeType || "binary"} resource ${r.uri}]` }));
          }
          break;
        }
      }
    });
    if (result.structuredContent) {
      box.append(el("details", { class: "wmb-structured" }, el("summary", { text: "structuredContent" }),
        el("pre", { text: JSON.stringify(result.structuredContent, null, 2) })));
    }
    box.append(el("details", { class: "wmb-raw" }, el("summary", { text: "CallToolResult JSON" }),
      el("pre", { text: JSON.stringify(result, (k, v) => (k === "data" && typeof v === "string" && v.length > 120 ? v.slice(0, 120) + "…" : v), 2) })));
    container.append(box);
  }

  // formFor builds inputs for a tool's inputSchema (top-level properties) and returns
  // {form, read()} where read() gives the arguments object.
  function formFor(schema) {
    const form = el("div", { class: "wmb-form" });
    const props = (schema && schema.properties) || {};
    const required = new Set((schema && schema.required) || []);
    const readers = [];
    for (const [name, s] of Object.entries(props)) {
      const id = "wmb-" + name + "-" + Math.random().toString(36).slice(2, 7);
      const label = el("label", { for: id, text: name + (required.has(name) ? " *" : "") });
      let input;
      if (Array.isArray(s.enum)) {
        input = el("select", { id });
        for (const v of s.enum) input.append(el("option", { value: JSON.stringify(v), text: String(v) }));
        readers.push(() => [name, JSON.parse(input.value)]);
      } else if (s.type === "boolean") {
        input = el("input", { id, type: "checkbox" });
        readers.push(() => [name, input.checked]);
      } else if (s.type === "number" || s.type === "integer") {
        input = el("input", { id, type: "number" });
        if (s.default !== undefined) input.value = s.default;
        readers.push(() => (input.value === "" ? null : [name, Number(input.value)]));
      } else if (s.type === "string" || !s.type) {
        input = el("input", { id, type: "text", placeholder: s.description || "" });
        if (s.default !== undefined) input.value = s.default;
        readers.push(() => (input.value === "" && !required.has(name) ? null : [name, input.value]));
      } else {
        input = el("textarea", { id, placeholder: "JSON" });
        readers.push(() => (input.value === "" ? null : [name, JSON.parse(input.value)]));
      }
      form.append(el("div", { class: "wmb-field" }, label, input));
    }
    return { form, read: () => Object.fromEntries(readers.map((r) => r()).filter(Boolean)) };
  }

  // toolList fills container with one card per tool — name, description, a form built from its
  // inputSchema and a Call button — and calls onCall(tool, args, card) when a button is pressed.
  // The demo's in-page agent and the extension panel both use it.
  function toolList(tools, container, onCall) {
    container.replaceChildren();
    for (const tool of tools) {
      const button = el("button", { text: "Call" });
      const { form, read } = formFor(tool.inputSchema);
      const card = el("div", { class: "tool", "data-tool": tool.name },
        el("div", { class: "tool-head" }, el("span", { class: "tool-name", text: tool.name }), button),
        el("p", { class: "tool-desc", text: tool.description }), form);
      if (tool.title) card.querySelector(".tool-name").title = tool.title;
      button.onclick = () => {
        container.querySelectorAll(".tool").forEach((c) => c.classList.toggle("active", c === card));
        let args;
        try { args = read(); } catch (e) { args = null; }
        onCall(tool, args, card);
      };
      container.append(card);
    }
  }

  globalThis.WebMCPBridgeRender = { render, formFor, toolList };
})();
