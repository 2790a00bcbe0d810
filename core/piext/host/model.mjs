// The model part of pi's extension API, served by cairn (protocol
// version 2's get_model, get_models, set_model, set_thinking_level and
// complete): ctx.model, ctx.modelRegistry, pi.setModel and
// setThinkingLevel, and pi-ai's complete and completeSimple. Completions
// run in cairn, through its own providers, with the session's
// credentials: no API key ever reaches an extension.

// completeHook is where the pi-ai shim finds complete: the shim is a
// module of its own, loaded by each extension.
export const completeHook = Symbol.for("cairn.pi.complete");

/**
 * modelAPI builds the model functions of one extension on rpc (async) and
 * syncRPC (answers at once, bounded), and installs the pi-ai shim's hook.
 */
export function modelAPI(rpc, syncRPC, log) {
  const plain = ({ available, ...m }) => m;
  const state = () => {
    try {
      return syncRPC("get_model", {});
    } catch (e) {
      log(`ctx.model: ${e.message}`);
      return { thinkingLevel: "off" };
    }
  };
  const choices = () => {
    try {
      return syncRPC("get_models", {}).models;
    } catch (e) {
      log(`ctx.modelRegistry: ${e.message}`);
      return [];
    }
  };
  const choice = (provider, id) => choices().find((c) => c.provider === provider && c.id === id);

  const carried = new Set(["reasoning", "reasoningEffort", "maxTokens", "signal"]);
  const unsent = new Set();
  async function complete(model, context, options = {}) {
    if (!model || typeof model.provider !== "string" || typeof model.id !== "string") {
      throw new Error("complete needs a model (ctx.model or one from ctx.modelRegistry)");
    }
    const params = { provider: model.provider, id: model.id, messages: context?.messages ?? [] };
    if (context?.systemPrompt) params.systemPrompt = String(context.systemPrompt);
    // completeSimple's reasoning, or an API's reasoningEffort, when it is
    // a level cairn knows; cairn picks each provider's own way to send it.
    const level = options.reasoning ?? options.reasoningEffort;
    if (["minimal", "low", "medium", "high", "xhigh", "max"].includes(level)) params.reasoning = level;
    if (Number.isInteger(options.maxTokens) && options.maxTokens > 0) params.maxTokens = options.maxTokens;
    // What cairn does not carry (temperature, headers, cacheRetention,
    // sessionId, ...) is said in the extension's log, once each, never
    // dropped unsaid.
    for (const [k, v] of Object.entries(options)) {
      if (v === undefined || carried.has(k) || unsent.has(k)) continue;
      unsent.add(k);
      log(`complete: cairn does not pass the option ${k} to the model; the request goes without it`);
    }
    const signal = options.signal;
    if (signal?.aborted) return aborted(model);
    const answer = rpc("complete", params);
    if (!signal) return answer;
    return Promise.race([answer, new Promise((resolve) => signal.addEventListener("abort", () => resolve(aborted(model)), { once: true }))]);
  }
  globalThis[completeHook] = complete;

  return {
    get model() {
      return state().model;
    },
    modelRegistry: {
      refresh: async () => ({}),
      getError: () => undefined,
      getAll: () => choices().map(plain),
      getAvailable: () => choices().filter((c) => c.available).map(plain),
      find: (provider, id) => {
        const c = choice(provider, id);
        return c ? plain(c) : undefined;
      },
      hasConfiguredAuth: (model) => !!(model && choice(model.provider, model.id)?.available),
      // Credentials stay in cairn: complete runs with them there.
      getApiKeyAndHeaders: async () => ({ ok: false, error: "cairn keeps credentials to itself: use complete" }),
      getApiKeyForProvider: async () => undefined,
      getApiKey: async () => undefined,
      isUsingOAuth: () => false,
      getProviderDisplayName: (p) => p,
      complete,
    },
    async setModel(model) {
      if (!model) return false;
      try {
        await rpc("set_model", { provider: String(model.provider), id: String(model.id) });
        return true;
      } catch (e) {
        log(`setModel: ${e.message}`);
        return false;
      }
    },
    getThinkingLevel: () => state().thinkingLevel || "off",
    setThinkingLevel(level) {
      rpc("set_thinking_level", { level: String(level) }).catch((e) => log(`setThinkingLevel: ${e.message}`));
    },
  };
}

// aborted is the message pi-ai's complete resolves with when its signal
// aborts the call.
function aborted(model) {
  return {
    role: "assistant",
    content: [],
    api: model.api,
    provider: model.provider,
    model: model.id,
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    stopReason: "aborted",
    errorMessage: "Request was aborted",
    timestamp: Date.now(),
  };
}
