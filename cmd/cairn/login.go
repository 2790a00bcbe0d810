package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core/oauth"
	"github.com/cairn-dev/cairn/core/pihome"
	"github.com/cairn-dev/cairn/core/provider/catalog"
)

const loginUsage = `usage: cairn login PROVIDER [--device] [--enterprise DOMAIN]

Logs in to a subscription as pi's /login does and keeps the tokens in
~/.cairn/auth.json (pi's format, mode 0600); pi's own files are not written.
Providers:
  anthropic        Claude Pro/Max (browser login)
  openai-codex     ChatGPT Plus/Pro for Codex (browser login; --device for a device code)
  github-copilot   GitHub Copilot (device code; --enterprise for GitHub Enterprise)
`

// loginLimit bounds a whole login: the device codes' own lifetime is 15
// minutes.
const loginLimit = 20 * time.Minute

// loginCommand runs `cairn login`.
func loginCommand(ctx context.Context, args []string, streams IOStreams, getenv func(string) string) int {
	var provider string
	opts := oauth.LoginOptions{}
	for i := 0; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-h" || a == "--help":
			fmt.Fprint(streams.Out, loginUsage)
			return exitOK
		case a == "--device":
			opts.Method = oauth.MethodDevice
		case a == "--enterprise" && i+1 < len(args):
			i++
			opts.Enterprise = args[i]
		case strings.HasPrefix(a, "-"):
			fmt.Fprintf(streams.Err, "cairn: unknown login option %s\n%s", a, loginUsage)
			return exitUsage
		case provider == "":
			provider = a
		default:
			fmt.Fprintf(streams.Err, "cairn: login takes one provider, not also %q\n%s", a, loginUsage)
			return exitUsage
		}
	}
	if _, ok := oauth.LoginMethods[provider]; !ok {
		if provider != "" {
			fmt.Fprintf(streams.Err, "cairn: cairn has no login for %q\n", provider)
		}
		fmt.Fprint(streams.Err, loginUsage)
		return exitUsage
	}
	if opts.Enterprise != "" && provider != "github-copilot" {
		fmt.Fprintln(streams.Err, "cairn: --enterprise is for github-copilot only")
		return exitUsage
	}
	if opts.Method != "" && !slices.Contains(oauth.LoginMethods[provider], opts.Method) {
		fmt.Fprintf(streams.Err, "cairn: the %s login has no device code; run `cairn login %s`\n", provider, provider)
		return exitUsage
	}
	client, err := oauth.FromEnv(getenv)
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(streams.Err, "Logging in to %s.\n", oauth.LoginName[provider])
	done, err := loginAndKeep(ctx, client, newEnvironment(getenv), provider, opts, loginInteraction(streams), nil)
	if err != nil {
		fmt.Fprintf(streams.Err, "cairn: %v\n", err)
		return exitFailure
	}
	fmt.Fprintln(streams.Err, done)
	return exitOK
}

// loginAndKeep runs provider's login (within loginLimit), keeps its entry
// in cairn's auth.json and, when cat is set, makes it live there. It
// returns what to tell the person.
func loginAndKeep(ctx context.Context, client *oauth.Client, env environment, provider string, opts oauth.LoginOptions, in oauth.Interaction, cat *catalog.Catalog) (string, error) {
	if env.dir == "" {
		return "", errors.New("cairn cannot tell where to keep the tokens: set HOME or CAIRN_DIR")
	}
	ctx, cancel := context.WithTimeout(ctx, loginLimit)
	defer cancel()
	entry, err := client.Login(ctx, provider, opts, in)
	if err != nil {
		return "", fmt.Errorf("login to %s failed: %w", provider, err)
	}
	path := pihome.AuthFile(env.dir)
	if _, err := pihome.UpdateAuth(ctx, path, provider, func(json.RawMessage) (json.RawMessage, error) { return entry, nil }); err != nil {
		return "", fmt.Errorf("logged in to %s, but the tokens could not be kept: %w", provider, err)
	}
	if cat != nil {
		if err := cat.AddLogin(provider, entry, path); err != nil {
			return "", err
		}
	}
	return fmt.Sprintf("Logged in to %s; the tokens are in %s.", oauth.LoginName[provider], path), nil
}

// tuiLogin is /login's work for the interface: notices become lines in
// the transcript, and nothing can be pasted (the browser's callback or
// the device code completes the login).
func tuiLogin(env environment, cat *catalog.Catalog) func(ctx context.Context, provider string, device bool, notify func(string)) (string, error) {
	return func(ctx context.Context, provider string, device bool, notify func(string)) (string, error) {
		client, err := oauth.FromEnv(env.getenv)
		if err != nil {
			return "", err
		}
		opts := oauth.LoginOptions{}
		if device {
			opts.Method = oauth.MethodDevice
		}
		in := oauth.Interaction{Notify: func(n oauth.Notice) {
			switch n.Kind {
			case "auth_url":
				notify("Open this URL in a browser to log in:\n" + n.URL)
			case "device_code":
				notify(fmt.Sprintf("Open %s and enter the code %s", n.URL, n.Code))
			default:
				notify(n.Text)
			}
		}}
		return loginAndKeep(ctx, client, env, provider, opts, in, cat)
	}
}

// loginInteraction shows a login's notices on stderr and reads a pasted
// redirect URL or code from stdin. At stdin's end the login waits for the
// browser instead.
func loginInteraction(streams IOStreams) oauth.Interaction {
	in := oauth.Interaction{Notify: func(n oauth.Notice) {
		switch n.Kind {
		case "auth_url":
			fmt.Fprintf(streams.Err, "Open this URL in a browser:\n\n  %s\n\n%s\n", n.URL, n.Text)
		case "device_code":
			fmt.Fprintf(streams.Err, "Open %s and enter the code %s\n", n.URL, n.Code)
		default:
			fmt.Fprintln(streams.Err, n.Text)
		}
	}}
	if streams.In == nil {
		return in
	}
	lines := make(chan string, 1)
	var once bool
	in.Prompt = func(ctx context.Context, message string) (string, error) {
		if !once {
			once = true
			go readPastedLine(streams.In, lines)
		}
		fmt.Fprintln(streams.Err, message)
		select {
		case line, ok := <-lines:
			if ok {
				return line, nil
			}
			<-ctx.Done() // stdin ended: only the browser's callback is left
			return "", ctx.Err()
		case <-ctx.Done():
			return "", ctx.Err()
		}
	}
	return in
}

// readPastedLine sends stdin's first line (a redirect URL may be longer
// than trust.go's readLine takes), or closes lines at its end.
func readPastedLine(r io.Reader, lines chan<- string) {
	sc := bufio.NewScanner(r)
	if sc.Scan() {
		lines <- sc.Text()
		return
	}
	close(lines)
}
