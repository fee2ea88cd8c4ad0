package gitstate

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testtool"
)

// gitEnv is a clean environment for the git CLI: no user or system config,
// no GIT_* variables inherited from a hook that might be running the tests.
func gitEnv(home string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") && !strings.HasPrefix(kv, "HOME=") {
			env = append(env, kv)
		}
	}
	return append(env, "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@example.com", "GIT_EDITOR=true", "GIT_SEQUENCE_EDITOR=true",
		"GIT_MERGE_AUTOEDIT=no")
}

type fixture struct {
	t    *testing.T
	dir  string
	home string
}

func newRepo(t *testing.T) *fixture {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		testtool.Missing(t, "git", "git not found: the gitstate tests build real repositories with the git CLI")
	}
	base := t.TempDir()
	f := &fixture{t: t, dir: filepath.Join(base, "repo"), home: filepath.Join(base, "home")}
	if err := os.MkdirAll(f.home, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(f.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	f.git("init", "-q", "-b", "main")
	return f
}

// gitIn runs git in dir and fails the test on error.
func (f *fixture) gitIn(dir string, args ...string) string {
	f.t.Helper()
	out, err := f.tryIn(dir, args...)
	if err != nil {
		f.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(out)
}

func (f *fixture) tryIn(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = gitEnv(f.home)
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (f *fixture) git(args ...string) string { f.t.Helper(); return f.gitIn(f.dir, args...) }

// mustFail runs a git command that is expected to stop (a conflict).
func (f *fixture) mustFail(args ...string) {
	f.t.Helper()
	if out, err := f.tryIn(f.dir, args...); err == nil {
		f.t.Fatalf("git %s succeeded, expected it to stop:\n%s", strings.Join(args, " "), out)
	}
}

func (f *fixture) commit(file, content, msg string) string {
	f.t.Helper()
	if err := os.WriteFile(filepath.Join(f.dir, file), []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
	f.git("add", file)
	f.git("commit", "-q", "-m", msg)
	return f.git("rev-parse", "HEAD")
}

// diverged makes main and other change the same line of f.txt.
func (f *fixture) diverged() {
	f.commit("f.txt", "base\n", "base")
	f.git("checkout", "-q", "-b", "other")
	f.commit("f.txt", "other\n", "other")
	f.git("checkout", "-q", "main")
	f.commit("f.txt", "main\n", "main")
}

func noEnv(string) string { return "" }

func envOf(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func open(t *testing.T, dir string, getenv func(string) string) *Repo {
	t.Helper()
	r, err := Open(dir, getenv)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func real(t *testing.T, p string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(p)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestHeadStates(t *testing.T) {
	t.Run("unborn", func(t *testing.T) {
		f := newRepo(t)
		h, err := open(t, f.dir, noEnv).Head()
		if err != nil || !h.Unborn || h.Ref != "refs/heads/main" || h.Hash != "" {
			t.Fatalf("Head = %+v, %v", h, err)
		}
		if h.String() != "unborn main" {
			t.Fatalf("String = %q", h.String())
		}
	})
	t.Run("branch", func(t *testing.T) {
		f := newRepo(t)
		want := f.commit("a.txt", "a\n", "one")
		if err := os.MkdirAll(filepath.Join(f.dir, "sub", "deeper"), 0o755); err != nil {
			t.Fatal(err)
		}
		r := open(t, filepath.Join(f.dir, "sub", "deeper"), noEnv)
		h, err := r.Head()
		if err != nil || h != (Head{Ref: "refs/heads/main", Hash: want}) {
			t.Fatalf("Head = %+v, %v (want %s)", h, err, want)
		}
		if real(t, r.workTree) != real(t, f.dir) || real(t, r.gitDir) != real(t, filepath.Join(f.dir, ".git")) {
			t.Fatalf("worktree %s gitdir %s", r.workTree, r.gitDir)
		}
	})
	t.Run("packed refs", func(t *testing.T) {
		f := newRepo(t)
		want := f.commit("a.txt", "a\n", "one")
		f.git("pack-refs", "--all")
		if _, err := os.Stat(filepath.Join(f.dir, ".git", "refs", "heads", "main")); !os.IsNotExist(err) {
			t.Fatal("ref still loose after pack-refs")
		}
		h, err := open(t, f.dir, noEnv).Head()
		if err != nil || h.Hash != want {
			t.Fatalf("Head = %+v, %v", h, err)
		}
	})
	t.Run("detached", func(t *testing.T) {
		f := newRepo(t)
		first := f.commit("a.txt", "a\n", "one")
		f.commit("a.txt", "b\n", "two")
		f.git("checkout", "-q", "--detach", first)
		h, err := open(t, f.dir, noEnv).Head()
		if err != nil || !h.Detached || h.Hash != first || h.Ref != "" {
			t.Fatalf("Head = %+v, %v", h, err)
		}
		if !strings.HasPrefix(h.String(), "detached at ") {
			t.Fatalf("String = %q", h.String())
		}
	})
}

func TestOutsideRepository(t *testing.T) {
	dir := t.TempDir()
	if _, err := os.Stat(filepath.Join(filepath.Dir(dir), ".git")); err == nil {
		t.Skip("the temporary directory is inside a repository")
	}
	r := open(t, dir, noEnv)
	if r.InRepo() {
		t.Fatalf("InRepo in %s", dir)
	}
	if _, err := r.Head(); !errors.Is(err, ErrNoRepository) {
		t.Fatalf("Head err = %v", err)
	}
	op, _, err := r.InProgress()
	if op != None || err != nil {
		t.Fatalf("InProgress = %q, %v", op, err)
	}
	g, err := r.NewGuardFor(nil)
	if err != nil || g.Active() || g.Check() != nil {
		t.Fatalf("guard outside a repository: %v", err)
	}
}

func TestLinkedWorktree(t *testing.T) {
	f := newRepo(t)
	f.diverged()
	wt := filepath.Join(filepath.Dir(f.dir), "wt")
	f.git("worktree", "add", "-q", "-b", "feature", wt, "other")
	want := f.gitIn(wt, "rev-parse", "HEAD")

	r := open(t, wt, noEnv)
	h, err := r.Head()
	if err != nil || h != (Head{Ref: "refs/heads/feature", Hash: want}) {
		t.Fatalf("Head = %+v, %v", h, err)
	}
	if real(t, r.gitDir) != real(t, filepath.Join(f.dir, ".git", "worktrees", "wt")) {
		t.Fatalf("GitDir = %s", r.gitDir)
	}
	if real(t, r.commonDir) != real(t, filepath.Join(f.dir, ".git")) {
		t.Fatalf("CommonDir = %s", r.commonDir)
	}

	// An operation in the linked worktree is seen there and not in main.
	if out, err := f.tryIn(wt, "merge", "main"); err == nil {
		t.Fatalf("merge did not conflict: %s", out)
	}
	if op, _, _ := r.InProgress(); op != Merge {
		t.Fatalf("linked worktree op = %q", op)
	}
	if op, _, _ := open(t, f.dir, noEnv).InProgress(); op != None {
		t.Fatalf("main worktree op = %q", op)
	}

	// GIT_DIR naming the linked worktree's git dir, as git sets it in hooks.
	r2 := open(t, t.TempDir(), envOf(map[string]string{"GIT_DIR": r.gitDir, "GIT_WORK_TREE": wt}))
	h2, err := r2.Head()
	if err != nil || h2 != h {
		t.Fatalf("Head via GIT_DIR = %+v, %v", h2, err)
	}
	if op, _, _ := r2.InProgress(); op != Merge {
		t.Fatalf("op via GIT_DIR = %q", op)
	}
}

func TestGitDirEnvironment(t *testing.T) {
	f := newRepo(t)
	want := f.commit("a.txt", "a\n", "one")
	elsewhere := t.TempDir()

	r := open(t, elsewhere, envOf(map[string]string{"GIT_DIR": filepath.Join(f.dir, ".git"), "GIT_WORK_TREE": f.dir}))
	h, err := r.Head()
	if err != nil || h.Hash != want || r.workTree != f.dir {
		t.Fatalf("Head = %+v, %v, worktree %s", h, err, r.workTree)
	}

	// Relative GIT_DIR without GIT_WORK_TREE: the directory is the top.
	r = open(t, f.dir, envOf(map[string]string{"GIT_DIR": ".git"}))
	if h, err := r.Head(); err != nil || h.Hash != want || r.workTree != f.dir {
		t.Fatalf("relative GIT_DIR: %+v, %v, %s", h, err, r.workTree)
	}

	// GIT_DIR wins over the repository around the directory.
	other := newRepo(t)
	otherHead := other.commit("b.txt", "b\n", "other")
	r = open(t, f.dir, envOf(map[string]string{"GIT_DIR": filepath.Join(other.dir, ".git")}))
	if h, err := r.Head(); err != nil || h.Hash != otherHead {
		t.Fatalf("GIT_DIR ignored: %+v, %v", h, err)
	}

	if _, err := Open(f.dir, envOf(map[string]string{"GIT_DIR": filepath.Join(elsewhere, "nope")})); err == nil {
		t.Fatal("accepted a GIT_DIR that does not exist")
	}
}

// TestExtensionsRepository covers a repository of format version 1 with an
// extension that leaves the refs as files (worktreeConfig): HEAD is read,
// packed or loose, and the guard sees it move.
func TestExtensionsRepository(t *testing.T) {
	f := newRepo(t)
	first := f.commit("a.txt", "a\n", "one")
	f.git("config", "core.repositoryformatversion", "1")
	f.git("config", "extensions.worktreeConfig", "true")
	r := open(t, f.dir, noEnv)
	if h, err := r.Head(); err != nil || h != (Head{Ref: "refs/heads/main", Hash: first}) {
		t.Fatalf("Head = %+v, %v", h, err)
	}
	f.git("pack-refs", "--all")
	if h, err := r.Head(); err != nil || h.Hash != first {
		t.Fatalf("packed: %+v, %v", h, err)
	}
	second := f.commit("a.txt", "b\n", "two")
	g, err := r.NewGuardFor(nil)
	if err != nil {
		t.Fatal(err)
	}
	f.git("checkout", "-q", "--detach", first)
	var moved *HeadMovedError
	if err := g.Check(); !errors.As(err, &moved) || moved.Start.Hash != second || !moved.Now.Detached {
		t.Fatalf("Check = %v", err)
	}
	f.git("checkout", "-q", "--orphan", "fresh")
	if h, err := r.Head(); err != nil || !h.Unborn || h.Ref != "refs/heads/fresh" {
		t.Fatalf("unborn: %+v, %v", h, err)
	}
}

func TestInProgress(t *testing.T) {
	tests := []struct {
		name  string
		setup func(f *fixture)
		want  Op
	}{
		{"clean", func(f *fixture) { f.diverged() }, None},
		{"merge conflict", func(f *fixture) { f.diverged(); f.mustFail("merge", "other") }, Merge},
		{"cherry-pick conflict", func(f *fixture) { f.diverged(); f.mustFail("cherry-pick", "other") }, CherryPick},
		{"revert conflict", func(f *fixture) {
			f.commit("f.txt", "a\n", "a")
			b := f.commit("f.txt", "b\n", "b")
			f.commit("f.txt", "c\n", "c")
			f.mustFail("revert", "--no-edit", b)
		}, Revert},
		{"rebase conflict (merge backend)", func(f *fixture) {
			f.diverged()
			f.git("checkout", "-q", "other")
			f.mustFail("rebase", "--merge", "main")
			// git >= 2.26 marks every merge-backend rebase "interactive";
			// drop the marker to see what older git leaves.
			if err := os.Remove(filepath.Join(f.dir, ".git", "rebase-merge", "interactive")); err != nil && !os.IsNotExist(err) {
				f.t.Fatal(err)
			}
		}, RebaseMerge},
		{"rebase conflict (merge backend, as git writes it)", func(f *fixture) {
			f.diverged()
			f.git("checkout", "-q", "other")
			f.mustFail("rebase", "--merge", "main")
		}, RebaseInteractive},
		{"rebase -i stopped by a failing exec", func(f *fixture) {
			f.commit("f.txt", "a\n", "a")
			f.commit("f.txt", "b\n", "b")
			f.mustFail("rebase", "-i", "--exec", "false", "HEAD~1")
		}, RebaseInteractive},
		{"rebase conflict (apply backend)", func(f *fixture) {
			f.diverged()
			f.git("checkout", "-q", "other")
			f.mustFail("rebase", "--apply", "main")
		}, Rebase},
		{"am conflict", func(f *fixture) {
			f.diverged()
			patch := f.git("format-patch", "-1", "other", "-o", filepath.Join(f.home, "patches"))
			f.mustFail("am", patch)
		}, ApplyMailbox},
		{"bisect", func(f *fixture) {
			f.commit("f.txt", "a\n", "a")
			f.commit("f.txt", "b\n", "b")
			f.git("bisect", "start")
		}, Bisect},
		{"stopped cherry-pick sequence", func(f *fixture) {
			f.diverged()
			f.git("checkout", "-q", "other")
			f.commit("g.txt", "g\n", "g")
			f.git("checkout", "-q", "main")
			f.mustFail("cherry-pick", "other~1", "other")
			// Resolve and commit by hand: CHERRY_PICK_HEAD goes, the sequence stays.
			if err := os.WriteFile(filepath.Join(f.dir, "f.txt"), []byte("resolved\n"), 0o644); err != nil {
				f.t.Fatal(err)
			}
			f.git("add", "f.txt")
			f.git("commit", "-q", "--no-edit")
		}, Sequencer},
		{"REBASE_HEAD left behind is not a rebase", func(f *fixture) {
			f.diverged()
			if err := os.WriteFile(filepath.Join(f.dir, ".git", "REBASE_HEAD"), []byte(strings.Repeat("a", 40)+"\n"), 0o644); err != nil {
				f.t.Fatal(err)
			}
		}, None},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newRepo(t)
			r := open(t, f.dir, noEnv)
			tc.setup(f)
			op, marker, err := r.InProgress()
			if err != nil || op != tc.want {
				t.Fatalf("InProgress = %q (%s), %v; want %q", op, marker, err, tc.want)
			}
			g, err := r.NewGuardFor(nil)
			if err != nil {
				t.Fatal(err)
			}
			err = g.Check()
			if tc.want == None {
				if err != nil {
					t.Fatalf("Check = %v", err)
				}
				return
			}
			var ip *InProgressError
			if !errors.As(err, &ip) || ip.Op != tc.want || ip.Marker == "" {
				t.Fatalf("Check = %v", err)
			}
			if _, err := os.Stat(ip.Marker); err != nil {
				t.Fatalf("marker %s: %v", ip.Marker, err)
			}
		})
	}
}

func TestGuardHeadMoved(t *testing.T) {
	f := newRepo(t)
	first := f.commit("a.txt", "a\n", "one")
	r := open(t, f.dir, noEnv)
	g, err := r.NewGuardFor(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !g.Active() || g.repos[0].start != (Head{Ref: "refs/heads/main", Hash: first}) {
		t.Fatalf("guard %+v", g.repos)
	}
	if err := g.Check(); err != nil {
		t.Fatalf("unchanged: %v", err)
	}

	// Another branch at the same commit is a move: the run was computed for main.
	f.git("checkout", "-q", "-b", "side")
	var moved *HeadMovedError
	if err := g.Check(); !errors.As(err, &moved) || moved.Now.Ref != "refs/heads/side" {
		t.Fatalf("branch switch: %v", err)
	}
	f.git("checkout", "-q", "main")
	if err := g.Check(); err != nil {
		t.Fatalf("back on main: %v", err)
	}

	second := f.commit("a.txt", "b\n", "two")
	err = g.Check()
	if !errors.As(err, &moved) || moved.Start.Hash != first || moved.Now.Hash != second {
		t.Fatalf("commit: %v", err)
	}
	if !strings.Contains(err.Error(), "HEAD moved") {
		t.Fatalf("message %q", err.Error())
	}

	// A guard started on an unborn branch sees the first commit as a move.
	u := newRepo(t)
	ug, err := open(t, u.dir, noEnv).NewGuardFor(nil)
	if err != nil {
		t.Fatal(err)
	}
	u.commit("a.txt", "a\n", "one")
	if err := ug.Check(); !errors.As(err, &moved) || !moved.Start.Unborn {
		t.Fatalf("unborn then born: %v", err)
	}
}

func BenchmarkGuardCheck(b *testing.B) {
	if _, err := exec.LookPath("git"); err != nil {
		testtool.Missing(b, "git", "git not found")
	}
	dir := b.TempDir()
	home := b.TempDir()
	run := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = gitEnv(home)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q", "-b", "main")
	if err := os.WriteFile(filepath.Join(dir, "a"), []byte("a"), 0o644); err != nil {
		b.Fatal(err)
	}
	run("add", "a")
	run("commit", "-q", "-m", "a")
	r, err := Open(dir, noEnv)
	if err != nil {
		b.Fatal(err)
	}
	g, err := r.NewGuardFor(nil)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := g.Check(); err != nil {
			b.Fatal(err)
		}
	}
}

// A file in a repository nested in the project (a submodule or a clone)
// is guarded by that repository's own state; a file of the project itself
// is not held back by it.
func TestGuardForNestedRepository(t *testing.T) {
	f := newRepo(t)
	f.commit("top.md", "top\n", "init")
	inner := filepath.Join(f.dir, "vendor", "lib")
	os.MkdirAll(inner, 0o755)
	f.gitIn(inner, "init", "-q", "-b", "main")
	os.WriteFile(filepath.Join(inner, "a.md"), []byte("a\n"), 0o644)
	f.gitIn(inner, "add", "a.md")
	f.gitIn(inner, "commit", "-qm", "one")
	f.gitIn(inner, "commit", "-q", "--allow-empty", "-m", "two")
	r, err := Open(f.dir, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	nested := filepath.Join(inner, "a.md")
	g, err := r.NewGuardFor([]string{nested, filepath.Join(f.dir, "top.md")})
	if err != nil || g.Check() != nil {
		t.Fatalf("fresh guard: %v %v", err, g.Check())
	}
	if out, err := f.tryIn(inner, "rebase", "-q", "--exec", "false", "HEAD~1"); err == nil {
		t.Fatalf("rebase did not stop:\n%s", out)
	}
	innerReal, _ := filepath.EvalSymlinks(inner)
	var ip *InProgressError
	if err := g.Check(); !errors.As(err, &ip) || ip.Where != innerReal || !strings.Contains(err.Error(), "in "+innerReal) {
		t.Fatalf("nested rebase: %v", err)
	}
	top, _ := r.NewGuardFor([]string{filepath.Join(f.dir, "top.md")})
	if err := top.Check(); err != nil {
		t.Fatalf("the project's own file is held back by a nested repository: %v", err)
	}
	f.gitIn(inner, "rebase", "--abort")
	f.gitIn(inner, "commit", "-q", "--allow-empty", "-m", "three")
	var hm *HeadMovedError
	if err := g.Check(); !errors.As(err, &hm) || hm.Where != innerReal {
		t.Fatalf("nested HEAD moved: %v", err)
	}
}
