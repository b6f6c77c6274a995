// A React page author's app, served by Vite's dev server (hot reload on): the bridge from the
// npm package, the hook from its own entry point, the app under StrictMode. Errors React or the
// hook report are kept in window.errors for the test.
import "webmcp-bridge-wasm";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import App from "./App.jsx";

window.errors = [];
const consoleError = console.error.bind(console);
console.error = (...args) => {
  window.errors.push(args.map(String).join(" "));
  consoleError(...args);
};
window.logs = [];
for (const level of ["log", "warn", "debug", "info"]) {
  const f = console[level].bind(console);
  console[level] = (...args) => { window.logs.push(level + ": " + args.map(String).join(" ")); f(...args); };
}
window.addEventListener("unhandledrejection", (e) => window.errors.push(String(e.reason)));

createRoot(document.getElementById("root")).render(<StrictMode><App /></StrictMode>);
