package jsonscan

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// walk reads any value with the scanner into the shapes encoding/json
// produces with UseNumber: map[string]any, []any, string, json.Number,
// bool and nil.
func walk(s *Scanner) any {
	switch s.Kind() {
	case Object:
		m := map[string]any{}
		for key := range s.Object() {
			k := string(key)
			m[k] = walk(s)
		}
		return m
	case Array:
		a := []any{}
		for range s.Array() {
			a = append(a, walk(s))
		}
		return a
	case String:
		return s.Str()
	case Number:
		return json.Number(s.Number())
	case Bool:
		return s.Bool()
	}
	s.Skip() // null, or an error to report
	return nil
}

// checkScanner asserts everything the package promises about data: the
// scanner accepts exactly what json.Valid accepts, reads what encoding/json
// reads, and never panics.
func checkScanner(t *testing.T, data []byte) {
	t.Helper()
	var s Scanner
	s.Reset(data)
	s.Skip()
	if err := s.End(); (err == nil) != json.Valid(data) {
		t.Fatalf("Skip(%q): %v, json.Valid = %v", data, err, json.Valid(data))
	}

	s.Reset(data)
	got := walk(&s)
	err := s.End()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var want any
	if json.Valid(data) {
		if err != nil {
			t.Fatalf("walk(%q): %v", data, err)
		}
		if dec.Decode(&want) != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("walk(%q) = %#v; encoding/json reads %#v", data, got, want)
		}
	} else if err == nil {
		t.Fatalf("walk accepted invalid JSON %q", data)
	}

	checkReader(t, data, "Str", func(s *Scanner) any { return s.Str() }, new(string))
	checkReader(t, data, "StrBytes", func(s *Scanner) any { return string(s.StrBytes()) }, new(string))
	checkReader(t, data, "Int", func(s *Scanner) any { return s.Int() }, new(int64))
	checkReader(t, data, "Float", func(s *Scanner) any { return s.Float() }, new(float64))
	checkReader(t, data, "Bool", func(s *Scanner) any { return s.Bool() }, new(bool))

	s.Reset(data)
	if n := s.LooseInt(); s.End() == nil && json.Valid(data) && bytes.IndexAny(data, ".eE") < 0 {
		if want, err := json.Number(bytes.TrimSpace(data)).Int64(); err == nil && n != want {
			t.Fatalf("LooseInt(%q) = %d, want %d", data, n, want)
		}
	}
}

// checkReader compares one typed reader with json.Unmarshal into dst: both
// accept the same inputs and read the same value.
func checkReader[T any](t *testing.T, data []byte, name string, read func(*Scanner) any, dst *T) {
	t.Helper()
	var s Scanner
	s.Reset(data)
	got := read(&s)
	err := s.End()
	stdErr := json.Unmarshal(data, dst)
	if (err == nil) != (stdErr == nil) {
		t.Fatalf("%s(%q): %v; encoding/json: %v", name, data, err, stdErr)
	}
	if err == nil && !reflect.DeepEqual(got, any(*dst)) {
		t.Fatalf("%s(%q) = %#v; encoding/json reads %#v", name, data, got, *dst)
	}
}

// checkAppend asserts that AppendString writes what encoding/json writes
// with HTML escaping off.
func checkAppend(t *testing.T, str string) {
	t.Helper()
	got := AppendString([]byte("x"), str)
	if got[0] != 'x' {
		t.Fatalf("AppendString overwrote dst: %q", got)
	}
	got = got[1:]
	var back string
	if err := json.Unmarshal(got, &back); err != nil || back != string([]rune(str)) {
		t.Fatalf("AppendString(%q) = %s, which reads back as %q (%v)", str, got, back, err)
	}
	// encoding/json writes \b and \f in short form since Go 1.22; both
	// spellings are valid, so only compare bytes without them.
	if strings.ContainsAny(str, "\b\f") {
		return
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(str); err != nil {
		t.Fatal(err)
	}
	if want := bytes.TrimSuffix(b.Bytes(), []byte("\n")); !bytes.Equal(got, want) {
		t.Fatalf("AppendString(%q) = %s; encoding/json writes %s", str, got, want)
	}
}

// FuzzScanner checks the scanner and the appender against encoding/json
// on arbitrary input.
func FuzzScanner(f *testing.F) {
	for _, tt := range readCases {
		// The nesting-limit cases are too slow a seed to minimize from.
		if len(tt.in) < 1000 {
			f.Add([]byte(tt.in))
		}
	}
	for _, s := range []string{
		`{"a":[1,-2.5e+3,true,false,null,"x\u00e9\ud83d\ude00"]}`, `"\ud800\u0041"`, "\"bad \xff\"",
		`[1,]`, `01`, `{"a" 1}`, " [ ] ", `"\/\b\f\n\r\t"`, `{"a":1,"a":{"b":[]}}`, `{"\u0061":2}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkScanner(t, data)
		checkAppend(t, string(data))
	})
}

// FuzzSkimString checks that SkimString ends a valid string exactly where
// Skip does, and never reads past the input or panics on any other.
func FuzzSkimString(f *testing.F) {
	for _, s := range []string{`"a"`, `"a\"b"`, `"a\\"`, `"a\\\"b"`, `"\\\\"x`, `"unterminated`, `"\u0041"`, `x`, `""`} {
		f.Add(s)
	}
	// Long ones, quotes dense then sparse, escapes across words.
	f.Add(`"` + strings.Repeat(`ok \"x\" `, 40) + strings.Repeat("y", 200) + `\\\"z\\" tail`)
	f.Add(`"` + strings.Repeat(`\\`, 33) + `\"` + strings.Repeat(`a\"`, 20) + `"`)
	f.Fuzz(func(t *testing.T, in string) {
		var a, b Scanner
		a.Reset([]byte(in))
		raw := a.SkimString()
		if a.Err() == nil && (len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' || a.Offset() != len(raw)+(len(in)-len(strings.TrimLeft(in, " \t\r\n")))) {
			t.Fatalf("SkimString(%q) = %q at offset %d", in, raw, a.Offset())
		}
		b.Reset([]byte(in))
		if b.Kind() != String {
			return
		}
		b.Skip()
		if b.Err() == nil && (a.Err() != nil || a.Offset() != b.Offset()) {
			t.Fatalf("SkimString(%q) ended at %d (err %v), Skip at %d", in, a.Offset(), a.Err(), b.Offset())
		}
	})
}
