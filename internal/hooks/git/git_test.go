package git

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/engine/scope"
	"github.com/prosewash/prosewash/internal/testtool"
)

type repo struct {
	t    *testing.T
	root string
	env  map[string]string
}

func newRepo(t *testing.T) *repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		testtool.Missing(t, "git", fmt.Sprintf("git not found: %v", err))
	}
	root, _ := filepath.EvalSymlinks(t.TempDir())
	r := &repo{t: t, root: root, env: map[string]string{"PROSEWASH_STATE_DIR": t.TempDir()}}
	for k, v := range map[string]string{"HOME": t.TempDir(), "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@x.invalid", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@x.invalid"} {
		t.Setenv(k, v)
	}
	r.git("init", "-q")
	return r
}

func (r *repo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.root
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func (r *repo) write(rel, s string) string {
	p := filepath.Join(r.root, rel)
	os.WriteFile(p, []byte(s), 0o644)
	return p
}

func (r *repo) options() Options {
	p, err := project.Find(project.Options{Dir: r.root, Getenv: func(k string) string { return r.env[k] }})
	if err != nil {
		r.t.Fatal(err)
	}
	return Options{Project: p, Getenv: func(k string) string { return r.env[k] }}
}

func (r *repo) record(paths ...string) *scope.Record {
	r.t.Helper()
	sd, err := r.options().Project.StateDir()
	if err != nil {
		r.t.Fatal(err)
	}
	rec, _ := scope.Open(sd, "s1")
	if _, errs := rec.Add(r.root, paths, time.Now()); len(errs) > 0 {
		r.t.Fatal(errs)
	}
	return rec
}

func ops(t *testing.T, rec *scope.Record) map[string]string {
	es, err := rec.Entries()
	if err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for _, e := range es {
		m[filepath.Base(e.Path)] = e.Op
	}
	return m
}

func TestPostCheckout(t *testing.T) {
	r := newRepo(t)
	a := r.write("a.md", "one\n")
	b := r.write("b.md", "same\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "one")
	old := r.git("rev-parse", "HEAD")
	r.write("a.md", "two\n")
	r.git("commit", "-q", "-a", "-m", "two")
	cur := r.git("rev-parse", "HEAD")
	rec := r.record(a, b)
	ctx := context.Background()

	for _, tt := range []struct{ old, new, flag, skipped string }{
		{old, cur, "0", "file checkout"},
		{strings.Repeat("0", 40), cur, "1", "no previous HEAD"},
		{cur, cur, "1", "HEAD did not change"},
		{"", "", "", "file checkout"},
	} {
		res, err := PostCheckout(ctx, r.options(), tt.old, tt.new, tt.flag)
		if err != nil || res.Skipped != tt.skipped || res.Marked != 0 {
			t.Errorf("%q %q %q: %+v %v, want skipped %q", tt.old, tt.new, tt.flag, res, err, tt.skipped)
		}
	}
	// During a rebase git checks out commits along the way: not the user's.
	os.Mkdir(filepath.Join(r.root, ".git", "rebase-merge"), 0o755)
	res, err := PostCheckout(ctx, r.options(), old, cur, "1")
	if err != nil || !strings.Contains(res.Skipped, "rebase") || res.Marked != 0 {
		t.Errorf("during a rebase: %+v %v", res, err)
	}
	os.Remove(filepath.Join(r.root, ".git", "rebase-merge"))
	if m := ops(t, rec); m["a.md"] != scope.OpRecord {
		t.Fatalf("marked while skipping: %v", m)
	}

	res, err = PostCheckout(ctx, r.options(), old, cur, "1")
	if err != nil || res.Marked != 1 {
		t.Fatalf("checkout: %+v %v", res, err)
	}
	if m := ops(t, rec); m["a.md"] != scope.OpCheckout || m["b.md"] != scope.OpRecord {
		t.Errorf("ops = %v, want a.md replaced by checkout, b.md untouched", m)
	}
	// Marking twice adds nothing.
	if res, _ := PostCheckout(ctx, r.options(), old, cur, "1"); res.Marked != 0 {
		t.Errorf("second run marked %d", res.Marked)
	}
}

// Without a session nothing is cleaned; every staged file is surveyed.
func TestPreCommitNoSession(t *testing.T) {
	r := newRepo(t)
	r.write("a.md", "x\n")
	r.git("add", "a.md")
	res, err := PreCommit(context.Background(), r.options())
	if err != nil || res.Session != "" || res.Run != nil || res.Staged != 1 || len(res.Changed) != 0 {
		t.Fatalf("%+v %v", res, err)
	}
}
