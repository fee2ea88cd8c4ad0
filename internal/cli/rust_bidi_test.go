package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testtool"
)

// TestRustBidiCleanCompiles: rustc denies bidi controls in comments
// (text_direction_codepoint_in_comment), so a Rust file an agent wrote with
// one in a comment does not build. The real clean command removes them from
// the line, doc and block comments, and the file builds again.
func TestRustBidiCleanCompiles(t *testing.T) {
	rustc := testtool.Working(t, "rustc", "apt-get install rustc", "--version")
	git := testtool.LookPath(t, "git", "apt-get install git")
	dir := t.TempDir()
	t.Setenv("PROSEWASH_STATE_DIR", filepath.Join(t.TempDir(), "state"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(t.TempDir(), "config"))
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	src := "// Checks the \u202eadmin\u202c flag.\n" +
		"/// Doc with a bidi \u2066control\u2069.\n" +
		"pub fn is_admin(role: &str) -> bool {\n" +
		"    role == \"admin\" /* \u202e */\n" +
		"}\n"
	path := filepath.Join(dir, "lib.rs")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "--allow-empty", "-m", "init"}} {
		cmd := exec.Command(git, args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	build := func() (bool, string) {
		cmd := exec.Command(rustc, "--edition", "2021", "--crate-type", "lib", "--emit=metadata", "-o", filepath.Join(dir, "out.rmeta"), path)
		out, err := cmd.CombinedOutput()
		return err == nil, string(out)
	}
	ok, out := build()
	if ok || !strings.Contains(out, "text_direction_codepoint_in_comment") {
		t.Fatalf("rustc accepted the file with bidi controls in comments (or failed otherwise):\n%s", out)
	}
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := Main([]string{"clean", "lib.rs"}, strings.NewReader(""), &stdout, &stderr); code != 0 {
		t.Fatalf("clean exited %d:\n%s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "cleaned lib.rs: 5 carriers removed") {
		t.Errorf("clean report:\n%s", stderr.String())
	}
	if ok, out := build(); !ok {
		t.Fatalf("the cleaned file does not build:\n%s", out)
	}
	got, _ := os.ReadFile(path)
	want := strings.NewReplacer("\u202e", "", "\u202c", "", "\u2066", "", "\u2069", "").Replace(src)
	if string(got) != want {
		t.Errorf("cleaned file:\n%q\nwant\n%q", got, want)
	}
}
