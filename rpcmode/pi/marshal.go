package pi

import (
	"bytes"
	"encoding/json"
)

// marshal encodes v as compact JSON without escaping <, > and &, as
// JavaScript's JSON.stringify writes them.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte{'\n'}), nil
}
