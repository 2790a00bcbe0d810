package frontmatter

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseValues(t *testing.T) {
	text := "---\n" +
		"name: pdf-tools\n" + // 2
		"description: \"Extract text: \\\"quoted\\\" \\u00e9\" # comment\n" + // 3
		"license: 'it''s MIT'\n" + // 4
		"tools: Read, Grep , Glob\n" + // 5
		"allowed:\n  - bash\n  - 'read'\n" + // 6-8
		"compact:\n- a\n- b\n" + // 9-11
		"flow: [x, \"y, z\", ]\n" + // 12
		"disable-model-invocation: true\n" + // 13
		"quotedbool: \"true\"\n" + // 14
		"metadata:\n  author: me\n  version: \"1.0\"\n" + // 15-17
		"literal: |\n  one\n    two\n\n" + // 18-21
		"folded: >-\n  one\n  two\n\n  three\n" + // 22-26
		"plain: first\n  second\n" + // 27-28
		"empty:\n" + // 29
		"# a comment\n" +
		"---\n" +
		"# Body\n"
	d, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	if !d.Found || d.Body != "# Body\n" || d.BodyLine != 32 {
		t.Fatalf("found %v body %q line %d", d.Found, d.Body, d.BodyLine)
	}
	str := func(key, want string) {
		t.Helper()
		got, err := d.String(key)
		if err != nil || got != want {
			t.Errorf("%s = %q, %v; want %q", key, got, err, want)
		}
	}
	list := func(key string, want ...string) {
		t.Helper()
		got, err := d.List(key)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %q, %v; want %q", key, got, err, want)
		}
	}
	str("name", "pdf-tools")
	str("description", "Extract text: \"quoted\" é")
	str("license", "it's MIT")
	str("literal", "one\n  two\n")
	str("folded", "one two\nthree")
	str("plain", "first second")
	str("empty", "")
	str("missing", "")
	list("tools", "Read", "Grep", "Glob")
	list("allowed", "bash", "read")
	list("compact", "a", "b")
	list("flow", "x", "y, z")
	list("empty")
	if b, err := d.Bool("disable-model-invocation"); err != nil || !b {
		t.Errorf("bool = %v, %v", b, err)
	}
	if _, err := d.Bool("quotedbool"); err == nil || !strings.Contains(err.Error(), "line 14") {
		t.Errorf("quoted true as bool: %v", err)
	}
	m, err := d.Map("metadata")
	if err != nil || len(m) != 2 || m[1].Key != "version" || m[1].Value.Str != "1.0" || m[1].Line != 17 {
		t.Errorf("metadata = %+v, %v", m, err)
	}
	if _, err := d.String("allowed"); err == nil || err.Error() != "line 6: allowed: expected a string, found a list" {
		t.Errorf("list as string: %v", err)
	}
	if _, err := d.List("metadata"); err == nil || !strings.Contains(err.Error(), "line 15") {
		t.Errorf("map as list: %v", err)
	}
	unknown := d.Unknown("name", "description", "license", "tools", "allowed", "compact", "flow",
		"disable-model-invocation", "quotedbool", "metadata", "literal", "folded", "plain")
	if len(unknown) != 1 || unknown[0].Key != "empty" || unknown[0].Line != 29 {
		t.Errorf("unknown = %+v", unknown)
	}
}

func TestParseNoFrontMatter(t *testing.T) {
	for _, text := range []string{"", "# Title\n", "--- \nnot closed?", "----\n"} {
		d, err := Parse(text)
		if text == "--- \nnot closed?" {
			if err == nil {
				t.Errorf("%q: want an error", text)
			}
			continue
		}
		if err != nil || d.Found || d.Body != text {
			t.Errorf("%q: %+v, %v", text, d, err)
		}
	}
}

func TestParseCRLFAndBOM(t *testing.T) {
	d, err := Parse("\uFEFF---\r\nname: x\r\n---\r\nbody\r\n")
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := d.String("name"); s != "x" || d.Body != "body\n" {
		t.Errorf("name %q body %q", s, d.Body)
	}
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"---\nname: x\n", `line 1: front matter opened here is not closed by a "---" line`},
		{"---\nname: x", `line 1: front matter opened here is not closed by a "---" line`},
		{"---", `line 1: front matter opened here is not closed by a "---" line`},
		{"---\nname: x\nname: y\n---\n", `line 3: key "name" is given twice (first on line 2)`},
		{"---\nm:\n  a: 1\n  a: 2\n---\n", `line 4: key "a" is given twice (first on line 3)`},
		{"---\njust words\n---\n", `line 2: front matter is not "key: value" lines: it is the text "just words"`},
		{"---\n- a\n---\n", `line 2: front matter is not "key: value" lines: it is a list`},
		{"---\nd: \"bad \\q\"\n---\n", "found unknown escape character"},
		{"---\nd:\n\t- a\n---\n", "line 3: found character that cannot start any token"},
		{"---\nd:\n  - *nothing\n---\n", "unknown anchor 'nothing'"},
		{"---\na: 1\n...\nb: 2\n---\n", "line 3: did not find expected <document start>"},
		{"---\n" + strings.Repeat("k: v\n", MaxSize/5+1) + "---\n", "line 1: front matter is larger than 64 KiB"},
		{"---\nm:\n k: " + strings.Repeat("[", MaxDepth+2) + strings.Repeat("]", MaxDepth+2) + "\n---\n", "line 3: front matter nests more than 64 levels deep"},
		{"---\nm:\n a: &a [x, x, x, x, x, x, x, x, x, x]\n b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n" +
			" c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n d: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n---\n",
			"front matter expands to more than 10000 values"},
	} {
		_, err := Parse(c.text)
		var fe *Error
		if err == nil || !errors.As(err, &fe) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", clip(c.text), err, c.want)
		}
	}
}

// TestParseYAMLShapes: what the old reader refused and YAML (and pi and
// Claude Code) read: flow maps, deep nesting, flow lists in nested keys,
// keys with spaces, anchors, multi-line plain scalars, typed scalars.
func TestParseYAMLShapes(t *testing.T) {
	d, err := Parse("---\n" +
		"metadata: {\"openclaw\": {\"requires\": {\"bins\": [\"gh\", jq]}, \"emoji\": \"x\"}}\n" + // 2
		"deep:\n  a:\n    b:\n      c: [1, 2]\n" + // 3-6
		"key with spaces: v\n" + // 7
		"description: first line\n  second line\n" + // 8-9
		"base: &b {k: v}\nref: *b\n" + // 10-11
		"n: 12\nf: 1.5\nq: '12'\nyes: yes\nt: True\nunder: 1_000\ndate: 2024-01-02\nnull: ~\n" + // 12-19
		"---\nbody")
	if err != nil {
		t.Fatal(err)
	}
	m, err := d.Map("metadata")
	if err != nil || len(m) != 1 || m[0].Key != "openclaw" || m[0].Line != 2 {
		t.Fatalf("metadata %+v %v", m, err)
	}
	bins := m[0].Value.Entries[0].Value.Entries[0].Value
	if bins.Kind != List || len(bins.Items) != 2 || bins.Items[1].Str != "jq" {
		t.Errorf("bins %+v", bins)
	}
	deep, _ := d.Map("deep")
	if c := deep[0].Value.Entries[0].Value.Entries[0]; c.Key != "c" || c.Line != 6 || len(c.Value.Items) != 2 {
		t.Errorf("deep %+v", c)
	}
	if s, _ := d.String("key with spaces"); s != "v" {
		t.Errorf("key with spaces: %q", s)
	}
	if s, _ := d.String("description"); s != "first line second line" {
		t.Errorf("multi-line plain: %q", s)
	}
	if r, _ := d.Map("ref"); len(r) != 1 || r[0].Key != "k" {
		t.Errorf("alias %+v", r)
	}
	for key, tag := range map[string]string{"n": "!!int", "f": "!!float", "q": "!!str", "yes": "!!str", "t": "!!bool",
		"under": "!!str", "date": "!!str", "description": "!!str"} {
		if f, _ := d.Get(key); f.Value.Tag != tag || f.Value.IsString() != (tag == "!!str") {
			t.Errorf("%s: tag %q, want %q", key, f.Value.Tag, tag)
		}
	}
	if f, _ := d.Get("null"); f.Value.Kind != Null {
		t.Errorf("~ is %+v", f.Value)
	}
	if b, err := d.Bool("t"); !b || err != nil {
		t.Errorf("True: %v %v", b, err)
	}
	if d.Body != "body" || d.BodyLine != 21 {
		t.Errorf("body %q line %d", d.Body, d.BodyLine)
	}
}

func TestParseColonInPlainValue(t *testing.T) {
	// Skill descriptions often say "Use when: ..."; strict YAML refuses
	// that, but it can only mean the text.
	d, err := Parse("---\ndescription: Use when: the user asks\nurl: http://x\n---\n")
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := d.String("description"); s != "Use when: the user asks" {
		t.Errorf("description %q", s)
	}
	if s, _ := d.String("url"); s != "http://x" {
		t.Errorf("url %q", s)
	}
}

func FuzzParse(f *testing.F) {
	f.Add("---\nname: x\ndescription: \"a\\u00e9\"\ntools: [a, 'b']\nl:\n  - x\nm:\n  k: v\nb: |\n  t\n---\nbody")
	f.Add("---\nd: >+\n  a\n\n  b\n\n---\n")
	f.Add("---\r\nk: 'it''s'\r\n...\r\n")
	f.Add("---\nmetadata: {\"openclaw\": {\"bins\": [\"a\"]}}\nx: &a [1]\ny: *a\n? [k]\n: v\n---\n")
	f.Add("---\ndescription: Use when: asked\nhooks:\n  Stop:\n    - hooks: [{type: command}]\n---\nb")
	f.Fuzz(func(t *testing.T, text string) {
		d, err := Parse(text)
		if err != nil {
			var fe *Error
			if !errors.As(err, &fe) || fe.Line < 0 || fe.Msg == "" {
				t.Fatalf("not an Error: %v", err)
			}
			return
		}
		if !d.Found && d.BodyLine != 1 {
			t.Fatalf("body line %d without front matter", d.BodyLine)
		}
		seen := map[string]bool{}
		for _, fl := range d.Fields {
			if seen[fl.Key] || fl.Line < 2 || fl.Line >= d.BodyLine {
				t.Fatalf("field %+v (body line %d)", fl, d.BodyLine)
			}
			seen[fl.Key] = true
			_, _ = d.String(fl.Key)
			_, _ = d.List(fl.Key)
			_, _ = d.Bool(fl.Key)
			_, _ = d.Map(fl.Key)
		}
		norm := strings.ReplaceAll(strings.ReplaceAll(strings.TrimPrefix(text, "\uFEFF"), "\r\n", "\n"), "\r", "\n")
		if !strings.HasSuffix(norm, d.Body) {
			t.Fatalf("body %q is not the end of the text", d.Body)
		}
	})
}

// TestParseControlCharacters: raw control characters and bytes that are
// not UTF-8 do not cost the front matter (pi reads past them); they become
// U+FFFD. The shape is that of openclaw/skills'
// skills/hhhh124hhhh/ai-image-prompts-for-eye-catching-marketing-creati-4e43d568/SKILL.md.
func TestParseControlCharacters(t *testing.T) {
	d, err := Parse("---\nname: x\ndescription: formula:\u00e2\u0080\u00af A \x1b[31m\xff\n---\n")
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := d.String("description"); s != "formula:\u00e2\uFFFD\u00af A \uFFFD[31m\uFFFD" {
		t.Errorf("description %q", s)
	}
}
