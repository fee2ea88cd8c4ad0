//go:build unix

package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/install"
	"github.com/prosewash/prosewash/internal/testtool"
)

// gitProject is an isolated project that is a git repository.
func gitProject(t *testing.T) string {
	t.Helper()
	root := isolated(t)
	git := testtool.LookPath(t, "git", "apt-get install git")
	if out, err := exec.Command(git, "init", "-q", root).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	return root
}

// A FIFO where install or uninstall would read an agent's configuration
// ends the command at once, naming the file, before anything is written:
// no .prosewash.toml, no git hook, no other agent's file.
func TestInstallRefusesAFIFOBeforeAnyWrite(t *testing.T) {
	for _, a := range install.Agents() {
		t.Run(a.Name, func(t *testing.T) {
			root := gitProject(t)
			fifo := filepath.Join(root, filepath.FromSlash(a.File()))
			mkfifo(t, fifo)
			start := time.Now()
			r := runMain(t, 10*time.Second, "", "install", "--git-hooks", "--claude", "--alias", "--"+a.Name, "--mode", "manual")
			if r.code != exitRefused || !strings.Contains(r.stderr, fifo) || !strings.Contains(r.stderr, "not a regular file") {
				t.Fatalf("install: exit %d, stderr %q; want a refusal naming %s", r.code, r.stderr, fifo)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("install took %v", d)
			}
			ents, _ := os.ReadDir(root)
			for _, e := range ents {
				if e.Name() != ".git" && e.Name() != strings.SplitN(a.File(), "/", 2)[0] {
					t.Errorf("install wrote %s before refusing", e.Name())
				}
			}
			if hooks, _ := os.ReadDir(filepath.Join(root, ".git", "hooks")); containsName(hooks, "pre-commit") {
				t.Errorf("install wrote a git hook before refusing")
			}
			r = runMain(t, 10*time.Second, "", "uninstall")
			if r.code != exitRefused || !strings.Contains(r.stderr, fifo) {
				t.Fatalf("uninstall: exit %d, stderr %q; want a refusal naming %s", r.code, r.stderr, fifo)
			}
			if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
				t.Errorf("the FIFO was touched: %v %v", fi, err)
			}
		})
	}
}

func containsName(ents []os.DirEntry, name string) bool {
	for _, e := range ents {
		if e.Name() == name {
			return true
		}
	}
	return false
}

// A UTF-8 byte order mark at the start of an agent's file is read past:
// install merges its hooks and keeps the mark, uninstall gives the user's
// bytes back exactly. The same for .prosewash.toml. An agent whose file is a
// plugin prosewash writes whole (opencode) has nothing of the user's to merge
// with: a foreign file there is refused, as TestPluginInstall holds.
func TestInstallReadsPastAByteOrderMark(t *testing.T) {
	const bom = "\xef\xbb\xbf"
	for _, a := range install.Agents() {
		if a.Config.Plugin != "" {
			continue
		}
		t.Run(a.Name, func(t *testing.T) {
			root := gitProject(t)
			p := filepath.Join(root, filepath.FromSlash(a.File()))
			os.MkdirAll(filepath.Dir(p), 0o755)
			orig := []byte(bom + "{\n\t\"mine\": true\n}\n")
			os.WriteFile(p, orig, 0o644)
			cfg := []byte(bom + "# my settings\n[clean]\nmode = \"manual\"\n")
			os.WriteFile(filepath.Join(root, install.ConfigFile), cfg, 0o644)
			r := runMain(t, 10*time.Second, "", "install", "--"+a.Name, "--mode", "manual")
			if r.code != 0 {
				t.Fatalf("install: exit %d, stderr %q", r.code, r.stderr)
			}
			got, _ := os.ReadFile(p)
			if !bytes.HasPrefix(got, []byte(bom+"{")) || !bytes.Contains(got, []byte(`"mine": true`)) || !bytes.Contains(got, []byte("hook "+a.Name+" ")) {
				t.Fatalf("after install:\n%q", got)
			}
			if b, _ := os.ReadFile(filepath.Join(root, install.ConfigFile)); !bytes.Equal(b, cfg) {
				t.Errorf(".prosewash.toml changed: %q", b)
			}
			r = runMain(t, 10*time.Second, "", "uninstall", "--"+a.Name)
			if r.code != 0 {
				t.Fatalf("uninstall: exit %d, stderr %q", r.code, r.stderr)
			}
			if got, _ := os.ReadFile(p); !bytes.Equal(got, orig) {
				t.Errorf("uninstall left %q, want the user's bytes %q", got, orig)
			}
		})
	}
}
