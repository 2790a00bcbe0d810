package provider

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"net/netip"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/core"
)

// ptrMarshaler encodes itself only through a pointer, as encoding/json
// calls it only when the value is addressable.
type ptrMarshaler struct{ N int }

func (p *ptrMarshaler) MarshalJSON() ([]byte, error) { return []byte(`"pointer"`), nil }

type withEmbedded struct {
	ptrMarshaler
	Name string `json:"name"`
}

type withOptions struct {
	A  string            `json:"a,omitempty"`
	B  int               `json:"b,omitempty"`
	C  *int              `json:"c,omitempty"`
	D  []string          `json:"d,omitempty"`
	E  map[string]int    `json:"e,omitempty"`
	F  bool              `json:"f,omitempty"`
	G  float64           `json:"g,omitempty"`
	H  any               `json:"h,omitempty"`
	I  Text              `json:"i,omitzero"`
	J  time.Time         `json:"j,omitzero"`
	K  [0]int            `json:"k,omitempty"`
	L  uint8             `json:"l,omitempty"`
	M  json.RawMessage   `json:"m,omitempty"`
	O  string            `json:"-"`
	P  string            `json:"-,"`
	Q  string            `json:""`
	R  []ptrMarshaler    `json:"r"`
	S  *Text             `json:"s,omitempty"`
	T  []byte            `json:"t"`
	U  netip.Addr        `json:"u"`
	V  [2]any            `json:"v"`
	W  map[string][]Text `json:"w"`
	PM ptrMarshaler      `json:"pm"`
	x  string
	Ü  string
}

// The walk leaves these to encoding/json whole.
type withStringOption struct {
	N int  `json:"n,string"`
	T Text `json:"t"`
}

// withClash is a struct whose two fields take the same key, which
// encoding/json leaves out (made at run time: vet rightly refuses the
// declaration).
func withClash() any {
	t := reflect.StructOf([]reflect.StructField{
		{Name: "Z1", Type: reflect.TypeFor[string](), Tag: `json:"z"`},
		{Name: "Z2", Type: reflect.TypeFor[string](), Tag: `json:"z"`},
		{Name: "T", Type: textType, Tag: `json:"t"`},
	})
	v := reflect.New(t)
	v.Elem().Field(0).SetString("1")
	v.Elem().Field(1).SetString("2")
	v.Elem().Field(2).Set(reflect.ValueOf(TextOf("t")))
	return v.Interface()
}

type node struct {
	Name     string  `json:"name"`
	Children []*node `json:"children,omitempty"`
	Text     Text    `json:"text,omitzero"`
	Any      any     `json:"any"`
}

// writeJSONCases are values whose every part the walk must encode as
// encoding/json does.
func writeJSONCases() map[string]any {
	one := 1
	text := TextOf("pointer <text> & more")
	stored := ResultTextOf([]core.Content{{Type: core.ContentText, Stored: &fakeStored{text: "stored \"text\"\n\u2028"}}, core.TextBlock("b")})
	return map[string]any{
		"nil":          nil,
		"string":       "a <b> & c \u2028 \xff é",
		"number":       3.25,
		"raw":          json.RawMessage(` { "a" : [ 1 , 2 ] } `),
		"empty struct": struct{}{},
		"zero options": withOptions{},
		"set options": withOptions{A: "a", B: 2, C: &one, D: []string{}, E: map[string]int{"z": 1, "a": 2}, F: true, G: 0.5,
			H: []any{nil, "x", 1.5}, I: stored, J: time.Unix(5, 0).UTC(), L: 7, M: json.RawMessage(`{"x" : 1}`),
			O: "o", P: "p", Q: "q", R: []ptrMarshaler{{1}}, S: &text, T: []byte("bytes"), U: netip.MustParseAddr("::1"),
			V: [2]any{ptrMarshaler{2}, &ptrMarshaler{3}}, W: map[string][]Text{"k": {TextOf("<v>")}}, PM: ptrMarshaler{4}, x: "x", Ü: "ü"},
		"options in a slice": []withOptions{{A: "a", PM: ptrMarshaler{1}}, {}},
		"pointer to options": &withOptions{B: 1, I: text},
		"string option":      []withStringOption{{N: 1, T: text}},
		"clashing names":     withClash(),
		"embedded":           withEmbedded{Name: "e"},
		"embedded slice":     []withEmbedded{{Name: "e"}},
		"tree": &node{Name: "root", Any: map[string]any{"k": []int{1}}, Text: stored, Children: []*node{
			{Name: "leaf", Any: &node{Name: "inner", Text: TextOf("t")}}, nil,
		}},
		"any slice":      []any{withOptions{}, &withOptions{B: 1}, []*node{nil}, text},
		"nil slice":      struct{ S []node }{},
		"empty slice":    struct{ S []node }{S: []node{}},
		"pointer to nil": (*node)(nil),
	}
}

// TestWriteJSONMatchesEncodeJSON: the walk writes exactly the bytes
// encoding/json would for the whole value.
func TestWriteJSONMatchesEncodeJSON(t *testing.T) {
	for name, v := range writeJSONCases() {
		t.Run(name, func(t *testing.T) {
			checkWriteJSON(t, v)
		})
	}
}

func checkWriteJSON(t *testing.T, v any) {
	t.Helper()
	want, wantErr := EncodeJSON(v)
	var got bytes.Buffer
	err := WriteJSON(&got, v)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("WriteJSON error %v, EncodeJSON error %v", err, wantErr)
	}
	if err == nil && !bytes.Equal(got.Bytes(), want) {
		t.Fatalf("WriteJSON wrote\n%s\nEncodeJSON gives\n%s", got.Bytes(), want)
	}
}

// TestWriteJSONErrors: a value encoding/json refuses fails the walk too,
// and a writer's error ends it.
func TestWriteJSONErrors(t *testing.T) {
	for name, v := range map[string]any{
		"NaN":          struct{ F float64 }{math.NaN()},
		"deep NaN":     []any{node{Any: []float64{1, math.Inf(1)}}},
		"channel":      struct{ C chan int }{make(chan int)},
		"bad raw JSON": []json.RawMessage{json.RawMessage(`{"a":`)},
	} {
		t.Run(name, func(t *testing.T) {
			if err := WriteJSON(&bytes.Buffer{}, v); err == nil {
				t.Fatal("no error")
			}
		})
	}
	boom := errors.New("boom")
	if err := WriteJSON(failingWriter{boom}, writeJSONCases()["tree"]); !errors.Is(err, boom) {
		t.Fatalf("err = %v, want the writer's", err)
	}
}

type failingWriter struct{ err error }

func (w failingWriter) Write([]byte) (int, error) { return 0, w.err }

// TestWriteJSONReadsStoredTextOnce: a stored text is read when its turn
// comes, once per writing.
func TestWriteJSONReadsStoredTextOnce(t *testing.T) {
	f := &fakeStored{text: "kept in the file"}
	v := struct {
		Out Text `json:"out"`
	}{ResultTextOf([]core.Content{{Type: core.ContentText, Stored: f}})}
	if f.reads != 0 {
		t.Fatal("read while the request was built")
	}
	var b bytes.Buffer
	if err := WriteJSON(&b, v); err != nil || b.String() != `{"out":"kept in the file"}` || f.reads != 1 {
		t.Fatalf("wrote %s (%v) after %d reads", b.String(), err, f.reads)
	}
}

// FuzzWriteJSON: for any JSON document, decoded into generic values and
// into the walk's test structs, the walk writes what encoding/json writes.
func FuzzWriteJSON(f *testing.F) {
	for _, v := range writeJSONCases() {
		if b, err := EncodeJSON(v); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"name":"x","children":[{"name":"y","text":"\u003c\ud800"}],"any":[1e400]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var generic any
		if json.Unmarshal(data, &generic) == nil {
			checkWriteJSON(t, generic)
			checkWriteJSON(t, []any{generic, TextOf(string(data))})
		}
		var n node
		if json.Unmarshal(data, &n) == nil {
			checkWriteJSON(t, &n)
		}
		var o withOptions
		if json.Unmarshal(data, &o) == nil {
			checkWriteJSON(t, o)
		}
		checkWriteJSON(t, TextOf(strings.ToValidUTF8(string(data), "")))
		checkWriteJSON(t, TextOf(string(data)))
	})
}
