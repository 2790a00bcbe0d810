// The runtime values of @earendil-works/pi-ai (MIT) that pi extensions
// import: TypeBox's Type, StringEnum and uuidv7, complete and
// completeSimple, which cairn runs, and what a provider's own streamSimple
// builds on (pi-ai-stream.mjs). pi-ai's own providers and its registry
// belong to cairn's provider layer; calling them from an extension fails
// with a message saying so.
import { randomBytes } from "node:crypto";
import { Type } from "./typebox.mjs";

export { Type };

/** StringEnum is pi-ai's string enum schema: {type: "string", enum}. */
export function StringEnum(values, options) {
  return Type.Unsafe({ type: "string", enum: [...values], ...(options || {}) });
}

/** uuidv7 returns a time-ordered UUID (RFC 9562, version 7), as pi-ai's does. */
export function uuidv7() {
  const b = randomBytes(16);
  const ms = BigInt(Date.now());
  for (let i = 0; i < 6; i++) b[i] = Number((ms >> BigInt(8 * (5 - i))) & 0xffn);
  b[6] = (b[6] & 0x0f) | 0x70;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function notInCairn(name) {
  return () => {
    throw new Error(`${name} is pi's model layer, which cairn's pi extension host does not run: cairn's own providers serve the session`);
  };
}

export const streamSimple = notInCairn("streamSimple");
export const stream = notInCairn("stream");
/**
 * complete runs one completion in cairn, through its own providers and
 * the session's credentials (the host's model.mjs); it resolves with pi's
 * AssistantMessage, whose stopReason says how it ended.
 */
export function complete(model, context, options) {
  const run = globalThis[Symbol.for("cairn.pi.complete")];
  if (!run) return notInCairn("complete")();
  return run(model, context, options);
}

/** completeSimple is complete with pi-ai's provider-neutral options. */
export const completeSimple = complete;
export const registerApiProvider = notInCairn("registerApiProvider");
export const getModel = () => undefined;
export const getModels = () => [];
export const getProviders = () => [];
export {
  AssistantMessageEventStream,
  EventStream,
  calculateCost,
  collapseSystemMessages,
  createAssistantMessageEventStream,
  getCurrentSystemPrompt,
  getCurrentTools,
  normalizeContext,
} from "./pi-ai-stream.mjs";

// pi-ai's own providers, each run by cairn's provider of the same wire
// format (the host's provider.mjs): a provider extension hands them its
// model, with its own base URL, key and headers.
function cairnApi(api) {
  const run = (model, context, options) => {
    const hook = globalThis[Symbol.for("cairn.pi.streamApi")];
    if (!hook) return notInCairn(api)();
    return hook(api, model, context, options);
  };
  return { api, stream: run, streamSimple: run };
}

export const anthropicMessagesApi = () => cairnApi("anthropic-messages");
export const openAICompletionsApi = () => cairnApi("openai-completions");
export const openAIResponsesApi = () => cairnApi("openai-responses");
export const googleGenerativeAIApi = () => cairnApi("google-generative-ai");
