package extension

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/extension/sdk"
	"go.uber.org/goleak"
)

// TestMain runs the test binary as a fake extension when CAIRN_EXT_ROLE
// says which one.
func TestMain(m *testing.M) {
	if role := os.Getenv("CAIRN_EXT_ROLE"); role != "" {
		runRole(role)
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

func runRole(role string) {
	switch role {
	case "basic":
		basicExtension().Run()
	case "silent":
		// Reads and never answers.
		buf := make([]byte, 4096)
		for {
			if _, err := os.Stdin.Read(buf); err != nil {
				return
			}
		}
	case "flood":
		line := []byte(`{"jsonrpc":"2.0","method":"tool_update","params":{"toolCallId":"x","content":[]}}` + "\n")
		chunk := []byte(strings.Repeat(string(line), 4096))
		for {
			if _, err := os.Stdout.Write(chunk); err != nil {
				return
			}
		}
	case "flood-bytes":
		// Blank lines of a MiB each: nothing to decode, only bytes.
		chunk := []byte(strings.Repeat(" ", 1<<20-1) + "\n")
		for {
			if _, err := os.Stdout.Write(chunk); err != nil {
				return
			}
		}
	case "bigframe":
		chunk := []byte(strings.Repeat("a", 1<<20))
		os.Stdout.Write([]byte(`{"jsonrpc":"2.0","method":"x","params":{"a":"`))
		for range 100 {
			if _, err := os.Stdout.Write(chunk); err != nil {
				return
			}
		}
		os.Stdout.Write([]byte("\"}}\n"))
	case "garbage":
		for range 100 {
			fmt.Println("console.log output, not JSON")
		}
		select {}
	case "exit":
		fmt.Fprintln(os.Stderr, "cannot start: missing config")
		os.Exit(2)
	case "quiet-provider":
		quietProvider()
	case "stalled-gate":
		// Handles tool_call and never answers it.
		x := sdk.New("stalled")
		x.On("tool_call", func(ctx context.Context, _ json.RawMessage, _ *sdk.Context) (any, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		})
		x.Run()
	}
}

func basicExtension() *sdk.Extension {
	x := sdk.New("basic")
	x.RegisterTool(sdk.Tool{
		Name: "echo", Description: "Says text back.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
		Execute: func(ctx context.Context, c *sdk.Call) (sdk.Result, error) {
			var p struct{ Text string }
			json.Unmarshal(c.Params, &p)
			c.Update([]sdk.Content{sdk.Text("working")}, nil)
			return sdk.Result{Content: []sdk.Content{sdk.Text("echo: " + p.Text)}, Details: map[string]int{"n": 1}}, nil
		},
	})
	x.RegisterTool(sdk.Tool{Name: "fail", Description: "Fails.", Parameters: json.RawMessage(`{"type":"object"}`),
		Execute: func(context.Context, *sdk.Call) (sdk.Result, error) { return sdk.Result{}, errors.New("it broke") }})
	x.RegisterTool(sdk.Tool{Name: "crash", Description: "Crashes.", Parameters: json.RawMessage(`{"type":"object"}`),
		Execute: func(context.Context, *sdk.Call) (sdk.Result, error) {
			fmt.Fprintln(os.Stderr, "panic: dying on purpose")
			os.Exit(3)
			return sdk.Result{}, nil
		}})
	x.RegisterTool(sdk.Tool{Name: "env", Description: "Lists its environment.", Parameters: json.RawMessage(`{"type":"object"}`),
		Execute: func(context.Context, *sdk.Call) (sdk.Result, error) {
			return sdk.Result{Content: []sdk.Content{sdk.Text(strings.Join(os.Environ(), "\n"))}}, nil
		}})
	x.RegisterTool(sdk.Tool{Name: "later", Description: "Inactive at first.", Parameters: json.RawMessage(`{"type":"object"}`), Inactive: true,
		Execute: func(context.Context, *sdk.Call) (sdk.Result, error) {
			return sdk.Result{Content: []sdk.Content{sdk.Text("later")}}, nil
		}})
	x.RegisterCommand(sdk.Command{Name: "hello", Description: "Greets.", Handler: func(ctx context.Context, args string, c *sdk.Context) error {
		choice, ok, err := c.UI.Select(ctx, "Pick one", []string{"alpha", "beta"}, sdk.DialogOptions{})
		if err != nil {
			return err
		}
		yes, err := c.UI.Confirm(ctx, "Sure?", "You picked "+choice, sdk.DialogOptions{})
		if err != nil {
			return err
		}
		return c.UI.SetStatus(ctx, "hello", fmt.Sprintf("picked %s (%v, %v) %s", choice, ok, yes, args))
	}})
	x.On("tool_call", func(ctx context.Context, ev json.RawMessage, c *sdk.Context) (any, error) {
		var e struct {
			ToolName string `json:"toolName"`
			Input    struct {
				Command string `json:"command"`
			} `json:"input"`
		}
		json.Unmarshal(ev, &e)
		if e.ToolName == "bash" && strings.Contains(e.Input.Command, "rm ") {
			return map[string]any{"block": true, "reason": "rm is not allowed"}, nil
		}
		return nil, nil
	})
	return x
}
