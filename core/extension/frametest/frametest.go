// Package frametest checks the lines cairn and an extension exchange
// against the extension protocol's JSON Schema
// (docs/extension-protocol.schema.json), for the tests of core/extension
// and of the extensions built on it (core/piext).
package frametest

import (
	"encoding/json"
	"os"
	"sync"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// resultDefs names the schema definition of each request's result.
var resultDefs = map[string]string{
	"initialize": "initializeResult", "execute_tool": "executeToolResult", "event": "eventResult",
	"run_command": "emptyResult", "ui": "uiResult", "register_tool": "emptyResult",
	"register_command": "emptyResult", "set_active_tools": "emptyResult", "send_user_message": "emptyResult",
	"append_entry": "appendEntryResult", "get_entries": "getEntriesResult", "set_session_name": "emptyResult",
	// The session's model (version 2).
	"get_model": "getModelResult", "get_models": "getModelsResult", "set_model": "emptyResult",
	"set_thinking_level": "emptyResult", "complete": "completeResult", "get_system_prompt": "getSystemPromptResult",
	// Providers extensions register (version 2).
	"stream": "completeResult", "stream_api": "completeResult", "register_provider": "emptyResult", "unregister_provider": "emptyResult",
	// What an extension draws (version 2).
	"render":       "renderResult",
	"run_shortcut": "emptyResult",
	// The session's entries, messages and lifecycle (version 2).
	"set_label": "emptyResult", "get_commands": "getCommandsResult", "send_message": "emptyResult",
	"new_session": "newSessionResult", "get_session": "getSessionResult", "reload": "emptyResult",
	// Components (version 2).
	"custom_show": "customShowResult",
	// The session's tools (version 2).
	"get_tools": "getToolsResult", "set_tools": "setToolsResult",
}

// Checker validates every line exchanged against the protocol's schema,
// and each response's result against its request's; a mismatch fails the
// test. Its Check method fits extension.Options.Trace.
type Checker struct {
	t       testing.TB
	all     *jsonschema.Resolved
	results map[string]*jsonschema.Resolved
	mu      sync.Mutex
	methods map[string]string // "<ext> <in> <id>" of each request → method
	frames  int
}

// New reads the schema at schemaPath.
func New(t testing.TB, schemaPath string) *Checker {
	data, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	resolve := func(ref string) *jsonschema.Resolved {
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		if ref != "" {
			delete(m, "oneOf")
			m["$ref"] = "#/$defs/" + ref
		}
		b, _ := json.Marshal(m)
		var s jsonschema.Schema
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatal(err)
		}
		rs, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("resolve schema %s: %v", ref, err)
		}
		return rs
	}
	c := &Checker{t: t, all: resolve(""), results: map[string]*jsonschema.Resolved{}, methods: map[string]string{}}
	for _, def := range resultDefs {
		if c.results[def] == nil {
			c.results[def] = resolve(def)
		}
	}
	return c
}

// Frames counts the lines checked.
func (c *Checker) Frames() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.frames
}

// Check validates one line of extension ext (in: from it).
func (c *Checker) Check(ext string, in bool, line []byte) {
	var v map[string]any
	if err := json.Unmarshal(line, &v); err != nil {
		return // the decoder's business: bad lines are counted and cut off
	}
	if len(line) > 1<<20 {
		return
	}
	if err := c.all.Validate(v); err != nil {
		c.t.Errorf("frame does not match the schema: %v\n%s", err, line)
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.frames++
	id, _ := json.Marshal(v["id"])
	if m, ok := v["method"].(string); ok {
		if v["id"] != nil {
			c.methods[ext+" "+boolStr(in)+" "+string(id)] = m
		}
		return
	}
	// A response answers a request that went the other way.
	method := c.methods[ext+" "+boolStr(!in)+" "+string(id)]
	if def, ok := resultDefs[method]; ok && v["result"] != nil || method == "event" {
		if _, has := v["result"]; has {
			if err := c.results[resultDefs[method]].Validate(v["result"]); err != nil {
				c.t.Errorf("%s result does not match %s: %v\n%s", method, def, err, line)
			}
		}
	}
}

func boolStr(b bool) string {
	if b {
		return "in"
	}
	return "out"
}
