package sandbox

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestNetworkJSON(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Network
		err  bool
	}{
		{`"off"`, Network{}, false},
		{`false`, Network{}, false},
		{`"on"`, Network{Open: true}, false},
		{`true`, Network{Open: true}, false},
		{`["example.com:443","127.0.0.1:8080"]`, Network{Allow: []string{"example.com:443", "127.0.0.1:8080"}}, false},
		{`["example.com"]`, Network{}, true},
		{`["example.com:0"]`, Network{}, true},
		{`["example.com:99999"]`, Network{}, true},
		{`"maybe"`, Network{}, true},
	} {
		var n Network
		err := json.Unmarshal([]byte(tc.in), &n)
		if (err != nil) != tc.err || (!tc.err && !reflect.DeepEqual(n, tc.want)) {
			t.Errorf("%s: got %+v, %v", tc.in, n, err)
		}
		if !tc.err {
			b, _ := json.Marshal(n)
			var back Network
			if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, n) {
				t.Errorf("%s: round trip gave %s", tc.in, b)
			}
		}
	}
	n := Network{Allow: []string{"a:443", "b:443", "[::1]:80"}}
	if got := n.Ports(); !reflect.DeepEqual(got, []uint16{80, 443}) {
		t.Errorf("Ports = %v", got)
	}
}

// A project's settings only tighten the person's.
func TestTighten(t *testing.T) {
	on := &Network{Open: true}
	list := &Network{Allow: []string{"a:443", "b:443"}}
	for _, tc := range []struct {
		name          string
		user, project Config
		want          Config
		dropped       int
	}{
		{"project enables", Config{}, Config{Enabled: true, Required: true}, Config{Enabled: true, Required: true}, 0},
		{"project cannot disable", Config{Enabled: true}, Config{Enabled: false}, Config{Enabled: true}, 0},
		{"project adds denyRead", Config{DenyRead: []string{"~/x"}}, Config{DenyRead: []string{"~/y", "~/x"}}, Config{DenyRead: []string{"~/x", "~/y"}}, 0},
		{"project allowWrite dropped", Config{AllowWrite: []string{"/a"}}, Config{AllowWrite: []string{"/"}}, Config{AllowWrite: []string{"/a"}}, 1},
		{"project cannot open", Config{}, Config{Network: on}, Config{Network: &Network{}}, 1},
		{"project narrows on to list", Config{Network: on}, Config{Network: list}, Config{Network: list}, 0},
		{"project narrows list", Config{Network: list}, Config{Network: &Network{Allow: []string{"b:443", "c:22"}}}, Config{Network: &Network{Allow: []string{"b:443"}}}, 1},
		{"project closes", Config{Network: list}, Config{Network: &Network{}}, Config{Network: &Network{}}, 0},
		{"project silent keeps", Config{Network: on}, Config{}, Config{Network: on}, 0},
	} {
		got, dropped := Tighten(tc.user, tc.project)
		if !reflect.DeepEqual(got, tc.want) || len(dropped) != tc.dropped {
			t.Errorf("%s: got %+v (network %v), dropped %v; want %+v", tc.name, got, got.network(), dropped, tc.want)
		}
	}
}

// Grants split the tree around denied paths, down to them and no further,
// and never grant a link whose target holds a denied path.
func TestGrants(t *testing.T) {
	fs := map[string][]string{
		"/":               {"etc", "home", "tmp", "link-home"},
		"/home":           {"u"},
		"/home/u":         {".ssh", "proj", "notes", ".config"},
		"/home/u/proj":    {"src", ".env"},
		"/home/u/.config": {"gcloud", "git"},
	}
	list := func(dir string) ([]string, error) { return fs[dir], nil }
	p := Policy{Project: "/home/u/proj", Write: []string{"/tmp"},
		DenyRead: []string{"/home/u/.ssh", "/home/u/.config/gcloud", "/home/u/proj/.env"}}
	var got []string
	for _, g := range p.Grants(list) {
		got = append(got, g.Path+" "+[]string{"", "read", "list", "write", "writedir"}[g.Right])
	}
	want := []string{
		"/ list", "/etc read", "/home list", "/home/u list", "/home/u/proj list", "/home/u/proj/src read",
		"/home/u/notes read", "/home/u/.config list", "/home/u/.config/git read", "/tmp read", "/link-home read",
		"/home/u/proj writedir", "/home/u/proj/src write", "/tmp write",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("grants:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A symbolic link beside a denied path is granted at its target, unless
// the target is or holds a denied path: Landlock follows links, so
// granting the link would grant the secret.
func TestGrantsLinks(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"secret/inner", "open"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for link, target := range map[string]string{"to-secret": "secret", "to-inner": "secret/inner", "to-root": ".", "to-open": "open"} {
		if err := os.Symlink(filepath.Join(root, target), filepath.Join(root, link)); err != nil {
			t.Fatal(err)
		}
	}
	p := Policy{Project: filepath.Join(root, "open"), DenyRead: []string{filepath.Join(root, "secret")}}
	s := splitter{holes: p.DenyRead, all: p.DenyRead, list: readNames}
	granted := map[string]Right{}
	for _, g := range s.split(root, ReadTree, ListDir) {
		granted[g.Path] = g.Right
	}
	want := map[string]Right{root: ListDir, filepath.Join(root, "open"): ReadTree}
	if !reflect.DeepEqual(granted, want) {
		t.Errorf("granted %v, want %v", granted, want)
	}
}
