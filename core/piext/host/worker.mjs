// One pi extension, in its own worker thread of cairn's pi extension host
// (host.mjs): it loads the module with jiti, as pi does, gives its factory
// pi's ExtensionAPI, and runs its tools, commands and event handlers when
// the host asks. Everything it needs from cairn (dialogs, messages,
// registrations made after start) goes through the host as "rpc" messages.
import { spawn } from "node:child_process";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { MessageChannel, parentPort, receiveMessageOnPort, workerData } from "node:worker_threads";
import { createRequire } from "node:module";
import { combine, textOf } from "./combine.mjs";
import { makeTheme } from "./shims/theme.mjs";
import { modelAPI } from "./model.mjs";
import { apiStreams, providerAPI } from "./provider.mjs";
import { makeCustom } from "./customui.mjs";
import { makeEditor, tuiHook } from "./editorui.mjs";
import { lazyPiTUI } from "./pitui.mjs";
import { makeRender } from "./render.mjs";
import { flagDef, flagValue } from "./flags.mjs";
import { snapshot, withSections } from "./promptopts.mjs";
import { compactEvent, customMessage, newSession, sessionCalls } from "./session.mjs";
import { toolsAPI } from "./tools.mjs";

// loaderMark is the property by which the pi-coding-agent shim's
// BorderedLoader is known, and its message read.
const loaderMark = Symbol.for("cairn.pi.loader");

const here = path.dirname(fileURLToPath(import.meta.url));
// jiti's CommonJS entry: importing its ESM entry makes Node scan its
// 190 KB bundle for exports, about 80 ms more for every extension.
const createJiti = createRequire(import.meta.url)("./jiti/lib/jiti.cjs");
const { file, cwd, hasUI, ui: uiMethods, mode, flags: cliFlags = {} } = workerData;

// An extension that runs the agent it runs in again spawns
// `node <process.argv[1]> ...`, as in pi: here that is cairn (pi-cli.mjs).
if (process.env.CAIRN_PI_CLI) process.argv[1] = path.join(here, "pi-cli.mjs");

// A stray console.log must never reach cairn's protocol stream: the host
// reads this thread's stdout into its log, and console writes go there too.
for (const k of ["log", "info", "debug", "warn", "error", "trace"]) {
  console[k] = (...a) => process.stderr.write(a.map((x) => (typeof x === "string" ? x : safeString(x))).join(" ") + "\n");
}
process.on("unhandledRejection", (e) => process.stderr.write(`unhandled rejection: ${e?.stack || e}\n`));

function safeString(x) {
  try {
    return JSON.stringify(x);
  } catch {
    return String(x);
  }
}

// ---- talking to the host ----
let nextId = 1;
const pending = new Map();
const calls = new Map();

function post(m) {
  parentPort.postMessage(m);
}

/** rpc calls cairn through the host and resolves with its result. */
function rpc(method, params) {
  const id = nextId++;
  return new Promise((resolve, reject) => {
    pending.set(id, { resolve, reject });
    post({ t: "rpc", id, method, params });
  });
}

// Some of pi's API answers at once (sessionManager.getEntries(),
// appendEntry): syncRPC waits, bounded, for cairn's answer, on a port of
// its own and a shared flag the host raises when the answer is there.
const syncFlag = new Int32Array(new SharedArrayBuffer(4));
const sync = new MessageChannel();
parentPort.postMessage({ t: "syncPort", port: sync.port2, flag: syncFlag.buffer }, [sync.port2]);
let syncSeq = 0;
const SYNC_LIMIT_MS = 3000;

function syncRPC(method, params) {
  const seq = ++syncSeq;
  Atomics.store(syncFlag, 0, 0);
  post({ t: "syncRpc", seq, method, params });
  const deadline = Date.now() + SYNC_LIMIT_MS;
  for (;;) {
    const left = deadline - Date.now();
    if (left <= 0 || Atomics.wait(syncFlag, 0, 0, left) === "timed-out") {
      throw new Error(`${method}: cairn did not answer within ${SYNC_LIMIT_MS / 1000} s`);
    }
    Atomics.store(syncFlag, 0, 0);
    // Answers to calls that timed out before are dropped.
    for (let m = receiveMessageOnPort(sync.port1); m; m = receiveMessageOnPort(sync.port1)) {
      if (m.message.seq !== seq) continue;
      if (m.message.error) throw new Error(m.message.error);
      return m.message.result;
    }
  }
}

const models = modelAPI(rpc, syncRPC, (line) => process.stderr.write(line + "\n"));
const providers = providerAPI(post, (line) => process.stderr.write(line + "\n"));
const apis = apiStreams(rpc, post, (line) => process.stderr.write(line + "\n"));

// ---- what the extension registers ----
const handlers = new Map();
const tools = new Map();
const toolCalls = toolsAPI(syncRPC, rpc, tools, file, (line) => process.stderr.write(line + "\n"));
const commands = new Map();
const flags = new Map();
const shortcuts = new Map();
const unsupported = new Set();
const entries = [];
let loaded = false;
let idle = true;
let systemPrompt = "";
// The context's size as the last answer's usage tells it (pi's
// calculateContextTokens), for ctx.getContextUsage(): unknown (null)
// before this host's first answer and after a compaction.
let contextTokens = null;
function noteUsage(message) {
  const u = message?.role === "assistant" ? message.usage : undefined;
  if (!u) return;
  contextTokens = u.totalTokens || (u.input || 0) + (u.output || 0) + (u.cacheRead || 0) + (u.cacheWrite || 0);
}
let sessionName;

function toolDef(t) {
  const d = { name: t.name, description: t.description || t.label || t.name, parameters: JSON.parse(JSON.stringify(t.parameters ?? { type: "object" })) };
  if (t.label) d.label = t.label;
  return d;
}

// ctx.ui.theme: pi's colours in --mode rpc, plain where cairn draws.
const theme = makeTheme(mode);

const canDo = (m) => uiMethods.includes(m);
const customUI = makeCustom({ rpc, notify: (method, params) => post({ t: "notify", method, params }), canDo, theme, log: (s) => process.stderr.write(s + "\n"),
  prepare: () => (tuiLoaded ??= loadPiTUI()),
  loader: (c) => {
    // pi's BorderedLoader: a spinner while the extension works. cairn
    // shows its message in the status line until the work is done.
    const message = c?.[loaderMark];
    if (message === undefined) return undefined;
    uiContext.setStatus("loader", message);
    return () => uiContext.setStatus("loader", undefined);
  },
});
// Its editor in place of cairn's (editorui.mjs): pi-tui's Editor, loaded whole first.
const editorUI = makeEditor({ custom: (f, o) => (globalThis[tuiHook]?.need(), customUI.custom(f, o)), canDo, theme, log: (s) => process.stderr.write(s + "\n"),
  restore: (text) => fire("set_editor_text", { text }) });
// What it draws in cairn's TUI: footer, header, renderers (render.mjs).
const drawing = makeRender({ fire, canDo, theme, cwd, tools, log: (s) => process.stderr.write(s + "\n") });

function dialog(method, params, opts) {
  if (!canDo(method)) return Promise.resolve(undefined);
  const p = { method, ...params };
  if (opts?.timeout) p.timeout = opts.timeout;
  return rpc("ui", p).catch((e) => {
    process.stderr.write(`ui ${method}: ${e.message}\n`);
    return { cancelled: true };
  });
}

function fire(method, params) {
  if (!canDo(method)) return;
  rpc("ui", { method, ...params }).catch((e) => process.stderr.write(`ui ${method}: ${e.message}\n`));
}

function renderLines(content) {
  if (content === undefined || Array.isArray(content)) return content;
  if (typeof content === "function") {
    const c = content({ requestRender() {}, terminal: { columns: 100, rows: 30 } }, theme);
    return c?.render ? c.render(100) : [];
  }
  return [String(content)];
}

const uiContext = {
  select: async (title, options, opts) => (await dialog("select", { title, options }, opts))?.value,
  confirm: async (title, message, opts) => (await dialog("confirm", { title, message }, opts))?.confirmed === true,
  input: async (title, placeholder, opts) => (await dialog("input", { title, ...(placeholder ? { placeholder } : {}) }, opts))?.value,
  editor: async (title, prefill) => (await dialog("editor", { title, ...(prefill ? { prefill } : {}) }))?.value,
  notify: (message, type) => {
    if (canDo("notify")) fire("notify", { message: String(message), ...(type ? { notifyType: type } : {}) });
    else process.stderr.write(`[${type || "info"}] ${message}\n`);
  },
  setStatus: (key, text) => {
    drawing.noteStatus(key, text);
    fire("setStatus", { statusKey: key, ...(text === undefined ? {} : { statusText: String(text) }) });
  },
  setWidget: (key, content, options) => {
    const lines = renderLines(content);
    fire("setWidget", { widgetKey: key, ...(lines ? { widgetLines: lines } : {}), ...(options?.placement ? { widgetPlacement: options.placement } : {}) });
  },
  setTitle: (title) => fire("setTitle", { title: String(title) }),
  setEditorText: (text) => {
    if (!editorUI.setText(String(text))) fire("set_editor_text", { text: String(text) });
  },
  pasteToEditor: (text) => {
    if (!editorUI.paste(String(text))) fire("set_editor_text", { text: String(text) });
  },
  getEditorText: () => editorUI.text() || "",
  custom: async (factory, options) => {
    // Shown in cairn's TUI (customui.mjs); elsewhere only pi's
    // BorderedLoader means something.
    if (canDo("custom")) return customUI.custom(factory, options);
    let finish;
    const finished = new Promise((resolve) => (finish = resolve));
    let component;
    try {
      component = await factory({ requestRender() {}, terminal: { columns: 100, rows: 30 } }, theme, {}, (v) => finish(v));
    } catch (e) {
      process.stderr.write(`ui.custom: ${e.message}\n`);
    }
    const message = component?.[loaderMark];
    if (message === undefined) {
      component?.dispose?.();
      unsupported.add("ui.custom");
      return undefined;
    }
    // pi's BorderedLoader: a spinner while the extension works. cairn
    // shows its message in the status line until the work is done.
    uiContext.setStatus("loader", message);
    try {
      return await finished;
    } finally {
      uiContext.setStatus("loader", undefined);
    }
  },
  onTerminalInput: () => () => {},
  ...drawing.ui,
  ...editorUI.ui,
  addAutocompleteProvider() {},
  getAllThemes: () => [{ name: "dark" }],
  getTheme: () => undefined,
  setTheme: () => ({ success: false, error: "cairn's themes are set in cairn" }),
  getToolsExpanded: () => false,
  setToolsExpanded() {},
  theme,
};

// sessionEntries reads the session's entries from cairn; a session that
// keeps none (in memory) has this extension's own.
function sessionEntries() {
  try {
    const r = syncRPC("get_entries", {});
    return { all: r.entries, leaf: r.leafId || null };
  } catch (e) {
    process.stderr.write(`sessionManager: ${e.message}; using this extension's own entries\n`);
    return { all: [...entries], leaf: entries.at(-1)?.id ?? null, local: true };
  }
}

function branchOf({ all, leaf }) {
  const byId = new Map(all.map((e) => [e.id, e]));
  const out = [];
  for (let e = byId.get(leaf); e; e = e.parentId ? byId.get(e.parentId) : undefined) out.push(e);
  return out.reverse();
}

const session = sessionCalls(syncRPC, sessionEntries, () => [...commands.values()], file, (line) => process.stderr.write(line + "\n"));

const sessionManager = {
  getCwd: () => cwd,
  getEntries: () => sessionEntries().all,
  getBranch: () => branchOf(sessionEntries()),
  getLeafId: () => sessionEntries().leaf,
  getLeafEntry: () => {
    const s = sessionEntries();
    return s.all.find((e) => e.id === s.leaf);
  },
  getEntry: (id) => sessionEntries().all.find((e) => e.id === id),
  getHeader: () => ({ type: "session", cwd }),
  getSessionFile: () => session.info().file,
  getSessionDir: () => session.info().dir,
  getSessionId: () => session.info().id ?? "",
  getSessionName: () => session.info().name ?? sessionName,
  getLabel: (id) => session.getLabel(id),
  getChildren: () => [],
  getTree: () => [],
};

// sessionSystemPrompt is the session's system prompt, read from cairn
// when called; without an answer, the one before_agent_start last showed.
function sessionSystemPrompt() {
  try {
    return syncRPC("get_system_prompt", {}).systemPrompt;
  } catch (e) {
    process.stderr.write(`getSystemPrompt: ${e.message}\n`);
    return systemPrompt;
  }
}

function context(signal) {
  return {
    ui: uiContext,
    hasUI,
    mode,
    cwd,
    sessionManager,
    modelRegistry: models.modelRegistry,
    get model() {
      return models.model;
    },
    signal,
    isIdle: () => idle,
    abort: () => {},
    hasPendingMessages: () => false,
    // ctx.shutdown: cairn ends the session once the agent is idle.
    shutdown: () => {
      rpc("request_shutdown", {}).catch((e) => process.stderr.write(`shutdown: ${e.message}\n`));
    },
    // The host is not told the model's context window: contextWindow is
    // 0 and percent null (pi's "unknown").
    getContextUsage: () => (contextTokens === null ? undefined : { tokens: contextTokens, contextWindow: 0, percent: null }),
    // ctx.compact: fire and forget, as pi's; its callbacks say how it ended.
    compact: (options) => {
      const p = options?.customInstructions ? { customInstructions: String(options.customInstructions) } : {};
      rpc("compact", p).then(
        (result) => {
          contextTokens = null;
          options?.onComplete?.(result);
        },
        (e) => {
          if (options?.onError) options.onError(e);
          else process.stderr.write(`compact: ${e.message}\n`);
        },
      );
    },
    getSystemPrompt: sessionSystemPrompt,
  };
}

function commandContext(signal) {
  const notHere = (name) => async () => {
    throw new Error(`ctx.${name} is not in cairn's extension protocol yet`);
  };
  // The context's getters (ctx.model) stay getters: copied, not read.
  const c = Object.defineProperties({}, Object.getOwnPropertyDescriptors(context(signal)));
  return Object.assign(c, {
    waitForIdle: async () => {},
    newSession: (options) => newSession(rpc, options, sessionManager, api, () => context(new AbortController().signal), (n) => unsupported.add(n)),
    fork: notHere("fork"),
    navigateTree: notHere("navigateTree"),
    switchSession: notHere("switchSession"),
    // cairn starts every extension again once this answers: this
    // worker's among them, so nothing after it should use this ctx.
    reload: async () => {
      await rpc("reload", {});
    },
  });
}


function exec(command, args = [], options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: options.cwd ?? cwd, shell: false });
    let stdout = "";
    let stderr = "";
    let killed = false;
    const kill = () => {
      killed = true;
      child.kill("SIGKILL");
    };
    const timer = options.timeout ? setTimeout(kill, options.timeout) : undefined;
    options.signal?.addEventListener("abort", kill, { once: true });
    child.stdout.on("data", (b) => (stdout += b));
    child.stderr.on("data", (b) => (stderr += b));
    child.on("error", (e) => {
      clearTimeout(timer);
      resolve({ stdout, stderr: stderr + e.message, code: 1, killed });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ stdout, stderr, code: code ?? 1, killed });
    });
  });
}

const bus = new Map();

const api = {
  on(event, handler) {
    const list = handlers.get(event) ?? [];
    list.push(handler);
    handlers.set(event, list);
    if (loaded) post({ t: "events", events: [...handlers.keys()] });
    return () => {
      const l = handlers.get(event) || [];
      const i = l.indexOf(handler);
      if (i >= 0) l.splice(i, 1);
    };
  },
  registerTool(tool) {
    if (typeof tool.parameters !== "object" || tool.parameters === null || Array.isArray(tool.parameters)) {
      throw new Error(`Tool "${tool.name}" registered by extension "${file}" must define an object parameter schema.`);
    }
    tools.set(tool.name, tool);
    if (loaded) post({ t: "tool", def: toolDef(tool) });
  },
  registerCommand(name, options) {
    commands.set(name, { name, ...options });
    if (loaded) post({ t: "command", def: { name, ...(options?.description ? { description: options.description } : {}) } });
  },
  registerShortcut(shortcut, options) {
    shortcuts.set(shortcut, options);
  },
  registerFlag(name, options) {
    if (options.default !== undefined && typeof options.default !== options.type) {
      throw new Error(`Invalid default for flag "${name}": expected ${options.type}, got ${typeof options.default}`);
    }
    flags.set(name, { ...options, value: flagValue(cliFlags, name, options) });
  },
  getFlag: (name) => flags.get(name)?.value,
  registerMessageRenderer(type, r) {
    drawing.messageRenderers.set(type, r);
  },
  registerEntryRenderer(type, r) {
    drawing.entryRenderers.set(type, r);
  },
  registerMarkdownTransformer() {},
  registerProvider: providers.registerProvider,
  unregisterProvider: providers.unregisterProvider,
  sendMessage(message, options) {
    rpc("send_message", customMessage(message, options)).catch((e) => {
      // A cairn that cannot keep it: shown, and sent as the user's.
      process.stderr.write(`sendMessage: ${e.message}\n`);
      const text = textOf(message?.content);
      if (message?.display && text) uiContext.notify(text, "info");
      if (options?.triggerTurn && text) api.sendUserMessage(text, options);
    });
  },
  sendUserMessage(content, options) {
    const p = { content: textOf(content) };
    if (options?.deliverAs === "steer" || options?.deliverAs === "followUp") p.deliverAs = options.deliverAs;
    rpc("send_user_message", p).catch((e) => process.stderr.write(`sendUserMessage: ${e.message}\n`));
  },
  appendEntry(customType, data) {
    const entry = { type: "custom", customType, data, id: `${Date.now().toString(16)}${entries.length}`, timestamp: new Date().toISOString() };
    try {
      const params = { customType };
      if (data !== undefined) params.data = data;
      entry.id = syncRPC("append_entry", params).id;
    } catch (e) {
      process.stderr.write(`appendEntry: ${e.message}\n`);
    }
    // Also kept here, for reads when cairn cannot give the session's
    // entries (a conversation kept in memory).
    entries.push(entry);
  },
  setSessionName(name) {
    sessionName = name;
    rpc("set_session_name", { name: String(name) }).catch((e) => process.stderr.write(`setSessionName: ${e.message}\n`));
  },
  getSessionName: () => sessionName,
  setLabel: (entryId, label) => session.setLabel(entryId, label),
  exec,
  ...toolCalls,
  getCommands: () => session.getCommands(),
  setModel: models.setModel,
  getThinkingLevel: models.getThinkingLevel,
  setThinkingLevel: models.setThinkingLevel,
  events: {
    emit(channel, data) {
      post({ t: "bus", channel, data });
      deliver(channel, data);
    },
    on(channel, handler) {
      const l = bus.get(channel) ?? [];
      l.push(handler);
      bus.set(channel, l);
      return () => bus.set(channel, (bus.get(channel) || []).filter((h) => h !== handler));
    },
  },
};

function deliver(channel, data) {
  for (const h of bus.get(channel) || []) {
    try {
      h(data);
    } catch (e) {
      process.stderr.write(`event bus ${channel}: ${e?.stack || e}\n`);
    }
  }
}

// ---- events, with pi's runner's rules for combining handlers ----
async function runEvent(type, payload, signal) {
  const list = handlers.get(type) || [];
  const event = { type, ...payload };
  if (type === "before_agent_start") systemPrompt = event.systemPrompt ?? "";
  if (type === "turn_end" || type === "message_end") noteUsage(event.message);
  const before = type === "before_agent_start" ? snapshot(event.systemPromptOptions) : undefined;
  if (type === "session_before_compact") compactEvent(event, signal, () => branchOf(sessionEntries()));
  const r = await combine(type, event, list, context(signal), (name) => unsupported.add(name));
  return before === undefined ? r : withSections(r, before, event.systemPromptOptions, (name) => unsupported.add(name));
}

function toolResult(r) {
  const content = (r?.content || []).filter((c) => c && (c.type === "text" || c.type === "image"))
    .map((c) => (c.type === "text" ? { type: "text", text: String(c.text) } : { type: "image", data: c.data, mimeType: c.mimeType }));
  const out = { content };
  if (r?.details !== undefined) out.details = r.details;
  if (r?.isError) out.isError = true;
  if (r?.terminate === true) out.terminate = true;
  return out;
}

async function runCall(m, signal) {
  switch (m.kind) {
    case "tool": {
      const tool = tools.get(m.name);
      if (!tool) throw new Error(`no tool ${m.name}`);
      const onUpdate = (partial) => {
        const { terminate, isError, ...p } = toolResult(partial);
        post({ t: "notify", method: "tool_update", params: { toolCallId: m.toolCallId, ...p } });
      };
      return toolResult(await tool.execute(m.toolCallId, m.params, signal, onUpdate, context(signal)));
    }
    case "command": {
      const c = commands.get(m.name);
      if (!c) throw new Error(`no command /${m.name}`);
      await c.handler(m.args, commandContext(signal));
      return null;
    }
    case "event":
      return runEvent(m.type, m.payload, signal);
    case "stream":
      return providers.stream(m, signal);
    case "render":
      return drawing.render(m.p);
    case "shortcut": {
      const s = shortcuts.get(m.key);
      if (!s) throw new Error(`no shortcut ${m.key}`);
      await s.handler(context(signal));
      return null;
    }
  }
  throw new Error(`unknown call ${m.kind}`);
}

parentPort.on("message", async (m) => {
  switch (m.t) {
    case "ping":
      post({ t: "pong" });
      return;
    case "rpcResult": {
      const p = pending.get(m.id);
      if (!p) return;
      pending.delete(m.id);
      if (m.error) p.reject(new Error(m.error));
      else p.resolve(m.result);
      return;
    }
    case "bus":
      deliver(m.channel, m.data);
      return;
    case "streamEvent":
      apis.onEvents(m.streamId, m.events);
      return;
    case "idle":
      idle = m.idle;
      return;
    case "cancel":
      calls.get(m.id)?.abort();
      return;
    case "customInput":
      customUI.input(m);
      return;
    case "customResize":
      customUI.resize(m);
      return;
    case "call": {
      const ac = new AbortController();
      calls.set(m.id, ac);
      try {
        // A tool, a command or a drawing uses pi-tui as loaded whole and
        // natively, never its files one by one (with Babel, on a cold
        // cache) while cairn waits; an event does not wait for it.
        if (m.kind !== "event") await (tuiLoaded ??= loadPiTUI());
        const result = await runCall(m, ac.signal);
        post({ t: "result", id: m.id, result: result ?? null });
      } catch (e) {
        post({ t: "result", id: m.id, error: e instanceof Error ? e.message : String(e) });
      } finally {
        calls.delete(m.id);
      }
    }
  }
});

// pi-tui, when the extension imports it, loads whole (natively) before
// its first tool, command, drawing or component, not while it starts
// (pitui.mjs); until then (its load, its events) each export read loads
// its own file.
let loadPiTUI = async () => {};
let tuiLoaded;

// ---- loading, as pi's loader does ----
async function load() {
  const shim = (n) => path.join(here, "shims", n);
  const alias = {
    "@earendil-works/pi-coding-agent": shim("pi-coding-agent.mjs"),
    "@mariozechner/pi-coding-agent": shim("pi-coding-agent.mjs"),
    "@earendil-works/pi-agent-core": shim("pi-agent-core.mjs"),
    "@mariozechner/pi-agent-core": shim("pi-agent-core.mjs"),
    "@earendil-works/pi-ai": shim("pi-ai.mjs"),
    "@earendil-works/pi-ai/compat": shim("pi-ai.mjs"),
    "@mariozechner/pi-ai": shim("pi-ai.mjs"),
    "@mariozechner/pi-ai/compat": shim("pi-ai.mjs"),
    typebox: shim("typebox.mjs"),
    "@sinclair/typebox": shim("typebox.mjs"),
    "typebox/compile": shim("typebox.mjs"),
    "typebox/value": shim("typebox.mjs"),
    "@sinclair/typebox/compile": shim("typebox.mjs"),
    "@sinclair/typebox/value": shim("typebox.mjs"),
  };
  // jiti keeps each transpiled module in cairn's cache, by content hash:
  // a later start then needs no Babel, which saves most of a worker's
  // memory and start-up time.
  const fsCache = process.env.CAIRN_PI_JITI_CACHE || false;
  // pi-tui is pi's own (MIT, vendored): components render and take keys
  // as in pi. Its files load on first use (pitui.mjs), once each.
  const tuiJiti = createJiti(import.meta.url, { moduleCache: true, fsCache });
  const piTUI = lazyPiTUI(path.join(here, "node_modules", "@earendil-works", "pi-tui", "dist"), (f) => tuiJiti(f));
  let usesPiTUI = false;
  const preload = () => piTUI.preload().catch((e) => process.stderr.write(`pi-tui: ${e?.stack || e}\n`));
  // The shim's CustomEditor extends pi-tui's Editor, loaded whole when
  // an editor is set.
  globalThis[tuiHook] = {
    module: piTUI.module,
    need() {
      if (loadPiTUI !== preload) [loadPiTUI, tuiLoaded] = [preload, undefined];
    },
  };
  const virtualModules = {
    get "@earendil-works/pi-tui"() {
      usesPiTUI = true;
      return piTUI.module;
    },
    get "@mariozechner/pi-tui"() {
      usesPiTUI = true;
      return piTUI.module;
    },
  };
  const jiti = createJiti(import.meta.url, { moduleCache: false, alias, virtualModules, fsCache });
  let factory;
  try {
    factory = await jiti.import(file, { default: true });
  } catch (e) {
    post({ t: "failed", error: `Failed to load extension: ${e?.message || e}` });
    return;
  }
  if (typeof factory !== "function") {
    post({ t: "failed", error: `Extension does not export a valid factory function: ${file}` });
    return;
  }
  try {
    await factory(api);
  } catch (e) {
    post({ t: "failed", error: `Failed to load extension: ${e?.message || e}` });
    return;
  }
  loaded = true;
  if (usesPiTUI) loadPiTUI = preload;
  post({
    t: "loaded",
    tools: [...tools.values()].map(toolDef),
    commands: [...commands.values()].map((c) => ({ name: c.name, ...(c.description ? { description: c.description } : {}) })),
    events: [...handlers.keys()],
    shortcuts: [...shortcuts.keys()],
    flags: [...flags.keys()],
    ...drawing.registered(),
    flagDefs: [...flags].map(([name, o]) => flagDef(name, o)),
    providers: providers.defs(),
  });
}

setInterval(() => {
  if (unsupported.size) {
    post({ t: "unsupported", names: [...unsupported] });
    unsupported.clear();
  }
}, 1000).unref();

load();
