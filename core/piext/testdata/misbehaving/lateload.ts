// A pi extension that finishes loading only once the file named by
// LATELOAD_GATE exists (the test creates it), then registers a tool.
import { existsSync } from "node:fs";

export default async function (pi: any) {
	const gate = process.env.LATELOAD_GATE as string;
	await new Promise<void>((resolve) => {
		const t = setInterval(() => {
			if (existsSync(gate)) {
				clearInterval(t);
				resolve();
			}
		}, 20);
	});
	pi.registerTool({
		name: "late",
		label: "Late",
		description: "Answers late.",
		parameters: { type: "object", properties: {} },
		async execute() {
			return { content: [{ type: "text", text: "late but here" }] };
		},
	});
}
