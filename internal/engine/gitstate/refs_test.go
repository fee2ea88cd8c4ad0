package gitstate

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitSays is HEAD as the git CLI reports it in dir with the extra
// environment env: `git symbolic-ref -q HEAD` names the branch where the
// chain of symbolic refs ends (exit 1: detached), `git rev-parse -q
// --verify HEAD` the commit (exit 1: unborn). Any other failure is git
// refusing the repository, returned as the error.
func (f *fixture) gitSays(dir string, env []string) (Head, error) {
	f.t.Helper()
	ref, rc, err := f.runGit(dir, env, "symbolic-ref", "-q", "HEAD")
	if rc > 1 || err != nil {
		return Head{}, fmt.Errorf("git symbolic-ref: exit %d %v: %s", rc, err, ref)
	}
	hash, rc, err := f.runGit(dir, env, "rev-parse", "-q", "--verify", "HEAD")
	if rc > 1 || err != nil {
		return Head{}, fmt.Errorf("git rev-parse: exit %d %v: %s", rc, err, hash)
	}
	if rc == 1 {
		hash = ""
	}
	return Head{Ref: ref, Hash: hash, Detached: ref == "", Unborn: hash == ""}, nil
}

// runGit runs git with env added and returns its trimmed standard output and exit code.
func (f *fixture) runGit(dir string, env []string, args ...string) (string, int, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(gitEnv(f.home), env...)
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok {
		return strings.TrimSpace(string(out)), ee.ExitCode(), nil
	}
	return strings.TrimSpace(string(out)), 0, err
}

// envMap turns "K=V" entries into the getenv Open takes.
func envMap(env []string) func(string) string {
	m := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	return envOf(m)
}

// chain makes HEAD -> refs/heads/s<n> -> ... -> refs/heads/s1 -> end.
func (f *fixture) chain(n int, end string) {
	f.t.Helper()
	prev := end
	for i := 1; i <= n; i++ {
		name := fmt.Sprintf("refs/heads/s%d", i)
		f.git("symbolic-ref", name, prev)
		prev = name
	}
	f.git("symbolic-ref", "HEAD", prev)
}

func (f *fixture) write(rel, content string) {
	f.t.Helper()
	p := filepath.Join(f.dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

// linked adds a linked worktree on a new branch and returns its directory.
func (f *fixture) linked(branch string) string {
	f.t.Helper()
	wt := filepath.Join(filepath.Dir(f.dir), "wt-"+branch)
	f.git("worktree", "add", "-q", "-b", branch, wt)
	return wt
}

// TestHeadAsGitSaysIt drives the git CLI through the states of HEAD and of
// the refs that matter to the guard and holds Head to what git itself
// reports in each, opened from the same directory with the same GIT_*
// environment. Head reads the files git's files backend writes (loose refs,
// packed-refs, symbolic chains, the common dir of linked worktrees), so
// every layout git can produce is a case here.
func TestHeadAsGitSaysIt(t *testing.T) {
	tests := []struct {
		name string
		// setup returns the directory to open and the GIT_* environment.
		setup func(f *fixture) (string, []string)
	}{
		{"unborn", func(f *fixture) (string, []string) { return f.dir, nil }},
		{"branch, from a subdirectory", func(f *fixture) (string, []string) {
			f.commit("a.txt", "a\n", "one")
			f.write("sub/deeper/keep", "")
			return filepath.Join(f.dir, "sub", "deeper"), nil
		}},
		{"detached", func(f *fixture) (string, []string) {
			first := f.commit("a.txt", "a\n", "one")
			f.commit("a.txt", "b\n", "two")
			f.git("checkout", "-q", "--detach", first)
			return f.dir, nil
		}},
		{"packed-refs only", func(f *fixture) (string, []string) {
			f.commit("a.txt", "a\n", "one")
			f.git("pack-refs", "--all")
			return f.dir, nil
		}},
		{"loose ref newer than its packed entry", func(f *fixture) (string, []string) {
			f.commit("a.txt", "a\n", "one")
			f.git("pack-refs", "--all")
			f.commit("a.txt", "b\n", "two")
			return f.dir, nil
		}},
		{"packed ref beside a directory of the same name", func(f *fixture) (string, []string) {
			f.commit("a.txt", "a\n", "one")
			f.git("pack-refs", "--all")
			f.write(".git/refs/heads/main/.keep", "") // not a ref: git reads packed-refs
			return f.dir, nil
		}},
		{"unborn branch beside packed refs", func(f *fixture) (string, []string) {
			f.commit("a.txt", "a\n", "one")
			f.git("pack-refs", "--all")
			f.git("checkout", "-q", "--orphan", "fresh")
			return f.dir, nil
		}},
		{"symbolic chain", func(f *fixture) (string, []string) {
			f.commit("a.txt", "a\n", "one")
			f.chain(2, "refs/heads/main")
			return f.dir, nil
		}},
		{"symbolic chain to a packed ref", func(f *fixture) (string, []string) {
			f.commit("a.txt", "a\n", "one")
			f.git("pack-refs", "--all")
			f.chain(2, "refs/heads/main")
			return f.dir, nil
		}},
		{"symbolic chain to an unborn branch", func(f *fixture) (string, []string) {
			f.commit("a.txt", "a\n", "one")
			f.chain(1, "refs/heads/nothing")
			return f.dir, nil
		}},
		// HEAD, the chain and the branch are symrefMaxDepth reads: the
		// deepest chain git resolves, and one link more, which it refuses.
		{"symbolic chain at git's depth limit", func(f *fixture) (string, []string) {
			f.commit("a.txt", "a\n", "one")
			f.chain(symrefMaxDepth-2, "refs/heads/main")
			return f.dir, nil
		}},
		{"symbolic chain past git's depth limit", func(f *fixture) (string, []string) {
			f.commit("a.txt", "a\n", "one")
			f.chain(symrefMaxDepth-1, "refs/heads/main")
			return f.dir, nil
		}},
		{"HEAD a symbolic link (core.preferSymlinkRefs)", func(f *fixture) (string, []string) {
			f.commit("a.txt", "a\n", "one")
			f.git("-c", "core.preferSymlinkRefs=true", "checkout", "-q", "-b", "linked")
			if fi, err := os.Lstat(filepath.Join(f.dir, ".git", "HEAD")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Fatalf("git wrote no symbolic link at HEAD: %v", err)
			}
			return f.dir, nil
		}},
		{"linked worktree (commondir)", func(f *fixture) (string, []string) {
			f.commit("a.txt", "a\n", "one")
			wt := f.linked("feature")
			f.gitIn(wt, "commit", "-q", "--allow-empty", "-m", "in wt")
			return wt, nil
		}},
		{"linked worktree, packed refs, a stray ref in its git dir", func(f *fixture) (string, []string) {
			first := f.commit("a.txt", "a\n", "one")
			wt := f.linked("feature")
			f.gitIn(wt, "commit", "-q", "--allow-empty", "-m", "in wt")
			f.git("pack-refs", "--all")
			// git reads refs/heads/* of a linked worktree from the common
			// dir only; this file must not be taken for the branch.
			f.write(".git/worktrees/wt-feature/refs/heads/feature", first+"\n")
			return wt, nil
		}},
		{"linked worktree, detached", func(f *fixture) (string, []string) {
			f.commit("a.txt", "a\n", "one")
			wt := filepath.Join(filepath.Dir(f.dir), "wt-detached")
			f.git("worktree", "add", "-q", "--detach", wt)
			return wt, nil
		}},
		{"submodule (gitdir: file)", func(f *fixture) (string, []string) {
			sub := newRepoAt(t, f, "upstream")
			sub.commit("s.txt", "s\n", "sub")
			f.commit("a.txt", "a\n", "one")
			f.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", sub.dir, "mod")
			if b, err := os.ReadFile(filepath.Join(f.dir, "mod", ".git")); err != nil || !strings.HasPrefix(string(b), "gitdir:") {
				t.Fatalf("submodule .git is not a gitdir: file: %q %v", b, err)
			}
			return filepath.Join(f.dir, "mod"), nil
		}},
		{"GIT_DIR and GIT_WORK_TREE, opened elsewhere", func(f *fixture) (string, []string) {
			f.commit("a.txt", "a\n", "one")
			return t.TempDir(), []string{"GIT_DIR=" + filepath.Join(f.dir, ".git"), "GIT_WORK_TREE=" + f.dir}
		}},
		{"GIT_DIR naming another repository than the directory's", func(f *fixture) (string, []string) {
			f.commit("a.txt", "a\n", "one")
			other := newRepoAt(t, f, "other")
			other.commit("b.txt", "b\n", "other")
			other.git("checkout", "-q", "--detach")
			return f.dir, []string{"GIT_DIR=" + filepath.Join(other.dir, ".git")}
		}},
		// git 2.39's files backend reads refs through the commondir file
		// even when GIT_COMMON_DIR names another directory, so only the
		// variable agreeing with the file is a case git settles.
		{"GIT_DIR, GIT_COMMON_DIR and GIT_WORK_TREE of a linked worktree", func(f *fixture) (string, []string) {
			f.commit("a.txt", "a\n", "one")
			wt := f.linked("feature")
			f.gitIn(wt, "commit", "-q", "--allow-empty", "-m", "in wt")
			gd := filepath.Join(f.dir, ".git", "worktrees", "wt-feature")
			return t.TempDir(), []string{"GIT_DIR=" + gd, "GIT_COMMON_DIR=" + filepath.Join(f.dir, ".git"), "GIT_WORK_TREE=" + wt}
		}},
		{"SHA-256 repository", func(f *fixture) (string, []string) {
			if err := os.RemoveAll(filepath.Join(f.dir, ".git")); err != nil {
				t.Fatal(err)
			}
			f.git("init", "-q", "-b", "main", "--object-format=sha256")
			f.commit("a.txt", "a\n", "one")
			f.git("pack-refs", "--all")
			return f.dir, nil
		}},
		{"reftable repository", func(f *fixture) (string, []string) {
			f.commit("a.txt", "a\n", "one")
			f.git("config", "core.repositoryformatversion", "1")
			f.git("config", "extensions.refStorage", "reftable")
			return f.dir, nil
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newRepo(t)
			f.t = t
			dir, env := tc.setup(f)
			want, gitErr := f.gitSays(dir, env)
			got, err := open(t, dir, envMap(env)).Head()
			switch {
			case gitErr != nil && err == nil:
				t.Fatalf("Head = %+v; git refuses it: %v", got, gitErr)
			case gitErr == nil && err != nil:
				t.Fatalf("Head: %v; git says %+v", err, want)
			case gitErr == nil && got != want:
				t.Fatalf("Head = %+v; git says %+v", got, want)
			}
			t.Logf("git: %+v %v; Head: %+v %v", want, gitErr, got, err)
		})
	}
}

// A broken ref that git cannot resolve, and whose branch it still names,
// must not read as an unborn branch: the guard would then take any later
// state for a move, or a garbage file for a branch with no commits.
func TestHeadBrokenRefIsAnError(t *testing.T) {
	f := newRepo(t)
	f.commit("a.txt", "a\n", "one")
	f.write(".git/refs/heads/main", "not a hash\n")
	if _, rc, _ := f.runGit(f.dir, nil, "rev-parse", "-q", "--verify", "HEAD"); rc == 0 {
		t.Fatal("git resolved a broken ref")
	}
	if h, err := open(t, f.dir, noEnv).Head(); err == nil {
		t.Fatalf("Head = %+v for a ref holding no object name", h)
	}
}

// newRepoAt makes a second repository beside f's, sharing its home.
func newRepoAt(t *testing.T, f *fixture, name string) *fixture {
	t.Helper()
	g := &fixture{t: t, dir: filepath.Join(filepath.Dir(f.dir), name), home: f.home}
	if err := os.Mkdir(g.dir, 0o755); err != nil {
		t.Fatal(err)
	}
	g.git("init", "-q", "-b", "main")
	return g
}
