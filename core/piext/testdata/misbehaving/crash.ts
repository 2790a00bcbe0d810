// A pi extension whose tool takes its whole thread down.
import { Type } from "typebox";

export default function (pi: any) {
	pi.registerTool({
		name: "crash",
		description: "exits the process",
		parameters: Type.Object({}),
		async execute() {
			process.exit(3);
		},
	});
}
