package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testtool"
)

// TestExitStatusTable walks the EXIT STATUS table that --help prints (and
// docs/commands.md shows): every documented status has at least one real
// command that ends with it, for the cause the table names, and no scenario
// ends with a status the table does not document.
func TestExitStatusTable(t *testing.T) {
	testtool.LookPath(t, "git", "apt-get install git")
	documented := map[int]bool{}
	for _, m := range regexp.MustCompile(`(?m)^  (\d+) `).FindAllStringSubmatch(exitStatusHelp, -1) {
		n, _ := strconv.Atoi(m[1])
		documented[n] = true
	}
	if len(documented) < 6 {
		t.Fatalf("the table lists %d statuses: the reader is broken", len(documented))
	}
	interrupt := command{name: "interrupt-me", run: func(e *env, _ []string) error {
		p, err := os.FindProcess(os.Getpid())
		if err == nil {
			err = p.Signal(os.Interrupt)
		}
		if err != nil {
			return err
		}
		<-e.ctx.Done()
		return nil
	}}
	boom := command{name: "boom", run: func(*env, []string) error { panic("a bug") }}
	scenarios := []struct {
		cause string
		code  int
		files map[string]string
		args  []string
	}{
		{"nothing found", 0, map[string]string{"a.md": "plain\n"}, []string{"check", "a.md"}},
		{"nothing to clean", 0, map[string]string{"a.md": "plain\n"}, []string{"clean", "a.md"}},
		{"help asked for", 0, nil, []string{"check", "--help"}},
		{"carriers found", 1, map[string]string{"a.md": "x\u200by\n"}, []string{"check", "a.md"}},
		{"tokens dropped", 1, map[string]string{"old.md": "Port 5432.\n", "new.md": "Port.\n"}, []string{"wash", "verify", "old.md", "new.md"}},
		{"usage error", 2, nil, []string{"check", "--frobnicate", "."}},
		{"unknown command", 2, nil, []string{"frobnicate"}},
		{"check: a path that cannot be read", 2, nil, []string{"check", "missing.md"}},
		{"clean: a path that cannot be read", 2, map[string]string{"a.md": "x\u200by\n"}, []string{"clean", "missing.md", "a.md"}},
		{"invalid configuration", 2, map[string]string{".prosewash.toml": "[clean\n"}, []string{"status"}},
		{"a file refused", 3, map[string]string{"a.xyz": "x\u200by\n"}, []string{"clean", "a.xyz"}},
		{"an internal error", 70, nil, []string{"boom"}},
		{"interrupted", 130, nil, []string{"interrupt-me"}},
	}
	seen := map[int]bool{}
	for _, s := range scenarios {
		dir := t.TempDir()
		t.Setenv("PROSEWASH_STATE_DIR", t.TempDir())
		t.Setenv("XDG_CONFIG_HOME", t.TempDir())
		t.Setenv("NO_COLOR", "1")
		for name, body := range s.files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		t.Chdir(dir)
		var out, errb bytes.Buffer
		code := mainWith(append(commands(), interrupt, boom), s.args, strings.NewReader(""), &out, &errb)
		if code != s.code {
			t.Errorf("%s: prosewash %s exited %d, want %d\n%s", s.cause, strings.Join(s.args, " "), code, s.code, errb.String())
		}
		if !documented[code] {
			t.Errorf("%s: exit status %d is not in the documented table", s.cause, code)
		}
		seen[s.code] = true
	}
	for code := range documented {
		if !seen[code] {
			t.Errorf("documented exit status %d has no scenario here", code)
		}
	}
}
