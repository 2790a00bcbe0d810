// pi's registerProvider and unregisterProvider in one extension's worker
// (protocol version 2's register_provider, unregister_provider and
// stream): what cairn can carry of a provider's config goes to cairn's
// catalog, and a provider with a streamSimple of its own answers cairn's
// stream requests here, its events sent back as they come.

import { normalizeContext } from "./shims/pi-ai-stream.mjs";

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
        log(`registerProvider ${name}: cairn's /login does not run an extension's OAuth; give the provider's key with its apiKey (${config.apiKey ?? "unset"})`);
        continue;
      }
      if (PROVIDER_FIELDS.includes(k)) out[k] = v;
      else log(`registerProvider ${name}: cairn does not use the field ${k}`);
    }
    if (Array.isArray(config.models)) {
      out.models = config.models.map((m) => {
        const model = {};
        for (const [k, v] of Object.entries(m ?? {})) {
          if (v === undefined) continue;
          if (MODEL_FIELDS.includes(k)) model[k] = v;
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
        throw new Error("registerProvider needs a name and a config");
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
            send({ type: ev.type, contentIndex: ev.contentIndex });
            break;
          case "toolcall_start": {
            const block = ev.partial?.content?.[ev.contentIndex] ?? {};
            send({ type: ev.type, contentIndex: ev.contentIndex, id: String(block.id ?? ""), name: String(block.name ?? "") });
            break;
          }
          case "text_delta":
          case "thinking_delta":
          case "toolcall_delta":
            send({ type: ev.type, contentIndex: ev.contentIndex, delta: String(ev.delta ?? "") });
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
