// pi's registerProvider and unregisterProvider in one extension's worker
// (protocol version 2's register_provider, unregister_provider and
// stream): what cairn can carry of a provider's config goes to cairn's
// catalog, and a provider with a streamSimple of its own answers cairn's
// stream requests here, its events sent back as they come.

import { collapseSystemMessages, createAssistantMessageEventStream, getCurrentSystemPrompt, getCurrentTools, normalizeContext } from "./shims/pi-ai-stream.mjs";

// The fields of pi's ProviderConfig and model config cairn's catalog
// carries (models.json's shape); the others are said in the log.
const PROVIDER_FIELDS = ["baseUrl", "api", "apiKey", "headers", "authHeader", "compat"];
const MODEL_FIELDS = ["id", "name", "api", "baseUrl", "reasoning", "input", "cost", "contextWindow", "maxTokens", "headers", "compat"];

// Stream events are sent in batches: at most BATCH at once, and a batch
// waits at most FLUSH_MS, so a fast stream never floods the host.
const BATCH = 256;
const FLUSH_MS = 15;

/**
 * providerAPI builds registerProvider and unregisterProvider for one
 * extension; post sends a message to the host, log writes its log.
 */
export function providerAPI(post, log) {
  const providers = new Map();
  let loaded = false;

  function definition(name, config) {
    const out = {};
    for (const [k, v] of Object.entries(config)) {
      if (v === undefined || k === "models" || k === "streamSimple") continue;
      if (k === "oauth") {
        log(`registerProvider ${name}: cairn's /login does not run an extension's OAuth; the provider's key comes from its apiKey (as "$VARIABLE", a command "!cmd" or the key itself)`);
        continue;
      }
      if (k === "compat") out.compat = knownCompat(v, (ck) => log(`registerProvider ${name}: cairn does not use compat.${ck}`));
      else if (PROVIDER_FIELDS.includes(k)) out[k] = v;
      else log(`registerProvider ${name}: cairn does not use the field ${k}`);
    }
    if (Array.isArray(config.models)) {
      out.models = config.models.map((m) => {
        const model = {};
        for (const [k, v] of Object.entries(m ?? {})) {
          if (v === undefined) continue;
          if (k === "compat") model.compat = knownCompat(v, (ck) => log(`registerProvider ${name}: model ${m.id}: cairn does not use compat.${ck}`));
          else if (MODEL_FIELDS.includes(k)) model[k] = v;
          else log(`registerProvider ${name}: model ${m.id}: cairn does not use the field ${k}`);
        }
        return model;
      });
    }
    const def = { name, config: JSON.parse(JSON.stringify(out)) };
    if (typeof config.streamSimple === "function") def.stream = true;
    return def;
  }

  return {
    registerProvider(name, config) {
      if (typeof name !== "string" || !config || typeof config !== "object") {
        throw new Error("cairn takes registerProvider(name, config); a provider object of pi-ai's (registerProvider(provider)) is not supported");
      }
      const def = definition(name, config);
      providers.set(name, { config, def });
      if (loaded) post({ t: "provider", def });
    },
    unregisterProvider(name) {
      if (!providers.delete(name)) return;
      if (loaded) post({ t: "unprovider", name });
    },
    /** defs are the providers registered while loading, for "loaded". */
    defs() {
      loaded = true;
      return [...providers.values()].map((p) => p.def);
    },
    /** stream runs one of cairn's stream requests through streamSimple. */
    async stream(m, signal) {
      const p = providers.get(m.model?.provider);
      if (!p || typeof p.config.streamSimple !== "function") throw new Error(`no provider ${m.model?.provider} streams here`);
      const options = { ...m.options, signal };
      // pi 0.87 hands streamSimple a transcript: the system prompt and
      // tools in a leading system message.
      const events = p.config.streamSimple(m.model, normalizeContext(m.context), options);
      let batch = [];
      let timer;
      const flush = () => {
        clearTimeout(timer);
        timer = undefined;
        if (!batch.length) return;
        post({ t: "notify", method: "stream_event", params: { streamId: m.streamId, events: batch } });
        batch = [];
      };
      const send = (e) => {
        batch.push(e);
        if (batch.length >= BATCH) flush();
        else timer ??= setTimeout(flush, FLUSH_MS);
      };
      // A bad index is block 0 rather than a frame cairn refuses.
      const at = (ev) => (Number.isInteger(ev.contentIndex) && ev.contentIndex >= 0 ? ev.contentIndex : 0);
      let final;
      for await (const ev of events) {
        switch (ev?.type) {
          case "start":
            send({ type: "start", contentIndex: 0 });
            break;
          case "text_start":
          case "thinking_start":
          case "text_end":
          case "thinking_end":
          case "toolcall_end":
            send({ type: ev.type, contentIndex: at(ev) });
            break;
          case "toolcall_start": {
            const block = ev.partial?.content?.[ev.contentIndex] ?? {};
            send({ type: ev.type, contentIndex: at(ev), id: String(block.id ?? ""), name: String(block.name ?? "") });
            break;
          }
          case "text_delta":
          case "thinking_delta":
          case "toolcall_delta":
            send({ type: ev.type, contentIndex: at(ev), delta: String(ev.delta ?? "") });
            break;
          case "done":
            final = ev.message;
            break;
          case "error":
            final = ev.error;
            break;
        }
        if (final) break;
      }
      flush();
      if (!final) throw new Error(`provider ${m.model.provider}: its stream ended without a done or error event`);
      return plainMessage(final);
    },
  };
}

// plainMessage is the finished message as cairn reads it: pi's
// AssistantMessage without the fields a stream keeps for itself.
function plainMessage(msg) {
  const content = (msg.content ?? []).map((c) => {
    const { index, partialJson, ...rest } = c ?? {};
    return rest;
  });
  return { ...msg, content };
}

// ---- pi-ai's own providers, run by cairn (stream_api) ----

// The fields of a model's compat cairn's providers read (core.Compat's).
const COMPAT_FIELDS = ["supportsStore", "supportsDeveloperRole", "supportsReasoningEffort", "reasoningEffortMap", "supportsUsageInStreaming",
  "maxTokensField", "requiresToolResultName", "requiresAssistantAfterToolResult", "requiresThinkingAsText", "thinkingFormat",
  "openRouterRouting", "vercelGatewayRouting", "supportsStrictMode"];
const MODEL_KEYS = [...MODEL_FIELDS, "provider"];

// cairnModel is a model as cairn reads it; what else it sets is said in
// the log, once each.
const dropped = new Set();
function cairnModel(model, log) {
  const out = {};
  const drop = (what) => {
    if (dropped.has(what)) return;
    dropped.add(what);
    log(`${model.provider}/${model.id}: cairn's provider does not use ${what}`);
  };
  for (const [k, v] of Object.entries(model)) {
    if (v === undefined) continue;
    if (!MODEL_KEYS.includes(k)) drop(`the field ${k}`);
    else if (k === "cost") out.cost = { input: v.input ?? 0, output: v.output ?? 0, cacheRead: v.cacheRead ?? 0, cacheWrite: v.cacheWrite ?? 0 };
    else if (k === "compat") out.compat = knownCompat(v, (ck) => drop(`compat.${ck}`));
    else out[k] = v;
  }
  return JSON.parse(JSON.stringify(out));
}

// knownCompat is the part of a compat cairn reads; drop is told each
// other key.
function knownCompat(compat, drop) {
  const out = {};
  for (const [k, v] of Object.entries(compat ?? {})) {
    if (COMPAT_FIELDS.includes(k)) out[k] = v;
    else drop(k);
  }
  return out;
}

/** apiHook is where the pi-ai shim finds streamApi. */
export const apiHook = Symbol.for("cairn.pi.streamApi");

// The options of pi-ai's streamSimple that stream_api carries; others
// are said in the log, once each.
const API_OPTIONS = ["apiKey", "headers", "reasoning", "maxTokens", "sessionId", "signal"];

/**
 * apiStreams installs the pi-ai shim's hook for anthropicMessagesApi()
 * and the like: their streams are cairn's own providers' (stream_api),
 * whose events come back through onEvents. rpc calls cairn, post sends
 * to the host, log writes the extension's log.
 */
export function apiStreams(rpc, post, log) {
  const listeners = new Map();
  const unsent = new Set();
  let next = 0;

  globalThis[apiHook] = (api, model, context, options = {}) => {
    const out = createAssistantMessageEventStream();
    const streamId = `${process.pid}-${Date.now().toString(36)}-${++next}`;
    const partial = {
      role: "assistant", content: [], api: model.api, provider: model.provider, model: model.id,
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
      stopReason: "pending", timestamp: Date.now(),
    };
    const json = new Map();
    listeners.set(streamId, (events) => {
      for (const e of events) {
        const i = e.contentIndex;
        const block = partial.content[i];
        switch (e.type) {
          case "start":
            out.push({ type: "start", partial });
            continue;
          case "text_start":
            partial.content[i] = { type: "text", text: "" };
            break;
          case "thinking_start":
            partial.content[i] = { type: "thinking", thinking: "" };
            break;
          case "toolcall_start":
            partial.content[i] = { type: "toolCall", id: e.id, name: e.name, arguments: {} };
            json.set(i, "");
            break;
          case "text_delta":
            if (block) block.text += e.delta;
            break;
          case "thinking_delta":
            if (block) block.thinking += e.delta;
            break;
          case "toolcall_delta":
            json.set(i, (json.get(i) ?? "") + e.delta);
            break;
          case "toolcall_end":
            try {
              if (block) block.arguments = JSON.parse(json.get(i) || "{}");
            } catch {}
            out.push({ type: e.type, contentIndex: i, toolCall: block, partial });
            continue;
          case "text_end":
            out.push({ type: e.type, contentIndex: i, content: block?.text ?? "", partial });
            continue;
          case "thinking_end":
            out.push({ type: e.type, contentIndex: i, content: block?.thinking ?? "", partial });
            continue;
        }
        out.push(e.delta !== undefined ? { type: e.type, contentIndex: i, delta: e.delta, partial } : { type: e.type, contentIndex: i, partial });
      }
    });
    const transcript = collapseSystemMessages(context?.messages ? normalizeContext({ ...context, messages: context.messages }) : { messages: [] });
    const params = {
      streamId,
      model: cairnModel({ ...model, api }, log),
      context: {
        messages: transcript.messages.filter((m) => m.role !== "system"),
        ...(getCurrentSystemPrompt(transcript.messages) ? { systemPrompt: getCurrentSystemPrompt(transcript.messages) } : {}),
      },
      options: {},
    };
    const tools = getCurrentTools(transcript.messages).map((t) => ({ name: t.name, description: t.description ?? "", parameters: t.parameters ?? { type: "object" } }));
    if (tools.length) params.context.tools = JSON.parse(JSON.stringify(tools));
    for (const [k, v] of Object.entries(options)) {
      if (v === undefined || k === "signal") continue;
      if (API_OPTIONS.includes(k)) params.options[k] = v;
      else if (!unsent.has(k)) {
        unsent.add(k);
        log(`${api}: cairn does not pass the option ${k} to the model; the request goes without it`);
      }
    }
    if (params.options.reasoning === "off") delete params.options.reasoning;
    options.signal?.addEventListener("abort", () => post({ t: "notify", method: "cancel_stream", params: { streamId } }), { once: true });
    const end = (final) => {
      listeners.delete(streamId);
      if (final.stopReason === "error" || final.stopReason === "aborted") out.push({ type: "error", reason: final.stopReason, error: final });
      else out.push({ type: "done", reason: final.stopReason, message: final });
      out.end(final);
    };
    rpc("stream_api", params).then(end, (e) => end({ ...partial, stopReason: "error", errorMessage: e.message }));
    return out;
  };

  return {
    /** onEvents takes cairn's stream_event notification for one of these streams. */
    onEvents(streamId, events) {
      listeners.get(streamId)?.(events);
    },
  };
}
