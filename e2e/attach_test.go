package e2e

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// Issue 42: a session the TUI runs is joined by the official ACP SDK
// client through `cairn acp --attach` (it sees the history, gets the
// streamed answer to a prompt it sends, and answers the approval, which
// the TUI then shows as answered), then by a second TUI (`cairn attach`);
// killing an attached client leaves the session running.
func TestAttachToTUI(t *testing.T) {
	node, client := acpClient(t)
	runtime := filepath.Join(t.TempDir(), "run")
	h := newHarness(t, tmuxTerminal, "CAIRN_RUNTIME_DIR="+runtime)
	owner := h.cairn("owner", 100, 30)
	owner.waitText("test-model")
	h.llm.queue(textReply("Hi there from the owner.", 4))
	owner.typeText("hello")
	owner.keys("Enter")
	owner.waitText("Hi there from the owner.")

	// cairn ps lists the session.
	ps := exec.Command(cairnBin, "ps")
	ps.Env = append(h.env(), "CAIRN_RUNTIME_DIR="+runtime)
	out, err := ps.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "tui") || !strings.Contains(string(out), "hello") {
		t.Fatalf("cairn ps: %v\n%s", err, out)
	}

	// The editor attaches.
	cmd := exec.Command(node, client, cairnBin, h.project, "Hi there from the owner.")
	cmd.Env = append(h.env(), "CAIRN_RUNTIME_DIR="+runtime)
	cmd.Stderr = os.Stderr
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := make(chan string, 4)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	attached := nextLine(t, lines)
	if !strings.HasPrefix(attached, "ATTACHED ") {
		t.Fatalf("the client said %q", attached)
	}

	// Its prompt runs a command that needs approval; the client allows it.
	args, _ := json.Marshal(map[string]string{"command": "touch made-by-agent"})
	h.llm.queue(
		reply{chunks: []string{"Making it."}, toolCalls: []fakeToolCall{{id: "call_touch", name: "bash", arguments: string(args)}}},
		textReply("Made it, as the editor asked.", 5),
	)
	if _, err := io.WriteString(stdin, "make the file\n"); err != nil {
		t.Fatal(err)
	}
	var seen struct {
		SessionID, HistoryUser, HistoryAgent, StopReason, Answer string
		Permissions                                              []string
		ExitCode                                                 int
	}
	if err := json.Unmarshal([]byte(nextLine(t, lines)), &seen); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(seen.HistoryUser, "hello") || !strings.Contains(seen.HistoryAgent, "Hi there from the owner.") {
		t.Errorf("history: user %q, agent %q", seen.HistoryUser, seen.HistoryAgent)
	}
	if seen.StopReason != "end_turn" || !strings.Contains(seen.Answer, "Made it, as the editor asked.") || len(seen.Permissions) != 1 || seen.ExitCode != 0 {
		t.Errorf("the client saw %+v", seen)
	}
	if _, err := os.Stat(filepath.Join(h.project, "made-by-agent")); err != nil {
		t.Errorf("the approved command did not run: %v", err)
	}
	// The TUI showed the editor's prompt, its answer, and the approval as
	// answered elsewhere.
	owner.waitText("make the file", "Made it, as the editor asked.", "answered in another client")
	owner.waitText("(cairn-attach-test) left this session")
	if err := cmd.Wait(); err != nil {
		t.Fatalf("the client: %v", err)
	}

	// A second TUI attaches, sees the history, and prompts.
	second := h.tmux.start("second", 90, 28, h.project, cairnBin, "attach")
	second.waitText("Hi there from the owner.", "Made it, as the editor asked.")
	owner.waitText("Another terminal (cairn attach) joined this session")
	h.llm.queue(textReply("Answer to the second terminal.", 4))
	second.typeText("from the second terminal")
	second.keys("Enter")
	second.waitText("Answer to the second terminal.")
	// Drawn for its own size: the editor's rules span its 90 columns.
	if screen := second.screen(); !strings.Contains(screen, strings.Repeat("─", 90)) {
		t.Errorf("the attached TUI is not drawn for its terminal:\n%s", frame(screen))
	}
	owner.waitText("from the second terminal", "Answer to the second terminal.")

	// An approval its prompt needs is answered there; the owner shows it
	// answered elsewhere.
	args, _ = json.Marshal(map[string]string{"command": "touch from-second"})
	h.llm.queue(
		reply{chunks: []string{"Touching."}, toolCalls: []fakeToolCall{{id: "call_second", name: "bash", arguments: string(args)}}},
		textReply("Touched from the second terminal.", 5),
	)
	second.typeText("touch it")
	second.keys("Enter")
	owner.waitText(approvalPrompt, "touch from-second")
	second.answerApproval(approvalPrompt, "y")
	screen := owner.waitText("Touched from the second terminal.")
	if i := strings.LastIndex(screen, "touch from-second"); i < 0 || !strings.Contains(screen[i:], "answered in another client: Allow once") {
		t.Errorf("the owner does not show the approval answered in the second terminal:\n%s", frame(screen))
	}
	if _, err := os.Stat(filepath.Join(h.project, "from-second")); err != nil {
		t.Errorf("the command approved in the second terminal did not run: %v", err)
	}

	// Killing it leaves the session running: the owner goes on.
	h.tmux.must("kill-session", "-t", "second")
	owner.waitText("Another terminal (cairn attach) left this session")
	h.llm.queue(textReply("Still here.", 2))
	owner.typeText("are you there")
	owner.keys("Enter")
	owner.waitText("Still here.")

	// /share serves the web page on the session: its address answers with
	// the page, a wrong token with 403 and nothing.
	owner.typeText("/share")
	owner.keys("Enter")
	screen = owner.waitText("Web page on this session")
	page := regexp.MustCompile(`http://127\.0\.0\.1:\d+/[A-Za-z0-9_-]{40,}/`).FindString(strings.Join(strings.Fields(screen), ""))
	if page == "" {
		t.Fatalf("no address on screen:\n%s", frame(screen))
	}
	for target, want := range map[string]int{page: http.StatusOK, page[:len(page)-2] + "x/": http.StatusForbidden} {
		resp, err := http.Get(target)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != want || (want == http.StatusForbidden && len(body) != 0) {
			t.Errorf("GET %s: %d with %d bytes, want %d", target, resp.StatusCode, len(body), want)
		}
	}
}

// acpClient finds node and the SDK client script; with CI set, a missing
// one fails the test.
func acpClient(t *testing.T) (node, script string) {
	t.Helper()
	dir, _ := filepath.Abs(filepath.Join("..", "rpcmode", "acp", "testdata", "acpclient"))
	node, err := exec.LookPath("node")
	_, sdkErr := os.Stat(filepath.Join(dir, "node_modules", "@agentclientprotocol", "sdk"))
	if err != nil || sdkErr != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("node or the ACP SDK is missing (npm ci --prefix %s): %v %v", dir, err, sdkErr)
		}
		t.Skipf("node or the ACP SDK is missing: %v %v", err, sdkErr)
	}
	return node, filepath.Join(dir, "attach.mjs")
}

// nextLine is the client's next line of output, waiting at most a minute.
func nextLine(t *testing.T, lines <-chan string) string {
	t.Helper()
	select {
	case l, ok := <-lines:
		if !ok {
			t.Fatal("the client ended without a line")
		}
		return l
	case <-time.After(time.Minute):
		t.Fatal("the client said nothing for a minute")
	}
	return ""
}
