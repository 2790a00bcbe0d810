// A pi package's extension (cairn's own test fixture): a tool.
import { Type } from "typebox";
import { defineTool, type ExtensionAPI } from "@earendil-works/pi-coding-agent";

export default function (pi: ExtensionAPI) {
	pi.registerTool(
		defineTool({
			name: "pkg_greet",
			label: "Greet",
			description: "Greets from a package",
			parameters: Type.Object({ name: Type.String() }),
			async execute(_id, params) {
				return { content: [{ type: "text", text: `Hello from a package, ${params.name}!` }] };
			},
		}),
	);
}
