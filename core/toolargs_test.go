package core_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core"
)

// Schemas shaped like the built-in tools' and an MCP server's.
var (
	bashLike = core.ToolSpec{Name: "bash", Parameters: json.RawMessage(`{"type":"object","required":["command"],"properties":{` +
		`"command":{"type":"string"},"timeout":{"type":"number"}}}`)}
	editLike = core.ToolSpec{Name: "edit", Parameters: json.RawMessage(`{"type":"object","properties":{` +
		`"path":{"type":"string"},"edits":{"type":"array","items":{"type":"object","properties":{` +
		`"oldText":{"type":"string"},"newText":{"type":"string"}},"additionalProperties":false}}},"additionalProperties":false}`)}
	freeForm = core.ToolSpec{Name: "t", Parameters: json.RawMessage(`{"type":"object"}`)}
	mcpCall  = core.ToolSpec{Name: "mcp_call", Parameters: json.RawMessage(`{"type":"object","properties":{` +
		`"tool":{"type":"string"},"arguments":{"type":"object"}},"required":["tool"]}`)}
	openEnded = core.ToolSpec{Name: "o", Parameters: json.RawMessage(`{"type":"object","properties":{"a":{}},"additionalProperties":{"type":"object","properties":{"x":{}}}}`)}
)

func TestCheckArgumentsRefusesAmbiguousArguments(t *testing.T) {
	tests := []struct {
		name string
		spec core.ToolSpec
		args string
		want string // in the error
	}{
		// Keys a lenient parser would read differently from a strict one.
		{"duplicate key", bashLike, `{"command":"git status","command":"touch x"}`, `"command" appears twice`},
		{"case variant beside the key", bashLike, `{"command":"git status","Command":"touch x"}`, `"command" and "Command" differ only in case`},
		{"case variant first", bashLike, `{"Command":"touch x","command":"git status"}`, `"Command" is not a parameter`},
		{"case variant alone", bashLike, `{"Command":"touch x"}`, `"Command" is not a parameter; parameter names are case-sensitive: use "command"`},
		{"upper case alone", bashLike, `{"COMMAND":"touch x"}`, `use "command"`},
		{"kelvin sign folds to k", core.ToolSpec{Name: "k", Parameters: json.RawMessage(`{"type":"object","properties":{"key":{}}}`)}, `{"key":"a","\u212Aey":"b"}`, "differ only in case"},
		{"escaped key equal to the key", bashLike, `{"command":"a","\u0063ommand":"b"}`, `"command" appears twice`},
		{"unknown field", bashLike, `{"command":"ls","cwd":"/"}`, `"cwd" is not a parameter`},
		{"unknown nested field", editLike, `{"path":"a","edits":[{"oldText":"x","newText":"y","extra":1}]}`, `edits[0]: "extra" is not a parameter`},
		{"case variant nested", editLike, `{"path":"a","edits":[{"oldText":"x","newText":"y","NewText":"z"}]}`, `edits[0]: "newText" and "NewText" differ only in case`},
		{"legacy top-level pair", editLike, `{"path":"a","oldText":"x","newText":"y"}`, `"oldText" is not a parameter`},
		{"duplicate in a free-form object", freeForm, `{"a":1,"a":2}`, `"a" appears twice`},
		{"case variants in a free-form object", freeForm, `{"a":1,"A":2}`, "differ only in case"},
		{"duplicate inside mcp_call's arguments", mcpCall, `{"tool":"mcp__s__t","arguments":{"q":"a","q":"b"}}`, `arguments: "q" appears twice`},
		{"deep duplicate", freeForm, `{"a":[{"b":{"c":1,"c":2}}]}`, `a[0].b: "c" appears twice`},
		{"additionalProperties schema checked", openEnded, `{"b":{"x":1,"y":2}}`, `b: "y" is not a parameter`},
		{"control characters in a key shown escaped", bashLike, `{"\u001b[8mcommand":1}`, `"\u001b[8mcommand" is not a parameter`},
		// Not one JSON object.
		{"array", bashLike, `["ls"]`, "must be one JSON object"},
		{"string", bashLike, `"ls"`, "must be one JSON object"},
		{"two objects", bashLike, `{"command":"a"}{"command":"b"}`, "not valid JSON"},
		{"broken", bashLike, `{"command":"a"`, "not valid JSON"},
		{"bad literal", freeForm, `{"a":nul}`, "not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := core.CheckArguments(tt.spec, json.RawMessage(tt.args))
			var ae *core.ArgumentsError
			if !errors.As(err, &ae) {
				t.Fatalf("CheckArguments(%s) = %s, %v; want an *ArgumentsError", tt.args, got, err)
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "was not run") {
				t.Fatalf("error = %q, want it to contain %q and say the call was not run", err, tt.want)
			}
		})
	}
}

func TestCheckArgumentsErrorNamesTheParameters(t *testing.T) {
	_, err := core.CheckArguments(bashLike, json.RawMessage(`{"Command":"x"}`))
	want := "The arguments of this bash call were refused, so it was not run: \"Command\" is not a parameter; parameter names are case-sensitive: use \"command\". Send the call again with each parameter once, spelled exactly as declared (command, timeout)."
	if err == nil || err.Error() != want {
		t.Fatalf("error = %v\nwant    %s", err, want)
	}
}

func TestCheckArgumentsCanonicalForm(t *testing.T) {
	tests := []struct {
		name       string
		spec       core.ToolSpec
		args, want string
	}{
		{"empty is an empty object", bashLike, ``, `{}`},
		{"white space only", bashLike, " \n", `{}`},
		{"white space dropped, order kept", bashLike, "{ \"timeout\" : 5 ,\n \"command\" : \"ls\" }", `{"timeout":5,"command":"ls"}`},
		{"escapes decoded", bashLike, `{"command":"\u0067it \/ \"x\""}`, `{"command":"git / \"x\""}`},
		{"control characters stay escaped", bashLike, `{"command":"a\u001b[8mb"}`, `{"command":"a\u001b[8mb"}`},
		{"lone surrogate read as encoding/json does", bashLike, `{"command":"a\ud800b"}`, `{"command":"a` + "\uFFFD" + `b"}`},
		{"invalid UTF-8 replaced", bashLike, "{\"command\":\"a\xffb\"}", `{"command":"a` + "\uFFFD" + `b"}`},
		{"html left alone", bashLike, `{"command":"a<b>&c"}`, `{"command":"a<b>&c"}`},
		{"numbers as written", bashLike, `{"command":"x","timeout":1.50e1}`, `{"command":"x","timeout":1.50e1}`},
		{"literals", freeForm, `{"a":true,"b":false,"c":null,"d":[1,"x",{}]}`, `{"a":true,"b":false,"c":null,"d":[1,"x",{}]}`},
		{"nested declared keys", editLike, `{"path":"a","edits":[{"oldText":"x","newText":"y"}]}`, `{"path":"a","edits":[{"oldText":"x","newText":"y"}]}`},
		{"edits sent as a string are left to the tool", editLike, `{"path":"a","edits":"[{\"oldText\":1}]"}`, `{"path":"a","edits":"[{\"oldText\":1}]"}`},
		{"free-form inner arguments", mcpCall, `{"tool":"mcp__s__t","arguments":{"Q":1,"r":{"s":2}}}`, `{"tool":"mcp__s__t","arguments":{"Q":1,"r":{"s":2}}}`},
		{"additionalProperties true", core.ToolSpec{Name: "x", Parameters: json.RawMessage(`{"properties":{"a":{}},"additionalProperties":true}`)}, `{"a":1,"b":2}`, `{"a":1,"b":2}`},
		{"no schema takes any key", core.ToolSpec{Name: "x"}, `{"a":1}`, `{"a":1}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := core.CheckArguments(tt.spec, json.RawMessage(tt.args))
			if err != nil || string(got) != tt.want {
				t.Fatalf("CheckArguments(%q) = %s, %v; want %s", tt.args, got, err, tt.want)
			}
		})
	}
}

func FuzzCheckArguments(f *testing.F) {
	for _, s := range []string{`{"command":"ls"}`, `{"command":"a","Command":"b"}`, `{"a":{"b":[1,{"c":"\ud800"}]}}`,
		`{"path":"a","edits":[{"oldText":"x","newText":"y"}]}`, `{"tool":"t","arguments":{"k":1,"K":2}}`, `{}`, `[]`, "{\"\xff\":1}"} {
		f.Add(s)
	}
	specs := []core.ToolSpec{bashLike, editLike, freeForm, mcpCall, openEnded}
	f.Fuzz(func(t *testing.T, args string) {
		for _, spec := range specs {
			got, err := core.CheckArguments(spec, json.RawMessage(args))
			if err != nil {
				var ae *core.ArgumentsError
				if !errors.As(err, &ae) {
					t.Fatalf("%s: error %v is not an *ArgumentsError", spec.Name, err)
				}
				continue
			}
			// Canonical arguments are valid, canonical again, and mean to
			// encoding/json what the input meant.
			if !json.Valid(got) {
				t.Fatalf("%s: canonical form %q of %q is not valid JSON", spec.Name, got, args)
			}
			again, err := core.CheckArguments(spec, got)
			if err != nil || string(again) != string(got) {
				t.Fatalf("%s: canonical form %q is not stable: %q, %v", spec.Name, got, again, err)
			}
			var in, out any
			if strings.Trim(args, " \t\r\n") == "" {
				args = "{}"
			}
			if json.Unmarshal([]byte(args), &in) != nil || json.Unmarshal(got, &out) != nil || !reflect.DeepEqual(in, out) {
				t.Fatalf("%s: %q and its canonical form %q differ", spec.Name, args, got)
			}
		}
	})
}
