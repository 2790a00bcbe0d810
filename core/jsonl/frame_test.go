package jsonl

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// body writes text, then returns err.
type body struct {
	text string
	err  error
}

func (b body) WriteTo(w io.Writer) (int64, error) {
	n, err := io.WriteString(w, b.text)
	if err != nil {
		return int64(n), err
	}
	return int64(n), b.err
}

// brokenPipe fails every write after the first limit bytes.
type brokenPipe struct {
	bytes.Buffer
	limit int
}

func (p *brokenPipe) Write(b []byte) (int, error) {
	if p.Len()+len(b) > p.limit {
		return 0, errors.New("broken pipe")
	}
	return p.Buffer.Write(b)
}

func TestFrameWrite(t *testing.T) {
	cut := errors.New("message 3 cannot be encoded")
	cases := []struct {
		name             string
		f                Frame
		limit            int
		want             string
		bodyErr, writeEr string
	}{
		{"whole", Frame{Head: []byte(`{"a":`), Body: body{text: `[1,2]`}, Tail: []byte(`}`)}, 100, `{"a":[1,2]}`, "", ""},
		{"no body", Frame{Head: []byte(`{}`)}, 100, `{}`, "", ""},
		{"body cut short still gets its tail", Frame{Head: []byte(`{"a":`), Body: body{text: `[1]`, err: cut}, Tail: []byte(`}`)}, 100, `{"a":[1]}`, cut.Error(), ""},
		{"write error in the body stops it", Frame{Head: []byte(`{"a":`), Body: body{text: `[1,2,3]`}, Tail: []byte(`}`)}, 8, `{"a":`, "", "broken pipe"},
		{"write error in the head stops it", Frame{Head: []byte(`{"a":`), Body: body{text: `[1]`}, Tail: []byte(`}`)}, 2, ``, "", "broken pipe"},
	}
	errText := func(err error) string {
		if err == nil {
			return ""
		}
		return err.Error()
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out := &brokenPipe{limit: tc.limit}
			bodyErr, writeErr := tc.f.Write(out)
			if out.String() != tc.want || errText(bodyErr) != tc.bodyErr || errText(writeErr) != tc.writeEr {
				t.Errorf("wrote %q (body error %v, write error %v), want %q (%q, %q)", out.String(), bodyErr, writeErr, tc.want, tc.bodyErr, tc.writeEr)
			}
		})
	}
}
