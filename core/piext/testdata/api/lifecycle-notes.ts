// Our own pi extension for the tests: it says when its session starts and
// ends, and why, as pi's session_start and session_shutdown tell it.
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
	pi.on("session_start", async (event, ctx) => {
		ctx.ui.notify(`started: ${event.reason}`, "info");
	});
	pi.on("session_shutdown", async (event, ctx) => {
		ctx.ui.notify(`shutdown: ${event.reason}`, "info");
	});
}
