package txn

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/fsx"
)

// extraRootWorld adds a directory outside the project (the memory lane's
// ~/.claude/projects/<slug>/memory) holding one file.
func extraRootWorld(t *testing.T) (*world, string) {
	w := newWorld(t)
	mem := filepath.Join(filepath.Dir(w.root), "home", "memory")
	if err := os.MkdirAll(mem, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mem, "MEMORY.md"), []byte("index original\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	w.write("CLAUDE.md", "project original\n", 0o644)
	return w, mem
}

func TestExtraRoots(t *testing.T) {
	w, mem := extraRootWorld(t)
	memFile := filepath.Join(mem, "MEMORY.md")
	ops := []Op{
		w.replace("CLAUDE.md", "project candidate\n"),
		{Kind: Replace, Path: memFile, Data: []byte("index candidate\n"), Expect: fsx.SHA256([]byte("index original\n"))},
	}
	// Without the extra root the memory file is outside: the whole run stops.
	_, err := Run(Options{Root: w.root, StateDir: w.state, AllOrNothing: true}, ops, nil)
	if !errors.Is(err, ErrOutsideRoot) {
		t.Fatalf("without Roots: err = %v, want ErrOutsideRoot", err)
	}
	w.mustBe("CLAUDE.md", "project original\n")
	// With it both files are swapped in one transaction.
	if _, err := Run(Options{Root: w.root, Roots: []string{mem}, StateDir: w.state, AllOrNothing: true}, ops, nil); err != nil {
		t.Fatal(err)
	}
	w.mustBe("CLAUDE.md", "project candidate\n")
	if b, _ := os.ReadFile(memFile); string(b) != "index candidate\n" {
		t.Fatalf("memory file = %q", b)
	}
	// A state dir inside an extra root is refused before anything happens.
	inside := filepath.Join(mem, "state")
	if err := os.Mkdir(inside, 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := Begin(Options{Root: w.root, Roots: []string{mem}, StateDir: inside}); err == nil {
		t.Fatal("state dir inside an extra root accepted")
	}
	// A relative or missing root is refused.
	for _, bad := range []string{"memory", filepath.Join(mem, "nope")} {
		if _, err := Begin(Options{Root: w.root, Roots: []string{bad}, StateDir: w.state}); err == nil {
			t.Fatalf("root %q accepted", bad)
		}
	}
}

// TestExtraRootsRecover interrupts a run that spans two roots and checks
// that recovery restores both, and that a caller that does not trust the
// extra root refuses the journal instead of acting on it.
func TestExtraRootsRecover(t *testing.T) {
	w, mem := extraRootWorld(t)
	memFile := filepath.Join(mem, "MEMORY.md")
	tx, err := Begin(Options{Root: w.root, Roots: []string{mem}, StateDir: w.state, AllOrNothing: true})
	if err != nil {
		t.Fatal(err)
	}
	ops := []Op{
		w.replace("CLAUDE.md", "project candidate\n"),
		{Kind: Replace, Path: memFile, Data: []byte("index candidate\n"), Expect: fsx.SHA256([]byte("index original\n"))},
	}
	if err := tx.Prepare(ops); err != nil {
		t.Fatal(err)
	}
	if err := tx.Install(); err != nil {
		t.Fatal(err)
	}
	// Simulate a crash: release the lock without rolling back.
	_ = tx.lock.release()
	tx.lock = nil
	tx.phase = phaseDone

	rep, err := Recover(w.state, RecoverOptions{Root: w.root})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Unresolved || len(rep.Runs) != 1 || rep.Runs[0].Outcome != OutcomeRefused {
		t.Fatalf("untrusted extra root: %+v", rep)
	}
	w.mustBe("CLAUDE.md", "project candidate\n") // not acted on
	rep, err = Recover(w.state, RecoverOptions{Root: w.root, Roots: []string{mem}})
	if err != nil || rep.Unresolved {
		t.Fatalf("trusted: %+v %v", rep, err)
	}
	w.mustBe("CLAUDE.md", "project original\n")
	if b, _ := os.ReadFile(memFile); string(b) != "index original\n" {
		t.Fatalf("memory file = %q", b)
	}
}
