package main

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn/core/extension"
	"github.com/cairn-dev/cairn/core/mcp"
	"github.com/cairn-dev/cairn/core/skills"
)

// Options are the parsed command line.
type Options struct {
	Print        bool
	Mode         string // text, json, rpc, acp, synaps or jsonrpc
	Socket       string // jsonrpc: the Unix socket to listen on
	Provider     string
	Model        string
	Thinking     string
	BaseURL      string
	APIKey       string
	SystemPrompt string
	Approval     string
	MaxTokens    int
	ListModels   bool
	ListFilter   string
	Version      bool
	Help         bool
	NoSession    bool
	NoMCP        bool // no MCP servers this run
	// NoExtensions runs no extensions (--no-extensions); Extensions are
	// more to run (--extension PATH, an executable).
	NoExtensions bool
	Extensions   []string
	// extMode names the front end for extensions when Mode does not
	// ("tui"); extDialogTimeout bounds their dialogs that give none.
	extMode          string
	extDialogTimeout time.Duration
	Continue         bool
	Resume           bool
	Session          string
	SessionDir       string
	RPCCompat        string // "" (pi 0.87's shapes) or "0.73"
	Messages         []string
	// Files are pi's @file arguments: text files whose contents go before
	// the prompt, each in a <file name="..."> element, as pi sends them.
	Files        []string
	Export       string // --export: the session file to write as an HTML page
	Demo         bool
	TrustProject bool
	Sandbox      string // --sandbox "on", --no-sandbox "off", else "" (settings)
	// Pi are pi's flags beyond cairn's own (see piFlagSpecs).
	Pi PiFlags
	// ExtFlags are the "--name" flags cairn does not know, kept for the
	// extensions that register them (pi's registerFlag); one that no
	// extension claims is refused once they have started (claimFlags).
	ExtFlags []extension.Flag

	// trust is what this run may take from the project directory, decided
	// once (see projectTrustFor).
	trust *projectTrust
	// dir is the directory to work in when it is not the process's (an
	// ACP session/new naming another project); "" is the process's.
	dir string
	// clientMCP are MCP servers a client (an ACP editor) asked for, started
	// beside the configured ones (replacing one of the same name).
	clientMCP []mcp.Server

	// demoDir is the demo's throwaway project (set by startDemo).
	demoDir string

	// rpcDialect is --rpc-dialect: which rpc protocol --mode rpc speaks,
	// resolved into Mode once every flag is read (flags come in any order).
	rpcDialect string

	// wireAPI, when set, is the wire format the model is spoken to in,
	// whatever the catalog says (--json-stream's --provider openai is
	// Chat Completions; see aionrsProvider).
	wireAPI string

	// allowNoCredentials lets the session start without credentials (the
	// TUI then explains what to set up).
	allowNoCredentials bool
	// front names the front end that owns the session when the mode does
	// not say it (`cairn serve`'s page: "web"); see frontName.
	front string

	// skills are the run's skills, found once (see skillsFor).
	skills *skills.Set
}

// flagSpec describes one flag: its names and whether it takes a value.
type flagSpec struct {
	names []string
	value bool
	set   func(o *Options, v string) error
}

var flagSpecs = []flagSpec{
	{[]string{"-p", "--print"}, false, func(o *Options, _ string) error { o.Print = true; return nil }},
	{[]string{"--mode"}, true, func(o *Options, v string) error {
		switch v {
		case "text", "json", "rpc", "acp", "synaps", "jsonrpc":
			o.Mode = v
			return nil
		}
		return fmt.Errorf("--mode must be text, json, rpc, acp, synaps or jsonrpc, not %q", v)
	}},
	{[]string{"--rpc-dialect"}, true, func(o *Options, v string) error {
		switch v {
		case "pi", "synaps":
			o.rpcDialect = v
			return nil
		}
		return fmt.Errorf("--rpc-dialect must be pi (the default) or synaps, not %q", v)
	}},
	{[]string{"--socket"}, true, func(o *Options, v string) error { o.Socket = v; return nil }},
	{[]string{"--provider"}, true, func(o *Options, v string) error { o.Provider = v; return nil }},
	{[]string{"--model", "-m"}, true, func(o *Options, v string) error { o.Model = v; return nil }},
	{[]string{"--thinking"}, true, func(o *Options, v string) error { o.Thinking = v; return nil }},
	{[]string{"--base-url"}, true, func(o *Options, v string) error { o.BaseURL = v; return nil }},
	{[]string{"--api-key"}, true, func(o *Options, v string) error { o.APIKey = v; return nil }},
	{[]string{"--approval"}, true, func(o *Options, v string) error { o.Approval = v; return nil }},
	{[]string{"--system-prompt"}, true, func(o *Options, v string) error { o.SystemPrompt = v; return nil }},
	{[]string{"--max-tokens"}, true, func(o *Options, v string) error {
		var n int
		if _, err := fmt.Sscanf(v, "%d", &n); err != nil || n <= 0 {
			return fmt.Errorf("--max-tokens needs a positive number, not %q", v)
		}
		o.MaxTokens = n
		return nil
	}},
	{[]string{"--trust-project"}, false, func(o *Options, _ string) error { o.TrustProject = true; return nil }},
	{[]string{"--demo"}, false, func(o *Options, _ string) error { o.Demo = true; return nil }},
	{[]string{"--list-models"}, false, func(o *Options, _ string) error { o.ListModels = true; return nil }},
	{[]string{"--no-session"}, false, func(o *Options, _ string) error { o.NoSession = true; return nil }},
	{[]string{"--sandbox"}, false, func(o *Options, _ string) error { o.Sandbox = "on"; return nil }},
	{[]string{"--no-sandbox"}, false, func(o *Options, _ string) error { o.Sandbox = "off"; return nil }},
	{[]string{"--no-mcp"}, false, func(o *Options, _ string) error { o.NoMCP = true; return nil }},
	{[]string{"-c", "--continue"}, false, func(o *Options, _ string) error { o.Continue = true; return nil }},
	{[]string{"-r", "--resume"}, false, func(o *Options, _ string) error { o.Resume = true; return nil }},
	{[]string{"--session"}, true, func(o *Options, v string) error { o.Session = v; return nil }},
	{[]string{"--session-dir"}, true, func(o *Options, v string) error { o.SessionDir = v; return nil }},
	{[]string{"--rpc-compat"}, true, func(o *Options, v string) error {
		switch v {
		case "0.73":
			o.RPCCompat = v
			return nil
		case "0.87":
			o.RPCCompat = ""
			return nil
		}
		return fmt.Errorf("--rpc-compat must be 0.73 (pi 0.73's event shapes, for older hosts) or 0.87 (the default), not %q", v)
	}},
	{[]string{"--export"}, true, func(o *Options, v string) error { o.Export = v; return nil }},
	{[]string{"-v", "--version"}, false, func(o *Options, _ string) error { o.Version = true; return nil }},
	{[]string{"-h", "--help"}, false, func(o *Options, _ string) error { o.Help = true; return nil }},
}

// parseArgs reads flags and messages in any order, as pi does. "--" ends the
// flags; "--flag=value" and "--flag value" are both accepted. --list-models
// takes an optional search term as its next argument.
func parseArgs(args []string) (*Options, error) {
	o := &Options{Mode: "text"}
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "--" {
			o.Messages = append(o.Messages, args[i+1:]...)
			break
		}
		if len(arg) > 1 && arg[0] == '@' {
			// pi's @file: the file's text goes before the prompt.
			o.Files = append(o.Files, arg[1:])
			continue
		}
		if !strings.HasPrefix(arg, "-") || arg == "-" {
			o.Messages = append(o.Messages, arg)
			continue
		}
		name, value, hasValue := strings.Cut(arg, "=")
		spec := findFlag(name)
		if spec == nil {
			f, used, err := extensionFlag(args, i)
			if err != nil {
				return nil, err
			}
			o.ExtFlags = append(o.ExtFlags, f)
			i += used
			continue
		}
		if spec.value && !hasValue {
			if i+1 >= len(args) {
				return nil, fmt.Errorf("flag %s needs a value", name)
			}
			i++
			value = args[i]
		} else if !spec.value && hasValue {
			return nil, fmt.Errorf("flag %s takes no value", name)
		}
		if err := spec.set(o, value); err != nil {
			return nil, err
		}
		if name == "--list-models" && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			i++
			o.ListFilter = args[i]
		}
	}
	switch {
	case o.rpcDialect == "":
	case o.Mode == "text" || o.Mode == "rpc" || o.Mode == "synaps":
		o.Mode = map[string]string{"pi": "rpc", "synaps": "synaps"}[o.rpcDialect]
	default:
		return nil, fmt.Errorf("--rpc-dialect goes with --mode rpc, not --mode %s", o.Mode)
	}
	return o, nil
}

// checkMessages refuses words on the command line that this run would not
// use: only print mode takes a prompt there. Ignoring them would be worse
// than failing: `cairn --continue ID` would continue the latest session,
// not ID, and a host's flag cairn does not know would vanish.
func checkMessages(opts *Options, tui bool) error {
	if len(opts.Messages) == 0 && len(opts.Files) == 0 || opts.Export != "" {
		return nil // --export FILE [OUT] checks its own
	}
	var word string
	if len(opts.Messages) > 0 {
		word = opts.Messages[0]
	} else {
		word = "@" + opts.Files[0]
	}
	switch {
	case opts.Help || opts.Version:
		return fmt.Errorf("unexpected argument %q: --help and --version take none", word)
	case opts.ListModels:
		return fmt.Errorf("unexpected argument %q: --list-models takes one search term", word)
	case opts.Mode == "rpc" || opts.Mode == "synaps" || opts.Mode == "acp":
		return fmt.Errorf("unexpected argument %q: --mode %s reads its prompts from stdin, not from the command line", word, opts.Mode)
	case opts.Mode == "jsonrpc":
		return fmt.Errorf("unexpected argument %q: --mode jsonrpc reads its prompts from its socket, not from the command line", word)
	case tui && opts.Continue:
		return fmt.Errorf("unexpected argument %q: --continue takes no value (it continues the latest session here); to continue one session, use --session ID", word)
	case tui:
		return fmt.Errorf("unexpected argument %q: the interactive interface does not take a prompt on the command line; add -p to answer it once and exit, or start cairn and type it", word)
	}
	return nil
}

func findFlag(name string) *flagSpec {
	for _, specs := range [][]flagSpec{flagSpecs, piFlagSpecs} {
		for i := range specs {
			if slices.Contains(specs[i].names, name) {
				return &specs[i]
			}
		}
	}
	return nil
}

const helpText = `cairn: a coding agent for your terminal

Usage:
  cairn [flags] [message...]
  cairn -p "prompt"                 print the answer and exit
  echo text | cairn -p "prompt"     stdin is appended to the prompt
  cairn mcp list                    check the MCP configuration and show each server
  cairn checkpoints list|gc         list this project's checkpoints; apply retention now
  cairn skills                      list the skills the model is offered, hidden ones and problems
  cairn serve [--addr A] [--port N] serve a web page for the sessions (browser, phone); prints
                                    its secret address once (see cairn serve --help)
  cairn --export FILE [OUT.html]    write the session file as one HTML page (default
                                    cairn-session-<name>.html here), print its path, exit
  cairn rpc [--continue ID] [--system PROMPT_OR_FILE] [--model M] [flags]
                                    synaps rpc with synaps's command line, for the
                                    synaps-bridge (rpc.binary = "cairn"): --continue resumes
                                    exactly the session with that id, name or id prefix here,
                                    or fails
  cairn --json-stream [flags]       aionrs's JSON-lines host protocol (AionUi), with aionrs's
                                    flags: --provider, --model, --max-tokens, --max-turns,
                                    --system-prompt, --auto-approve, --workspace DIR,
                                    --session-id ID, --resume ID|latest, --base-url

Flags:
  -p, --print               answer once and exit (also implied when stdin is piped)
      --mode MODE           text (default) or json: print mode's output, as text or one JSON
                            event per line; rpc: pi's headless protocol for editors and hosts
                            (JSON lines on stdin and stdout); acp: the Agent Client Protocol
                            for editors (Zed, JetBrains, Neovim, Emacs); synaps: synaps rpc
                            (also --rpc-dialect synaps); jsonrpc: OpenAgent-Terminal's
                            JSON-RPC 2.0 on a Unix socket
      --socket PATH         jsonrpc: the socket to listen on (default
                            $XDG_RUNTIME_DIR/cairn-<pid>.sock, created with mode 0600)
      --rpc-compat 0.73     rpc and json: write pi 0.73's event shapes (cumulative
                            message_update frames) for hosts written for it; the default
                            is pi 0.87's
      --provider NAME       provider to use (anthropic, openai, google, openrouter, groq, xai,
                            mistral, faux, or one from models.json)
  -m, --model ID            model id, provider/id, or a fragment of either ("sonnet");
                            a ":level" suffix sets the thinking level ("sonnet:high")
      --thinking LEVEL      off, minimal, low, medium (default), high or xhigh
      --base-url URL        send requests to this server (a local or compatible one)
      --api-key KEY         key for the chosen provider, ahead of the environment
      --approval MODE       which tool calls need approval: default (edits and commands),
                            auto_edit (commands only), auto (only edits of cairn's
                            protected files) or yolo (none); plan reads only, then asks
                            you to accept a plan; print mode cannot ask, so it
                            refuses calls that need approval; --mode rpc starts in auto
      --trust-project       trust this project's .cairn/ files, AGENTS.md and CLAUDE.md
                            (settings, approval rules, prompts, context); until trusted,
                            cairn ignores them, except settings that make approvals stricter
      --system-prompt TEXT  replace the system prompt
      --max-tokens N        cap the answer's length in tokens
      --list-models [TEXT]  list the models cairn knows (matching TEXT) and exit
      --demo                show cairn working on scripted answers, offline and with no API
                            key: the faux provider plays a short script (a read, an edit to
                            approve, a command, an answer) in a throwaway sample project
  -c, --continue            continue the latest session in this directory (takes no value:
                            use --session ID for another)
  -r, --resume              pick a session to resume (needs the interactive interface)
      --session PATH|ID     continue the given session file, or the session whose id starts so
      --session-dir DIR     keep sessions in DIR instead of ~/.cairn/sessions/<project>
      --no-session          do not save the session
      --no-mcp              start no MCP servers this run (cairn mcp list shows them)
      --sandbox             run commands in the OS sandbox (settings: sandbox.enabled): writes
                            only to the project and temp dir, no keys, no network
      --no-sandbox          run commands outside the sandbox this run
pi's flags (pi 0.87), so a host can start cairn where it started pi:
      --append-system-prompt TEXT|FILE  append text or a file's contents (repeatable)
  -n, --name NAME           the session's display name
      --session-id ID       continue this project's session with exactly this id, or start it
      --fork PATH|ID        copy a session into a new one and continue that
  -t, --tools LIST          offer the model only these tools (comma-separated, MCP tools too)
  -xt, --exclude-tools LIST never offer these tools
  -nt, --no-tools           no tools (except those --tools names)
  -nbt, --no-builtin-tools  no built-in tools; MCP tools stay
  -nc, --no-context-files   do not read AGENTS.md or CLAUDE.md
      --prompt-template PATH  add a template file or directory (repeatable)
  -np, --no-prompt-templates  do not look for templates in ~/.cairn/prompts or .cairn/prompts
      --skill PATH          add a skill (its directory or SKILL.md), or a directory of skills (repeatable)
  -ns, --no-skills          do not look for skills (see docs/skills.md)
  -a, --approve             trust this project's files for this run only
  -na, --no-approve         ignore this project's files for this run, even if trusted
      --offline             accepted: cairn makes no network request of its own at startup
  --models, -e/--extension, -ne/--no-extensions, --theme, --use-theme, --no-themes,
  --verbose and --tui-mode are accepted and have no effect
  (cairn says so on stderr).

  -v, --version             print the version and exit
  -h, --help                print this help and exit

Configuration:
  API keys come from ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, OPENROUTER_API_KEY,
  GROQ_API_KEY, XAI_API_KEY, ... or from models.json. Custom providers and models (Ollama,
  llama.cpp, vLLM, LM Studio, any OpenAI- or Anthropic-compatible server) go in
  ~/.cairn/models.json, in pi's schema. CAIRN_DIR replaces ~/.cairn.
  CAIRN_FAUX_SCRIPT names a script for the faux provider, a scripted stand-in for a model
  used by tests and demos (its answers are not a model's).
`
