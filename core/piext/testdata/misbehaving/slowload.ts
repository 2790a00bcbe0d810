// A pi extension whose factory never finishes loading.
export default function () {
	for (;;) {}
}
