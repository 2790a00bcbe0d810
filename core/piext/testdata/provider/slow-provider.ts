// A test extension (cairn's own): a provider whose streamSimple streams a
// first fragment, then waits for its signal; an abort ends it with pi's
// aborted message and says so (in the session's name). /unslow takes the
// provider back.
import { createAssistantMessageEventStream } from "@earendil-works/pi-ai";

export default function (pi) {
	pi.registerProvider("slow", {
		api: "slow-api",
		apiKey: "slow-key",
		models: [{ id: "s1", name: "Slow One" }],
		streamSimple(model, context, options) {
			const stream = createAssistantMessageEventStream();
			const output = {
				role: "assistant",
				content: [{ type: "text", text: "" }],
				api: model.api,
				provider: model.provider,
				model: model.id,
				usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
				stopReason: "stop",
				timestamp: Date.now(),
			};
			const prompt = context.messages.find((m) => m.role === "system")?.content ?? "";
			stream.push({ type: "start", partial: output });
			stream.push({ type: "text_start", contentIndex: 0, partial: output });
			output.content[0].text = `first (${prompt}, ${options.apiKey})`;
			stream.push({ type: "text_delta", contentIndex: 0, delta: output.content[0].text, partial: output });
			options.signal.addEventListener("abort", () => {
				pi.setSessionName("slow stream aborted");
				output.stopReason = "aborted";
				output.errorMessage = "Request was aborted";
				stream.push({ type: "error", reason: "aborted", error: output });
				stream.end();
			});
			return stream;
		},
	});
	pi.registerCommand("unslow", {
		description: "Take the slow provider back",
		handler: async () => pi.unregisterProvider("slow"),
	});
}
