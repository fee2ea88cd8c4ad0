package testtool

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestRequired(t *testing.T) {
	t.Setenv(EnvRequire, "git, npm")
	if !Required("npm") || !Required("git") || Required("rg") {
		t.Fatalf("Required misreads %q", os.Getenv(EnvRequire))
	}
	t.Setenv(EnvRequire, "all")
	if !Required("anything") {
		t.Fatal("all does not require everything")
	}
	t.Setenv(EnvRequire, "")
	if Required("git") {
		t.Fatal("nothing set, yet git is required")
	}
}

func TestCachedBuildsOnceAndNeverHalf(t *testing.T) {
	t.Setenv(EnvCache, t.TempDir())
	calls := 0
	fail := func(tmp string) error {
		calls++
		os.WriteFile(filepath.Join(tmp, "half"), nil, 0o644)
		return os.ErrInvalid
	}
	if _, err := cached(t, "k", fail); err == nil {
		t.Fatal("a failed fill was reported as success")
	}
	root, _ := CacheDir()
	if _, err := os.Stat(filepath.Join(root, "k")); err == nil {
		t.Fatal("a failed fill left a directory in place")
	}
	fill := func(tmp string) error {
		calls++
		return os.WriteFile(filepath.Join(tmp, "x"), []byte("1"), 0o644)
	}
	for i := 0; i < 2; i++ {
		dir, err := cached(t, "k", fill)
		if err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "x")); string(b) != "1" {
			t.Fatalf("cached dir lacks its content")
		}
	}
	if calls != 2 {
		t.Fatalf("fill ran %d times, want 2 (one failure, one build)", calls)
	}
}

func TestNPMInstallsPinnedPackage(t *testing.T) {
	dir := NPM(t, "is-number@7.0.0")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "is-number", "package.json")); err != nil {
		t.Fatalf("is-number not installed under %s: %v", dir, err)
	}
}

// A program on PATH that fails its probe, as a rustup proxy without a
// default toolchain does, skips the test with the program's message, or
// fails it when the tool is required.
func TestWorkingSkipsAHalfInstalledTool(t *testing.T) {
	dir := t.TempDir()
	script := "#!/bin/sh\necho \"error: rustup could not choose a version of rustc to run, because one wasn't specified explicitly, and no default is configured.\" >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(dir, "rustc"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("sh"); err != nil {
		Missing(t, "sh", err.Error())
	}
	t.Setenv("PATH", dir)
	t.Setenv(EnvRequire, "")
	var skipped bool
	var msg string
	t.Run("probe", func(t *testing.T) {
		r := &recorder{TB: t}
		defer func() { skipped, msg = t.Skipped(), r.msg }()
		Working(r, "rustc", "apt-get install rustc", "--version")
	})
	if !skipped || !strings.Contains(msg, "no default is configured") {
		t.Errorf("skipped=%v, message %q: want a skip quoting rustup", skipped, msg)
	}
}

// recorder keeps the message a Skipf or Fatalf was given.
type recorder struct {
	testing.TB
	msg string
}

func (r *recorder) Skipf(format string, args ...any) {
	r.msg = fmt.Sprintf(format, args...)
	r.TB.Skipf(format, args...)
}

// The cache stays bounded: installing a set removes the sets no test has
// used for staleAfter, and keeps the ones in use.
func TestCachePrunesStaleEntries(t *testing.T) {
	root := t.TempDir()
	t.Setenv(EnvCache, root)
	old := time.Now().Add(-2 * staleAfter)
	for _, name := range []string{"npm-old", "deb-old", "npm-recent"} {
		dir := filepath.Join(root, name)
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, ".complete"), nil, 0o644)
		os.WriteFile(filepath.Join(dir, "payload"), []byte("x"), 0o644)
		if name != "npm-recent" {
			os.Chtimes(filepath.Join(dir, ".complete"), old, old)
		}
	}
	// A set used recently, though installed long ago, stays.
	os.Chtimes(filepath.Join(root, "npm-recent", ".complete"), old, old)
	if _, err := cached(t, "npm-recent", func(string) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := cached(t, "npm-new", func(tmp string) error { return os.WriteFile(filepath.Join(tmp, "p"), nil, 0o644) }); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"npm-old": false, "deb-old": false, "npm-recent": true, "npm-new": true} {
		if got := ok(filepath.Join(root, name)); got != want {
			t.Errorf("%s present=%v, want %v", name, got, want)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(root, ".*stale")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
}
