import { useState } from "react";
import { useWebMCPTool } from "webmcp-bridge-wasm/react";
import Cart from "./Readme.jsx"; // the README's example, written here by the test

// The test edits "version 1" here while the page runs.
const version = "version 1";

function Counter() {
  const [count, setCount] = useState(0);
  useWebMCPTool({
    name: "counter",
    description: "Reads the counter",
    inputSchema: { type: "object", properties: {} },
    execute: () => `${version}, count ${count}`,
  });
  return <button id="increment" onClick={() => setCount((c) => c + 1)}>count {count}</button>;
}

export default function App() {
  const [shown, setShown] = useState(true);
  return (
    <>
      <p id="version">{version}</p>
      <button id="toggle" onClick={() => setShown((s) => !s)}>{shown ? "unmount" : "mount"}</button>
      {shown && <Counter />}
      <Cart items={[{ id: 1, name: "tea" }, { id: 2, name: "milk" }]} />
    </>
  );
}
