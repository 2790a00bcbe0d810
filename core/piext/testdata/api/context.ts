// Our own pi extension for the tests: pi's context event, which may
// rewrite the messages of each request (here: leave out user messages
// marked [private]).
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
	pi.on("context", async (event) => {
		const text = (m: any) => (typeof m.content === "string" ? m.content : (m.content || []).map((c: any) => c.text || "").join(""));
		return { messages: event.messages.filter((m: any) => !(m.role === "user" && text(m).includes("[private]"))) };
	});
}
