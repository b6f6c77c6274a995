// The declarative API in the fallback, a chunk of the script build (webmcp-bridge-forms.js, fetched
// by form-tools-loader.ts when the document first has a <form toolname>): a <form toolname
// tooldescription [tooltitle] [toolautosubmit]> in the document is a tool whose inputSchema comes
// from its controls. An agent's call fills the form, fires input and change, then submits it
// (toolautosubmit) or focuses its submit button and waits for the person; the submit event has
// agentInvoked true and respondWith(promise) gives the result. CSS cannot gain a pseudo-class from
// a script, so while a call is running the form has the attribute tool-form-active and its submit
// button tool-submit-active (:tool-form-active and :tool-submit-active in native WebMCP).
import { TOOL_NAME } from "./generated/boundary.ts";
import type { Call, FormCalls } from "./form-tools-loader.ts";
import type { FormEntry, Registry } from "./registry.ts";

/** The form was submitted and navigates: null to the agent. */
const NAVIGATED = Symbol("navigated");
const ACTIVE = "tool-form-active",
  SUBMIT_ACTIVE = "tool-submit-active";
const DATE_NOTE = "as YYYY-MM-DD"; // native Chromium says "Dates MUST be provided in 'YYYY-MM-DD' format."

type Control = HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
type Item = HTMLInputElement | HTMLOptionElement;
type Param = Record<string, unknown> & { type: string };
/** One parameter of a form: one control, or the items to check or select (prop) among. */
interface ControlInfo {
  el: Control;
  items?: Item[];
  prop?: "selected" | "checked";
  many: boolean;
  p: Param;
}
/** The calls under way and the submit events of agents' calls: the loader's
 * (form-tools-loader.ts), which SubmitEvent's respondWith and agentInvoked read too; given to
 * watchForms. */
let running: FormCalls["running"] = new Map();
let agentSubmits: FormCalls["agentSubmits"] = new WeakSet();

// controlsOf reads a form's controls: the inputSchema and, per parameter, what it sets. Disabled,
// read-only, hidden, file and button controls are no parameters; the radio buttons of a name
// are one choice, its checkboxes a set; other names used twice are left out. A parameter is
// {el, items, prop, many, p}: one control, or the items to check or select (prop) among.
function controlsOf(form: HTMLFormElement): { schema: Record<string, unknown>; controls: Map<string, ControlInfo> } {
  const groups = new Map<string, Control[]>();
  for (const el of form.elements as unknown as Iterable<Control>) {
    if (
      !/^(input|select|textarea)$/.test(el.localName) ||
      /^(hidden|file|submit|button|image|reset)$/.test(el.type) ||
      el.matches(":disabled") ||
      (el as HTMLInputElement).readOnly
    )
      continue;
    (groups.get(el.name) || groups.set(el.name, []).get(el.name))?.push(el);
  }
  const properties: Record<string, Param> = {},
    required: string[] = [],
    controls = new Map<string, ControlInfo>();
  for (const [name, els] of groups) {
    const el = els[0],
      type = el.type,
      select = el instanceof HTMLSelectElement;
    const radios = els.every((e) => e.type === "radio"),
      boxes = els.length > 1 && els.every((e) => e.type === "checkbox");
    if (els.length > 1 && !radios && !boxes) continue;
    const c: Partial<ControlInfo> & { el: Control; many: boolean } = { el, many: boxes || (select && el.multiple) };
    let p: Param = {
      type: type === "checkbox" && !boxes ? "boolean" : type === "number" || type === "range" ? "number" : "string",
    };
    if (radios || boxes || select) {
      // A disabled option (or one in a disabled optgroup) is not offered: a person cannot pick it.
      const items: Item[] = select
        ? [...el.options].filter((o) => !o.matches(":disabled"))
        : (els as HTMLInputElement[]);
      c.items = items;
      c.prop = select ? "selected" : "checked";
      p.anyOf = items.map((o) =>
        Object.assign({ type: "string", const: o.value }, select && { title: (o as HTMLOptionElement).text }),
      );
      p.enum = items.map((o) => o.value);
      if (c.many) p = { type: "array", items: p, uniqueItems: true };
    } else if (p.type === "number") {
      // Left undefined, a member is not in the JSON; a range goes from 0 to 100 by default.
      const num = (attr: string, d: number | undefined): number | undefined => {
        const a = parseFloat(el.getAttribute(attr) ?? "");
        return a === a ? a : d;
      };
      const range = type === "range" || undefined,
        step = num("step", 1) ?? 1;
      p.minimum = num("min", range && 0);
      p.maximum = num("max", range && 100);
      p.multipleOf = /^any$/i.test(el.getAttribute("step") ?? "") ? undefined : step > 0 ? step : 1;
    } else {
      if (el instanceof HTMLInputElement && el.pattern) p.pattern = el.pattern;
      // The lengths the browser holds a person to (values set by script skip them).
      const { minLength, maxLength } = el;
      if (minLength > 0) p.minLength = minLength;
      if (maxLength >= 0) p.maxLength = maxLength;
    }
    const about = els[els.length - 1].getAttribute("toolparamdescription");
    if (type === "date") {
      p.format = "date";
      p.description = about ? about + " " + DATE_NOTE : DATE_NOTE;
    } else if (about !== null) p.description = about;
    if (els.some((e) => e.required)) required.push(name);
    properties[name] = c.p = p;
    controls.set(name, c as ControlInfo);
  }
  return { schema: { type: "object", properties, required }, controls };
}

// watchForms keeps the declarative tools of this document in tools (the fallback's registry) as
// forms, their attributes and their controls change, and calls changed() when the list does.
export function watchForms(tools: Registry, changed: () => void, calls: FormCalls): void {
  ({ running, agentSubmits } = calls);
  let queued = false;
  const scan = () => {
    queued = false;
    try {
      const found = new Map<string, FormEntry>();
      for (const form of document.querySelectorAll<HTMLFormElement>("form[toolname][tooldescription]")) {
        const name = form.getAttribute("toolname") ?? "",
          held = tools.get(name);
        if (!TOOL_NAME.test(name) || found.has(name) || (held && !held.form)) continue;
        found.set(name, {
          form,
          name,
          title: form.getAttribute("tooltitle") || "",
          description: form.getAttribute("tooldescription") ?? "",
          auto: form.hasAttribute("toolautosubmit"),
          text: JSON.stringify(controlsOf(form).schema),
          annotations: undefined,
        });
      }
      let diff = false;
      for (const [name, e] of tools) {
        if (!e.form || found.get(name)?.form === e.form) continue;
        tools.delete(name);
        diff = true;
        // A call not yet submitted ends with its tool, as does one the person (or a script)
        // submitted whose response is not yet taken, after the submit event.
        const call = running.get(e.form);
        if (call && (!call.event || (!call.auto && call.open))) call.fail("The form's tool went away", true);
      }
      for (const [name, n] of found) {
        const o = tools.get(name);
        if (!o || !o.form || (["form", "title", "description", "auto", "text"] as const).some((k) => o[k] !== n[k])) {
          tools.set(name, n);
          diff = true;
        }
      }
      if (diff) changed();
    } catch (e) {
      console.error(e); // a hostile page's DOM must never break the observer
    }
  };
  const schedule = () => {
    if (!queued) {
      queued = true;
      queueMicrotask(scan);
    }
  };
  new MutationObserver(schedule).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    attributeFilter: (
      "toolname tooldescription tooltitle toolautosubmit toolparamdescription " +
      "name type required disabled readonly multiple min max step pattern value"
    ).split(" "),
  });
  schedule();
  addEventListener(
    "reset",
    (e) => {
      const call = running.get(e.target);
      if (call && !call.event) call.fail("The form was reset");
    },
    true,
  );
  // The submission of a running call, whoever started it (the agent, the person, a script).
  // After the dispatch the response, or its absence, decides; from then on (with toolautosubmit,
  // from the submission on) the form's removal no longer ends the call.
  addEventListener(
    "submit",
    (e: SubmitEvent) => {
      const call = running.get(e.target);
      if (!call || call.event) return;
      call.event = e;
      call.open = true;
      agentSubmits.add(e);
      setTimeout(() => {
        call.open = false;
        if (call.response)
          call.response.then(
            (v) => call.done(v),
            (x: unknown) => call.fail(x instanceof Error ? x : "respondWith rejected: " + String(x)),
          );
        else if (e.defaultPrevented && !call.navigated) call.fail("preventDefault() without respondWith()");
        else call.done(NAVIGATED);
      });
    },
    true,
  );
}

// runForm is the execute steps of a declarative tool: it checks and sets every argument, then
// submits or waits. It resolves with the response, or NAVIGATED; it rejects with an Error whose
// message says why, and calls cancelled() when the tool went away before the submission.
export function runForm(
  { form }: FormEntry,
  args: Record<string, unknown>,
  { signal, activated, cancelled }: { signal: AbortSignal; activated: () => void; cancelled: () => void },
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const { controls } = controlsOf(form);
    const plan = Object.keys(args).map((k) => {
      const c = controls.get(k);
      if (!c) throw new Error("Unknown parameter " + k);
      return [c, wanted(c, args[k], k)] as const;
    });
    const button = ([...form.elements] as HTMLInputElement[]).find((e) => e.type === "submit" || e.type === "image");
    const auto = form.hasAttribute("toolautosubmit");
    if (!auto && !button) throw new Error("A form without toolautosubmit needs a submit button");
    if (running.has(form)) throw new Error("The form is busy with another call");
    const agentSet = startFrom(
      form,
      plan.map(([c]) => c),
    );
    for (const [c, w] of plan) fill(c, w, agentSet);
    const end = () => {
      if (running.get(form) === call) running.delete(form);
      form.removeAttribute(ACTIVE);
      if (button) button.removeAttribute(SUBMIT_ACTIVE);
    };
    const call: Call = {
      auto,
      done: (v) => {
        end();
        resolve(v);
      },
      fail: (why, gone) => {
        end();
        reject(why instanceof Error ? why : new Error(why));
        if (gone) cancelled();
      },
    };
    running.set(form, call);
    form.setAttribute(ACTIVE, "");
    if (button) button.setAttribute(SUBMIT_ACTIVE, "");
    signal.addEventListener("abort", end);
    activated();
    if (!auto) return button?.focus();
    const invalid =
      !form.noValidate && ([...form.elements] as Control[]).find((e) => e.willValidate && !e.validity.valid);
    if (invalid) return call.fail(`Form validation failed: ${invalid.name}: ${invalid.validationMessage}`);
    form.requestSubmit(button);
    if (!call.event) call.fail("The form was not submitted");
  });
}

// wanted checks an argument against its parameter and returns what to give the controls: a
// string (a value, a choice), a boolean (one checkbox) or a list (checkboxes, a multiple select).
function wanted({ el, items, many, p }: ControlInfo, v: unknown, name: string): string | boolean | string[] {
  const bad = () => new Error("Invalid value for parameter " + name);
  if (p.type === "boolean") {
    const i = ([true, 1, "true", false, 0, "false"] as unknown[]).indexOf(v);
    if (i < 0) throw bad();
    return i < 3;
  }
  const scalar = (x: unknown): boolean => /^(string|number|boolean)$/.test(typeof x);
  if (many ? !Array.isArray(v) || !v.every(scalar) : !scalar(v)) throw bad();
  const values = many ? (v as unknown[]).map(String) : [String(v)],
    [first] = values;
  // A choice not offered, not a number, a text of a length a person could not enter, or a value
  // the control would drop (a date it cannot parse).
  const length = (s: string): number => [...s].length;
  if (
    (typeof p.minLength === "number" && !many && length(first) < p.minLength) ||
    (typeof p.maxLength === "number" && !many && length(first) > p.maxLength)
  )
    throw bad();
  if (
    items
      ? !values.every((x) => items.some((o) => o.value === x))
      : p.type === "number"
        ? typeof v === "boolean" || !first.trim() || !isFinite(Number(first))
        : el.localName === "input" &&
          first &&
          !Object.assign(document.createElement("input"), { type: el.type, value: first }).value
  )
    throw bad();
  return many ? values : first;
}

// fill gives the controls their new state and fires input and change where it changed, as a
// person would: at a select, at each checkbox, at the radio button checked. What it changes is
// recorded in agentSet, so that the next call can start from the state before.
function fill({ el, items, prop, many, p }: ControlInfo, w: string | boolean | string[], agentSet: AgentSet): void {
  if (!items || !prop) {
    if (setByAgent(agentSet, el, p.type === "boolean" ? "checked" : "value", w)) fire(el);
    return;
  }
  const targets = new Set<EventTarget>();
  for (const o of items) {
    const on = many ? (w as string[]).includes(o.value) : o.value === w;
    if (setByAgent(agentSet, o, prop, on) && (on || prop !== "checked" || many))
      targets.add(prop === "selected" ? el : o);
  }
  targets.forEach(fire);
}

const fire = (t: EventTarget): void => {
  t.dispatchEvent(new Event("input", { bubbles: true }));
  t.dispatchEvent(new Event("change", { bubbles: true }));
};

/** What agents' calls set in a form: per control (or option) and property, the value before the
 * first call set it and the value the last call set. */
type AgentSet = Map<object, Map<string, { before: unknown; after: unknown }>>;
const agentSets = new WeakMap<HTMLFormElement, AgentSet>();

// setByAgent sets target[key] to value where it differs, and records it; it says whether it set.
function setByAgent(agentSet: AgentSet, target: object, key: string, value: unknown): boolean {
  const t = target as Record<string, unknown>;
  if (t[key] === value) return false;
  const keys = agentSet.get(target) ?? new Map<string, { before: unknown; after: unknown }>();
  agentSet.set(target, keys);
  keys.set(key, { before: keys.get(key)?.before ?? t[key], after: value });
  t[key] = value;
  return true;
}

// startFrom makes the form what it was before earlier calls filled it, except for the controls
// this call sets (plan) and what a person changed since (their value stays): each call starts
// from the form's state before the previous call. It answers the record for this call.
function startFrom(form: HTMLFormElement, plan: readonly ControlInfo[]): AgentSet {
  const agentSet = agentSets.get(form) ?? (new Map() as AgentSet);
  agentSets.set(form, agentSet);
  const setNow = new Set<object>(plan.flatMap((c) => [c.el, ...(c.items ?? [])]));
  const targets = new Set<EventTarget>();
  for (const [target, keys] of agentSet) {
    const t = target as Record<string, unknown>;
    for (const [key, { before, after }] of keys) {
      if (t[key] !== after)
        keys.delete(key); // a person changed it: their value is the state now
      else if (!setNow.has(target)) {
        t[key] = before;
        keys.delete(key);
        targets.add(
          target instanceof HTMLOptionElement ? (target.closest("select") ?? target) : (target as EventTarget),
        );
      }
    }
    if (!keys.size) agentSet.delete(target);
  }
  targets.forEach(fire);
  return agentSet;
}
