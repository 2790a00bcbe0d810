// A pi extension whose tool never yields: a busy loop.
import { Type } from "typebox";

export default function (pi: any) {
	pi.registerTool({
		name: "hang",
		description: "loops forever",
		parameters: Type.Object({}),
		async execute() {
			for (;;) {}
		},
	});
}
