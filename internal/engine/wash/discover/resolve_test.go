package discover

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// resolve answers as filepath.EvalSymlinks does, through directory and file
// symlinks, relative ones with '..', chains and dangling ones, asked in any
// order (its cache filled or not).
func TestResolveAsEvalSymlinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("resolve is filepath.EvalSymlinks itself on windows")
	}
	root := t.TempDir()
	mk := func(p string) {
		if err := os.MkdirAll(filepath.Join(root, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ln := func(target, name string) {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	mk("a/b/c")
	mk("x/y")
	if err := os.WriteFile(filepath.Join(root, "a/b/c/AGENTS.md"), []byte("# A\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ln("../a/b", "x/toB")         // relative, through '..'
	ln(root+"/x/toB", "x/y/abs")  // absolute, to a link
	ln("c/AGENTS.md", "a/b/file") // a file symlink
	ln("nowhere", "a/dangling")
	ln("toB/c", "x/chain")
	paths := []string{
		"a/b/c/AGENTS.md", "x/toB/c/AGENTS.md", "x/y/abs/c", "x/y/abs/file", "x/chain/AGENTS.md", "x/toB/file",
		"a/dangling", "a/dangling/CLAUDE.md", "a/missing/CLAUDE.md", "a/b/c/AGENTS.md/x", "x/toB/../toB/c", "x/y/abs",
		"a/b", "a", "",
	}
	for round := range 2 {
		r := &run{dirs: map[string]string{}}
		for i := range paths {
			p := filepath.Join(root, paths[(i*7+round)%len(paths)])
			want, werr := filepath.EvalSymlinks(p)
			got, err := r.resolve(p)
			if got != want || (err == nil) != (werr == nil) {
				t.Errorf("resolve(%s) = %q, %v; EvalSymlinks: %q, %v", p, got, err, want, werr)
			}
		}
	}
}
