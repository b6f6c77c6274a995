// The side that runs the Go module: in the bridge's dedicated Worker (worker.js), or on the
// page's own thread where a Worker cannot start (host.js). Both speak the same requests, and
// every answer is a string or a WebAssembly.Module, so nothing but strings crosses to the page.
//
// Requests: {op: "start", wasm, module?, configured?}, {op: "call", name, args},
// {op: "validate", key, json, args}, {op: "compile", key, json}, {op: "release", key},
// {op: "alias", name, to} (the test build's way to make an export crash). Answers: {out} (a
// frame, see wasm/module.go), {crashed: why} when the module died in the call, {unavailable:
// why, csp} when it cannot start here; each with memory, the module's memory in bytes.

// serveModule returns handle(request) → Promise<answer> for a module run in scope (the worker's
// or the window's global object), where wasm_exec.js has defined Go.
export function serveModule(scope) {
  let go = null, runtime = null, memory = null;
  const schemas = new Map(); // the loader's schema key → the module's schema id
  let queue = Promise.resolve();

  async function start({ wasm, module, configured }) {
    if (typeof WebAssembly !== "object") throw unavailable("this browser has no WebAssembly");
    const compiled = module || await compile(wasm);
    runtime = new scope.Go();
    const started = new Promise((resolve) => { scope.__webmcpBridgeStarted = resolve; });
    const instance = await WebAssembly.instantiate(compiled, runtime.importObject);
    memory = instance.exports.mem;
    runtime.run(instance);
    await started;
    go = scope.__webmcpBridgeGo;
    const answer = { start: call("start", []), module: compiled };
    if (configured != null) answer.configure = call("configure", [configured]);
    return answer;
  }

  // compile compiles the module; a server that sends the wrong MIME type gets a second try from
  // the bytes.
  async function compile(url) {
    try {
      return await WebAssembly.compileStreaming(fetch(url));
    } catch (e) {
      if (blocked(e)) throw cspBlocked(e);
      let bytes;
      try {
        const r = await fetch(url);
        if (!r.ok) throw new Error(`${r.status} ${r.statusText}`);
        bytes = await r.arrayBuffer();
      } catch (fe) {
        throw unavailable(`cannot load ${url} (${fe.message})`);
      }
      try {
        return await WebAssembly.compile(bytes);
      } catch (ce) {
        throw blocked(ce) ? cspBlocked(ce) : unavailable(`cannot compile ${url} (${ce.message})`);
      }
    }
  }

  // call calls an export; a module that dies in it (a fatal Go error, a trap, a stack overflow)
  // makes it throw {crashed}.
  function call(name, args) {
    if (typeof go[name] !== "function") return JSON.stringify({ error: { name: "TypeError", message: `the module has no export named ${name}` } }) + "\n";
    let out, why = "";
    try {
      out = go[name](...args);
    } catch (e) {
      why = String(e && e.message || e);
    }
    if (!why && (runtime.exited || typeof out !== "string")) why = "the Go program exited";
    if (why) throw { crashed: `${name}: ${why}` };
    return out;
  }

  function schemaId(key, json) {
    let id = schemas.get(key);
    if (id === undefined) {
      const out = call("compileSchema", [json]);
      const head = JSON.parse(out.slice(0, out.indexOf("\n") >>> 0));
      if (head.error) return { out };
      id = head.id;
      schemas.set(key, id);
    }
    return { id };
  }

  async function answer(req) {
    try {
      switch (req.op) {
        case "start": return await start(req);
        case "call": return { out: call(req.name, req.args || []) };
        case "validate": {
          const s = schemaId(req.key, req.json);
          return s.out !== undefined ? s : { out: call("validate", [s.id, req.args]) };
        }
        case "compile": {
          const s = schemaId(req.key, req.json);
          return s.out !== undefined ? s : { out: `{"id":${s.id}}\n` };
        }
        case "release": {
          if (schemas.has(req.key)) call("releaseSchema", [schemas.get(req.key)]);
          schemas.delete(req.key);
          return { out: "{}\n" };
        }
        case "alias": {
          if (typeof go[req.to] === "function") go[req.name] = go[req.to];
          return { out: "{}\n" };
        }
      }
      return { crashed: `unknown request ${req.op}` };
    } catch (e) {
      if (e && (e.crashed || e.unavailable)) return e;
      return { crashed: String(e && e.message || e) };
    }
  }

  // handle answers requests one at a time, in order.
  return function handle(req) {
    const done = queue.then(() => answer(req)).then((a) => {
      a.memory = memory ? memory.buffer.byteLength : 0;
      return a;
    });
    queue = done;
    return done;
  };
}

const blocked = (e) => /Content.Security.Policy|CSP|unsafe-eval/i.test(String(e && e.message));
const unavailable = (why) => ({ unavailable: why });
const cspBlocked = (e) => ({ unavailable: String(e && e.message || e), csp: true });
