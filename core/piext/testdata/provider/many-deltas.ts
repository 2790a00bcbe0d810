// A test extension (cairn's own): a provider whose streamSimple answers
// at once with the number of text deltas its system prompt names, for
// measuring what a stream through an extension costs.
import { createAssistantMessageEventStream } from "@earendil-works/pi-ai";

export default function (pi) {
	pi.registerProvider("many", {
		api: "many-api",
		models: [{ id: "m" }],
		streamSimple(model, context) {
			const stream = createAssistantMessageEventStream();
			const n = Number(context.messages.find((m) => m.role === "system")?.content ?? 0);
			const output = {
				role: "assistant", content: [{ type: "text", text: "" }], api: model.api, provider: model.provider, model: model.id,
				usage: { input: 1, output: n, cacheRead: 0, cacheWrite: 0, totalTokens: n + 1, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
				stopReason: "stop", timestamp: Date.now(),
			};
			queueMicrotask(() => {
				stream.push({ type: "start", partial: output });
				stream.push({ type: "text_start", contentIndex: 0, partial: output });
				for (let i = 0; i < n; i++) {
					output.content[0].text += "tok ";
					stream.push({ type: "text_delta", contentIndex: 0, delta: "tok ", partial: output });
				}
				stream.push({ type: "text_end", contentIndex: 0, content: output.content[0].text, partial: output });
				stream.push({ type: "done", reason: "stop", message: output });
				stream.end();
			});
			return stream;
		},
	});
}
