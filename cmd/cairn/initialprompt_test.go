package main

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// onePixelPNG is a 1×1 PNG.
var onePixelPNG, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4/58BAAT/Af9jgNErAAAAAElFTkSuQmCC")

// TestInitialPromptsAsPi: piped stdin, @files (a text file and an image)
// and several messages make the prompts pi 0.87.1 makes. Checked against
// pi itself (`echo STDIN-TEXT | pi -p @f.txt @img.png "first message"
// "second message"` against a fake model): the first prompt is stdin,
// the files and the first message with nothing between them, the image
// attached; the second message is a prompt of its own, sent after the
// first answer.
func TestInitialPromptsAsPi(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("f.txt", []byte("FILE-CONTENT\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("img.png", onePixelPNG, 0o644); err != nil {
		t.Fatal(err)
	}
	vars := map[string]string{"CAIRN_FAUX_SCRIPT": writeScript(t, `{"responses": [{"text": "one"}, {"text": "two"}]}`)}
	stdin := "STDIN-TEXT\n"
	r := invoke(t, vars, &stdin, "--provider", "faux", "--no-session", "--mode", "json", "@f.txt", "@img.png", "first message", "second message")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	abs, _ := filepath.Abs(".")
	var users []string
	for _, line := range strings.Split(r.stdout, "\n") {
		var ev struct {
			Type    string `json:"type"`
			Message struct {
				Role    string `json:"role"`
				Content []struct {
					Type, Text, MimeType string
				} `json:"content"`
			} `json:"message"`
		}
		if json.Unmarshal([]byte(line), &ev) != nil || ev.Type != "message_end" || ev.Message.Role != "user" {
			continue
		}
		var parts []string
		for _, c := range ev.Message.Content {
			parts = append(parts, c.Type+":"+c.Text+c.MimeType)
		}
		users = append(users, strings.Join(parts, "|"))
	}
	want := []string{
		"text:STDIN-TEXT<file name=\"" + abs + "/f.txt\">\nFILE-CONTENT\n\n</file>\n<file name=\"" + abs + "/img.png\"></file>\nfirst message|image:image/png",
		"text:second message",
	}
	if strings.Join(users, "\n--\n") != strings.Join(want, "\n--\n") {
		t.Errorf("user messages\n%q\nwant\n%q", users, want)
	}
}
