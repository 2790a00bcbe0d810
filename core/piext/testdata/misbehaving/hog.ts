// A pi extension whose tool eats memory until it has no more.
import { Type } from "typebox";

export default function (pi: any) {
	pi.registerTool({
		name: "hog",
		description: "allocates forever",
		parameters: Type.Object({}),
		async execute() {
			const keep: string[][] = [];
			for (;;) keep.push(new Array(1e5).fill("x".repeat(10)));
		},
	});
}
