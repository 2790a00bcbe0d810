package export

import (
	"encoding/json"
	"io"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/cairn-dev/cairn/core"
)

// voidElements have no end tag.
var voidElements = map[atom.Atom]bool{atom.Meta: true, atom.Img: true, atom.Br: true, atom.Hr: true, atom.Input: true, atom.Link: true}

// checkPage fails the test unless page is well formed (every element
// closed, in order), holds no script, event handler, remote resource or
// javascript: link, keeps its content security policy, and every link
// within the page leads somewhere.
func checkPage(t *testing.T, page string) {
	t.Helper()
	z := html.NewTokenizer(strings.NewReader(page))
	var open []atom.Atom
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if z.Err() != io.EOF {
				t.Fatalf("tokenize: %v", z.Err())
			}
			break
		}
		tok := z.Token()
		switch tt {
		case html.StartTagToken:
			if !voidElements[tok.DataAtom] {
				open = append(open, tok.DataAtom)
			}
		case html.EndTagToken:
			if len(open) == 0 || open[len(open)-1] != tok.DataAtom {
				t.Fatalf("</%s> closes %v", tok.Data, open)
			}
			open = open[:len(open)-1]
		case html.SelfClosingTagToken:
			if !voidElements[tok.DataAtom] {
				t.Fatalf("<%s/> is not a void element", tok.Data)
			}
		}
	}
	if len(open) != 0 {
		t.Fatalf("elements left open: %v", open)
	}

	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	csp := false
	ids, links := map[string]bool{}, []string{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.DataAtom {
			case atom.Script, atom.Iframe, atom.Object, atom.Embed, atom.Link, atom.Form:
				t.Errorf("page has a <%s> element", n.Data)
			}
			for _, a := range n.Attr {
				v := strings.ToLower(strings.TrimSpace(a.Val))
				switch {
				case strings.HasPrefix(a.Key, "on"):
					t.Errorf("<%s> has an event handler %s=%q", n.Data, a.Key, a.Val)
				case a.Key == "src" && !strings.HasPrefix(v, "data:image/"):
					t.Errorf("<%s> loads %q", n.Data, a.Val)
				case a.Key == "href" && strings.HasPrefix(v, "javascript:"):
					t.Errorf("<%s> links to %q", n.Data, a.Val)
				case a.Key == "content" && a.Val == csp_:
					csp = true
				case a.Key == "id":
					ids[a.Val] = true
				case a.Key == "href" && strings.HasPrefix(a.Val, "#"):
					links = append(links, a.Val[1:])
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	for _, l := range links {
		if !ids[l] {
			t.Errorf("a link to #%s, which is not in the page", l)
		}
	}
	if !csp {
		t.Error("page has no content security policy")
	}
}

const csp_ = csp

// hostile is text that would run or break out of its element if it were
// not escaped.
const hostile = `"'><script>alert(1)</script><img src=x onerror=alert(2)>&amp;`

func TestEscaping(t *testing.T) {
	call := func(name string, args map[string]any) core.Content {
		raw, _ := json.Marshal(args)
		return core.Content{Type: core.ContentToolCall, ID: "c1", Name: name, Arguments: raw}
	}
	result := func(name string, details string) *core.ToolResultMessage {
		return &core.ToolResultMessage{ToolCallID: "c1", ToolName: name, Content: []core.Content{core.TextBlock(hostile)}, Details: json.RawMessage(details)}
	}
	exit := 1
	cases := []struct {
		name string
		doc  Document
	}{
		{"header", Document{ID: hostile, Name: hostile, Cwd: hostile, Model: hostile, ThinkingLevel: hostile}},
		{"system prompt and tools", Document{SystemPrompt: hostile, Tools: []core.ToolSpec{{Name: hostile, Description: hostile, Parameters: json.RawMessage(`{"d":"` + strings.ReplaceAll(hostile, `"`, `\"`) + `"}`)}}}},
		{"user text", Document{Messages: []core.Message{&core.UserMessage{Content: []core.Content{core.TextBlock(hostile)}}}}},
		{"markdown", Document{Messages: []core.Message{&core.AssistantMessage{Model: hostile, Content: []core.Content{
			core.TextBlock(hostile + "\n\n<div onclick=x>raw</div>\n\n[x](javascript:alert(1)) [y](JaVaScRiPt:alert(1)) ![z](javascript:alert(3)) <https://a.b/\"onmouseover=x>\n\n```" + hostile + "\n" + hostile + "\n```\n\n    " + hostile),
			{Type: core.ContentThinking, Thinking: hostile}},
			ErrorMessage: hostile, StopReason: core.StopError}}}},
		{"file names", Document{Messages: []core.Message{&core.AssistantMessage{Content: []core.Content{
			call("read", map[string]any{"path": hostile + ".go"}),
			call("write", map[string]any{"path": hostile + ".js", "content": hostile}),
			call("edit", map[string]any{"path": hostile, "edits": []map[string]string{{"oldText": hostile, "newText": hostile}}}),
			call(hostile, map[string]any{hostile: hostile}),
		}}, result("read", `{}`)}}},
		{"edit diff", Document{Messages: []core.Message{&core.AssistantMessage{Content: []core.Content{call("edit", map[string]any{"path": "a"})}},
			result("edit", `{"diff":"+1 `+strings.ReplaceAll(hostile, `"`, `\"`)+`"}`)}}},
		{"bash", Document{Messages: []core.Message{&core.BashExecutionMessage{Command: hostile, Output: hostile + "\x1b]0;" + hostile + "\x07", ExitCode: &exit, Truncated: true, FullOutputPath: hostile}}}},
		{"labels and ids", Document{Messages: []core.Message{&core.UserMessage{}}, EntryIDs: []string{hostile}, Labels: map[string]string{hostile: hostile},
			Branches: []Branch{{ParentID: hostile, Messages: []core.Message{&core.UserMessage{Content: []core.Content{core.TextBlock(hostile)}}}, EntryIDs: []string{hostile + "2"}}}}},
		{"custom and summaries", Document{Messages: []core.Message{
			&core.CustomMessage{CustomType: hostile, Display: true, Content: []core.Content{core.TextBlock(hostile)}},
			&core.CompactionSummaryMessage{Summary: hostile},
			&core.BranchSummaryMessage{Summary: hostile},
			&core.RawMessage{Role: hostile, JSON: json.RawMessage(`{"x":"` + strings.ReplaceAll(hostile, `"`, `\"`) + `"}`)},
		}}},
		{"images", Document{Messages: []core.Message{&core.UserMessage{Content: []core.Content{
			core.ImageBlock("AAAA\" onerror=\"alert(1)", "image/png"),
			core.ImageBlock("AAAA", `image/png" onerror="alert(1)`),
			core.ImageBlock("PHN2Zz4=", "image/svg+xml"),
		}}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			page := render(t, c.doc, Options{Title: hostile})
			checkPage(t, page)
			if strings.Contains(page, "<script>alert") || strings.Contains(page, "<img src=x") {
				t.Error("hostile markup came through")
			}
		})
	}
}

func TestImages(t *testing.T) {
	const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
	cases := []struct {
		name string
		img  core.Content
		want string
	}{
		{"png", core.ImageBlock(png, "image/png"), `<img class="image" alt="image" src="data:image/png;base64,` + png + `">`},
		{"jpeg", core.ImageBlock("/9j/4AAQ", "image/jpeg"), `src="data:image/jpeg;base64,/9j/4AAQ"`},
		{"svg is not shown", core.ImageBlock("PHN2Zz4=", "image/svg+xml"), `An image that cannot be shown (type &#34;image/svg+xml&#34;)`},
		{"bad data", core.ImageBlock("not base64!", "image/png"), `An image that cannot be shown`},
		{"empty", core.ImageBlock("", "image/png"), `An image that cannot be shown`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, doc := range []Document{
				{Messages: []core.Message{&core.UserMessage{Content: []core.Content{c.img}}}},
				{Messages: []core.Message{
					&core.AssistantMessage{Content: []core.Content{{Type: core.ContentToolCall, ID: "r", Name: "read", Arguments: json.RawMessage(`{"path":"a.png"}`)}}},
					&core.ToolResultMessage{ToolCallID: "r", ToolName: "read", Content: []core.Content{core.TextBlock("Read image file [image/png]"), c.img}},
				}},
			} {
				page := render(t, doc, Options{})
				if !strings.Contains(page, c.want) {
					t.Errorf("page lacks %q", c.want)
				}
				checkPage(t, page)
			}
		})
	}
}

func TestToolResults(t *testing.T) {
	call := func(id, name, args string) core.Content {
		return core.Content{Type: core.ContentToolCall, ID: id, Name: name, Arguments: json.RawMessage(args)}
	}
	res := func(id, name, text string, isErr bool) *core.ToolResultMessage {
		return &core.ToolResultMessage{ToolCallID: id, ToolName: name, Content: []core.Content{core.TextBlock(text)}, IsError: isErr}
	}
	cases := []struct {
		name string
		msgs []core.Message
		want []string // in this order
		not  []string
	}{
		{"result inside its call, in call order",
			[]core.Message{
				&core.AssistantMessage{Content: []core.Content{call("1", "bash", `{"command":"echo one"}`), call("2", "bash", `{"command":"echo two"}`)}},
				res("2", "bash", "TWO", false), res("1", "bash", "ONE", false),
				&core.AssistantMessage{Content: []core.Content{core.TextBlock("after")}},
			},
			[]string{"echo one", "ONE", "echo two", "TWO", "</section>", "after"},
			[]string{`class="msg tool-result"`}},
		{"a call with no result is pending",
			[]core.Message{&core.AssistantMessage{Content: []core.Content{call("1", "ls", `{"path":"src"}`)}}},
			[]string{`<div class="tool pending">`, `<span class="tool-arg">src</span> <span class="tool-state">no result</span>`, `<details class="args"><summary>Arguments</summary>`},
			[]string{"<summary>Output"}},
		{"a failed call shows its output open",
			[]core.Message{&core.AssistantMessage{Content: []core.Content{call("1", "bash", `{"command":"false"}`)}}, res("1", "bash", "boom\nexit 1", true)},
			[]string{`<div class="tool error">`, `<details class="out error" open><summary>Output · 2 lines</summary><pre>boom`},
			nil},
		{"a result without its call stands alone",
			[]core.Message{&core.UserMessage{}, res("9", "grep", "x.go:1", false)},
			[]string{`class="msg tool-result"`, `<span class="tool-name">grep</span>`, "x.go:1"},
			nil},
		{"a result is not taken by a later answer's call",
			[]core.Message{
				&core.AssistantMessage{Content: []core.Content{call("1", "bash", `{"command":"a"}`)}},
				&core.AssistantMessage{Content: []core.Content{call("1", "bash", `{"command":"b"}`)}},
				res("1", "bash", "OUT", false),
			},
			[]string{`<span class="tool-arg">a</span> <span class="tool-state">no result</span>`, `<span class="tool-arg">b</span> <span class="tool-state">done</span>`, "OUT"},
			nil},
		{"read output highlighted for the file",
			[]core.Message{&core.AssistantMessage{Content: []core.Content{call("1", "read", `{"path":"x.go"}`)}}, res("1", "read", "package x\n", false)},
			[]string{"Contents · 1 line", `<pre class="chroma"><code><span class="line"><span class="cl"><span class="kn">package</span>`},
			nil},
		{"failed edit shows what it asked for",
			[]core.Message{&core.AssistantMessage{Content: []core.Content{call("1", "edit", `{"path":"a","edits":[{"oldText":"x","newText":"y"}]}`)}}, res("1", "edit", "oldText not found", true)},
			[]string{`<span class="del">-x</span>`, `<span class="add">+y</span>`, "oldText not found"},
			nil},
		{"empty output",
			[]core.Message{&core.AssistantMessage{Content: []core.Content{call("1", "bash", `{"command":"true"}`)}}, res("1", "bash", "", false)},
			[]string{"(no output)"},
			nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			page := render(t, Document{Messages: c.msgs}, Options{})
			checkPage(t, page)
			at := 0
			for _, w := range c.want {
				i := strings.Index(page[at:], w)
				if i < 0 {
					t.Fatalf("page lacks %q after byte %d", w, at)
				}
				at += i + len(w)
			}
			for _, n := range c.not {
				if strings.Contains(page, n) {
					t.Errorf("page contains %q", n)
				}
			}
		})
	}
}

func TestCompaction(t *testing.T) {
	doc := Document{Messages: []core.Message{
		&core.UserMessage{Content: []core.Content{core.TextBlock("before")}},
		&core.CompactionSummaryMessage{Summary: "## Progress\n- **done**: parser", TokensBefore: 48213},
		&core.UserMessage{Content: []core.Content{core.TextBlock("after")}},
	}}
	page := render(t, doc, Options{})
	checkPage(t, page)
	want := []string{"before", `<section class="msg compaction">`, "Earlier conversation summarised (48,213 tokens)", "<h2>Progress</h2>", "<strong>done</strong>", "after"}
	at := 0
	for _, w := range want {
		i := strings.Index(page[at:], w)
		if i < 0 {
			t.Fatalf("page lacks %q after byte %d", w, at)
		}
		at += i + len(w)
	}
}
