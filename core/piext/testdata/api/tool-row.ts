// A tool whose renderer keeps state per call, for cairn's TestToolRowState:
// pi's context.state is shared by one call's renders, and
// context.lastComponent is what the slot's last render returned.
import { Text } from "@earendil-works/pi-tui";

export default function (pi: any) {
	pi.registerTool({
		name: "counter",
		description: "Counts its renders.",
		parameters: { type: "object", properties: {} },
		async execute() {
			return { content: [{ type: "text", text: "ok" }] };
		},
		renderCall(_args: any, _theme: any, context: any) {
			context.state.n = (context.state.n ?? 0) + 1;
			return new Text(`call ${context.state.n} last=${context.lastComponent ? "yes" : "no"} ${context.toolCallId}`, 0, 0);
		},
	});
}
