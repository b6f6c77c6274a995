// render.ts's formFor: the form the demo's agent and the extension's panel build from a tool's
// inputSchema, and the arguments it reads back as a person filled it.
import "./globals.ts";
import { ElementDouble } from "./element-double.ts";
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formFor as formForSchema } from "../src/render.ts";

type Form = { form: ElementDouble; read: () => Record<string, unknown> };
const formFor = formForSchema as unknown as (schema: unknown) => Form;

/** fields is each field of a form by its label's text: the label and the control. */
function fields(form: ElementDouble): Map<string, ElementDouble> {
  const out = new Map<string, ElementDouble>();
  for (const field of form.children) {
    const [label, control] = field.children;
    assert.equal(label?.getAttribute("for"), control?.getAttribute("id"), "the label names its control");
    out.set(label?.textContent ?? "", control);
  }
  return out;
}

describe("formFor", () => {
  const schema = {
    type: "object",
    properties: {
      city: { type: "string", description: "where" },
      days: { type: "integer", default: 3 },
      metric: { type: "boolean" },
      unit: { enum: ["C", "F", 0] },
      where: { type: "object" },
    },
    required: ["city"],
  };

  it("gives each top-level property a control of its type, the required ones marked", () => {
    const f = fields(formFor(schema).form);
    assert.deepEqual([...f.keys()], ["city *", "days", "metric", "unit", "where"]);
    assert.deepEqual(
      [...f.values()].map((c) => [c.localName, c.getAttribute("type")]),
      [
        ["input", "text"],
        ["input", "number"],
        ["input", "checkbox"],
        ["select", null],
        ["textarea", null],
      ],
    );
    assert.equal(f.get("city *")?.getAttribute("placeholder"), "where", "the description is the hint");
    assert.deepEqual(
      f.get("unit")?.children.map((o) => o.textContent),
      ["C", "F", "0"],
    );
  });

  it("reads the defaults and the first choice, and leaves out what was left empty", () => {
    assert.deepEqual(formFor(schema).read(), { days: 3, metric: false, unit: "C" });
  });

  it("reads what a person entered, each as its type", () => {
    const { form, read } = formFor(schema);
    const f = fields(form);
    (f.get("city *") as ElementDouble).value = "Oslo";
    (f.get("days") as ElementDouble).value = "7";
    (f.get("metric") as ElementDouble).checked = true;
    (f.get("unit") as ElementDouble).value = "0";
    (f.get("where") as ElementDouble).value = '{"lat": 59.9}';
    assert.deepEqual(read(), { city: "Oslo", days: 7, metric: true, unit: 0, where: { lat: 59.9 } });
  });

  it("throws on JSON a person mistyped, which the caller turns into no arguments", () => {
    const { form, read } = formFor(schema);
    (fields(form).get("where") as ElementDouble).value = "{lat:";
    assert.throws(read, SyntaxError);
  });

  it("gives an empty form and no arguments for a tool without properties", () => {
    for (const s of [undefined, { type: "object" }]) {
      const { form, read } = formFor(s);
      assert.equal(form.children.length, 0);
      assert.deepEqual(read(), {});
    }
  });
});
