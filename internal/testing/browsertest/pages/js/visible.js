// What a person sees of a document, and what the bridge hands a model of it: each document is
// rendered in a frame as it is, and the html result the bridge makes of it is rendered in
// another, so that the Go test can compare their words with the model's text.

// render puts markup in a frame of this page and resolves with the frame's document, laid out.
const render = (markup) =>
  new Promise((resolve) => {
    const f = document.createElement("iframe");
    f.style.width = "1000px";
    f.style.height = "800px";
    f.onload = () => resolve(f);
    f.srcdoc = markup;
    document.body.append(f);
  });

// textOf is the text of an element's text nodes, a space between each (textContent runs a
// summary's words into the next block's).
const textOf = (e) => {
  const parts = [];
  const walk = e.ownerDocument.createTreeWalker(e, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) parts.push(walk.currentNode.data);
  return parts.join(" ");
};

// shown reports whether an element has a box on screen (an image a person can see).
const shown = (e) => e.getClientRects().length > 0;

// seenAs answers, for a rendered document: its innerText; the text of elements that render
// but that a person cannot see (opacity 0, font size 0); the alt of every image shown; the
// content of closed details (a person can open them); the URLs of links and images; and
// whether a stylesheet styles it.
const seenAs = (doc) => {
  const unseen = [];
  for (const e of doc.body.querySelectorAll("*")) {
    const s = doc.defaultView.getComputedStyle(e);
    if (s.opacity === "0" || parseFloat(s.fontSize) === 0) unseen.push(textOf(e));
  }
  return {
    innerText: doc.body.innerText,
    unseen,
    alts: [...doc.querySelectorAll("img")].filter(shown).map((i) => i.alt),
    closedDetails: [...doc.querySelectorAll("details:not([open])")].filter(shown).map(textOf),
    urls: [...doc.querySelectorAll("a[href], img[src]")].map((e) => e.getAttribute("href") ?? e.getAttribute("src")),
    stylesheets: doc.styleSheets.length,
  };
};

// judge answers, for each document, what a person sees of it as written (page) and of the html
// result the bridge makes of it (result), and the result's text for the model (text) and its
// markup (html).
export const judge = async (docs) => {
  await WebMCPBridge.ready;
  const out = [];
  for (const doc of docs) {
    const r = await WebMCPBridge.normalize({ type: "html", html: doc });
    const text = r.content.find((c) => c.type === "text" && c.annotations?.audience?.includes("assistant"))?.text ?? "";
    const html = r.content.find((c) => c.type === "resource")?.resource.text ?? "";
    const page = await render(doc);
    const result = await render(html);
    out.push({ page: seenAs(page.contentDocument), result: seenAs(result.contentDocument), text, html });
    page.remove();
    result.remove();
  }
  return out;
};
