package webui

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/cairn-dev/cairn/core"
	"github.com/cairn-dev/cairn/core/approval"
	"github.com/cairn-dev/cairn/core/provider/faux"
)

// screenshots, when set, is the directory TestScreenshots writes the
// page's pictures to: go test ./rpcmode/webui -run TestScreenshots
// -screenshots "$PWD/docs/screenshots".
var screenshots = flag.String("screenshots", "", "write screenshots of the page to this directory")

func toolCall(id, name string, args any) faux.Response {
	b, _ := json.Marshal(args)
	return faux.Response{Content: []core.Content{{Type: core.ContentToolCall, ID: id, Name: name, Arguments: b}}}
}

// TestScreenshots drives a scripted session (a plan, an approved edit, a
// command waiting for approval) and photographs the page at desktop and
// phone widths.
func TestScreenshots(t *testing.T) {
	if *screenshots == "" {
		t.Skip("no -screenshots directory")
	}
	todos := func(states ...string) map[string]any {
		items := []string{"Read main.go", "Add the --greeting flag", "Run the tests"}
		var out []map[string]string
		for i, s := range states {
			out = append(out, map[string]string{"content": items[i], "status": s, "activeForm": items[i]})
		}
		return map[string]any{"todos": out}
	}
	c := newFakeCairn(t, approval.ModeDefault, faux.Options{ChunkSize: 24},
		faux.Response{Thinking: "The flag belongs beside the others in main; the message should keep its default.",
			Content: []core.Content{{Type: core.ContentToolCall, ID: "plan_1", Name: "todo_write", Arguments: mustArgs(todos("completed", "in_progress", "pending"))}}},
		toolCall("edit_1", "edit", map[string]any{"path": "main.go", "edits": []any{map[string]string{
			"oldText": "\tfmt.Println(\"hello\")",
			"newText": "\tgreeting := flag.String(\"greeting\", \"hello\", \"what to print\")\n\tflag.Parse()\n\tfmt.Println(*greeting)",
		}}}),
		faux.Response{Text: "I added a `--greeting` flag:\n\n```go\ngreeting := flag.String(\"greeting\", \"hello\", \"what to print\")\n```\n\n" +
			"- it defaults to **hello**, so nothing changes for existing callers;\n- `flag.Parse()` runs before it is read.\n\nNow the tests.",
			Content: []core.Content{{Type: core.ContentToolCall, ID: "plan_2", Name: "todo_write", Arguments: mustArgs(todos("completed", "completed", "in_progress"))}}},
		toolCall("bash_1", "bash", map[string]any{"command": "go test ./..."}),
	)
	if err := os.WriteFile(filepath.Join(c.cwd, "main.go"), []byte("package main\n\nimport \"fmt\"\n\nfunc main() {\n\tfmt.Println(\"hello\")\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, errs := newBrowser(t, 1280, 900)
	defer errs.none(t)
	base := startPage(t, c)
	do(t, ctx, "the session",
		chromedp.Navigate(pageURL(base, c)),
		chromedp.WaitVisible(css(`#status.ok`)),
		chromedp.SendKeys(css(`#prompt`), "Add a --greeting flag to main.go and run the tests"),
		chromedp.Click(css(`#send`)),
		chromedp.WaitVisible(css(`.question button.option.allow_once`)),
		chromedp.Click(css(`.question button.option.allow_once`)),
		chromedp.WaitVisible(css(`.question:not(.closed) button.option.allow_once`)),
	)
	shot := func(name string) {
		png := value(t, ctx, chromedp.CaptureScreenshot())
		if err := os.WriteFile(filepath.Join(*screenshots, name), png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	shot("web-desktop.png")
	do(t, ctx, "the phone's width", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(2), chromedp.EmulateMobile))
	// The drawer slides out of sight as the layout turns narrow.
	do(t, ctx, "the phone's layout", chromedp.Evaluate[chromedp.Void](settled(`document.getElementById('side').getBoundingClientRect().right <= 0`), chromedp.EvalAwaitPromise),
		chromedp.Evaluate[chromedp.Void](`document.getElementById('log').scrollTop = 1e9`))
	shot("web-phone.png")
	do(t, ctx, "the sessions", chromedp.Click(css(`#menu`)), chromedp.WaitVisible(css(`#side.open`)))
	do(t, ctx, "the drawer's slide", chromedp.Evaluate[chromedp.Void](settled(`document.getElementById('side').getBoundingClientRect().left >= 0`), chromedp.EvalAwaitPromise))
	shot("web-phone-sessions.png")
}

func mustArgs(v any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}
