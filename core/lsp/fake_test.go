package lsp

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.uber.org/goleak"
)

// The test binary doubles as fake language servers, chosen by
// CAIRN_FAKE_LSP: "hang" reads its input and never answers; "crash"
// exits at once; "errors" answers and publishes, for each line of a
// document holding "ERR", an error whose message is that line.
func TestMain(m *testing.M) {
	switch os.Getenv("CAIRN_FAKE_LSP") {
	case "hang":
		_, _ = io.Copy(io.Discard, os.Stdin)
		select {}
	case "crash":
		os.Exit(3)
	case "errors":
		fakeErrors()
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

// stdio is the fake server's end of the pipes.
type stdio struct{}

func (stdio) Read(b []byte) (int, error)  { return os.Stdin.Read(b) }
func (stdio) Write(b []byte) (int, error) { return os.Stdout.Write(b) }
func (stdio) Close() error                { return nil }

// fakeErrors serves the "errors" fake until its input ends.
func fakeErrors() {
	conn := jsonrpc2.NewConn(jsonrpc2.NewStream(stdio{}))
	ctx := context.Background()
	publish := func(u protocol.DocumentURI, version int32, text string) {
		var list []protocol.Diagnostic
		for i, line := range strings.Split(text, "\n") {
			if strings.Contains(line, "ERR") {
				list = append(list, protocol.Diagnostic{Range: protocol.Range{Start: protocol.Position{Line: uint32(i)}},
					Severity: protocol.DiagnosticSeverityError, Source: "fake", Message: strings.TrimSpace(line)})
			}
		}
		go func() {
			_ = conn.Notify(ctx, protocol.MethodTextDocumentPublishDiagnostics,
				&protocol.PublishDiagnosticsParams{URI: u, Version: uint32(version), Diagnostics: list})
		}()
	}
	conn.Go(ctx, func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		switch req.Method() {
		case protocol.MethodInitialize:
			return reply(ctx, protocol.InitializeResult{}, nil)
		case protocol.MethodTextDocumentDidOpen:
			var p protocol.DidOpenTextDocumentParams
			_ = json.Unmarshal(req.Params(), &p)
			publish(p.TextDocument.URI, p.TextDocument.Version, p.TextDocument.Text)
		case protocol.MethodTextDocumentDidChange:
			var p wholeChange
			_ = json.Unmarshal(req.Params(), &p)
			publish(p.TextDocument.URI, p.TextDocument.Version, p.ContentChanges[0].Text)
		}
		return reply(ctx, nil, nil)
	})
	<-conn.Done()
}

// fakeServer is a Server running this test binary as the fake named.
func fakeServer(t *testing.T, kind string) (Server, []string) {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "CAIRN_FAKE_LSP="+kind)
	return Server{Name: "fake", Command: []string{exe}, Extensions: []string{".fk"}}, env
}
