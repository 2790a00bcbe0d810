// Our own pi extension for the tests: pi's appendEntry and the session
// manager's reads, as pi's docs describe them.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
	pi.registerCommand("mark", {
		description: "Keep a note in the session",
		handler: async (args) => {
			pi.appendEntry("mark", { note: args });
		},
	});
	pi.registerCommand("count", {
		description: "Show the notes kept",
		handler: async (_args, ctx) => {
			const marks = ctx.sessionManager
				.getEntries()
				.filter((e: any) => e.type === "custom" && e.customType === "mark")
				.map((e: any) => e.data.note);
			ctx.ui.notify(`marks: ${marks.join(",")}; branch ${ctx.sessionManager.getBranch().length}`, "info");
		},
	});
}
