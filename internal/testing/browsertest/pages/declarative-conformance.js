// Checks of the declarative API (<form toolname tooldescription>) that the web-platform-tests
// webmcp/declarative suite covers for one document, written for this project; loaded after
// conformance.js, whose kit and runConformance() they use. Every check builds its own forms
// (unique tool names) and removes them; forms that may navigate target the hidden iframe "sink".
"use strict";
{
  const { domainGap, check, wpt, gap, mc, assert, eq, json, rejects, isDOM, tick, defer, uniq, find } = window.conformanceKit;
  const SINK = 'target="sink" action="about:blank"';
  // form adds a form with the given attributes and controls, and returns it (removed after the check).
  const forms = [];
  const form = (attrs, controls = "") => {
    const holder = document.createElement("div");
    holder.innerHTML = `<form ${attrs}>${controls}</form>`;
    document.body.append(holder);
    forms.push(holder);
    return holder.firstElementChild;
  };
  // cleanup removes the check's forms and lets the toolchange that follows pass.
  const cleanup = async () => { forms.splice(0).forEach((h) => h.remove()); await tick(50); };
  // dcheck is check() with the forms removed afterwards, whatever happened.
  const dcheck = (name, fn) => check(name, async () => { try { await fn(); } finally { await cleanup(); } });
  // waitForTool resolves with the named tool once getTools() lists it.
  const waitForTool = async (name) => {
    for (let i = 0; i < 200; i++) {
      const t = await find(name);
      if (t) return t;
      await new Promise((r) => { mc().addEventListener("toolchange", r, { once: true }); setTimeout(r, 25); });
    }
    throw new Error(`no tool named ${name} was registered`);
  };
  const waitForChange = () => new Promise((r) => mc().addEventListener("toolchange", r, { once: true }));
  const within = (p, ms, what) => Promise.race([p, tick(ms).then(() => { throw new Error(what + ": nothing within " + ms + " ms"); })]);
  // active tells :tool-form-active / :tool-submit-active, or the fallback's attribute of the same name.
  const active = (el, which) => { try { return el.matches(":" + which); } catch (e) { return el.hasAttribute(which); } };
  const respond = (f, value) => f.addEventListener("submit", (e) => { e.preventDefault(); e.respondWith(Promise.resolve(typeof value === "function" ? value(e) : value)); });
  const onceFor = (type, name) => new Promise((r) => mc().addEventListener(type, function f(e) { if (e.toolName === name) { mc().removeEventListener(type, f); r(e); } }));

  wpt("declarative/getTools-declarative-schema.https.html");
  dcheck("a form's tool has its name, description and the inputSchema of its controls", async () => {
    const name = uniq("search");
    form(`toolname="${name}" tooldescription="Search the web"`, `<input type="text" name="query" required toolparamdescription="The search query">
      <input type="number" name="limit" toolparamdescription="Max results count"><input type="checkbox" name="safe_search" toolparamdescription="Enable safe search filtering">`);
    const t = await waitForTool(name);
    eq(t.description, "Search the web", "description");
    eq(json(t.inputSchema), json({ type: "object", properties: { query: { type: "string", description: "The search query" },
      limit: { type: "number", multipleOf: 1, description: "Max results count" }, safe_search: { type: "boolean", description: "Enable safe search filtering" } }, required: ["query"] }), "inputSchema");
  });

  wpt("extra/declarative-schema (as native Chromium 156 builds it)");
  dcheck("select options, radio groups, checkbox sets, multiple selects, min/max/step, pattern and dates become JSON Schema", async () => {
    const name = uniq("kinds");
    form(`toolname="${name}" tooldescription="kinds" tooltitle="Kinds"`, `<input name="code" pattern="[a-z]+"><input type="range" name="level"><input type="number" name="price" min="1" max="50" step="0.5">
      <input type="number" name="free" step="any"><select name="size" toolparamdescription="pick"><option value="s">Small</option><option>L</option><optgroup label="g"><option value="x">XL</option></optgroup></select>
      <input type="radio" name="color" value="red"><input type="radio" name="color" value="green" required><input type="checkbox" name="tags" value="a"><input type="checkbox" name="tags" value="b">
      <select name="many" multiple><option value="p">P</option></select><input type="date" name="day" toolparamdescription="when"><textarea name="note"></textarea>
      <input name="off" disabled><input name="ro" readonly><input type="hidden" name="h"><input type="file" name="f"><input name="twice"><input name="twice"><fieldset disabled><input name="fs"></fieldset><button>Go</button>`);
    const t = await waitForTool(name);
    eq(t.title, "Kinds", "title");
    // A date's description says how to write it (the words differ: the fallback's are shorter).
    assert(/YYYY-MM-DD/.test(t.inputSchema.properties.day.description) && t.inputSchema.properties.day.description.startsWith("when"), "the date's description");
    delete t.inputSchema.properties.day.description;
    const choice = (pairs, titled) => ({ anyOf: pairs.map(([v, title]) => (titled ? { type: "string", const: v, title } : { type: "string", const: v })), enum: pairs.map(([v]) => v) });
    eq(json(t.inputSchema), json({ type: "object", properties: {
      code: { type: "string", pattern: "[a-z]+" }, level: { type: "number", minimum: 0, maximum: 100, multipleOf: 1 }, price: { type: "number", minimum: 1, maximum: 50, multipleOf: 0.5 },
      free: { type: "number" }, size: { type: "string", ...choice([["s", "Small"], ["L", "L"], ["x", "XL"]], true), description: "pick" },
      color: { type: "string", ...choice([["red"], ["green"]]) }, tags: { type: "array", items: { type: "string", ...choice([["a"], ["b"]]) }, uniqueItems: true },
      many: { type: "array", items: { type: "string", ...choice([["p", "P"]], true) }, uniqueItems: true },
      day: { type: "string", format: "date" }, note: { type: "string" } }, required: ["color"] }), "inputSchema");
  });

  wpt("declarative/toolchange-on-attribute-mutation.https.html");
  dcheck("changing, adding and removing toolname, tooldescription, tooltitle and toolautosubmit fires toolchange and updates getTools", async () => {
    const name = uniq("attrs"), renamed = uniq("renamed");
    const f = form(`toolname="${name}" tooltitle="My Title" tooldescription="desc"`, `<input name="input_name">`);
    let t = await waitForTool(name);
    eq(t.title, "My Title", "title"); eq(t.description, "desc", "description");
    const step = async (mutate, what) => { const changed = waitForChange(); mutate(); await within(changed, 2000, what); };
    await step(() => f.setAttribute("tooltitle", "New Title"), "tooltitle");
    eq((await find(name)).title, "New Title", "new title");
    await step(() => f.setAttribute("tooldescription", "New Description"), "tooldescription");
    eq((await find(name)).description, "New Description", "new description");
    await step(() => f.setAttribute("toolname", renamed), "toolname");
    assert(!(await find(name)) && await find(renamed), "renamed");
    await step(() => f.removeAttribute("tooltitle"), "no tooltitle");
    eq((await find(renamed)).title, "", "title without tooltitle");
    await step(() => f.removeAttribute("tooldescription"), "no tooldescription");
    assert(!(await find(renamed)), "unregistered without a description");
    await step(() => f.setAttribute("tooldescription", "Restored"), "restored");
    eq((await find(renamed)).description, "Restored", "restored description");
    await step(() => f.setAttribute("toolautosubmit", ""), "toolautosubmit added");
    await step(() => f.removeAttribute("toolautosubmit"), "toolautosubmit removed");
    assert(await find(renamed), "still registered");
    await step(() => f.removeAttribute("toolname"), "no toolname");
    assert(!(await find(renamed)), "unregistered without a name");
  });

  wpt("declarative/toolchange-on-control-add-remove.https.html");
  dcheck("adding and removing a control fires toolchange with the new inputSchema", async () => {
    const name = uniq("controls");
    const f = form(`toolname="${name}" tooldescription="desc"`, `<input name="input_name">`);
    const schemaIs = async (props) => {
      const want = json({ type: "object", properties: props, required: [] });
      for (let i = 0; i < 40; i++) { const t = await find(name); if (t && json(t.inputSchema) === want) return; await Promise.race([waitForChange(), tick(50)]); }
      throw new Error("inputSchema never became " + want + "; it is " + json((await find(name) || {}).inputSchema));
    };
    await schemaIs({ input_name: { type: "string" } });
    const added = Object.assign(document.createElement("input"), { type: "text", name: "new_input" });
    f.append(added);
    await schemaIs({ input_name: { type: "string" }, new_input: { type: "string" } });
    added.remove();
    await schemaIs({ input_name: { type: "string" } });
  });

  wpt("declarative/toolchange-on-name-change.https.html");
  dcheck("renaming, retyping, requiring and describing controls each fire toolchange", async () => {
    const f = form(`toolname="${uniq("mutations")}" tooldescription="desc"`, `<input id="i1" name="input_name"><input id="i2" type="checkbox" name="checkbox_name">
      <select id="s1" name="select_name"><option value="a">A</option><option value="b">B</option></select><textarea id="t1" name="textarea_name"></textarea>`);
    await waitForTool(f.getAttribute("toolname"));
    const el = (id) => f.querySelector("#" + id);
    const mutations = [["i1", (e) => e.setAttribute("name", "new_input_name")], ["i1", (e) => (e.type = "number")], ["i1", (e) => (e.required = true)],
      ["i1", (e) => e.setAttribute("toolparamdescription", "d")], ["i2", (e) => e.setAttribute("name", "new_checkbox_name")], ["i2", (e) => (e.type = "radio")],
      ["i2", (e) => (e.required = true)], ["i2", (e) => e.setAttribute("toolparamdescription", "d")], ["s1", (e) => e.setAttribute("name", "new_select_name")],
      ["s1", (e) => (e.multiple = true)], ["s1", (e) => (e.required = true)], ["s1", (e) => e.setAttribute("toolparamdescription", "d")],
      ["t1", (e) => e.setAttribute("name", "new_textarea_name")], ["t1", (e) => (e.required = true)], ["t1", (e) => e.setAttribute("toolparamdescription", "d")]];
    for (const [i, [id, mutate]] of mutations.entries()) { const changed = waitForChange(); mutate(el(id)); await within(changed, 2000, `mutation ${i} of #${id}`); }
  });

  wpt("declarative/duplicate-tool-name.https.html");
  for (const same of [false, true]) {
    dcheck(`of two forms with one toolname (${same ? "the same" : "different"} descriptions) only the first registers, with one toolchange`, async () => {
      const name = uniq("duplicate");
      const f1 = document.createElement("form"), f2 = document.createElement("form");
      f1.setAttribute("toolname", name); f1.setAttribute("tooldescription", "First");
      f2.setAttribute("toolname", name); f2.setAttribute("tooldescription", same ? "First" : "Second");
      let changes = 0;
      const first = new Promise((r) => { mc().ontoolchange = () => { changes++; r(); }; });
      document.body.append(f1, f2);
      try {
        await within(first, 2000, "toolchange");
        const tools = (await mc().getTools()).filter((x) => x.name === name);
        eq(tools.length, 1, "tools of that name"); eq(tools[0].description, "First", "the first form's");
        await tick(50);
        eq(changes, 1, "toolchange events");
        const gone = new Promise((r) => { mc().ontoolchange = r; });
        f1.remove(); f2.remove();
        await within(gone, 2000, "toolchange on removal");
        assert(!(await find(name)), "no tool left");
      } finally { mc().ontoolchange = null; f1.remove(); f2.remove(); }
    });
  }

  wpt("declarative/no-frame-documents.https.html");
  const frameless = [["a createHTMLDocument document", (html) => { const d = document.implementation.createHTMLDocument(); d.body.innerHTML = html; return d; }],
    ["a DOMParser document", (html) => new DOMParser().parseFromString(html, "text/html")]];
  for (const [what, make] of frameless) {
    dcheck(`forms in ${what} are not registered`, async () => {
      const name = uniq("frameless");
      window.keep = make(`<form toolname="${name}" tooldescription="d"></form><form toolname="${name}x"></form>`);
      await tick(20);
      assert(!(await find(name)) && !(await find(name + "x")), "not registered");
    });
  }
  for (const op of ["adoptNode", "cloneNode", "importNode"]) {
    dcheck(`${op} brings a frameless form into the document as a working tool`, async () => {
      const name = uniq(op), d = document.implementation.createHTMLDocument();
      d.body.innerHTML = `<form toolname="${name}" tooldescription="Transferred" toolautosubmit><input name="query" required></form>`;
      const source = d.querySelector("form");
      await tick(10);
      assert(!(await find(name)), "not registered before");
      const f = op === "cloneNode" ? source.cloneNode(true) : document[op](source, true);
      const holder = document.createElement("div");
      holder.append(f);
      forms.push(holder);
      respond(f, () => f.querySelector("input").value);
      document.body.append(holder);
      eq(await mc().executeTool(await waitForTool(name), { query: "ok" }), "ok", "result");
    });
  }

  wpt("declarative/executeTool-respondWith.https.html");
  dcheck("with preventDefault, executeTool resolves with the respondWith value; the form has the arguments and agentInvoked is true", async () => {
    const name = uniq("spa"), f = form(`toolautosubmit toolname="${name}" tooldescription="SPA" ${SINK}`, `<input name="query"><button>Submit</button>`);
    let seen = null;
    f.addEventListener("submit", (e) => { seen = { agent: e.agentInvoked, value: f.query.value }; e.preventDefault(); e.respondWith(Promise.resolve("result value")); });
    eq(await mc().executeTool(await waitForTool(name), { query: "testing" }), "result value", "result");
    eq(json(seen), json({ agent: true, value: "testing" }), "at submit");
  });
  dcheck("preventDefault without respondWith rejects with UnknownError", async () => {
    const name = uniq("norespond"), f = form(`toolautosubmit toolname="${name}" tooldescription="d" ${SINK}`, `<input name="query"><button>Submit</button>`);
    f.addEventListener("submit", (e) => e.preventDefault());
    await rejects(mc().executeTool(await waitForTool(name), { query: "testing" }), isDOM("UnknownError"), "no respondWith");
  });
  dcheck("respondWith without preventDefault throws InvalidStateError, and the form navigates: the result is null", async () => {
    const name = uniq("nopd"), f = form(`toolautosubmit toolname="${name}" tooldescription="d" target="sink" action="blank.html"`, `<input name="query"><button>Submit</button>`);
    let thrown = null;
    f.addEventListener("submit", (e) => { try { e.respondWith(Promise.resolve("result")); } catch (x) { thrown = x; } });
    const loaded = new Promise((r) => document.querySelector("iframe[name=sink]").addEventListener("load", r, { once: true }));
    eq(await mc().executeTool(await waitForTool(name), { query: "testing" }), null, "result");
    isDOM("InvalidStateError")(thrown);
    await within(loaded, 3000, "navigation");
  });
  dcheck("a submission not started by an agent has agentInvoked false, and respondWith throws InvalidStateError", () => {
    const f = form(SINK, `<input name="query">`);
    let agent, thrown = null;
    f.addEventListener("submit", (e) => { agent = e.agentInvoked; try { e.respondWith(Promise.resolve("x")); } catch (x) { thrown = x; } e.preventDefault(); });
    f.requestSubmit();
    eq(agent, false, "agentInvoked");
    isDOM("InvalidStateError")(thrown);
  });
  dcheck("respondWith after the submit event's dispatch throws InvalidStateError", async () => {
    const name = uniq("late"), f = form(`toolautosubmit toolname="${name}" tooldescription="d" ${SINK}`, `<input name="query">`);
    let saved;
    f.addEventListener("submit", (e) => { saved = e; e.preventDefault(); e.respondWith(Promise.resolve("result")); });
    eq(await mc().executeTool(await waitForTool(name), { query: "testing" }), "result", "result");
    let thrown = null;
    try { saved.respondWith(Promise.resolve("late")); } catch (x) { thrown = x; }
    isDOM("InvalidStateError")(thrown);
  });
  dcheck("the respondWith value wins even when the handler starts a navigation", async () => {
    const name = uniq("navigate"), f = form(`toolautosubmit toolname="${name}" tooldescription="d" ${SINK}`, `<input name="query"><button>Submit</button>`);
    const sink = document.querySelector("iframe[name=sink]");
    f.addEventListener("submit", (e) => { e.preventDefault(); e.respondWith(Promise.resolve("result value")); sink.src = "blank.html?" + name; });
    eq(await mc().executeTool(await waitForTool(name), { query: "testing" }), "result value", "result");
  });
  dcheck("respondWith of a non-string value gives its JSON, of a string the string", async () => {
    const name = uniq("values"), f = form(`toolautosubmit toolname="${name}" tooldescription="d" ${SINK}`);
    let value;
    respond(f, () => value);
    const t = await waitForTool(name), got = [];
    for (value of ["text", { a: 1 }, 42, null]) got.push(await mc().executeTool(t, {}));
    eq(json(got), json(["text", '{"a":1}', "42", "null"]), "results");
  });

  wpt("declarative/executeTool-respondWith-reject.https.html");
  dcheck("a rejected respondWith promise rejects executeTool with UnknownError", async () => {
    const name = uniq("reject"), f = form(`toolautosubmit toolname="${name}" tooldescription="d" ${SINK}`, `<input name="query"><button>Submit</button>`);
    let fired = false;
    f.addEventListener("submit", (e) => { fired = true; e.preventDefault(); e.respondWith(Promise.reject("rejection")); });
    await rejects(mc().executeTool(await waitForTool(name), { query: "testing" }), isDOM("UnknownError"), "rejected response");
    assert(fired, "submit fired");
  });

  wpt("declarative/executeTool-respondWith-circular-object.https.html");
  dcheck("a cyclic respondWith value rejects executeTool with UnknownError", async () => {
    const name = uniq("circular"), f = form(`toolname="${name}" tooldescription="d" toolautosubmit ${SINK}`);
    respond(f, () => { const a = {}; a.a = a; return a; });
    await rejects(mc().executeTool(await waitForTool(name), {}), isDOM("UnknownError"), "cyclic");
  });

  wpt("declarative/executeTool-flexible-types.https.html");
  dcheck("numbers for text, strings for numbers, 1 and \"false\" for checkboxes and numbers for options are taken", async () => {
    const name = uniq("flexible"), f = form(`toolautosubmit toolname="${name}" tooldescription="d" ${SINK}`,
      `<input name="text"><input name="number" type="number"><input name="check1" type="checkbox"><select name="select"><option value="1">One</option><option value="2">Two</option><option value="3">Three</option></select>`);
    let seen;
    respond(f, () => { seen = [f.text.value, f.number.value, f.check1.checked, f.select.value]; return "done"; });
    const t = await waitForTool(name);
    await mc().executeTool(t, { text: 123, number: "456", check1: 1, select: 2 });
    eq(json(seen), json(["123", "456", true, "2"]), "first call");
    await mc().executeTool(t, { check1: "false", select: "3" });
    eq(json(seen.slice(2)), json([false, "3"]), "second call");
  });

  wpt("declarative/executeTool-invalid-input.https.html");
  const invalid = [["an unknown parameter", `<input name="query">`, { nonexistent: "value" }], ["a select value not offered", `<select name="choice"><option value="a">A</option></select>`, { choice: "c" }],
    ["a pattern mismatch", `<input name="query" pattern="[a-z]+"><button>Submit</button>`, { query: "123" }],
    ["required and min violations", `<input name="text_required" required><input type="number" name="number_min" min="10"><button>Submit</button>`, { text_required: "", number_min: 5 }]];
  for (const [what, controls, args] of invalid) {
    dcheck(`${what} rejects with UnknownError`, async () => {
      const name = uniq("invalid"), f = form(`toolautosubmit toolname="${name}" tooldescription="d" ${SINK}`, controls);
      respond(f, "must not be submitted");
      await rejects(mc().executeTool(await waitForTool(name), args), isDOM("UnknownError"), what);
    });
  }

  wpt("declarative/executeTool-navigation.https.html");
  dcheck("a form that navigates resolves executeTool with null, with its controls filled", async () => {
    const name = uniq("nav"), f = form(`toolautosubmit toolname="${name}" tooldescription="d" target="sink" action="blank.html"`, `<input name="query">`);
    const loaded = new Promise((r) => document.querySelector("iframe[name=sink]").addEventListener("load", r, { once: true }));
    eq(await mc().executeTool(await waitForTool(name), { query: "testing" }), null, "result");
    eq(f.query.value, "testing", "input");
    await within(loaded, 3000, "navigation");
  });

  wpt("declarative/executeTool-no-autosubmit.https.html");
  const waitFocus = async (button) => { for (let i = 0; i < 200 && document.activeElement !== button; i++) await tick(10); eq(document.activeElement, button, "focused submit button"); };
  dcheck("without toolautosubmit the submit button is focused and the call waits for the person's submission", async () => {
    const name = uniq("manual"), f = form(`toolname="${name}" tooldescription="d" ${SINK}`, `<input name="query"><button>Submit</button>`), button = f.querySelector("button");
    let fired = false;
    f.addEventListener("submit", (e) => { fired = e.agentInvoked; e.preventDefault(); e.respondWith(Promise.resolve("result value")); });
    const p = mc().executeTool(await waitForTool(name), { query: "testing" });
    await waitFocus(button);
    assert(active(f, "tool-form-active"), "form active while waiting");
    eq(fired, false, "submitted before the click");
    button.click();
    eq(await p, "result value", "result");
    eq(fired, true, "agentInvoked at the person's submission");
    assert(!active(f, "tool-form-active"), "form inactive after");
  });
  dcheck("form.reset() cancels a waiting call with UnknownError", async () => {
    const name = uniq("reset"), f = form(`toolname="${name}" tooldescription="d" ${SINK}`, `<input name="query"><button>Submit</button>`);
    const p = mc().executeTool(await waitForTool(name), { query: "testing" });
    await waitFocus(f.querySelector("button"));
    f.reset();
    await rejects(p, isDOM("UnknownError"), "reset");
    assert(!active(f, "tool-form-active"), "form inactive after reset");
  });
  dcheck("a script's submission and removal of the form cancels a waiting call with UnknownError", async () => {
    const name = uniq("unrelated"), f = form(`toolname="${name}" tooldescription="d" ${SINK}`, `<input name="query"><button>Submit</button>`);
    const p = mc().executeTool(await waitForTool(name), { query: "testing" });
    await waitFocus(f.querySelector("button"));
    respond(f, "dummy");
    f.requestSubmit();
    f.remove();
    await rejects(p, isDOM("UnknownError"), "removed");
  });
  dcheck("a form without toolautosubmit and without a submit button rejects with UnknownError", async () => {
    const name = uniq("nobutton");
    form(`toolname="${name}" tooldescription="d" ${SINK}`, `<input name="query">`);
    await rejects(mc().executeTool(await waitForTool(name), { query: "x" }), isDOM("UnknownError"), "no button");
  });

  wpt("declarative/executeTool-pseudo-classes.https.html");
  const pseudoForm = () => {
    const name = uniq("pseudo"), f = form(`toolautosubmit toolname="${name}" tooldescription="d" ${SINK}`, `<input name="query"><button>Submit</button>`);
    return { name, f, button: f.querySelector("button"), input: f.querySelector("input") };
  };
  dcheck("during the submission the form is tool-form-active and its button tool-submit-active, and neither after", async () => {
    const { name, f, button, input } = pseudoForm();
    let during;
    respond(f, () => { during = [active(f, "tool-form-active"), active(f, "tool-submit-active"), active(button, "tool-submit-active"), active(input, "tool-form-active"), active(input, "tool-submit-active")]; return "result"; });
    await mc().executeTool(await waitForTool(name), { query: "testing" });
    eq(json(during), json([true, false, true, false, false]), "form, form as submit, button, input as form, input as submit");
    assert(!active(f, "tool-form-active") && !active(button, "tool-submit-active"), "inactive after");
  });
  gap("a script cannot add CSS pseudo-classes: the fallback marks the form and its button with the attributes tool-form-active and tool-submit-active", () => {
    dcheck("the :tool-form-active and :tool-submit-active pseudo-classes style the form and its button", async () => {
      const { name, f, button } = pseudoForm();
      const style = document.createElement("style");
      style.textContent = "form:tool-form-active { background-color: rgb(0, 255, 0); } button:tool-submit-active { color: rgb(255, 0, 0); }";
      document.head.append(style);
      let styled;
      respond(f, () => { styled = [getComputedStyle(f).backgroundColor, getComputedStyle(button).color]; return "result"; });
      try { await mc().executeTool(await waitForTool(name), { query: "testing" }); } finally { style.remove(); }
      eq(json(styled), json(["rgb(0, 255, 0)", "rgb(255, 0, 0)"]), "styles");
    });
  });
  dcheck("the form is filled when toolactivated fires (at the ModelContext)", async () => {
    const name = uniq("populate"), f = form(`toolautosubmit toolname="${name}" tooldescription="d" ${SINK}`, `<input name="query" value="initial">`);
    respond(f, "done");
    const activated = onceFor("toolactivated", name).then((e) => [e instanceof ToolActivatedEvent, e.target === mc(), f.query.value]);
    await mc().executeTool(await waitForTool(name), { query: "testing" });
    eq(json(await activated), json([true, true, "testing"]), "event, target, value");
  });

  wpt("declarative/executeTool-abort.https.html");
  dcheck("aborting a waiting call rejects with AbortError, fires toolcancel, and the form is no longer active", async () => {
    const n1 = uniq("submit_test"), f1 = form(`toolname="${n1}" tooldescription="d1"`, `<button>Submit</button>`), f2 = form(`toolname="${uniq("other")}" tooldescription="d2"`, `<button>Submit</button>`);
    const [b1, b2] = [f1, f2].map((f) => f.querySelector("button"));
    const states = () => [active(f1, "tool-form-active"), active(f2, "tool-form-active"), active(b1, "tool-submit-active"), active(b2, "tool-submit-active")];
    eq(json(states()), json([false, false, false, false]), "before");
    const events = [];
    const activated = onceFor("toolactivated", n1).then((e) => { events.push("toolactivated"); return [e instanceof ToolActivatedEvent, json(states())]; });
    const ctl = new AbortController();
    const p = mc().executeTool(await waitForTool(n1), {}, { signal: ctl.signal });
    eq(json(await activated), json([true, json([true, false, true, false])]), "at toolactivated");
    const cancelled = onceFor("toolcancel", n1).then((e) => { events.push("toolcancel"); return [e instanceof ToolCancelEvent, json(states())]; });
    ctl.abort();
    let reason;
    await p.catch((e) => { reason = e; events.push("execution_rejected"); });
    eq(json(await cancelled), json([true, json([false, false, false, false])]), "at toolcancel");
    eq(json(events), json(["toolactivated", "execution_rejected", "toolcancel"]), "order");
    isDOM("AbortError")(reason);
  });

  wpt("declarative/execute_tool_change_event.https.html");
  dcheck("filling the form fires input and change at every control it sets", async () => {
    const name = uniq("fill"), f = form(`toolname="${name}" tooldescription="d" toolautosubmit ${SINK}`, `<input id="text" name="text"><input id="number" name="number" type="number">
      <input id="checkbox" name="checkbox" type="checkbox" value="check1"><input id="radio1" name="radio" type="radio" value="radio1"><input id="radio2" name="radio" type="radio" value="radio2">
      <textarea id="textarea" name="textarea"></textarea><select id="select" name="select"><option value="opt1">Opt 1</option><option value="opt2">Opt 2</option></select>`);
    respond(f, "ok");
    const seen = {};
    for (const el of f.querySelectorAll("input, textarea, select")) for (const type of ["input", "change"]) el.addEventListener(type, () => (seen[el.id + " " + type] = true));
    await mc().executeTool(await waitForTool(name), { text: "regular text", number: 42, checkbox: true, radio: "radio2", textarea: "some text", select: "opt2" });
    eq(json([f.text.value, f.number.value, f.checkbox.checked, f.querySelector("#radio1").checked, f.querySelector("#radio2").checked, f.textarea.value, f.select.value]),
      json(["regular text", "42", true, false, true, "some text", "opt2"]), "values");
    for (const id of ["text", "number", "checkbox", "radio2", "textarea", "select"]) for (const type of ["input", "change"]) assert(seen[id + " " + type], `${type} at #${id}`);
  });

  wpt("declarative/execute_tool_submit_from_js.https.html");
  dcheck("a submit handler that calls form.submit() in place of respondWith resolves executeTool", async () => {
    const name = uniq("fromjs"), f = form(`toolname="${name}" tooldescription="d" toolautosubmit target="sink" action="blank.html"`);
    let fired = false;
    f.addEventListener("submit", (e) => { fired = true; e.preventDefault(); f.submit(); });
    await mc().executeTool(await waitForTool(name));
    assert(fired, "submit fired");
  });

  wpt("declarative/form_removal_submit_crash.https.html");
  dcheck("a form removed by its own submit handler after respondWith still resolves the call", async () => {
    const name = uniq("crash"), f = form(`toolname="${name}" tooldescription="d" toolautosubmit ${SINK}`, `<input name="dummy">`);
    let fired = false;
    f.addEventListener("submit", (e) => { fired = true; e.preventDefault(); e.respondWith(Promise.resolve()); f.remove(); });
    await mc().executeTool(await waitForTool(name), {});
    assert(fired, "submit fired");
  });

  wpt("declarative/select-multiple-events.https.html");
  dcheck("a multiple select gets the options named, with one input and one change; the same arguments again fire none", async () => {
    const name = uniq("fruits"), f = form(`toolname="${name}" tooldescription="d" toolautosubmit ${SINK}`,
      `<select name="fruits" multiple><option value="apple">Apple</option><option value="orange">Orange</option><option value="banana">Banana</option></select><input type="submit">`);
    respond(f, "ok");
    let inputs = 0, changes = 0;
    f.fruits.addEventListener("input", () => inputs++);
    f.fruits.addEventListener("change", () => changes++);
    const t = await waitForTool(name);
    await mc().executeTool(t, { fruits: ["apple", "banana"] });
    eq(json([...f.fruits.options].map((o) => o.selected)), json([true, false, true]), "selected");
    eq(json([inputs, changes]), json([1, 1]), "events");
    await mc().executeTool(t, { fruits: ["apple", "banana"] });
    eq(json([inputs, changes]), json([1, 1]), "events after the same call");
  });

  wpt("declarative/unregister-during-executeTool.https.html");
  for (const how of ["removing the form", "removing tooldescription"]) {
    dcheck(`a submitted call whose tool goes (${how}) still resolves with its response`, async () => {
      const name = uniq("endless"), f = form(`toolname="${name}" tooldescription="d" toolautosubmit ${SINK}`);
      const submitted = defer();
      let finish;
      f.addEventListener("submit", (e) => { e.preventDefault(); e.respondWith(new Promise((r) => (finish = r))); submitted.resolve(); });
      const p = mc().executeTool(await waitForTool(name));
      await submitted.promise;
      const changed = waitForChange();
      how === "removing the form" ? f.remove() : f.removeAttribute("tooldescription");
      await within(changed, 2000, "toolchange");
      assert(!(await find(name)), "unregistered");
      finish("form_result");
      eq(await p, "form_result", "result");
    });
    dcheck(`a call waiting for its submission is cancelled when its tool goes (${how}): UnknownError and toolcancel`, async () => {
      const name = uniq("paused"), f = form(`toolname="${name}" tooldescription="d"`, `<button>Submit</button>`);
      const activated = onceFor("toolactivated", name);
      let cancelled = false;
      onceFor("toolcancel", name).then(() => (cancelled = true));
      const p = mc().executeTool(await waitForTool(name));
      await activated;
      assert(active(f, "tool-form-active"), "active while waiting");
      how === "removing the form" ? f.remove() : f.removeAttribute("tooldescription");
      await rejects(p, isDOM("UnknownError"), "cancelled");
      assert(!active(f, "tool-form-active"), "inactive after");
      await tick();
      assert(cancelled, "toolcancel fired");
    });
  }

  // The checks of documents with an opaque origin (a CSP sandbox without allow-same-origin).
  wpt("declarative/opaque-origin-tools.https.html", "opaque");
  check("an opaque-origin document registers its forms, but running them rejects with NotSupportedError (the newest tests), before the next microtask", async () => {
    eq(self.origin, "null", "origin");
    const name = uniq("opaque");
    form(`toolname="${name}" tooldescription="Opaque"`, `<input name="param1">`);
    try {
      const t = await waitForTool(name);
      const events = [];
      const p = mc().executeTool(t, { param1: "value" });
      p.catch(() => events.push("rejection"));
      queueMicrotask(() => events.push("microtask"));
      await rejects(p, isDOM("NotSupportedError"), "opaque");
      eq(json(events), json(["rejection", "microtask"]), "order");
    } finally { await cleanup(); }
  });

  // The checks of documents with document.domain enabled (Origin-Agent-Cluster: ?0).
  wpt("declarative/document-domain-enabled-declarative.https.html", "document.domain");
  gap(domainGap, () => check("with document.domain enabled a form is no tool: no toolchange, and getTools rejects with SecurityError", async () => {
    let changed = false;
    mc().ontoolchange = () => (changed = true);
    form(`toolname="${uniq("domain")}" tooldescription="d"`, `<input name="query" required>`);
    await tick(200);
    mc().ontoolchange = null;
    await cleanup();
    eq(changed, false, "toolchange");
    await rejects(mc().getTools(), isDOM("SecurityError"), "getTools");
  }));
}
