// cairn's pi extension host: one Node process that runs pi's TypeScript
// extensions, each in its own worker thread (worker.mjs), and speaks
// cairn's extension protocol (docs/extensions.md) on stdin and stdout as
// one extension registering the tools, commands and handlers of them all.
//
// Usage: node host.mjs FILE...   (each FILE a pi extension's entry module)
//
// A worker that crashes, stops answering (a busy loop), floods the host or
// runs out of memory is cut off alone: its calls fail with why, its tools
// are withdrawn, and the others go on.
import * as os from "node:os";
import * as readline from "node:readline";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { forgetChrome, noteChrome, renderer } from "./renderhost.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
if (Number(process.versions.node.split(".")[0]) < 18) {
  process.stderr.write(`pi extensions need Node.js 18 or newer; this is ${process.version}: install a newer nodejs\n`);
  process.exit(1);
}
const files = process.argv.slice(2);

// Limits of one extension. Loading is bounded per extension, from when
// its load begins (a cold load transpiles with Babel: seconds on a busy
// machine); initialize is answered by INIT_LIMIT_MS whatever is still
// loading, and what loads later is registered then.
const START_LIMIT_MS = Number(process.env.CAIRN_PI_START_MS) || 20000;
const INIT_LIMIT_MS = Number(process.env.CAIRN_PI_INIT_MS) || 8000;
const LOADING_AT_ONCE = Math.max(1, os.availableParallelism?.() ?? os.cpus().length);
const HANG_LIMIT_MS = Number(process.env.CAIRN_PI_HANG_MS) || 5000;
const FLOOD_BURST = 2000; // messages at once
const FLOOD_RATE = 500; // messages a second after that
const HEAP_MB = Number(process.env.CAIRN_PI_HEAP_MB) || 512;

// cairn's protocol stream is ours alone: anything else written to stdout
// goes to stderr (cairn's log of this extension).
const writeOut = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => process.stderr.write(chunk, ...rest);
console.log = console.info = (...a) => process.stderr.write(a.join(" ") + "\n");

function send(m) {
  writeOut(JSON.stringify({ jsonrpc: "2.0", ...m }) + "\n");
}

// ---- the extensions ----
let init = null; // cairn's initialize params, once received
let ready = false; // initialize answered
const exts = files.map((file, i) => ({
  file,
  name: extName(file),
  index: i,
  state: "starting",
  why: "",
  tools: [],
  providers: [],
  commands: [],
  events: [],
  calls: new Map(), // call id -> {resolve, reject}
  lastPong: Date.now(),
  tokens: FLOOD_BURST,
  tokensAt: Date.now(),
}));

function extName(file) {
  const base = path.basename(file).replace(/\.(ts|js|mjs|cjs|mts|cts)$/, "");
  return base === "index" ? path.basename(path.dirname(file)) : base;
}

function log(s) {
  process.stderr.write(s + "\n");
}

// loadNext starts the next extensions waiting to load, a few at a time:
// loading is CPU-bound, and more at once only makes each slower.
function loadNext() {
  while (exts.filter((x) => x.state === "starting" && x.worker).length < LOADING_AT_ONCE) {
    const x = exts.find((x) => x.state === "starting" && !x.worker);
    if (!x) return;
    startWorker(x);
  }
}

function startWorker(x) {
  x.worker = new Worker(path.join(here, "worker.mjs"), {
    workerData: { file: x.file, cwd: init.cwd, hasUI: init.hasUI, ui: init.ui, mode: init.mode, flags: init.flags || {} },
    stdout: true,
    stderr: true,
    resourceLimits: { maxOldGenerationSizeMb: HEAP_MB },
  });
  const prefix = `[${x.name}] `;
  const pipe = (s) => s.on("data", (b) => process.stderr.write(prefix + b.toString()));
  pipe(x.worker.stdout);
  pipe(x.worker.stderr);
  x.worker.on("message", (m) => onWorker(x, m));
  x.worker.on("error", (e) =>
    cutOff(x, e?.code === "ERR_WORKER_OUT_OF_MEMORY" ? `it ran out of memory (${HEAP_MB} MiB)` : `it crashed: ${e?.message || e}`));
  x.worker.on("exit", (code) => cutOff(x, `it exited (code ${code})`));
  x.loadTimer = setTimeout(() => {
    if (x.state === "starting") cutOff(x, `it did not load within ${START_LIMIT_MS / 1000} s`);
  }, START_LIMIT_MS);
}

function flooding(x) {
  const now = Date.now();
  x.tokens = Math.min(FLOOD_BURST, x.tokens + ((now - x.tokensAt) / 1000) * FLOOD_RATE);
  x.tokensAt = now;
  x.tokens -= 1;
  return x.tokens < 0;
}

function onWorker(x, m) {
  if (x.state === "dead") return;
  if (flooding(x)) {
    cutOff(x, `it flooded the host (more than ${FLOOD_RATE} messages a second)`);
    return;
  }
  x.lastPong = Date.now();
  switch (m.t) {
    case "pong":
      return;
    case "syncPort":
      x.syncPort = m.port;
      x.syncFlag = new Int32Array(m.flag);
      return;
    case "syncRpc": {
      const answer = (a) => {
        if (x.state === "dead" || !x.syncPort) return;
        x.syncPort.postMessage({ seq: m.seq, ...a });
        Atomics.store(x.syncFlag, 0, 1);
        Atomics.notify(x.syncFlag, 0);
      };
      if (!(init.protocolVersion >= 2)) {
        answer({ error: "cairn speaks protocol version 1 here: no session entries" });
        return;
      }
      callCairn(m.method, m.params).then((result) => answer({ result }), (e) => answer({ error: e.message }));
      return;
    }
    case "loaded":
      clearTimeout(x.loadTimer);
      x.state = "ready";
      x.tools = m.tools;
      x.commands = m.commands;
      x.events = m.events;
      x.providers = m.providers;
      x.info = m;
      if (ready) registerLate(x).then(() => memberChanged(x));
      loadNext();
      maybeAnswerInitialize();
      return;
    case "failed":
      clearTimeout(x.loadTimer);
      x.state = "failed";
      x.why = m.error;
      x.worker.terminate();
      if (ready) log(`pi extension ${x.name} (${x.file}) not loaded: ${x.why}`);
      memberChanged(x);
      loadNext();
      maybeAnswerInitialize();
      return;
    case "result": {
      const c = x.calls.get(m.id);
      if (!c) return;
      x.calls.delete(m.id);
      if (m.error !== undefined) c.reject(new Error(m.error));
      else c.resolve(m.result);
      return;
    }
    case "rpc":
      if (m.method === "ui") noteChrome(x, m.params);
      if (m.method === "stream_api") trackApiStream(x, m.params?.streamId);
      if (m.method === "custom_show") customOwners.set(m.params.id, x);
      callCairn(m.method, m.params).finally(() => {
        apiStreamOwners.delete(m.params?.streamId);
        if (m.method === "custom_show") customOwners.delete(m.params.id);
      }).then(
        (result) => x.state !== "dead" && x.worker.postMessage({ t: "rpcResult", id: m.id, result }),
        (e) => x.state !== "dead" && x.worker.postMessage({ t: "rpcResult", id: m.id, error: e.message }),
      );
      return;
    case "notify":
      if (ready) send({ method: m.method, params: m.params });
      return;
    case "bus":
      for (const o of exts) if (o !== x && o.state === "ready") o.worker.postMessage({ t: "bus", channel: m.channel, data: m.data });
      return;
    case "tool":
      x.tools = [...x.tools.filter((t) => t.name !== m.def.name), m.def];
      if (ready && owner("tools", m.def.name) === x) callCairn("register_tool", m.def).catch((e) => log(`register_tool ${m.def.name}: ${e.message}`));
      return;
    case "command":
      x.commands = [...x.commands.filter((c) => c.name !== m.def.name), m.def];
      if (ready && owner("commands", m.def.name) === x) callCairn("register_command", m.def).catch((e) => log(`register_command ${m.def.name}: ${e.message}`));
      return;
    case "events":
      x.events = m.events;
      return;
    case "provider":
    case "unprovider":
      providerChanged(x, m);
      return;
    case "unsupported":
      log(`[${x.name}] uses what cairn does not provide yet: ${m.names.join(", ")}`);
      return;
  }
}

let stopping = false;

function cutOff(x, why) {
  if (stopping || x.state === "dead" || x.state === "failed") return;
  const was = x.state;
  clearTimeout(x.loadTimer);
  x.state = "dead";
  x.why = why;
  forgetChrome(x);
  log(`pi extension ${x.name} cut off: ${why}`);
  x.worker.terminate();
  for (const c of x.calls.values()) c.reject(new Error(`pi extension ${x.name} was cut off: ${why}`));
  x.calls.clear();
  memberChanged(x);
  if (was === "starting") {
    loadNext();
    maybeAnswerInitialize();
    return;
  }
  if (ready) {
    callCairn("set_active_tools", { names: activeTools().map((t) => t.name) }).catch(() => {});
    if (init.ui.includes("notify")) {
      callCairn("ui", { method: "notify", message: `pi extension ${x.name} stopped: ${why}`, notifyType: "error" }).catch(() => {});
    }
  }
}

// A busy loop never answers a ping: cut off a worker that owes an answer
// (loading, or a call in flight) and has been silent too long.
setInterval(() => {
  const now = Date.now();
  for (const x of exts) {
    // Loading is bounded by START_LIMIT_MS instead.
    if (x.state !== "ready") continue;
    if (x.calls.size === 0) {
      x.lastPong = now;
      continue;
    }
    if (now - x.lastPong > HANG_LIMIT_MS) cutOff(x, `it stopped responding for ${HANG_LIMIT_MS / 1000} s (a busy loop?)`);
    else x.worker.postMessage({ t: "ping" });
  }
}, 500).unref();

/** owner is the live extension whose tool or command name wins: the first loaded, as in pi. */
function owner(kind, name) {
  return exts.find((x) => x.state === "ready" && x[kind].some((d) => d.name === name));
}

function activeTools() {
  const seen = new Set();
  const out = [];
  for (const x of exts) {
    if (x.state !== "ready") continue;
    for (const t of x.tools) {
      if (seen.has(t.name)) continue;
      seen.add(t.name);
      out.push(t);
    }
  }
  return out;
}

// The events cairn sends: those it asks about (protocol version 1), and
// with version 2 those it tells as they happen. A pi extension may handle
// more, which cairn does not emit yet.
const ASKED_EVENTS = ["session_start", "session_shutdown", "input", "before_agent_start", "tool_call", "tool_result",
  "turn_end", "agent_end", "user_bash", "session_before_compact",
  // the session lifecycle's before-events
  "session_before_switch", "session_before_fork"];
const OBSERVED_EVENTS = ["agent_start", "turn_start", "message_start", "message_end", "tool_execution_start",
  "tool_execution_end", "model_select", "thinking_level_select", "agent_settled"];
let CAIRN_EVENTS = ASKED_EVENTS;
// IDLE_EVENTS start and end the agent's work, for ctx.isIdle().
const IDLE_EVENTS = ["agent_start", "agent_settled"];

let initId = null;
function maybeAnswerInitialize(force = false) {
  if (ready || initId === null || (!force && exts.some((x) => x.state === "starting"))) return;
  ready = true;
  const events = new Set();
  // One still loading may handle any event: ask for them all, and answer
  // null for those nobody handles.
  if (exts.some((x) => x.state === "starting")) for (const e of CAIRN_EVENTS) events.add(e);
  // Every extension's ctx.isIdle() follows the agent: told, never asked.
  if (init.protocolVersion >= 2) for (const e of IDLE_EVENTS) events.add(e);
  const commands = [];
  const seen = new Set();
  for (const x of exts) {
    if (x.state !== "ready") continue;
    for (const e of x.events) if (CAIRN_EVENTS.includes(e)) events.add(e);
    for (const c of x.commands) {
      if (seen.has(c.name)) continue;
      seen.add(c.name);
      commands.push(c);
    }
  }
  const result = { protocolVersion: 1, name: "pi", tools: activeTools(), commands, events: [...events] };
  if (init.protocolVersion >= 2) {
    result.protocolVersion = 2;
    result.members = exts.map(member);
    const providers = exts.flatMap((x) => (x.state === "ready" ? x.providers : []));
    if (providers.length) result.providers = providers;
  }
  send({ id: initId, result });
  for (const x of exts) {
    if (x.state === "failed" || x.state === "dead") log(`pi extension ${x.name} (${x.file}) not loaded: ${x.why}`);
    else {
      const skipped = x.events.filter((e) => !CAIRN_EVENTS.includes(e));
      if (skipped.length) log(`pi extension ${x.name}: cairn does not send ${skipped.join(", ")}`);
    }
  }
}

/**
 * registerLate tells cairn what an extension that loaded after initialize
 * registered; it resolves once cairn has answered every registration.
 */
function registerLate(x) {
  const calls = [];
  for (const t of x.tools) {
    if (owner("tools", t.name) === x) calls.push(callCairn("register_tool", t).catch((e) => log(`register_tool ${t.name}: ${e.message}`)));
  }
  for (const c of x.commands) {
    if (owner("commands", c.name) === x) calls.push(callCairn("register_command", c).catch((e) => log(`register_command ${c.name}: ${e.message}`)));
  }
  for (const p of x.providers) calls.push(registerProvider(x, p));
  return Promise.all(calls);
}

/**
 * memberChanged tells cairn (version 2) how a member that was still
 * loading when initialize was answered ended: ready (after its
 * registrations), failed or cut off. A run waiting for it goes on then.
 */
function memberChanged(x) {
  if (!ready || !(init.protocolVersion >= 2)) return;
  callCairn("member_changed", member(x)).catch((e) => log(`member_changed ${x.name}: ${e.message}`));
}

/** member is one pi extension as protocol version 2 reports it. */
function member(x) {
  if (x.state === "starting") return { name: x.name, path: x.file, state: "loading" };
  const m = { name: x.name, path: x.file, state: x.state === "ready" ? "ready" : "failed" };
  if (x.state !== "ready") {
    m.error = x.why;
    return m;
  }
  m.tools = x.tools.map((t) => t.name);
  m.commands = x.commands.map((c) => c.name);
  m.events = x.events;
  const ignored = x.events.filter((e) => !CAIRN_EVENTS.includes(e));
  if (ignored.length) m.eventsNotSent = ignored;
  for (const k of ["shortcuts", "flags", "flagDefs", "messageRenderers", "entryRenderers", "toolRenderers"]) if (x.info?.[k]?.length) m[k] = x.info[k];
  return m;
}

// ---- calls into the extensions ----
let nextCall = 1;
function callExt(x, m) {
  if (x.state !== "ready") return Promise.reject(new Error(`pi extension ${x.name} is not running: ${x.why}`));
  const id = nextCall++;
  return {
    id,
    promise: new Promise((resolve, reject) => {
      x.calls.set(id, { resolve, reject });
      x.lastPong = Date.now();
      x.worker.postMessage({ t: "call", id, ...m });
    }),
  };
}

// In-flight requests from cairn, by JSON-RPC id, for cancel.
const inflight = new Map();

async function runExt(rpcId, x, m) {
  const c = callExt(x, m);
  if (c instanceof Promise) return c;
  const key = JSON.stringify(rpcId);
  const list = inflight.get(key) || [];
  list.push({ x, id: c.id });
  inflight.set(key, list);
  try {
    return await c.promise;
  } finally {
    inflight.set(key, (inflight.get(key) || []).filter((e) => e.id !== c.id));
  }
}

async function executeTool(rpcId, p) {
  const x = owner("tools", p.name);
  if (!x) throw new Error(`no pi extension has the tool ${p.name}`);
  return runExt(rpcId, x, { kind: "tool", name: p.name, toolCallId: p.toolCallId, params: p.params });
}

async function runCommand(rpcId, p) {
  const x = owner("commands", p.name);
  if (!x) throw new Error(`no pi extension has the command /${p.name}`);
  await runExt(rpcId, x, { kind: "command", name: p.name, args: p.args });
  return null;
}

// render asks the extension that draws p for its lines; null when none
// does (cairn draws its own).
async function render(rpcId, p) {
  const x = renderer(exts, owner, p);
  return x ? runExt(rpcId, x, { kind: "render", p }) : null;
}

// runShortcut runs the handler of the later extension that registered
// the key, as pi uses the later one.
async function runShortcut(rpcId, p) {
  const x = exts.findLast((x) => x.state === "ready" && x.info?.shortcuts?.includes(p.key));
  if (!x) throw new Error(`no pi extension has the shortcut ${p.key}`);
  await runExt(rpcId, x, { kind: "shortcut", key: p.key });
  return null;
}

// event runs an event through every extension that handles it, in load
// order, each seeing what the ones before changed (pi's runner), and
// turns the outcome into protocol version 1's result.
async function event(rpcId, p) {
  const { type, ...payload } = p;
  const original = payload.systemPrompt;
  let prompt;
  let sections;
  const messages = [];
  let out = null;
  for (const x of exts) {
    if (x.state !== "ready" || !x.events.includes(type)) continue;
    const r = await runExt(rpcId, x, { kind: "event", type, payload });
    if (!r) continue;
    switch (type) {
      case "tool_call":
        if (r.block) return r;
        payload.input = r.input;
        out = { input: r.input };
        break;
      case "input":
        if (r.action === "handled") return r;
        payload.text = r.text;
        payload.images = r.images || payload.images;
        out = r;
        break;
      case "before_agent_start":
        if (r.systemPrompt !== undefined) payload.systemPrompt = prompt = r.systemPrompt;
        if (r.messages) messages.push(...r.messages);
        if (r.sections && payload.systemPromptOptions) {
          // The next extension sees the sections as this one left them.
          sections = r.sections;
          payload.systemPromptOptions.sections = Object.fromEntries(sections.map((s) => [s.name, s.text]));
        }
        break;
      case "tool_result":
        Object.assign(payload, r);
        out = { content: payload.content, ...(payload.details !== undefined ? { details: payload.details } : {}), isError: !!payload.isError };
        break;
      case "session_before_compact":
      case "session_before_switch":
      case "session_before_fork":
      case "user_bash":
        return r;
      case "context":
        payload.messages = r.messages;
        out = r;
        break;
      case "before_provider_request":
        payload.payload = r.payload;
        out = r;
        break;
      case "resources_discover":
        // Every extension's paths, in load order, as pi gathers them.
        out ??= {};
        for (const k of ["skillPaths", "promptPaths", "themePaths"]) if (r[k]?.length) out[k] = [...(out[k] || []), ...r[k]];
        break;
    }
  }
  if (type === "before_agent_start") {
    if (prompt === undefined && !messages.length && !sections) return null;
    out = sections ? { sections } : {};
    if (prompt !== undefined) {
      // Protocol v1 appends to cairn's system prompt; a pi extension's
      // prompt that extends the one it was given becomes that addition.
      const add = original && prompt.startsWith(original) ? prompt.slice(original.length) : prompt;
      if (add.trim()) out.appendSystemPrompt = add.trim();
    }
    if (messages.length) out.message = { content: messages.join("\n\n") };
  }
  return out;
}

// ---- model providers (provider.mjs) ----

/**
 * registerProvider tells cairn of a provider x registered, when cairn
 * takes providers; it resolves once cairn has answered.
 */
function registerProvider(x, def) {
  if (!(init.protocolVersion >= 2)) {
    log(`[${x.name}] registerProvider ${def.name}: cairn speaks protocol version 1 here, which has no providers`);
    return Promise.resolve();
  }
  return callCairn("register_provider", def).catch((e) => log(`[${x.name}] registerProvider ${def.name}: ${e.message}`));
}

/** providerChanged follows a provider registered or taken back after x loaded. */
function providerChanged(x, m) {
  const name = m.t === "provider" ? m.def.name : m.name;
  x.providers = (x.providers || []).filter((p) => p.name !== name);
  if (m.t === "provider") x.providers.push(m.def);
  if (!ready) return;
  if (m.t === "provider") registerProvider(x, m.def);
  else callCairn("unregister_provider", { name }).catch((e) => log(`[${x.name}] unregisterProvider ${name}: ${e.message}`));
}

// The stream_api calls in flight, by stream id: where cairn's
// stream_event notifications for them go.
const apiStreamOwners = new Map();

function trackApiStream(x, streamId) {
  if (typeof streamId === "string") apiStreamOwners.set(streamId, x);
}

/** stream runs cairn's stream request in the extension whose provider streams the model. */
function stream(rpcId, p) {
  const x = exts.find((x) => x.state === "ready" && (x.providers || []).some((d) => d.name === p.model?.provider && d.stream));
  if (!x) return Promise.reject(new Error(`no pi extension streams the provider ${p.model?.provider}`));
  return runExt(rpcId, x, { kind: "stream", ...p });
}

// ---- components (ui.custom): cairn's keys and sizes go to the worker
// showing the component ----
const customOwners = new Map(); // component id -> extension

function routeCustom(method, p) {
  const x = customOwners.get(p.id);
  if (!x || x.state !== "ready") return;
  x.worker.postMessage({ ...p, t: method === "custom_input" ? "customInput" : "customResize" });
}

// ---- cairn's side of the wire ----
let nextCairnId = 1;
const cairnCalls = new Map();

function callCairn(method, params) {
  const id = `pi-${nextCairnId++}`;
  return new Promise((resolve, reject) => {
    cairnCalls.set(id, { resolve, reject });
    send({ id, method, params });
  });
}

function respond(id, p) {
  p.then(
    (result) => send({ id, result: result ?? null }),
    (e) => send({ id, error: { code: -32000, message: e?.message || String(e) } }),
  );
}

const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
rl.on("line", (line) => {
  let m;
  try {
    m = JSON.parse(line);
  } catch {
    log(`unreadable line from cairn: ${line.slice(0, 200)}`);
    return;
  }
  if (m.method === undefined) {
    const c = cairnCalls.get(m.id);
    if (!c) return;
    cairnCalls.delete(m.id);
    if (m.error) c.reject(new Error(m.error.message));
    else c.resolve(m.result);
    return;
  }
  const p = m.params || {};
  switch (m.method) {
    case "initialize":
      init = { ...p, ui: p.ui || [] };
      initId = m.id;
      if (init.protocolVersion >= 2) CAIRN_EVENTS = [...ASKED_EVENTS, "context", "before_provider_request", "after_provider_response", "resources_discover", ...OBSERVED_EVENTS];
      loadNext();
      setTimeout(() => maybeAnswerInitialize(true), INIT_LIMIT_MS).unref();
      maybeAnswerInitialize();
      return;
    case "execute_tool":
      respond(m.id, executeTool(m.id, p));
      return;
    case "run_command":
      respond(m.id, runCommand(m.id, p));
      return;
    case "stream":
      respond(m.id, stream(m.id, p));
      return;
    case "render":
      respond(m.id, render(m.id, p));
      return;
    case "run_shortcut":
      respond(m.id, runShortcut(m.id, p));
      return;
    case "event":
      if (m.id === undefined) {
        // An observed event: every extension that handles it is told, in
        // load order; nothing is answered.
        if (IDLE_EVENTS.includes(p.type)) {
          for (const x of exts) if (x.state === "ready") x.worker.postMessage({ t: "idle", idle: p.type === "agent_settled" });
        }
        for (const x of exts) {
          if (x.state === "ready" && x.events.includes(p.type)) {
            const { type, ...payload } = p;
            const c = callExt(x, { kind: "event", type, payload });
            if (!(c instanceof Promise)) c.promise.catch((e) => log(`[${x.name}] ${type}: ${e.message}`));
          }
        }
        return;
      }
      respond(m.id, event(m.id, p));
      return;
    case "cancel":
      for (const e of inflight.get(JSON.stringify(p.id)) || []) e.x.worker?.postMessage({ t: "cancel", id: e.id });
      return;
    case "stream_event": {
      const x = apiStreamOwners.get(p.streamId);
      if (x && x.state !== "dead") x.worker.postMessage({ t: "streamEvent", streamId: p.streamId, events: p.events });
      return;
    }
    case "custom_input":
    case "custom_resize":
      routeCustom(m.method, p);
      return;
    case "shutdown":
      if (m.id !== undefined) send({ id: m.id, result: null });
      shutdown();
      return;
  }
  if (m.id !== undefined) send({ id: m.id, error: { code: -32601, message: `method not found: ${m.method}` } });
});
rl.on("close", shutdown);

function shutdown() {
  stopping = true;
  for (const x of exts) x.worker?.terminate();
  setTimeout(() => process.exit(0), 100).unref();
}
