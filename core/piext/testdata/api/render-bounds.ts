// Renderers that misbehave, for cairn's TestRenderBounded: "slow" keeps
// its thread busy past cairn's time limit for a render; "huge" draws far
// more lines than cairn keeps.
export default function (pi: any) {
	pi.registerMessageRenderer("slow", () => {
		const start = Date.now();
		while (Date.now() - start < 3000) {
			// busy: no event loop turn until it ends
		}
		return { render: () => ["late"], invalidate() {} };
	});
	pi.registerMessageRenderer("huge", () => ({
		render: (width: number) => Array.from({ length: 5000 }, (_, i) => `line ${i}`.slice(0, width)),
		invalidate() {},
	}));
}
