package txn

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/engine/fsx"
)

func TestCommitAllKinds(t *testing.T) {
	w := newWorld(t)
	w.write("a.md", "alpha\u200b\n", 0o644)
	w.write("bin/run.py", "# run\u200b\n", 0o755)
	w.write("old.md", "obsolete\n", 0o600)
	ops := []Op{
		w.del("old.md"), // given first, must still run last
		w.replace("a.md", "alpha\n"),
		w.replace("bin/run.py", "# run\n"),
		w.create("new.md", "merged\n"),
	}
	res, err := Run(w.opts(), ops, func(v *Validation) error {
		if got := len(v.Installed()); got != 4 {
			return fmt.Errorf("installed %d, want 4", got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	w.mustBe("a.md", "alpha\n")
	w.mustBe("bin/run.py", "# run\n")
	w.mustBe("new.md", "merged\n")
	w.mustBeAbsent("old.md")
	if w.mode("bin/run.py") != 0o755 || w.mode("a.md") != 0o644 || w.mode("new.md") != 0o640 {
		t.Fatalf("modes %v %v %v", w.mode("bin/run.py"), w.mode("a.md"), w.mode("new.md"))
	}
	if res.Count(StatusCommitted) != 4 || res.State != StateCommitted {
		t.Fatalf("result %+v", res)
	}
	w.noTrace()
}

func TestStateTransitions(t *testing.T) {
	w := newWorld(t)
	w.write("a.md", "one", 0o644)
	w.write("b.md", "two", 0o644)
	tx, err := Begin(w.opts())
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Close()
	if err := tx.Install(); !errors.Is(err, ErrPhase) {
		t.Fatalf("Install before Prepare: %v", err)
	}
	if err := tx.Prepare([]Op{w.replace("a.md", "ONE"), w.replace("b.md", "TWO")}); err != nil {
		t.Fatal(err)
	}
	if s := w.journalState(tx.RunID()); s != StatePrepared {
		t.Fatalf("after Prepare: %s", s)
	}
	// Backups exist, are private and hold the originals.
	for i, want := range []string{"one", "two"} {
		if b, err := w.backupOf(tx.RunID(), i); err != nil || string(b) != want {
			t.Fatalf("backup %d = %q, %v", i, b, err)
		}
	}
	if fi, err := os.Stat(filepath.Join(backupDir(w.state, tx.RunID()), packName)); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("backup pack: %v %v", fi, err)
	}
	w.mustBe("a.md", "one")
	if err := tx.Prepare(nil); !errors.Is(err, ErrPhase) {
		t.Fatalf("second Prepare: %v", err)
	}
	if err := tx.Install(); err != nil {
		t.Fatal(err)
	}
	if s := w.journalState(tx.RunID()); s != StateInstalled {
		t.Fatalf("after Install: %s", s)
	}
	w.mustBe("a.md", "ONE")
	err = tx.Validate(func(*Validation) error {
		if s := w.journalState(tx.RunID()); s != StateValidating {
			return fmt.Errorf("during Validate: %s", s)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); !errors.Is(err, ErrPhase) {
		t.Fatalf("second Commit: %v", err)
	}
	if err := tx.Rollback(); !errors.Is(err, ErrPhase) {
		t.Fatalf("Rollback after Commit: %v", err)
	}
	w.mustBe("b.md", "TWO")
	w.noTrace()
}

func TestValidationFailureRestoresEverything(t *testing.T) {
	w := newWorld(t)
	w.write("a.md", "a0", 0o644)
	w.write("b.md", "b0", 0o755)
	w.write("gone.md", "g0", 0o640)
	ops := []Op{w.replace("a.md", "a1"), w.replace("b.md", "b1"), w.del("gone.md"), w.create("new.md", "n1")}
	res, err := Run(w.opts(), ops, func(*Validation) error { return errors.New("tests failed") })
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("err = %v", err)
	}
	w.mustBe("a.md", "a0")
	w.mustBe("b.md", "b0")
	w.mustBe("gone.md", "g0")
	w.mustBeAbsent("new.md")
	if w.mode("b.md") != 0o755 || w.mode("gone.md") != 0o640 {
		t.Fatalf("modes not restored: %v %v", w.mode("b.md"), w.mode("gone.md"))
	}
	if res.Count(StatusRestored) != 4 || res.State != StateRestored {
		t.Fatalf("result %+v", res.Files)
	}
	w.noTrace()
}

// TestHumanEditDuringValidationSurvives: the validation command itself
// edits one installed file and then fails. That edit is kept, the other
// files are restored, and the original of the kept file is saved aside.
func TestHumanEditDuringValidationSurvives(t *testing.T) {
	w := newWorld(t)
	w.write("a.md", "a0", 0o644)
	w.write("b.md", "b0", 0o644)
	w.write("c.md", "c0", 0o644)
	ops := []Op{w.replace("a.md", "a1"), w.replace("b.md", "b1"), w.replace("c.md", "c1")}
	res, err := Run(w.opts(), ops, func(*Validation) error {
		if err := os.WriteFile(w.path("b.md"), []byte("b1 plus a human fix"), 0o644); err != nil {
			return err
		}
		return errors.New("tests failed")
	})
	if err == nil {
		t.Fatal("validation failure not reported")
	}
	w.mustBe("a.md", "a0")
	w.mustBe("b.md", "b1 plus a human fix")
	w.mustBe("c.md", "c0")
	kept := statusOf(res, w.path("b.md"))
	if kept.Status != StatusKept || kept.Current != fsx.SHA256([]byte("b1 plus a human fix")) ||
		kept.Original != fsx.SHA256([]byte("b0")) || kept.Candidate != fsx.SHA256([]byte("b1")) || kept.Err == nil {
		t.Fatalf("kept file reported as %+v", kept)
	}
	if res.Count(StatusRestored) != 2 {
		t.Fatalf("restored %d", res.Count(StatusRestored))
	}
	// The original is not lost: it is in the kept directory.
	if res.KeptDir == "" {
		t.Fatal("no kept directory")
	}
	b, err := os.ReadFile(filepath.Join(res.KeptDir, "0001.bak"))
	if err != nil || string(b) != "b0" {
		t.Fatalf("kept original = %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(res.KeptDir, "manifest.json")); err != nil {
		t.Fatal(err)
	}
	w.noTrace()
	// The next run is not blocked.
	if _, err := Run(w.opts(), []Op{w.replace("a.md", "a2")}, nil); err != nil {
		t.Fatalf("next run: %v", err)
	}
}

func TestForeignEditBeforeSwap(t *testing.T) {
	for _, allOrNothing := range []bool{false, true} {
		t.Run(fmt.Sprintf("all-or-nothing=%v", allOrNothing), func(t *testing.T) {
			w := newWorld(t)
			w.write("a.md", "a0", 0o644)
			w.write("b.md", "b0", 0o644)
			w.write("c.md", "c0", 0o644)
			o := w.opts()
			o.AllOrNothing = allOrNothing
			tx, err := Begin(o)
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Close()
			if err := tx.Prepare([]Op{w.replace("a.md", "a1"), w.replace("b.md", "b1"), w.replace("c.md", "c1")}); err != nil {
				t.Fatal(err)
			}
			// An editor saves b.md after the run read it.
			w.write("b.md", "b0 edited", 0o644)
			err = tx.Install()
			w.mustBe("b.md", "b0 edited")
			b := statusOf(tx.Result(), w.path("b.md"))
			if b.Status != StatusConflict || b.Current != fsx.SHA256([]byte("b0 edited")) {
				t.Fatalf("b.md reported as %+v", b)
			}
			if allOrNothing {
				var ae *AbortedError
				if !errors.As(err, &ae) || !errors.Is(err, fsx.ErrConflict) {
					t.Fatalf("err = %v", err)
				}
				w.mustBe("a.md", "a0")
				w.mustBe("c.md", "c0")
				if s := statusOf(tx.Result(), w.path("c.md")).Status; s != StatusSkipped {
					t.Fatalf("c.md %s", s)
				}
				w.noTrace()
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
			w.mustBe("a.md", "a1")
			w.mustBe("c.md", "c1")
			w.noTrace()
		})
	}
}

func TestPrepareRefusals(t *testing.T) {
	w := newWorld(t)
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "x.md"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	w.write("ok.md", "ok", 0o644)
	w.write("target.md", "t", 0o644)
	w.write("same.md", "same", 0o644)
	w.write("big.md", strings.Repeat("b", 100), 0o644)
	w.write("hard.md", "h", 0o644)
	w.write(".git/config", "[core]", 0o644)
	w.write("stale.md", "now", 0o644)
	w.write("exists.md", "e", 0o644)
	if err := os.Link(w.path("hard.md"), w.path("hard2.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(w.path("target.md"), w.path("link.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, w.path("escape")); err != nil {
		t.Fatal(err)
	}
	h := func(s string) fsx.Hash { return fsx.SHA256([]byte(s)) }
	ops := []Op{
		{Kind: Replace, Path: w.path("ok.md"), Data: []byte("OK"), Expect: h("ok")},
		{Kind: Replace, Path: w.path("link.md"), Data: []byte("T"), Expect: h("t")},
		{Kind: Replace, Path: w.path("hard.md"), Data: []byte("H"), Expect: h("h")},
		{Kind: Replace, Path: w.path("big.md"), Data: []byte("B"), Expect: h(strings.Repeat("b", 100))},
		{Kind: Replace, Path: filepath.Join(w.root, "..", "elsewhere.md"), Data: []byte("E"), Expect: h("e")},
		{Kind: Replace, Path: w.path("escape/x.md"), Data: []byte("X"), Expect: h("x")},
		{Kind: Replace, Path: w.path(".git/config"), Data: []byte("[x]"), Expect: h("[core]")},
		{Kind: Replace, Path: "relative.md", Data: []byte("R"), Expect: h("r")},
		{Kind: Replace, Path: w.path("stale.md"), Data: []byte("S"), Expect: h("before")},
		{Kind: Replace, Path: w.path("missing.md"), Data: []byte("M"), Expect: h("m")},
		{Kind: Replace, Path: w.path("same.md"), Data: []byte("same"), Expect: h("same")},
		{Kind: Create, Path: w.path("exists.md"), Data: []byte("E2")},
		{Kind: Delete, Path: w.path("nodir/gone.md"), Expect: h("g")},
	}
	want := []Status{StatusPending, StatusRefused, StatusRefused, StatusRefused, StatusRefused, StatusRefused,
		StatusRefused, StatusRefused, StatusConflict, StatusConflict, StatusUnchanged, StatusConflict, StatusRefused}
	wantErr := []error{nil, fsx.ErrSymlink, fsx.ErrHardLinked, fsx.ErrTooLarge, ErrOutsideRoot, ErrOutsideRoot,
		ErrGitDir, nil, fsx.ErrConflict, fsx.ErrConflict, nil, fsx.ErrConflict, os.ErrNotExist}
	o := w.opts()
	o.MaxFileSize = 50
	tx, err := Begin(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Prepare(ops); err != nil {
		t.Fatal(err)
	}
	for i, f := range tx.Result().Files {
		if f.Status != want[i] {
			t.Errorf("op %d (%s): status %s, want %s (%v)", i, f.Path, f.Status, want[i], f.Err)
		}
		if wantErr[i] != nil && !errors.Is(f.Err, wantErr[i]) {
			t.Errorf("op %d (%s): err %v, want %v", i, f.Path, f.Err, wantErr[i])
		}
	}
	if err := tx.Install(); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	_ = tx.Close()
	w.mustBe("ok.md", "OK")
	w.mustBe("target.md", "t")
	w.mustBe("hard.md", "h")
	w.mustBe("stale.md", "now")
	w.mustBe("exists.md", "e")
	w.mustBe(".git/config", "[core]")
	if b, _ := os.ReadFile(filepath.Join(outside, "x.md")); string(b) != "x" {
		t.Fatal("wrote outside the root through a symlink")
	}
	w.noTrace()
}

func TestPrepareCallerMistakes(t *testing.T) {
	w := newWorld(t)
	w.write("a.md", "a", 0o644)
	for name, ops := range map[string][]Op{
		"duplicate":  {w.replace("a.md", "b"), w.replace("a.md", "c")},
		"no hash":    {{Kind: Replace, Path: w.path("a.md"), Data: []byte("b")}},
		"unknown op": {{Kind: "truncate", Path: w.path("a.md")}},
	} {
		t.Run(name, func(t *testing.T) {
			tx, err := Begin(w.opts())
			if err != nil {
				t.Fatal(err)
			}
			defer tx.Close()
			if err := tx.Prepare(ops); err == nil {
				t.Fatal("accepted")
			}
			w.mustBe("a.md", "a")
		})
	}
	w.noTrace()
}

func TestAllOrNothingRefusesBeforeAnyWrite(t *testing.T) {
	w := newWorld(t)
	w.write("a.md", "a", 0o644)
	w.write("b.md", "b", 0o644)
	if err := os.Symlink(w.path("b.md"), w.path("l.md")); err != nil {
		t.Fatal(err)
	}
	o := w.opts()
	o.AllOrNothing = true
	_, err := Run(o, []Op{w.replace("a.md", "A"), {Kind: Delete, Path: w.path("l.md"), Expect: fsx.SHA256([]byte("b"))}}, nil)
	var ae *AbortedError
	if !errors.As(err, &ae) || !errors.Is(err, fsx.ErrSymlink) {
		t.Fatalf("err = %v", err)
	}
	w.mustBe("a.md", "a")
	if _, err := os.Stat(filepath.Join(w.state, txnDir)); err == nil && len(w.journals()) != 0 {
		t.Fatalf("wrote %v before refusing", w.journals())
	}
}

// TestDeletesLast watches the order through the guard, which runs
// immediately before each swap.
func TestDeletesLast(t *testing.T) {
	w := newWorld(t)
	w.write("src.md", "source", 0o644)
	w.write("dst.md", "dest", 0o644)
	w.write("src2.md", "source2", 0o644)
	var seen []string
	o := w.opts()
	o.Guard = func() error {
		_, srcThere := w.read("src.md")
		dst, _ := w.read("dst.md")
		seen = append(seen, fmt.Sprintf("src=%v dst=%s", srcThere, dst))
		return nil
	}
	ops := []Op{w.del("src.md"), w.del("src2.md"), w.replace("dst.md", "dest+source")}
	if _, err := Run(o, ops, nil); err != nil {
		t.Fatal(err)
	}
	// Guard calls: start, dst swap, src delete, src2 delete, commit.
	want := []string{"src=true dst=dest", "src=true dst=dest", "src=true dst=dest+source", "src=false dst=dest+source", "src=false dst=dest+source"}
	if strings.Join(seen, "|") != strings.Join(want, "|") {
		t.Fatalf("order:\n%s\nwant\n%s", strings.Join(seen, "\n"), strings.Join(want, "\n"))
	}
}

func TestGuardStopsInstall(t *testing.T) {
	w := newWorld(t)
	for _, n := range []string{"a.md", "b.md", "c.md"} {
		w.write(n, n+"0", 0o644)
	}
	calls := 0
	refusal := errors.New("HEAD moved")
	o := w.opts()
	o.Guard = func() error {
		calls++
		if calls == 3 { // start, a.md, then refuse before b.md
			return refusal
		}
		return nil
	}
	res, err := Run(o, []Op{w.replace("a.md", "a1"), w.replace("b.md", "b1"), w.replace("c.md", "c1")}, nil)
	var ge *GuardError
	if !errors.As(err, &ge) || !errors.Is(err, refusal) || ge.Stage != "install" {
		t.Fatalf("err = %v", err)
	}
	w.mustBe("a.md", "a.md0")
	w.mustBe("b.md", "b.md0")
	w.mustBe("c.md", "c.md0")
	if got := []Status{res.Files[0].Status, res.Files[1].Status, res.Files[2].Status}; got[0] != StatusRestored || got[1] != StatusSkipped || got[2] != StatusSkipped {
		t.Fatalf("statuses %v", got)
	}
	w.noTrace()
}

func TestGuardRefusesAtStart(t *testing.T) {
	w := newWorld(t)
	w.write("a.md", "a", 0o644)
	o := w.opts()
	o.Guard = func() error { return errors.New("rebase in progress") }
	_, err := Run(o, []Op{w.replace("a.md", "b")}, nil)
	var ge *GuardError
	if !errors.As(err, &ge) || ge.Stage != "start" {
		t.Fatalf("err = %v", err)
	}
	w.mustBe("a.md", "a")
	w.noTrace()
	// The lock was released.
	o.Guard = nil
	if _, err := Run(o, []Op{w.replace("a.md", "b")}, nil); err != nil {
		t.Fatal(err)
	}
}

func TestTestModeAlwaysRestores(t *testing.T) {
	for _, fail := range []bool{false, true} {
		t.Run(fmt.Sprintf("validation-fails=%v", fail), func(t *testing.T) {
			w := newWorld(t)
			w.write("a.md", "a0", 0o644)
			w.write("b.md", "b0", 0o644)
			o := w.opts()
			o.Test = true
			sawCandidate := false
			res, err := Run(o, []Op{w.replace("a.md", "a1"), w.del("b.md")}, func(*Validation) error {
				got, _ := w.read("a.md")
				_, bThere := w.read("b.md")
				sawCandidate = got == "a1" && !bThere
				if fail {
					return errors.New("would fail")
				}
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if !sawCandidate {
				t.Fatal("validation did not run against the candidate")
			}
			if (res.ValidationErr != nil) != fail {
				t.Fatalf("ValidationErr = %v", res.ValidationErr)
			}
			w.mustBe("a.md", "a0")
			w.mustBe("b.md", "b0")
			w.noTrace()
		})
	}
	w := newWorld(t)
	w.write("a.md", "a0", 0o644)
	o := w.opts()
	o.Test = true
	tx, err := Begin(o)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Close()
	if err := tx.Prepare([]Op{w.replace("a.md", "a1")}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Install(); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); !errors.Is(err, ErrTestRun) {
		t.Fatalf("Commit in test mode: %v", err)
	}
	if err := tx.Close(); err != nil {
		t.Fatal(err)
	}
	w.mustBe("a.md", "a0")
}

func TestCloseRollsBackUncommitted(t *testing.T) {
	w := newWorld(t)
	w.write("a.md", "a0", 0o644)
	tx, err := Begin(w.opts())
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Prepare([]Op{w.replace("a.md", "a1")}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Install(); err != nil {
		t.Fatal(err)
	}
	w.mustBe("a.md", "a1")
	if err := tx.Close(); err != nil {
		t.Fatal(err)
	}
	if err := tx.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	w.mustBe("a.md", "a0")
	w.noTrace()
}

func TestNothingToDo(t *testing.T) {
	w := newWorld(t)
	w.write("a.md", "same", 0o644)
	res, err := Run(w.opts(), []Op{w.replace("a.md", "same")}, func(*Validation) error {
		return errors.New("must not run: nothing was installed")
	})
	if err != nil || res.Count(StatusUnchanged) != 1 {
		t.Fatalf("%+v, %v", res, err)
	}
	w.noTrace()
}

func TestBeginChecks(t *testing.T) {
	w := newWorld(t)
	for name, o := range map[string]Options{
		"relative root":       {Root: "proj", StateDir: w.state},
		"relative state":      {Root: w.root, StateDir: "state"},
		"missing state":       {Root: w.root, StateDir: filepath.Join(w.state, "nope")},
		"state inside root":   {Root: w.root, StateDir: w.root},
		"bad run id":          {Root: w.root, StateDir: w.state, RunID: "../x"},
		"root does not exist": {Root: filepath.Join(w.root, "nope"), StateDir: w.state},
	} {
		t.Run(name, func(t *testing.T) {
			if tx, err := Begin(o); err == nil {
				_ = tx.Close()
				t.Fatal("accepted")
			}
		})
	}
}

func TestLockWaitsThenRefuses(t *testing.T) {
	w := newWorld(t)
	w.write("a.md", "a", 0o644)
	first, err := Begin(w.opts())
	if err != nil {
		t.Fatal(err)
	}
	o := w.opts()
	o.LockWait = 150 * time.Millisecond
	start := time.Now()
	_, err = Begin(o)
	var le *LockedError
	if !errors.As(err, &le) {
		t.Fatalf("err = %v", err)
	}
	if le.Holder.PID != os.Getpid() || le.Holder.RunID != first.RunID() {
		t.Fatalf("holder %+v, want pid %d run %s", le.Holder, os.Getpid(), first.RunID())
	}
	if time.Since(start) < 150*time.Millisecond {
		t.Fatal("did not wait")
	}
	if !strings.Contains(err.Error(), first.RunID()) {
		t.Fatalf("message does not name the holder: %v", err)
	}
	o.LockWait = -1
	if _, err := Begin(o); !errors.As(err, &le) {
		t.Fatalf("no-wait: %v", err)
	}
	// A waiter gets the lock as soon as the holder lets go.
	done := make(chan error, 1)
	go func() {
		o := w.opts()
		o.LockWait = 5 * time.Second
		tx, err := Begin(o)
		if err == nil {
			err = tx.Close()
		}
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatalf("waiter: %v", err)
	}
}

// TestConcurrentGoroutines: runs that each read the file, append a line and
// install, all at once. Every run either commits on top of the previous one
// or is told its read is stale; no line of a committed run is ever lost.
func TestConcurrentGoroutines(t *testing.T) {
	w := newWorld(t)
	w.write("shared.md", "base\n", 0o644)
	w.write("other.md", "base\n", 0o644)
	const n = 8
	var wg sync.WaitGroup
	results := make([]Result, n)
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var ops []Op
			for _, f := range []string{"shared.md", "other.md"} {
				cur, err := os.ReadFile(w.path(f))
				if err != nil {
					errs[i] = err
					return
				}
				ops = append(ops, Op{Kind: Replace, Path: w.path(f), Data: append(append([]byte{}, cur...), fmt.Sprintf("run %d\n", i)...), Expect: fsx.SHA256(cur)})
			}
			o := w.opts()
			o.LockWait = 20 * time.Second
			results[i], errs[i] = Run(o, ops, func(*Validation) error { time.Sleep(2 * time.Millisecond); return nil })
		}()
	}
	wg.Wait()
	committed := map[string][]int{}
	for i := range n {
		if errs[i] != nil {
			t.Fatalf("run %d: %v", i, errs[i])
		}
		for _, f := range results[i].Files {
			switch f.Status {
			case StatusCommitted:
				committed[filepath.Base(f.Path)] = append(committed[filepath.Base(f.Path)], i)
			case StatusConflict:
			default:
				t.Fatalf("run %d: %s %s", i, f.Path, f.Status)
			}
		}
	}
	for _, f := range []string{"shared.md", "other.md"} {
		got, _ := w.read(f)
		lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
		if lines[0] != "base" || len(lines)-1 != len(committed[f]) || len(committed[f]) == 0 {
			t.Fatalf("%s = %q, committed by %v", f, got, committed[f])
		}
		for _, i := range committed[f] {
			if !strings.Contains(got, fmt.Sprintf("run %d\n", i)) {
				t.Fatalf("%s lost the line of run %d", f, i)
			}
		}
	}
	w.noTrace()
}

func BenchmarkRun(b *testing.B) {
	for _, files := range []int{1, 10} {
		b.Run(fmt.Sprintf("files=%d", files), func(b *testing.B) {
			root, st := b.TempDir(), b.TempDir()
			content := [2][]byte{[]byte(strings.Repeat("a", 4096)), []byte(strings.Repeat("b", 4096))}
			for i := range files {
				if err := os.WriteFile(filepath.Join(root, fmt.Sprint(i)), content[0], 0o644); err != nil {
					b.Fatal(err)
				}
			}
			o := Options{Root: root, StateDir: st}
			for k := 0; b.Loop(); k++ {
				from, to := content[k%2], content[(k+1)%2]
				var ops []Op
				for i := range files {
					ops = append(ops, Op{Kind: Replace, Path: filepath.Join(root, fmt.Sprint(i)), Data: to, Expect: fsx.SHA256(from)})
				}
				if _, err := Run(o, ops, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
