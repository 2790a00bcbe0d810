package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/core/extension"
	"github.com/cairn-dev/cairn/core/provider/providertest"
)

// Flags cairn does not know are kept for extensions as pi keeps them.
func TestExtensionFlagsAreKeptAsPiKeepsThem(t *testing.T) {
	for args, want := range map[string][]extension.Flag{
		"--plan -p hi":       {{Name: "plan"}},
		"--ssh dev@box":      {{Name: "ssh", Value: "dev@box", HasValue: true, Taken: true}},
		"--ssh=dev@box":      {{Name: "ssh", Value: "dev@box", HasValue: true}},
		"--plan @notes.md":   {{Name: "plan"}},
		"--a --b=1 --c":      {{Name: "a"}, {Name: "b", Value: "1", HasValue: true}, {Name: "c"}},
		"-p hi -- --not-one": nil,
	} {
		o, err := parseArgs(strings.Fields(args))
		if err != nil {
			t.Fatalf("%s: %v", args, err)
		}
		if len(o.ExtFlags) != len(want) {
			t.Fatalf("%s: %+v, want %+v", args, o.ExtFlags, want)
		}
		for i := range want {
			if o.ExtFlags[i] != want[i] {
				t.Errorf("%s: flag %d is %+v, want %+v", args, i, o.ExtFlags[i], want[i])
			}
		}
	}
	for _, args := range []string{"-x", "-zz=1", "--=v"} {
		if _, err := parseArgs([]string{args}); err == nil || !strings.Contains(err.Error(), "unknown flag") {
			t.Errorf("%s: %v", args, err)
		}
	}
}

func FuzzExtensionFlag(f *testing.F) {
	for _, s := range []string{"--plan", "--ssh dev@box", "--a=b", "-x", "--", "--=", "--x @f", "--x -y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		args := strings.Fields(line)
		if len(args) == 0 {
			return
		}
		fl, used, err := extensionFlag(args, 0)
		if err != nil {
			return
		}
		if used < 0 || used > 1 || used > len(args)-1 || fl.Name == "" {
			t.Fatalf("%q: %+v used %d", line, fl, used)
		}
		if fl.Taken != (used == 1) || fl.Taken && !fl.HasValue {
			t.Fatalf("%q: %+v used %d", line, fl, used)
		}
	})
}

// An extension's flag works on cairn's command line: plan-mode's --plan
// blocks a destructive command the faux model asks for; an unknown flag
// is still refused, and so is --plan given a value.
func TestExtensionFlagOnTheCommandLine(t *testing.T) {
	needProgram(t, "node")
	t.Chdir(t.TempDir())
	if err := os.Mkdir("victim", 0o755); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"PATH": os.Getenv("PATH"), "HOME": t.TempDir(), "CAIRN_DIR": t.TempDir(),
		"CAIRN_FAUX_SCRIPT": writeScript(t, `{"responses": [
	  {"content": [{"type": "toolCall", "id": "c1", "name": "bash", "arguments": {"command": "rm -rf victim"}}]},
	  {"text": "Done."}
	]}`)}
	plan := filepath.Join(piExamples, "plan-mode")
	base := []string{"--mode", "json", "--no-session", "--provider", "faux", "--approval", "yolo", "-e", plan}
	r := invoke(t, vars, nil, append(base, "--plan", "-p", "clean up")...)
	if _, err := os.Stat("victim"); err != nil || !strings.Contains(r.stdout, "Plan mode: command blocked") {
		t.Fatalf("--plan did not block: %v\nexit %d\nstdout %.3000s\nstderr %s", err, r.code, r.stdout, r.stderr)
	}
	for flag, want := range map[string]string{
		"--frobnicate": "unknown flag --frobnicate",
		"--plan=yes":   "--plan is a switch (extension pi:plan-mode) and takes no value",
	} {
		r := invoke(t, vars, nil, append(base, flag, "-p", "clean up")...)
		if r.code != exitUsage || !strings.Contains(r.stderr, want) {
			t.Errorf("%s: exit %d, stderr %s", flag, r.code, r.stderr)
		}
	}
	for _, args := range [][]string{{"--no-extensions", "--plan", "-p", "hi"}, {"--help", "--plan"}, {"--version", "--plan"}} {
		r = invoke(t, vars, nil, args...)
		if r.code != exitUsage || !strings.Contains(r.stderr, "unknown flag --plan") || r.stdout != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %s", args, r.code, r.stdout, r.stderr)
		}
	}
}

// A pi extension's before_provider_request sees the request's payload
// without the key and may replace it; after_provider_response is told the
// status: end to end, against a local OpenAI-compatible server.
func TestPiExtensionReplacesTheProviderPayload(t *testing.T) {
	needProgram(t, "node")
	srv := providertest.NewServer(t, providertest.SSE(t, "openai-chat/text.0.sse"))
	t.Chdir(t.TempDir())
	const key = "sk-test-secret-4242"
	ext := filepath.Join(t.TempDir(), "payload.ts")
	src := `import { appendFileSync } from "node:fs";
export default function (pi) {
  pi.on("before_provider_request", (event) => {
    appendFileSync("seen.log", JSON.stringify(event.payload) + "\n");
    return { ...event.payload, temperature: 0 };
  });
  pi.on("after_provider_response", (event) => { appendFileSync("seen.log", "status " + event.status + "\n"); });
}
`
	if err := os.WriteFile(ext, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"PATH": os.Getenv("PATH"), "HOME": t.TempDir(), "CAIRN_DIR": t.TempDir()}
	r := invoke(t, vars, nil, "--base-url", srv.URL+"/v1", "--model", "local-model", "--api-key", key, "--no-session",
		"-e", ext, "-p", "my key is "+key)
	if r.code != 0 {
		t.Fatalf("%+v", r)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 || !strings.Contains(string(reqs[0].Body), `"temperature":0`) {
		t.Fatalf("the replaced payload was not sent: %+v", reqs)
	}
	seen, err := os.ReadFile("seen.log")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(seen), `"local-model"`) || !strings.Contains(string(seen), "status 200") || strings.Contains(string(seen), key) {
		t.Errorf("the extension saw:\n%s", seen)
	}
}

// With an extension's flag, its frames in --mode rpc are pi 0.87.1's,
// byte for byte but for their random ids: plan-mode started with --plan
// shows its status, and ssh.ts with --ssh its status and notice.
func TestExtensionFlagRPCFramesAsPi(t *testing.T) {
	needProgram(t, "node")
	pi := piWrapper(t)
	for name, args := range map[string][]string{
		"plan-mode": {"-e", filepath.Join(piExamples, "plan-mode"), "--plan"},
		"ssh":       {"-e", filepath.Join(piExamples, "ssh.ts"), "--ssh", "dev@box:/srv"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			stdin := `{"type":"get_commands"}` + "\n"
			cmd := exec.Command(pi, append([]string{"--mode", "rpc", "--no-session"}, args...)...)
			cmd.Dir = dir
			cmd.Env = append(os.Environ(), "HOME="+t.TempDir(), "PI_CODING_AGENT_DIR="+t.TempDir())
			cmd.Stdin = strings.NewReader(stdin)
			piOut, err := cmd.Output()
			if err != nil {
				t.Fatalf("pi: %v", err)
			}
			t.Chdir(dir)
			vars := map[string]string{"PATH": os.Getenv("PATH"), "HOME": t.TempDir(), "CAIRN_FAUX_SCRIPT": writeScript(t, `{"responses": [{"text": "ok"}]}`)}
			r := invoke(t, vars, &stdin, append([]string{"--mode", "rpc", "--no-session", "--provider", "faux"}, args...)...)
			want, got := uiFrames(string(piOut)), uiFrames(r.stdout)
			if len(want) == 0 || strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("cairn's frames:\n%s\npi's:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// dynamic-resources' skill and prompt template (resources_discover) are
// cairn's commands in --mode rpc, as in pi 0.87.1.
func TestPiExtensionResourcesAreLoaded(t *testing.T) {
	needProgram(t, "node")
	t.Chdir(t.TempDir())
	stdin := `{"type":"get_commands"}` + "\n"
	vars := map[string]string{"PATH": os.Getenv("PATH"), "HOME": t.TempDir(), "CAIRN_DIR": t.TempDir(), "CAIRN_FAUX_SCRIPT": writeScript(t, `{"responses": [{"text": "ok"}]}`)}
	r := invoke(t, vars, &stdin, "--mode", "rpc", "--no-session", "--provider", "faux", "-e", filepath.Join(piExamples, "dynamic-resources"))
	for _, want := range []string{
		`{"name":"dynamic","description":"Example prompt template loaded from resources_discover","source":"prompt"`,
		`{"name":"skill:dynamic-resources","description":"Example skill loaded from resources_discover","source":"skill"`,
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("get_commands lacks %s\nstdout %.3000s\nstderr %s", want, r.stdout, r.stderr)
		}
	}
}
