// A document that makes elements, as far as the renderer's forms (render.ts's formFor) use them:
// attributes, children, text, and the value and checked of inputs, selects and options as a
// browser keeps them (a select's value is its selected option's, the first one until another is
// picked). Import it before render.ts.

export class ElementDouble {
  readonly attributes = new Map<string, string>();
  readonly children: ElementDouble[] = [];
  className = "";
  textContent = "";
  checked = false;
  #value: string | null = null;
  constructor(readonly localName: string) {}
  setAttribute(name: string, value: string): void {
    this.attributes.set(name, value);
  }
  getAttribute(name: string): string | null {
    return this.attributes.get(name) ?? null;
  }
  append(...nodes: (ElementDouble | string)[]): void {
    for (const n of nodes) if (typeof n !== "string") this.children.push(n);
  }
  get value(): string {
    if (this.localName === "select") {
      const chosen = this.children.find((o) => o.selected) ?? this.children[0];
      return chosen ? chosen.value : "";
    }
    if (this.localName === "option") return this.getAttribute("value") ?? this.textContent;
    return this.#value ?? this.getAttribute("value") ?? "";
  }
  set value(v: string) {
    if (this.localName === "select") for (const o of this.children) o.selected = o.value === v;
    else this.#value = v;
  }
  selected = false;
}

(globalThis as Record<string, unknown>).document = {
  createElement: (tag: string) => new ElementDouble(tag),
};
