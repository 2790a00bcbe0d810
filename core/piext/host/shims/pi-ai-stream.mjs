// The parts of @earendil-works/pi-ai (MIT) a provider extension's own
// streamSimple builds on: the event stream it returns, the cost of its
// usage, and the transcript helpers that read the system prompt and tools
// out of the context cairn sends (pi 0.87's TranscriptContext). Written
// from pi-ai's documented behaviour, not copied.

/** EventStream is an async-iterable queue of events with a final result. */
export class EventStream {
  #queue = [];
  #waiting = [];
  #done = false;
  #resolve;
  #result = new Promise((resolve) => (this.#resolve = resolve));

  constructor(isComplete, extractResult) {
    this.isComplete = isComplete;
    this.extractResult = extractResult;
  }

  push(event) {
    if (this.#done) return;
    if (this.isComplete(event)) {
      this.#done = true;
      this.#resolve(this.extractResult(event));
    }
    const waiter = this.#waiting.shift();
    if (waiter) waiter({ value: event, done: false });
    else this.#queue.push(event);
  }

  end(result) {
    this.#done = true;
    if (result !== undefined) this.#resolve(result);
    for (const waiter of this.#waiting.splice(0)) waiter({ value: undefined, done: true });
  }

  async *[Symbol.asyncIterator]() {
    for (;;) {
      if (this.#queue.length) yield this.#queue.shift();
      else if (this.#done) return;
      else {
        const next = await new Promise((resolve) => this.#waiting.push(resolve));
        if (next.done) return;
        yield next.value;
      }
    }
  }

  result() {
    return this.#result;
  }
}

/** AssistantMessageEventStream ends with a done or error event, whose message is its result. */
export class AssistantMessageEventStream extends EventStream {
  constructor() {
    super(
      (e) => e.type === "done" || e.type === "error",
      (e) => (e.type === "done" ? e.message : e.error),
    );
  }
}

export function createAssistantMessageEventStream() {
  return new AssistantMessageEventStream();
}

/** calculateCost prices usage at the model's rates (dollars per million tokens) into usage.cost. */
export function calculateCost(model, usage) {
  const inputTokens = usage.input + usage.cacheRead + usage.cacheWrite;
  let rates = model.cost;
  let above = -1;
  for (const tier of model.cost?.tiers ?? []) {
    if (inputTokens > tier.inputTokensAbove && tier.inputTokensAbove > above) {
      rates = tier;
      above = tier.inputTokensAbove;
    }
  }
  // An hour-long cache write costs twice the input rate.
  const longWrite = usage.cacheWrite1h ?? 0;
  const perM = (rate, n) => ((rate ?? 0) * n) / 1e6;
  usage.cost ??= {};
  usage.cost.input = perM(rates.input, usage.input);
  usage.cost.output = perM(rates.output, usage.output);
  usage.cost.cacheRead = perM(rates.cacheRead, usage.cacheRead);
  usage.cost.cacheWrite = perM(rates.cacheWrite, usage.cacheWrite - longWrite) + perM(2 * (rates.input ?? 0), longWrite);
  usage.cost.total = usage.cost.input + usage.cost.output + usage.cost.cacheRead + usage.cost.cacheWrite;
  return usage.cost;
}

const isSystem = (m) => m?.role === "system";
const textOf = (content) =>
  typeof content === "string" ? content : (content ?? []).filter((b) => b.type === "text").map((b) => b.text).join("\n");

/** normalizeContext folds a context's systemPrompt and tools into a leading system message. */
export function normalizeContext(context) {
  const prompt = context.systemPrompt ?? "";
  const tools = context.tools ?? [];
  if (!prompt && !tools.length) return { messages: context.messages };
  const head = { role: "system", content: prompt, ...(tools.length ? { toolsAdded: tools } : {}), timestamp: 0 };
  return { messages: [head, ...context.messages] };
}

/** getCurrentTools is the tool set after every system message's additions and removals. */
export function getCurrentTools(messages) {
  const tools = new Map();
  for (const m of messages) {
    if (!isSystem(m)) continue;
    for (const t of m.toolsRemoved ?? []) tools.delete(t.name);
    for (const t of m.toolsAdded ?? []) tools.set(t.name, t);
  }
  return [...tools.values()];
}

function currentSystemMessage(messages) {
  const content = [];
  const sections = new Map();
  let timestamp;
  for (const m of messages) {
    if (!isSystem(m)) continue;
    timestamp ??= m.timestamp;
    const text = textOf(m.content);
    if (text) content.push(text);
    for (const [name, value] of Object.entries(m.sections ?? {})) {
      if (value === null) sections.delete(name);
      else sections.set(name, value);
    }
  }
  const tools = getCurrentTools(messages);
  if (timestamp === undefined && !tools.length) return undefined;
  return {
    role: "system",
    content: content.join("\n\n"),
    ...(sections.size ? { sections: Object.fromEntries(sections) } : {}),
    ...(tools.length ? { toolsAdded: tools } : {}),
    timestamp: timestamp ?? 0,
  };
}

/** getCurrentSystemPrompt is the system prompt after every system message: content, then sections. */
export function getCurrentSystemPrompt(messages) {
  const m = currentSystemMessage(messages);
  if (!m) return "";
  return [textOf(m.content), ...Object.values(m.sections ?? {})].filter((p) => p).join("\n\n");
}

/** collapseSystemMessages puts one system message, the current one, first, and drops the others. */
export function collapseSystemMessages(context) {
  const head = currentSystemMessage(context.messages);
  const rest = context.messages.filter((m) => !isSystem(m));
  return { messages: head ? [head, ...rest] : rest };
}
