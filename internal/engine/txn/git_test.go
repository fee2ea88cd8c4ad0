package txn

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/gitstate"
	"github.com/prosewash/prosewash/internal/testtool"
)

// gitWorld is a world whose root is a real git repository, guarded by
// gitstate the way the CLI wires it.
type gitWorld struct {
	*world
	home string
}

func newGitWorld(t *testing.T) *gitWorld {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		testtool.Missing(t, "git", "git not found: the guard tests build real repositories with the git CLI")
	}
	g := &gitWorld{world: newWorld(t), home: t.TempDir()}
	g.git("init", "-q", "-b", "main")
	g.write("a.md", "a0\n", 0o644)
	g.write("b.md", "b0\n", 0o644)
	g.git("add", ".")
	g.git("commit", "-q", "-m", "base")
	return g
}

func (g *gitWorld) try(args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = g.root
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") && !strings.HasPrefix(kv, "HOME=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "HOME="+g.home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@example.com", "GIT_EDITOR=true", "GIT_SEQUENCE_EDITOR=true")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (g *gitWorld) git(args ...string) {
	g.t.Helper()
	if out, err := g.try(args...); err != nil {
		g.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// guarded returns options whose Guard is a gitstate guard started now.
func (g *gitWorld) guarded() Options {
	g.t.Helper()
	repo, err := gitstate.Open(g.root, func(string) string { return "" })
	if err != nil {
		g.t.Fatal(err)
	}
	guard, err := repo.NewGuardFor(nil)
	if err != nil {
		g.t.Fatal(err)
	}
	o := g.opts()
	o.Guard = guard.Check
	return o
}

func TestGitHeadMovedBlocksInstall(t *testing.T) {
	g := newGitWorld(t)
	tx, err := Begin(g.guarded())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Close()
	if err := tx.Prepare([]Op{g.replace("a.md", "a1\n"), g.replace("b.md", "b1\n")}); err != nil {
		t.Fatal(err)
	}
	// Someone commits while the run is computing and validating candidates.
	g.git("commit", "-q", "--allow-empty", "-m", "meanwhile")
	err = tx.Install()
	var moved *gitstate.HeadMovedError
	var ge *GuardError
	if !errors.As(err, &ge) || ge.Stage != "install" || !errors.As(err, &moved) {
		t.Fatalf("err = %v", err)
	}
	g.mustBe("a.md", "a0\n")
	g.mustBe("b.md", "b0\n")
	g.noTrace()
}

func TestGitHeadMovedDuringValidation(t *testing.T) {
	g := newGitWorld(t)
	res, err := Run(g.guarded(), []Op{g.replace("a.md", "a1\n"), g.replace("b.md", "b1\n")}, func(*Validation) error {
		// The validation command (or a human in another terminal) commits.
		g.git("commit", "-q", "--allow-empty", "-m", "during validation")
		return nil
	})
	var moved *gitstate.HeadMovedError
	var ge *GuardError
	if !errors.As(err, &ge) || ge.Stage != "commit" || !errors.As(err, &moved) {
		t.Fatalf("err = %v", err)
	}
	g.mustBe("a.md", "a0\n")
	g.mustBe("b.md", "b0\n")
	if res.Count(StatusRestored) != 2 {
		t.Fatalf("%+v", res.Files)
	}
	g.noTrace()
}

func TestGitRebaseInProgressRefusesBeforeAnyWrite(t *testing.T) {
	g := newGitWorld(t)
	g.write("a.md", "a-second\n", 0o644)
	g.git("commit", "-q", "-am", "second")
	if out, err := g.try("rebase", "-i", "--exec", "false", "HEAD~1"); err == nil {
		t.Fatalf("rebase did not stop:\n%s", out)
	}
	before, err := os.Lstat(g.path("a.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(g.guarded(), []Op{g.replace("a.md", "a1\n")}, nil)
	var ip *gitstate.InProgressError
	var ge *GuardError
	if !errors.As(err, &ge) || ge.Stage != "start" || !errors.As(err, &ip) || ip.Op != gitstate.RebaseInteractive {
		t.Fatalf("err = %v", err)
	}
	after, err := os.Lstat(g.path("a.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) || !before.ModTime().Equal(after.ModTime()) {
		t.Fatal("a.md was touched")
	}
	g.mustBe("a.md", "a-second\n")
	// Not even a backup or journal was written.
	if ents, _ := os.ReadDir(filepath.Join(g.state, txnDir)); len(ents) != 0 {
		t.Fatalf("state dir holds %v", ents)
	}
}

func TestGitMergeStartedDuringValidation(t *testing.T) {
	g := newGitWorld(t)
	g.git("checkout", "-q", "-b", "other")
	g.write("c.md", "other\n", 0o644)
	g.git("add", "c.md")
	g.git("commit", "-q", "-m", "other")
	g.git("checkout", "-q", "main")
	g.write("c.md", "main\n", 0o644)
	g.git("add", "c.md")
	g.git("commit", "-q", "-m", "main")
	_, err := Run(g.guarded(), []Op{g.replace("a.md", "a1\n")}, func(*Validation) error {
		if out, err := g.try("merge", "other"); err == nil {
			t.Errorf("merge did not conflict:\n%s", out)
		}
		return nil
	})
	var ip *gitstate.InProgressError
	if !errors.As(err, &ip) || ip.Op != gitstate.Merge {
		t.Fatalf("err = %v", err)
	}
	g.mustBe("a.md", "a0\n")
}
