// A pi extension whose tool floods the host with updates, and writes to
// stdout, which must never reach cairn's protocol stream.
import { Type } from "typebox";

export default function (pi: any) {
	pi.registerTool({
		name: "flood",
		description: "floods",
		parameters: Type.Object({}),
		async execute(_id: string, _p: unknown, _s: AbortSignal, onUpdate: (r: unknown) => void) {
			console.log("not a protocol frame");
			process.stdout.write("nor this\n");
			for (let i = 0; i < 1e6; i++) onUpdate({ content: [{ type: "text", text: "x".repeat(100) }] });
			return { content: [{ type: "text", text: "done" }] };
		},
	});
}
