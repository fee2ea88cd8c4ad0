//go:build unix

package txn

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/testtool"
)

// crashFixture: three replaces (one executable), one delete, one create.
func crashFixture(t *testing.T) (*world, []Op) {
	w := newWorld(t)
	w.write("a.md", "alpha\u200b original\n", 0o644)
	w.write("bin/tool.py", "# tool\u200d original\n", 0o755)
	w.write("notes/old.md", "obsolete original\n", 0o600)
	w.write("e.md", "echo original\n", 0o644)
	ops := []Op{
		w.replace("a.md", "alpha candidate\n"),
		w.replace("bin/tool.py", "# tool candidate\n"),
		w.del("notes/old.md"),
		w.create("notes/new.md", "merged candidate\n"),
		w.replace("e.md", "echo candidate\n"),
	}
	return w, ops
}

func (w *world) crashOriginals() {
	w.t.Helper()
	w.mustBe("a.md", "alpha\u200b original\n")
	w.mustBe("bin/tool.py", "# tool\u200d original\n")
	w.mustBe("notes/old.md", "obsolete original\n")
	w.mustBe("e.md", "echo original\n")
	w.mustBeAbsent("notes/new.md")
	if w.mode("bin/tool.py") != 0o755 || w.mode("notes/old.md") != 0o600 {
		w.t.Fatalf("modes %v %v", w.mode("bin/tool.py"), w.mode("notes/old.md"))
	}
}

func (w *world) crashCandidates() {
	w.t.Helper()
	w.mustBe("a.md", "alpha candidate\n")
	w.mustBe("bin/tool.py", "# tool candidate\n")
	w.mustBeAbsent("notes/old.md")
	w.mustBe("notes/new.md", "merged candidate\n")
	w.mustBe("e.md", "echo candidate\n")
	if w.mode("bin/tool.py") != 0o755 {
		w.t.Fatalf("mode %v", w.mode("bin/tool.py"))
	}
}

// recoverClean runs Recover in this (parent) process and checks it ends
// the run completely.
func (w *world) recoverClean() {
	w.t.Helper()
	rep, err := Recover(w.state, RecoverOptions{Root: w.root})
	if err != nil {
		w.t.Fatal(err)
	}
	if rep.Unresolved {
		w.t.Fatalf("unresolved: %+v", rep.Runs)
	}
	w.noTrace()
	if p, _ := Pending(w.state); len(p) != 0 {
		w.t.Fatalf("still pending: %+v", p)
	}
}

// TestCrashAtEveryFailpoint kills a real process with SIGKILL at every
// failpoint, then recovers in the parent: every file is byte-identical to
// its original (mode included), except after "committed", where the run
// had committed and the validated candidate is the right answer.
func TestCrashAtEveryFailpoint(t *testing.T) {
	for _, fp := range failpointNames() {
		for _, testMode := range []bool{false, true} {
			spec := helperSpec{Mode: "run", Validate: "ok", Test: testMode}
			switch fp {
			case FailRollingBack, FailRollingBackOne, FailRestored:
				spec.Validate = "fail"
			case FailCommitted:
				if testMode {
					continue // a test run never commits
				}
			}
			t.Run(fmt.Sprintf("%s/test=%v", fp, testMode), func(t *testing.T) {
				w, ops := crashFixture(t)
				spec.Root, spec.State, spec.Ops = w.root, w.state, toHelperOps(ops)
				killed, c := runChild(t, spec, fp)
				if !killed {
					t.Fatalf("%s: the helper was not killed:\n%s", describe(spec, fp), c.out.String())
				}
				// A terminal journal (committed, restored) only needs
				// cleaning; every other one is pending and blocks runs.
				wantPending := 1
				if fp == FailRestored || fp == FailCommitted {
					wantPending = 0
				}
				if p, _ := Pending(w.state); len(p) != wantPending || (wantPending == 1 && p[0].Live) {
					t.Fatalf("after the crash, Pending = %+v", p)
				}
				w.recoverClean()
				if fp == FailCommitted {
					w.crashCandidates()
				} else {
					w.crashOriginals()
				}
			})
		}
	}
	// Without a failpoint the same run completes.
	w, ops := crashFixture(t)
	killed, c := runChild(t, helperSpec{Mode: "run", Validate: "ok", Root: w.root, State: w.state, Ops: toHelperOps(ops)}, "")
	if killed || c.res(t).Err != "" {
		t.Fatalf("plain run: killed=%v %+v\n%s", killed, c.res(t), c.out.String())
	}
	w.crashCandidates()
	w.noTrace()
}

// TestCrashDuringRecovery: the recovery itself is killed, twice, at its
// own failpoints; a third recovery still ends with the originals.
func TestCrashDuringRecovery(t *testing.T) {
	w, ops := crashFixture(t)
	base := helperSpec{Root: w.root, State: w.state}
	run := base
	run.Mode, run.Validate, run.Ops = "run", "ok", toHelperOps(ops)
	if killed, _ := runChild(t, run, FailInstalled); !killed {
		t.Fatal("run not killed")
	}
	rec := base
	rec.Mode = "recover"
	for _, fp := range []string{FailRollingBackOne, FailRestored} {
		if killed, c := runChild(t, rec, fp); !killed {
			t.Fatalf("recovery not killed at %s:\n%s", fp, c.out.String())
		}
	}
	w.recoverClean()
	w.crashOriginals()
}

// TestKillDuringLongValidation: kill -9 from outside while the validation
// command (a real `sleep 30`) runs.
func TestKillDuringLongValidation(t *testing.T) {
	if _, err := exec.LookPath("sleep"); err != nil {
		testtool.Missing(t, "sleep", "sleep not found: the test runs it as a long validation command")
	}
	w, ops := crashFixture(t)
	ready := filepath.Join(t.TempDir(), "ready")
	c := spawn(t, helperSpec{Mode: "run", Validate: "sleep", Ready: ready, Root: w.root, State: w.state, Ops: toHelperOps(ops)}, "")
	waitForFile(t, ready, 30*time.Second)
	w.crashCandidates() // validation runs against the installed candidate
	if err := c.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if !c.wait(t) {
		t.Fatal("not killed")
	}
	if p, _ := Pending(w.state); len(p) != 1 || p[0].State != StateValidating {
		t.Fatalf("Pending = %+v", p)
	}
	w.recoverClean()
	w.crashOriginals()
}

// TestHumanEditThenCrash: the validation command edits a file, then the
// process dies. Recover restores the rest, keeps the edit and stays
// unresolved until the human decides.
func TestHumanEditThenCrash(t *testing.T) {
	w, ops := crashFixture(t)
	edit := &helperEdit{Path: w.path("e.md"), Data: []byte("echo candidate, fixed by hand\n")}
	killed, _ := runChild(t, helperSpec{Mode: "run", Validate: "ok", HumanEdit: edit, Root: w.root, State: w.state, Ops: toHelperOps(ops)}, FailValidating)
	if !killed {
		t.Fatal("not killed")
	}
	rep, err := Recover(w.state, RecoverOptions{Root: w.root})
	if err != nil || !rep.Unresolved {
		t.Fatalf("%+v, %v", rep, err)
	}
	w.mustBe("e.md", "echo candidate, fixed by hand\n")
	w.mustBe("a.md", "alpha\u200b original\n")
	w.mustBe("notes/old.md", "obsolete original\n")
	w.mustBeAbsent("notes/new.md")
}

// TestConcurrentProcesses: several processes each read the same files,
// append their own line and run, overlapping in time (the validation
// sleeps). Every committed line is present exactly once; stale readers are
// told so and change nothing.
func TestConcurrentProcesses(t *testing.T) {
	w := newWorld(t)
	w.write("shared.md", "base\n", 0o644)
	w.write("also.md", "base\n", 0o644)
	files := []string{w.path("shared.md"), w.path("also.md")}
	const n = 4
	children := make([]*child, n)
	for i := range n {
		children[i] = spawn(t, helperSpec{Mode: "append", Append: files, Line: fmt.Sprintf("proc %d", i),
			Validate: "ok", SleepMS: 30, LockWaitMS: 30000, Root: w.root, State: w.state}, "")
	}
	committed := map[string]int{}
	for i, c := range children {
		if c.wait(t) {
			t.Fatalf("child %d killed", i)
		}
		r := c.res(t)
		if r.Err != "" {
			t.Fatalf("child %d: %s", i, r.Err)
		}
		for p, s := range r.Files {
			switch s {
			case StatusCommitted:
				committed[p]++
				got, _ := os.ReadFile(p)
				if strings.Count(string(got), fmt.Sprintf("proc %d\n", i)) != 1 {
					t.Fatalf("%s lost or doubled the line of proc %d: %q", p, i, got)
				}
			case StatusConflict:
			default:
				t.Fatalf("child %d: %s %s", i, p, s)
			}
		}
	}
	for _, p := range files {
		got, _ := os.ReadFile(p)
		if lines := strings.Count(string(got), "\n"); lines != 1+committed[p] || committed[p] == 0 || !strings.HasPrefix(string(got), "base\n") {
			t.Fatalf("%s = %q with %d commits", p, got, committed[p])
		}
	}
	w.noTrace()
	t.Logf("commits per file: %v of %d processes", committed, n)
}

// TestLockRefusalNamesHolderAcrossProcesses: a run holding the lock in
// another process makes this one wait, then refuse naming that process.
func TestLockRefusalNamesHolderAcrossProcesses(t *testing.T) {
	if _, err := exec.LookPath("sleep"); err != nil {
		testtool.Missing(t, "sleep", "sleep not found: the holder validates with it")
	}
	w := newWorld(t)
	w.write("a.md", "a0", 0o644)
	ready := filepath.Join(t.TempDir(), "ready")
	c := spawn(t, helperSpec{Mode: "run", Validate: "sleep", Ready: ready, Root: w.root, State: w.state,
		Ops: toHelperOps([]Op{w.replace("a.md", "a1")})}, "")
	waitForFile(t, ready, 30*time.Second)
	o := w.opts()
	o.LockWait = 100 * time.Millisecond
	_, err := Begin(o)
	le, ok := err.(*LockedError)
	if !ok || le.Holder.PID != c.cmd.Process.Pid {
		t.Fatalf("err = %v (holder pid %d)", err, c.cmd.Process.Pid)
	}
	_ = c.cmd.Process.Signal(syscall.SIGKILL)
	c.wait(t)
	// The dead holder's lock is gone with it.
	w.recoverClean()
	w.mustBe("a.md", "a0")
}

// The temporary file of a swap is named in the journal before it is
// created: a process killed right after creating it (an empty file) or in
// the middle of writing it leaves a file recover finds by that name and
// removes, instead of litter in the work tree while recover says success.
func TestRecoverRemovesTheJournalledTempFile(t *testing.T) {
	w, ops := crashFixture(t)
	spec := helperSpec{Mode: "run", Validate: "ok", Root: w.root, State: w.state, Ops: toHelperOps(ops)}
	if killed, c := runChild(t, spec, FailInstallingOne); !killed {
		t.Fatalf("not killed:\n%s", c.out.String())
	}
	p, _ := Pending(w.state)
	if len(p) != 1 {
		t.Fatalf("pending %+v", p)
	}
	j, err := loadJournal(journalPath(w.state, p[0].RunID))
	if err != nil {
		t.Fatal(err)
	}
	var e *entry
	for k := range j.Entries {
		if j.Entries[k].Intent {
			e = &j.Entries[k]
		}
	}
	if e == nil || e.Temp == "" || !fsx.IsTempFor(e.Path, e.Temp) {
		t.Fatalf("the journal does not name the swap's temporary file: %+v", e)
	}
	// What the kill left: the temporary file created, not yet written.
	if err := os.WriteFile(e.Temp, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	w.recoverClean()
	w.crashOriginals()
}

// TestKillAtRandomInstants kills runs with SIGKILL at arbitrary instants
// (not at failpoints: inside a temporary file's write, between an exchange
// and its cleanup), recovers, and checks that every file is its original
// or, for a committed run, its candidate, and that nothing is left in the
// work tree or pending in the state dir. Backups of a prepare killed before
// its journal are reported as orphans and must hold the originals.
func TestKillAtRandomInstants(t *testing.T) {
	rounds := 20
	if testing.Short() {
		rounds = 8
	}
	w := newWorld(t)
	const n = 6
	orig, cand := map[string]string{}, map[string]string{}
	var ops []Op
	for i := range n {
		name := fmt.Sprintf("f%02d.md", i)
		orig[name] = strings.Repeat(fmt.Sprintf("original %d \u200b\n", i), 16000)
		cand[name] = strings.Repeat(fmt.Sprintf("candidate %d\n", i), 16000)
		w.write(name, orig[name], 0o644)
		ops = append(ops, w.replace(name, cand[name]))
	}
	spec := helperSpec{Mode: "run", Validate: "ok", Root: w.root, State: w.state, Ops: toHelperOps(ops)}
	// One run to time it, then put the originals back.
	killed, c := runChild(t, spec, "")
	if killed {
		t.Fatal("the timing run was killed")
	}
	span := c.res(t).RunUS
	for name := range orig {
		w.write(name, orig[name], 0o644)
	}
	rng := rand.New(rand.NewPCG(7, uint64(span)))
	var kills, commits, orphans int
	for round := range rounds {
		spec.KillAfterUS = 1 + rng.Int64N(span+span/4)
		killed, c := runChild(t, spec, "")
		rep, err := Recover(w.state, RecoverOptions{Root: w.root})
		if err != nil || rep.Unresolved {
			t.Fatalf("round %d (kill after %dus): recover %+v %v\n%s", round, spec.KillAfterUS, rep, err, c.out.String())
		}
		if p, _ := Pending(w.state); len(p) != 0 {
			t.Fatalf("round %d: still pending after recover: %+v", round, p)
		}
		w.noTempFiles()
		committed := !killed
		if killed {
			kills++
			got, _ := w.read("f00.md")
			committed = got == cand["f00.md"]
		}
		for name := range orig {
			want := orig[name]
			if committed {
				want = cand[name]
			}
			if got, _ := w.read(name); got != want {
				t.Fatalf("round %d (kill after %dus, committed=%v): %s holds neither the expected side", round, spec.KillAfterUS, committed, name)
			}
		}
		for _, o := range rep.Orphans {
			orphans++
			// The index is written after every backup was read back:
			// with it, each backup must be its file's original. (Without
			// it the prepare was killed before installing anything.)
			for _, f := range o.Files {
				if f.Path == "" {
					continue
				}
				if b, err := orphanBytes(f); err != nil || string(b) != orig[filepath.Base(f.Path)] {
					t.Fatalf("orphaned backup %s is not the original of %s", f.Backup, f.Path)
				}
			}
			os.RemoveAll(o.Dir)
		}
		if committed {
			commits++
			for name := range orig {
				w.write(name, orig[name], 0o644)
			}
		}
	}
	t.Logf("%d rounds over a %dus run: %d killed, %d committed, %d prepares killed before their journal", rounds, span, kills, commits, orphans)
}

// TestKillLargeBatch is the kill -9 loop at scale: one run over 2,000
// files in 100 directories (their swaps batched, each directory fsynced
// once, the journal written a constant number of times), killed at the
// failpoints where part or all of the batch is swapped and at random
// instants; after each recovery every file is its original, or its
// candidate for a run that committed, and nothing is left behind.
func TestKillLargeBatch(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 200
	}
	w := newWorld(t)
	orig := map[string]string{}
	var ops []Op
	for i := range n {
		name := fmt.Sprintf("d%03d/f%04d.md", i/20, i)
		orig[name] = fmt.Sprintf("original %d \u200b\n", i)
		w.write(name, orig[name], 0o644)
		ops = append(ops, w.replace(name, fmt.Sprintf("candidate %d\n", i)))
	}
	spec := helperSpec{Mode: "run", Validate: "ok", Root: w.root, State: w.state, Ops: toHelperOps(ops)}
	// check recovers, then finds every file on the same side: all
	// originals, or (a run that committed) all candidates, and puts the
	// originals back for the next round. It reports which side.
	check := func(when string) (committed bool) {
		t.Helper()
		rep, err := Recover(w.state, RecoverOptions{Root: w.root})
		if err != nil || rep.Unresolved || len(rep.Orphans) != 0 {
			t.Fatalf("%s: recover %+v %v", when, rep.Runs, err)
		}
		w.noTempFiles()
		first, _ := w.read("d000/f0000.md")
		committed = strings.HasPrefix(first, "candidate")
		for name := range orig {
			want := orig[name]
			if committed {
				want = strings.Replace(strings.Replace(want, "original", "candidate", 1), " \u200b", "", 1)
			}
			if got, _ := w.read(name); got != want {
				t.Fatalf("%s: %s = %q, want %q (committed=%v)", when, name, got, want, committed)
			}
			if committed {
				w.write(name, orig[name], 0o644)
			}
		}
		return committed
	}
	for _, fp := range []string{FailInstalledOne, FailInstalled, FailRollingBackOne} {
		s := spec
		if fp == FailRollingBackOne {
			s.Validate = "fail"
		}
		if killed, c := runChild(t, s, fp); !killed {
			t.Fatalf("%s: not killed:\n%s", fp, c.out.String())
		}
		if check(fp) {
			t.Fatalf("%s: the killed run's candidates stayed", fp)
		}
	}
	killed, c := runChild(t, spec, "")
	if killed || c.res(t).Err != "" || !check("plain run") {
		t.Fatalf("plain run did not commit: %v %+v", killed, c.res(t))
	}
	span := c.res(t).RunUS
	rng := rand.New(rand.NewPCG(3, uint64(span)))
	for round := range 3 {
		spec.KillAfterUS = span/10 + rng.Int64N(span)
		killed, _ := runChild(t, spec, "")
		if committed := check(fmt.Sprintf("round %d (kill after %dus)", round, spec.KillAfterUS)); !killed && !committed {
			t.Fatalf("round %d: a run that was not killed did not commit", round)
		}
	}
}

// TestRecoverDropsBackupsOfUntouchedFiles: a run killed after its backups and
// before its journal changed no file. Its backup directory holds nothing the
// files do not, so recover removes it instead of reporting it as an orphan on
// every later run; once one file differs from its backup, the directory is an
// orphan again, kept and reported whole.
func TestRecoverDropsBackupsOfUntouchedFiles(t *testing.T) {
	for _, edit := range []bool{false, true} {
		t.Run(fmt.Sprintf("edited=%v", edit), func(t *testing.T) {
			w, ops := crashFixture(t)
			spec := helperSpec{Mode: "run", Validate: "ok", Root: w.root, State: w.state, Ops: toHelperOps(ops)}
			if killed, c := runChild(t, spec, FailBackedUp); !killed {
				t.Fatalf("not killed at %s:\n%s", FailBackedUp, c.out.String())
			}
			if edit {
				w.write("e.md", "echo edited by hand\n", 0o644)
			}
			rep, err := Recover(w.state, RecoverOptions{Root: w.root})
			if err != nil || rep.Unresolved {
				t.Fatalf("%+v, %v", rep, err)
			}
			if o, _ := Orphans(w.state); (len(o) == 1) != edit || len(rep.Orphans) != len(o) {
				t.Fatalf("edited=%v: orphans %+v (report %+v)", edit, o, rep.Orphans)
			}
			w.mustBe("a.md", "alpha\u200b original\n")
			w.mustBe("notes/old.md", "obsolete original\n")
		})
	}
}
