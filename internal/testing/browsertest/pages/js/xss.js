// A real-browser XSS oracle, run in xss.html (a page with the bridge). Each vector is rendered in
// its own sandboxed iframe whose alert, confirm, prompt and print report back to this page; after
// the markup loads, every link and button in it is clicked and every control focused. The Go
// test (TestXSSOracle, crossbrowser_pages_test.go) runs the raw vectors first (raw: the oracle
// must catch them), then what WebMCPBridge.normalize made of them (sanitized: nothing may run),
// and checks that benign markup survives (benign), in every browser.
const XSS_VECTORS = [
  `<script>alert(1)<\/script>`,
  `<img src=x onerror=alert(1)>`,
  `<svg onload=alert(1)>`,
  `<body onload=alert(1)>`,
  `<details open ontoggle=alert(1)>x</details>`,
  `<input autofocus onfocus=alert(1)>`,
  `<video><source onerror=alert(1)></video>`,
  `<a href="javascript:alert(1)">link</a>`,
  `<a href="JaVaScRiPt:alert(1)">link</a>`,
  `<a href="jav&#x09;ascript:alert(1)">link</a>`,
  `<a href=" &#14; javascript:alert(1)">link</a>`,
  `<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">link</a>`,
  `<a href="java&NewLine;script:alert(1)">link</a>`,
  `<iframe src="javascript:alert(1)"></iframe>`,
  `<iframe srcdoc="&lt;script&gt;parent.alert(1)&lt;/script&gt;"></iframe>`,
  `<object data="javascript:alert(1)"></object>`,
  `<embed src="javascript:alert(1)">`,
  `<form><button formaction="javascript:alert(1)">go</button></form>`,
  `<form action="javascript:alert(1)"><input type=submit id=s></form>`,
  `<meta http-equiv="refresh" content="0;url=javascript:alert(1)">`,
  `<base href="javascript:alert(1)//"><a href="/x">rel</a>`,
  `<svg><a xlink:href="javascript:alert(1)"><text y="20">svg link</text></a></svg>`,
  `<svg><script>alert(1)<\/script></svg>`,
  `<svg><animate onbegin=alert(1) attributeName=x dur=1s>`,
  `<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>`,
  `<svg></p><style><a id="</style><img src=1 onerror=alert(1)>">`,
  `<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>`,
  `<template><img src=x onerror=alert(1)></template>`,
  `<!--<img src="--><img src=x onerror=alert(1)//">`,
  `<xmp><img src=x onerror=alert(1)></xmp>`,
  `<textarea><img src=x onerror=alert(1)></textarea>`,
  `<title><img src=x onerror=alert(1)></title>`,
  `<select><template><style><img src=x onerror=alert(1)></style></template></select>`,
  `<img src=x:alert(1) onerror=eval(src)>`,
  `<a href="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;">data link</a>`,
  `<script src="data:text/javascript,alert(1)"><\/script>`,
  `<marquee onstart=alert(1)>m</marquee>`,
  `<div style="width:expression(alert(1))" onmouseover=alert(1)>x</div>`,
  `<img src="x" id="alert" name="alert"><img src=x onerror="window.alert(1)">`,
  `<isindex type=image src=1 onerror=alert(1)>`,
  `<a href="#" onclick="alert(1)">click</a>`,
  `<button onclick=alert(1)>b</button>`,
  `<img srcset="x" onerror=alert(1)>`,
  `<p>ok</p><scr<script>ipt>alert(1)</scr<\/script>ipt>`,
  `<<script>alert(1);//<<\/script>`,
  `<a href="vbscript:alert(1)">vb</a><a href="javascript&colon;alert(1)">colon</a>`,
];
const BENIGN = `<h2>Title</h2><p><b>bold</b> <em>em</em> <a href="https://example.com/page">a link</a></p>` +
  `<ul><li>one</li></ul><table><tr><th>h</th></tr><tr><td>d</td></tr></table><img src="https://example.com/i.png" alt="pic">`;

const prelude = (id) => `<script>
  for (const f of ["alert", "confirm", "prompt", "print"]) window[f] = () => parent.postMessage({xss: ${id}}, "*");
  addEventListener("load", () => setTimeout(() => {
    for (const el of document.querySelectorAll("a, button, input, [onclick]")) { try { el.focus(); el.click(); } catch (e) {} }
  }, 50));
<\/script>`;

// renderAll waits until every frame has loaded — or no frame has loaded for 3 s (a few vectors
// never finish loading), 20 s at most — so a busy machine does not make the oracle blind, then
// waitMs more for the clicks and the events they start.
const renderAll = async (markups, waitMs = 1000) => {
  const fired = new Set();
  const onMessage = (e) => { if (e.data && typeof e.data.xss === "number") fired.add(e.data.xss); };
  addEventListener("message", onMessage);
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  let loaded = 0, lastLoad = performance.now();
  const frames = markups.map((m, i) => {
    const f = document.createElement("iframe");
    f.sandbox = "allow-scripts allow-forms";
    f.addEventListener("load", () => { loaded++; lastLoad = performance.now(); }, { once: true });
    f.srcdoc = prelude(i) + m;
    document.body.append(f);
    return f;
  });
  const start = performance.now();
  while (loaded < frames.length && performance.now() - lastLoad < 3000 && performance.now() - start < 20000) await sleep(100);
  await sleep(waitMs);
  removeEventListener("message", onMessage);
  const docsText = frames.map((f) => f.srcdoc);
  frames.forEach((f) => f.remove());
  return markups.map((_, i) => ({ fired: fired.has(i), markup: docsText[i].slice(0, 300) }));
};

// sanitizeAll answers the HTML WebMCPBridge.normalize makes of each markup ("" if none).
const sanitizeAll = async (markups) => {
  await WebMCPBridge.ready;
  const out = [];
  for (const m of markups) {
    const r = await WebMCPBridge.normalize({ type: "html", html: m });
    const res = r.content.find((c) => c.type === "resource");
    out.push(res ? res.resource.text : "");
  }
  return out;
};

// raw renders the vectors as they are and answers, per vector, whether anything ran and its
// markup.
export const raw = () => renderAll(XSS_VECTORS);

// sanitized renders what WebMCPBridge.normalize makes of each vector and answers, per vector,
// whether anything ran and its markup.
export const sanitized = async () => renderAll(await sanitizeAll(XSS_VECTORS));

// benign answers, in a list of one, what WebMCPBridge.normalize makes of benign markup.
export const benign = () => sanitizeAll([BENIGN]);
