package jsonscan

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// readCases read one value with one reader: want is what it returns, err
// a substring of the error it must report ("" for none).
var readCases = []struct {
	in   string
	read string // Str, Int, LooseInt, Float, Bool, Raw, Skip
	want any
	err  string
}{
	{`"plain"`, "Str", "plain", ""},
	{` "" `, "Str", "", ""},
	{`null`, "Str", "", ""},
	{`"\u00e9\u4e2d"`, "Str", "é中", ""},
	{`"\ud83d\ude00"`, "Str", "😀", ""},
	{`"\uD83D\uDE00"`, "Str", "😀", ""},
	{`"\ud83dx"`, "Str", "\uFFFDx", ""},
	{`"\ude00"`, "Str", "\uFFFD", ""},
	{`"\ud83d\u0041"`, "Str", "\uFFFDA", ""},
	{`"\ud83d\u12"`, "Str", nil, "invalid \\u escape"},
	{`"a\/b\b\f\n\r\t\"\\"`, "Str", "a/b\b\f\n\r\t\"\\", ""},
	{"\"bad \xff\xfe utf8\"", "Str", "bad \uFFFD\uFFFD utf8", ""},
	{"\"é and \xc3\"", "Str", "é and \uFFFD", ""},
	{"\"a\x01\"", "Str", nil, "control character"},
	{`"a\x"`, "Str", nil, "invalid escape"},
	{`"open`, "Str", nil, "unexpected end of input"},
	{`"long enough to scan eight bytes at a time, then \"quoted\" and ✓"`, "Str", `long enough to scan eight bytes at a time, then "quoted" and ✓`, ""},
	{`42`, "Str", nil, "expected a string"},
	{`"x" y`, "Str", nil, "unexpected data after the value"},
	{`0`, "Int", int64(0), ""},
	{`-0`, "Int", int64(0), ""},
	{`-123456789012345678`, "Int", int64(-123456789012345678), ""},
	{`9223372036854775807`, "Int", int64(math.MaxInt64), ""},
	{`9223372036854775808`, "Int", nil, "not a 64-bit integer"},
	{`1.5`, "Int", nil, "not a 64-bit integer"},
	{`1e2`, "Int", nil, "not a 64-bit integer"},
	{`01`, "Int", nil, "unexpected data after the value"},
	{`-`, "Int", nil, "unexpected end of input"},
	{`1.`, "Int", nil, "unexpected end of input"},
	{`1.e5`, "Int", nil, "invalid number"},
	{`null`, "Int", int64(0), ""},
	{`"5"`, "Int", nil, "expected a number"},
	{`1.5e3`, "LooseInt", int64(1500), ""},
	{`-2.9`, "LooseInt", int64(-2), ""},
	{`1e999`, "LooseInt", int64(math.MaxInt64), ""},
	{`-1e999`, "LooseInt", int64(math.MinInt64), ""},
	{`2.5E-3`, "Float", 0.0025, ""},
	{`1e400`, "Float", nil, "out of range"},
	{`true`, "Bool", true, ""},
	{`false`, "Bool", false, ""},
	{`null`, "Bool", false, ""},
	{`tru`, "Bool", nil, "invalid literal"},
	{`1`, "Bool", nil, "expected a boolean"},
	{` {"a" : [1, {"b": null}], "c":"\u0022"} `, "Raw", `{"a" : [1, {"b": null}], "c":"\u0022"}`, ""},
	{`{"a":1,}`, "Skip", nil, "expected a string key"},
	{`{"a" 1}`, "Skip", nil, "expected a colon"},
	{`{"a":1 "b":2}`, "Skip", nil, "expected a comma or the end of the object"},
	{`[1,]`, "Skip", nil, "invalid character ']'"},
	{`[1 2]`, "Skip", nil, "expected a comma or the end of the array"},
	{``, "Skip", nil, "unexpected end of input"},
	{strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth), "Skip", nil, ""},
	{strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1), "Skip", nil, "nested too deeply"},
}

func TestReaders(t *testing.T) {
	for _, tt := range readCases {
		var s Scanner
		s.Reset([]byte(tt.in))
		var got any
		switch tt.read {
		case "Str":
			got = s.Str()
		case "Int":
			got = s.Int()
		case "LooseInt":
			got = s.LooseInt()
		case "Float":
			got = s.Float()
		case "Bool":
			got = s.Bool()
		case "Raw":
			got = string(s.Raw())
		case "Skip":
			s.Skip()
		}
		err := s.End()
		name := tt.read + "(" + shorten(tt.in) + ")"
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("%s: %v", name, err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s: error %v, want one saying %q", name, err, tt.err)
		case tt.err == "" && tt.want != nil && got != tt.want:
			t.Errorf("%s = %#v, want %#v", name, got, tt.want)
		}
	}
}

func shorten(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

func TestObjectAndArray(t *testing.T) {
	var s Scanner
	s.Reset([]byte(` {"a": [1, 2, 3], "b\u0021": {"c": null}, "d": null, "e": [], "f": {}} `))
	var keys []string
	var sum int64
	for key := range s.Object() {
		keys = append(keys, string(key))
		switch string(key) {
		case "a", "d", "e":
			for i := range s.Array() {
				sum += int64(i) * s.Int()
			}
		default:
			for range s.Object() {
				s.Skip()
			}
		}
	}
	if err := s.End(); err != nil {
		t.Fatal(err)
	}
	if strings.Join(keys, " ") != "a b! d e f" || sum != 0*1+1*2+2*3 {
		t.Errorf("keys %q, sum %d", keys, sum)
	}

	// A loop that stops early, then a rewind to read the value again.
	s.Reset([]byte(`[{"role":"user","x":1}, 2]`))
	for i := range s.Array() {
		if i == 1 {
			s.Int()
			continue
		}
		start := s.Offset()
		for key := range s.Object() {
			if string(key) == "role" {
				break
			}
		}
		s.Rewind(start)
		if raw := s.Raw(); string(raw) != `{"role":"user","x":1}` {
			t.Errorf("raw after rewind %q", raw)
		}
	}
	if err := s.End(); err != nil || s.depth != 0 {
		t.Errorf("after an early stop: %v, depth %d", err, s.depth)
	}

	for _, in := range []string{`"x"`, `[`, `{`} {
		s.Reset([]byte(in))
		for range s.Object() {
			s.Skip()
		}
		if s.Err() == nil {
			t.Errorf("Object(%s) reported no error", in)
		}
	}
}

func TestErrorsAreSticky(t *testing.T) {
	var s Scanner
	s.Reset([]byte(`{"a":x,"b":"y"}`))
	var b string
	for key := range s.Object() {
		if string(key) == "b" {
			b = s.Str()
		} else {
			s.Int()
		}
	}
	var e *Error
	if err := s.End(); !errors.As(err, &e) || e.Offset != 5 || b != "" {
		t.Errorf("err %v (offset %d), b %q", err, e.Offset, b)
	}
	if s.Str() != "" || s.Int() != 0 || s.Kind() != Invalid || s.Raw() != nil {
		t.Error("a read after an error returned a value")
	}
}

func TestKind(t *testing.T) {
	for in, want := range map[string]Kind{
		`"s"`: String, ` -1`: Number, `7`: Number, `{}`: Object, `[]`: Array,
		`true`: Bool, `false`: Bool, `null`: Null, ``: Invalid, `}`: Invalid,
	} {
		var s Scanner
		s.Reset([]byte(in))
		if got := s.Kind(); got != want {
			t.Errorf("Kind(%q) = %d, want %d", in, got, want)
		}
	}
}

func TestFieldMatch(t *testing.T) {
	for _, tt := range []struct {
		key  string
		want bool
	}{
		{"delta", true}, {"Delta", true}, {"OUTPUT_INDEX", true}, {"ſtop", false}, {"delt", false},
	} {
		if got := FieldMatch([]byte(tt.key), "delta", "output_index"); got != tt.want {
			t.Errorf("FieldMatch(%q) = %v", tt.key, got)
		}
	}
	if !FieldMatch([]byte("ſtop"), "stop") {
		t.Error("FieldMatch misses the long s, which encoding/json folds to s")
	}
}

func TestAppendString(t *testing.T) {
	for in, want := range map[string]string{
		"\x00":     `"\u0000"`,
		"\x1f":     `"\u001f"`,
		"\b\f":     `"\u0008\u000c"`,
		"\u2028":   `"\u2028"`,
		"\u2029":   `"\u2029"`,
		"\xff":     `"\ufffd"`,
		"<>&":      `"<>&"`,
		"\x7f":     "\"\x7f\"",
		"a\"b":     `"a\"b"`,
		"\r\n\t\\": `"\r\n\t\\"`,
	} {
		if got := string(AppendString(nil, in)); got != want {
			t.Errorf("%q: got %s, want %s", in, got, want)
		}
	}
	for _, s := range []string{
		"", "héllo wörld ✓ 日本語 🎉", "bad \xc3\x28 utf8 \xe2\x82 truncated \xf0\x9f\x98",
		"\xed\xa0\x80 surrogate half", "\xc0\xaf overlong", "\U0010FFFF max rune", strings.Repeat("a\"b\\c\n", 100),
	} {
		checkAppend(t, s)
	}
}

// BenchmarkSkimString skims a 50 KB string: a test log with an escaped
// quote every 35 bytes or so (as bash results often are), and prose with
// none.
func BenchmarkSkimString(b *testing.B) {
	for _, c := range []struct{ name, line string }{
		{"quotes", `--- PASS: TestCase/step (0.00s) \"ok\"\n`},
		{"prose", `The parser reads the input in one pass and stops. `},
	} {
		body := strings.Repeat(c.line, 50_000/len(c.line))
		in := []byte(`"` + body + `"`)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			var s Scanner
			for b.Loop() {
				s.Reset(in)
				if raw := s.SkimString(); len(raw) != len(in) {
					b.Fatal(s.Err())
				}
			}
		})
	}
}
