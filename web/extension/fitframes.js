// fitHTMLFrames(box) sizes each sanitized-HTML frame the renderer put in box to the height of its
// document, for the extension's panel and the demo. The frame stays sandbox="" (no script, an
// opaque origin), so nothing in it can say how high it is: a hidden twin with the same srcdoc,
// sandboxed with allow-same-origin but still without allow-scripts (and under the srcdoc's own
// CSP, default-src 'none'), is laid out at the frame's width, read once it has loaded, images
// included, and removed. The frame then gets that height: no blank space, no scrolling inside.
"use strict";
window.fitHTMLFrames = (box) => {
  for (const frame of box.querySelectorAll("iframe.wmb-html")) {
    const twin = document.createElement("iframe");
    twin.setAttribute("sandbox", "allow-same-origin");
    twin.setAttribute("aria-hidden", "true");
    twin.tabIndex = -1;
    twin.style.cssText = `position:absolute;left:-99999px;top:0;visibility:hidden;border:0;height:0;width:${frame.clientWidth}px`;
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
};
