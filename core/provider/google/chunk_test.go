package google

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/jsonscan"
	"github.com/cairn-dev/cairn/core/provider"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

// mirror is the chunk as encoding/json would decode it; the scanner must
// agree with it on every input both accept.
type mirror struct {
	Candidates []struct {
		Content struct {
			Parts []struct {
				Text             string `json:"text"`
				Thought          bool   `json:"thought"`
				ThoughtSignature string `json:"thoughtSignature"`
				FunctionCall     *struct {
					ID   string          `json:"id"`
					Name string          `json:"name"`
					Args json.RawMessage `json:"args"`
				} `json:"functionCall"`
			} `json:"parts"`
		} `json:"content"`
		FinishReason  string `json:"finishReason"`
		FinishMessage string `json:"finishMessage"`
		Index         int    `json:"index"`
		SafetyRatings []struct {
			Category string `json:"category"`
			Blocked  bool   `json:"blocked"`
		} `json:"safetyRatings"`
	} `json:"candidates"`
	UsageMetadata  *usageMetadataTagged `json:"usageMetadata"`
	PromptFeedback *promptFeedback      `json:"promptFeedback"`
	Error          *apiError            `json:"error"`
	ModelVersion   string               `json:"modelVersion"`
	ResponseID     string               `json:"responseId"`
}

type usageMetadataTagged struct {
	PromptTokenCount        int `json:"promptTokenCount"`
	CandidatesTokenCount    int `json:"candidatesTokenCount"`
	ThoughtsTokenCount      int `json:"thoughtsTokenCount"`
	CachedContentTokenCount int `json:"cachedContentTokenCount"`
}

// fromMirror converts encoding/json's result to the scanner's shape.
func fromMirror(m *mirror) chunk {
	var ch chunk
	for _, c := range m.Candidates {
		var out candidate
		out.FinishReason, out.FinishMessage, out.Index = c.FinishReason, c.FinishMessage, c.Index
		for _, r := range c.SafetyRatings {
			if r.Blocked && r.Category != "" {
				out.Blocked = r.Category
				break
			}
		}
		for _, p := range c.Content.Parts {
			ip := inPart{Text: p.Text, Thought: p.Thought, ThoughtSignature: p.ThoughtSignature}
			if fc := p.FunctionCall; fc != nil {
				ip.FunctionCall = &inFunctionCall{ID: fc.ID, Name: fc.Name, Args: normArgs(fc.Args)}
			}
			out.Content.Parts = append(out.Content.Parts, ip)
		}
		ch.Candidates = append(ch.Candidates, out)
	}
	if u := m.UsageMetadata; u != nil {
		ch.HasUsage = true
		ch.Usage = usageMetadata(*u)
	}
	ch.PromptFeedback, ch.Error = m.PromptFeedback, m.Error
	ch.ModelVersion, ch.ResponseID = m.ModelVersion, m.ResponseID
	return ch
}

func normArgs(a []byte) []byte {
	if len(a) == 0 || string(a) == "null" {
		return nil
	}
	return a
}

// normalize makes empty and nil slices compare equal.
func normalize(ch chunk) chunk {
	out := chunk{Usage: ch.Usage, HasUsage: ch.HasUsage, PromptFeedback: ch.PromptFeedback, Error: ch.Error, ModelVersion: ch.ModelVersion, ResponseID: ch.ResponseID}
	for _, c := range ch.Candidates {
		parts := c.Content.Parts
		c.Content.Parts = nil
		for _, p := range parts {
			if p.FunctionCall != nil {
				fc := *p.FunctionCall
				fc.Args = normArgs(append([]byte(nil), fc.Args...))
				p.FunctionCall = &fc
			}
			c.Content.Parts = append(c.Content.Parts, p)
		}
		out.Candidates = append(out.Candidates, c)
	}
	return out
}

var ourKeys = []string{"candidates", "content", "parts", "text", "thought", "thoughtSignature", "functionCall", "id", "name", "args",
	"finishReason", "finishMessage", "index", "usageMetadata", "promptTokenCount", "candidatesTokenCount", "thoughtsTokenCount",
	"cachedContentTokenCount", "promptFeedback", "error", "modelVersion", "responseId", "safetyRatings", "category", "blocked"}

// comparable reports whether encoding/json's case-insensitive key matching
// could make it see a field the scanner (rightly) does not.
func comparable(data []byte) bool {
	if bytes.Contains(data, []byte(`\u`)) {
		return false
	}
	lower := bytes.ToLower(data)
	for _, k := range ourKeys {
		if bytes.Count(lower, []byte(`"`+strings.ToLower(k)+`"`)) != bytes.Count(data, []byte(`"`+k+`"`)) {
			return false
		}
	}
	return true
}

// checkAgainstStdlib is the property both the fixture test and the fuzz
// test assert: invalid JSON is rejected, and where encoding/json and the
// scanner both accept an event they read the same thing.
func checkAgainstStdlib(t *testing.T, data []byte) {
	t.Helper()
	var ch chunk
	var s jsonscan.Scanner
	err := parseChunk(&s, data, &ch)
	if !json.Valid(data) {
		if err == nil {
			t.Fatalf("scanner accepted invalid JSON %q", data)
		}
		return
	}
	var m mirror
	stdErr := json.Unmarshal(data, &m)
	if err != nil || stdErr != nil || !comparable(data) {
		return
	}
	got, want := normalize(ch), normalize(fromMirror(&m))
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("scanner and encoding/json disagree on %q:\n got %+v\nwant %+v", data, got, want)
	}
}

func TestScannerMatchesStdlib(t *testing.T) {
	var events [][]byte
	for _, name := range fixtureStreams(t) {
		dec := provider.NewSSEDecoder(bytes.NewReader(providertest.Fixture(t, "gemini/"+name)))
		for {
			ev, err := dec.Next()
			if err != nil {
				break
			}
			events = append(events, append([]byte(nil), ev.Data...))
		}
	}
	events = append(events,
		[]byte(`{"candidates":[{"content":{"parts":[{"text":"a\"b\\c\u00e9\ud83d\ude00\ud800x\n"},null,{"thought":true,"text":"t"}]},"index":0},null]}`),
		[]byte(`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{"a":[1,2.5e-3,true,false,null,{"b":"c"}]}}}]}}],"usageMetadata":null}`),
		[]byte(`{"candidates":[],"candidates":[{"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":5},"usageMetadata":{"candidatesTokenCount":2}}`),
		[]byte(`{"error":{"code":500,"status":"INTERNAL","details":[{"@type":"x","retryDelay":"1s"}]}}`),
		[]byte(`{"promptFeedback":{"blockReason":"SAFETY"}} `),
		[]byte(`{"candidates":[{"finishReason":"SAFETY","safetyRatings":[{"category":"A","blocked":false},null,{"blocked":true},{"category":"B","blocked":true,"blocked":null},{"category":"C","blocked":true}]}],"modelVersion":"m1","modelVersion":"m2","responseId":null}`),
		[]byte(`{"candidates":[{"safetyRatings":[{"category":"A","blocked":true}],"safetyRatings":[{"category":"B","category":null,"blocked":true}]}],"modelVersion":"m\u0031"}`),
		[]byte("{\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"bad \xff utf8\"}]}}]}"),
	)
	for _, bad := range []string{`{"candidates":[}`, `{"a":1,}`, `{"a":01}`, `{"a":1.}`, `{"a":"\x"}`, `{"a":tru}`, `[1]`, `{"a":1} x`, "{\"a\":\"\x01\"}", `{"index":1.5,"candidates":[{"index":1.5}]}`} {
		events = append(events, []byte(bad))
		var ch chunk
		var s jsonscan.Scanner
		if err := parseChunk(&s, []byte(bad), &ch); err == nil {
			t.Errorf("scanner accepted %s", bad)
		}
	}
	for _, ev := range events {
		checkAgainstStdlib(t, ev)
	}
}

func FuzzParseChunk(f *testing.F) {
	for _, name := range fixtureStreams(f) {
		dec := provider.NewSSEDecoder(bytes.NewReader(providertest.Fixture(f, "gemini/"+name)))
		for {
			ev, err := dec.Next()
			if err != nil {
				break
			}
			f.Add(append([]byte(nil), ev.Data...))
		}
	}
	f.Add([]byte(`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"f","args":{"a":[1,{"b":null}]}}}]}}]}`))
	f.Fuzz(checkAgainstStdlib)
}
