package toolview

import (
	"bytes"
	"encoding/json"
)

// genericTitle is the tool's name, with its arguments as compact JSON.
func genericTitle(v *view) (string, string) {
	raw := completeJSON(v.Args)
	var b bytes.Buffer
	if len(raw) == 0 || json.Compact(&b, raw) != nil || b.String() == "{}" {
		return v.Name, ""
	}
	return v.Name, b.String()
}

// genericBody shows the head of the tool's text output, or of its latest
// progress while it runs, and the types of any images.
func genericBody(v *view, b *box) {
	if v.state == Streaming || v.state == Pending {
		return
	}
	for _, mime := range v.images() {
		b.text("["+mime+"]", v.p.Muted)
	}
	text := v.resultText()
	lines := headLines(text, b.limit(headLimit))
	b.texts(lines, v.p.Output)
	b.elided(countLines(text)-len(lines), false)
}
