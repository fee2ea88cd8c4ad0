package txn

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/fsx"
)

// interrupted leaves a run killed after Install: a.md and b.md replaced,
// c.md deleted, d.md created.
func interrupted(t *testing.T, w *world) string {
	t.Helper()
	w.write("a.md", "a0", 0o644)
	w.write("b.md", "b0", 0o755)
	w.write("c.md", "c0", 0o640)
	tx, err := Begin(w.opts())
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Prepare([]Op{w.replace("a.md", "a1"), w.replace("b.md", "b1"), w.del("c.md"), w.create("d.md", "d1")}); err != nil {
		t.Fatal(err)
	}
	if err := tx.Install(); err != nil {
		t.Fatal(err)
	}
	crashInProcess(tx)
	w.mustBe("a.md", "a1")
	w.mustBeAbsent("c.md")
	return tx.RunID()
}

func (w *world) originals() {
	w.t.Helper()
	w.mustBe("a.md", "a0")
	w.mustBe("b.md", "b0")
	w.mustBe("c.md", "c0")
	w.mustBeAbsent("d.md")
	if w.mode("b.md") != 0o755 || w.mode("c.md") != 0o640 {
		w.t.Fatalf("modes %v %v", w.mode("b.md"), w.mode("c.md"))
	}
}

func TestRecoverRestoresInterruptedRun(t *testing.T) {
	w := newWorld(t)
	id := interrupted(t, w)
	p, err := Pending(w.state)
	if err != nil || len(p) != 1 || p[0].RunID != id || p[0].Live || p[0].State != StateInstalled || p[0].Files != 4 {
		t.Fatalf("Pending = %+v, %v", p, err)
	}
	_, err = Begin(w.opts())
	var pe *PendingError
	if !errors.As(err, &pe) || pe.RunIDs[0] != id || !strings.Contains(err.Error(), "prosewash recover") {
		t.Fatalf("Begin with a pending journal: %v", err)
	}
	rep, err := Recover(w.state, RecoverOptions{Root: w.root})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Unresolved || len(rep.Runs) != 1 || rep.Runs[0].Outcome != OutcomeRestored || rep.Runs[0].Found != StateInstalled {
		t.Fatalf("report %+v", rep)
	}
	w.originals()
	w.noTrace()
	if p, _ := Pending(w.state); len(p) != 0 {
		t.Fatalf("still pending: %+v", p)
	}
	// Recovering again is a no-op.
	if rep, err := Recover(w.state, RecoverOptions{Root: w.root}); err != nil || len(rep.Runs) != 0 {
		t.Fatalf("second Recover: %+v, %v", rep, err)
	}
	tx, err := Begin(w.opts())
	if err != nil {
		t.Fatal(err)
	}
	_ = tx.Close()
}

func TestRecoverNeverOverwritesLaterEdits(t *testing.T) {
	w := newWorld(t)
	id := interrupted(t, w)
	w.write("a.md", "a1 edited by hand after the crash", 0o644)
	w.write("c.md", "c recreated by hand", 0o644)
	rep, err := Recover(w.state, RecoverOptions{Root: w.root})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Unresolved || rep.Runs[0].Outcome != OutcomeUnresolved {
		t.Fatalf("report %+v", rep)
	}
	w.mustBe("a.md", "a1 edited by hand after the crash")
	w.mustBe("c.md", "c recreated by hand")
	w.mustBe("b.md", "b0")
	w.mustBeAbsent("d.md")
	byPath := map[string]FileResult{}
	for _, f := range rep.Runs[0].Files {
		byPath[filepath.Base(f.Path)] = f
	}
	a := byPath["a.md"]
	if a.Status != StatusKept || a.Original != fsx.SHA256([]byte("a0")) || a.Candidate != fsx.SHA256([]byte("a1")) ||
		a.Current != fsx.SHA256([]byte("a1 edited by hand after the crash")) || a.Err == nil {
		t.Fatalf("a.md reported as %+v", a)
	}
	if byPath["c.md"].Status != StatusKept || byPath["b.md"].Status != StatusRestored || byPath["d.md"].Status != StatusRestored {
		t.Fatalf("report %+v", byPath)
	}
	// The journal and backups stay; writing commands keep refusing.
	if j := w.journals(); len(j) != 2 {
		t.Fatalf("state dir %v", j)
	}
	if _, err := Begin(w.opts()); err == nil {
		t.Fatal("Begin accepted while a run is unresolved")
	}
	// Idempotent: a second recover changes nothing and stays unresolved.
	rep, err = Recover(w.state, RecoverOptions{Root: w.root})
	if err != nil || !rep.Unresolved {
		t.Fatalf("second Recover: %+v, %v", rep, err)
	}
	w.mustBe("a.md", "a1 edited by hand after the crash")
	// The human puts a.md back to what the run installed: now it can be restored.
	w.write("a.md", "a1", 0o644)
	w.write("c.md", "c0", 0o640)
	rep, err = Recover(w.state, RecoverOptions{Root: w.root})
	if err != nil || rep.Unresolved {
		t.Fatalf("third Recover: %+v, %v", rep, err)
	}
	w.originals()
	_ = id
	w.noTrace()
}

func TestAbandonKeepsOriginals(t *testing.T) {
	w := newWorld(t)
	id := interrupted(t, w)
	w.write("a.md", "mine now", 0o644)
	if rep, _ := Recover(w.state, RecoverOptions{Root: w.root}); !rep.Unresolved {
		t.Fatal("expected unresolved")
	}
	dir, err := Abandon(w.state, id, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "backups", "0000.bak"))
	if err != nil || string(b) != "a0" {
		t.Fatalf("abandoned original %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "journal.json")); err != nil {
		t.Fatal(err)
	}
	w.mustBe("a.md", "mine now")
	w.noTrace()
	tx, err := Begin(w.opts())
	if err != nil {
		t.Fatalf("Begin after Abandon: %v", err)
	}
	_ = tx.Close()
	if _, err := Abandon(w.state, id, 0); err == nil {
		t.Fatal("abandoned twice")
	}
	if _, err := Abandon(w.state, "../../etc", 0); err == nil {
		t.Fatal("accepted a path as run id")
	}
}

func TestRecoverCommittedOnlyCleansUp(t *testing.T) {
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
	tx.j.State = StateCommitted
	if err := tx.j.save(w.state); err != nil {
		t.Fatal(err)
	}
	crashInProcess(tx)
	if p, _ := Pending(w.state); len(p) != 0 {
		t.Fatalf("a committed run is not pending: %+v", p)
	}
	rep, err := Recover(w.state, RecoverOptions{Root: w.root})
	if err != nil || rep.Unresolved || rep.Runs[0].Outcome != OutcomeCleaned {
		t.Fatalf("%+v, %v", rep, err)
	}
	w.mustBe("a.md", "a1")
	w.noTrace()
}

// TestRecoverRefusesPoisonedJournals: a journal that names files outside
// the root, backups outside the state dir, or anything else that does not
// fit is never acted on.
func TestRecoverRefusesPoisonedJournals(t *testing.T) {
	outside := t.TempDir()
	victim := filepath.Join(outside, "victim.md")
	tests := []struct {
		name   string
		mutate func(w *world, j map[string]any)
	}{
		{"path outside the root", func(w *world, j map[string]any) { jentry(j, 0)["path"] = victim }},
		{"path with dot-dot", func(w *world, j map[string]any) { jentry(j, 0)["path"] = w.root + "/../victim.md" }},
		{"path through a symlink out of the root", func(w *world, j map[string]any) {
			if err := os.Symlink(outside, w.path("escape")); err != nil {
				w.t.Fatal(err)
			}
			jentry(j, 0)["path"] = w.path("escape/victim.md")
		}},
		{"path inside .git", func(w *world, j map[string]any) { jentry(j, 0)["path"] = w.path(".git/hooks/pre-commit") }},
		{"backup outside the state dir", func(w *world, j map[string]any) { jentry(j, 0)["backup"] = "../../../etc/passwd" }},
		{"absolute backup", func(w *world, j map[string]any) { jentry(j, 0)["backup"] = "/etc/passwd" }},
		{"backup of another run", func(w *world, j map[string]any) { jentry(j, 0)["backup"] = "txn/other-run/0000.bak" }},
		{"root not this project", func(w *world, j map[string]any) { j["root"] = outside }},
		{"unknown version", func(w *world, j map[string]any) { j["version"] = journalVersion + 1 }},
		{"version before the first", func(w *world, j map[string]any) { j["version"] = 0 }},
		{"backup at a negative offset", func(w *world, j map[string]any) { jentry(j, 0)["backup_offset"] = -1 }},
		{"unknown state", func(w *world, j map[string]any) { j["state"] = "exploded" }},
		{"run id mismatch", func(w *world, j map[string]any) { j["run_id"] = "someone-else" }},
		{"duplicate path", func(w *world, j map[string]any) { jentry(j, 1)["path"] = jentry(j, 0)["path"] }},
		{"mode with more than permissions", func(w *world, j map[string]any) { jentry(j, 0)["mode"] = 0o4755 | 1<<20 }},
		{"unknown operation", func(w *world, j map[string]any) { jentry(j, 0)["op"] = "chmod" }},
		{"create with a backup", func(w *world, j map[string]any) { jentry(j, 3)["backup"] = "txn/x/0003.bak" }},
		// The victim holds a.md's candidate: a recovery that trusted the
		// name would remove it as the swap's leftover.
		{"temporary name outside the project", func(w *world, j map[string]any) { jentry(j, 0)["temp"] = victim }},
		{"temporary name of another file", func(w *world, j map[string]any) {
			w.write("keep.md", "a1", 0o644)
			jentry(j, 0)["temp"] = w.path("keep.md")
			w.t.Cleanup(func() { w.mustBe("keep.md", "a1") })
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.WriteFile(victim, []byte("a1"), 0o644); err != nil {
				t.Fatal(err)
			}
			w := newWorld(t)
			id := interrupted(t, w)
			jp := journalPath(w.state, id)
			raw, err := os.ReadFile(jp)
			if err != nil {
				t.Fatal(err)
			}
			var j map[string]any
			if err := json.Unmarshal(raw, &j); err != nil {
				t.Fatal(err)
			}
			tc.mutate(w, j)
			poisoned, _ := json.Marshal(j)
			if err := os.WriteFile(jp, poisoned, 0o600); err != nil {
				t.Fatal(err)
			}
			rep, err := Recover(w.state, RecoverOptions{Root: w.root})
			if err != nil {
				t.Fatal(err)
			}
			var pe *PoisonedError
			if !rep.Unresolved || rep.Runs[0].Outcome != OutcomeRefused || !errors.As(rep.Runs[0].Err, &pe) {
				t.Fatalf("report %+v", rep.Runs)
			}
			// Nothing was acted on: the installed files stay as they were,
			// the victim is untouched and the journal is kept.
			w.mustBe("a.md", "a1")
			w.mustBe("b.md", "b1")
			if b, _ := os.ReadFile(victim); string(b) != "a1" {
				t.Fatal("victim outside the root was touched")
			}
			if got, _ := os.ReadFile(jp); string(got) != string(poisoned) {
				t.Fatal("poisoned journal was rewritten")
			}
			if p, _ := Pending(w.state); len(p) != 1 || p[0].Err == nil {
				t.Fatalf("Pending = %+v", p)
			}
		})
	}
}

// orphanBytes reads an orphaned backup: its slice of the pack, or its file.
func orphanBytes(f OrphanFile) ([]byte, error) {
	b, err := os.ReadFile(f.Backup)
	if err != nil || !f.Packed {
		return b, err
	}
	if f.Offset+f.Size > int64(len(b)) {
		return nil, fmt.Errorf("%s ends before %d", f.Backup, f.Offset+f.Size)
	}
	return b[f.Offset : f.Offset+f.Size], nil
}

func jentry(j map[string]any, i int) map[string]any {
	return j["entries"].([]any)[i].(map[string]any)
}

func TestRecoverDamagedBackup(t *testing.T) {
	w := newWorld(t)
	id := interrupted(t, w)
	w.damageBackup(id, 0)
	rep, err := Recover(w.state, RecoverOptions{Root: w.root})
	if err != nil || !rep.Unresolved {
		t.Fatalf("%+v, %v", rep, err)
	}
	w.mustBe("a.md", "a1") // never replaced with damaged bytes
	w.mustBe("b.md", "b0")
	if !strings.Contains(rep.Runs[0].Files[0].Err.Error(), "damaged") {
		t.Fatalf("a.md: %v", rep.Runs[0].Files[0].Err)
	}
}

func TestRecoverUnreadableJournal(t *testing.T) {
	w := newWorld(t)
	if err := os.MkdirAll(filepath.Join(w.state, txnDir), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(journalPath(w.state, "torn"), []byte(`{"version":1,"entr`), 0o600); err != nil {
		t.Fatal(err)
	}
	rep, err := Recover(w.state, RecoverOptions{Root: w.root})
	if err != nil || !rep.Unresolved || rep.Runs[0].Outcome != OutcomeRefused {
		t.Fatalf("%+v, %v", rep, err)
	}
	if _, err := Begin(w.opts()); err == nil {
		t.Fatal("Begin accepted with an unreadable journal")
	}
	if _, err := Abandon(w.state, "torn", 0); err != nil {
		t.Fatal(err)
	}
	tx, err := Begin(w.opts())
	if err != nil {
		t.Fatal(err)
	}
	_ = tx.Close()
}

func TestRecoverRemovesOurLeftoversOnly(t *testing.T) {
	w := newWorld(t)
	interrupted(t, w)
	ours := filepath.Join(w.root, ".a.md.prosewash-0123456789abcdef.tmp")
	theirs := filepath.Join(w.root, ".a.md.prosewash-fedcba9876543210.tmp")
	if err := os.WriteFile(ours, []byte("a1"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(theirs, []byte("unknown"), 0o600); err != nil {
		t.Fatal(err)
	}
	if rep, err := Recover(w.state, RecoverOptions{Root: w.root}); err != nil || rep.Unresolved {
		t.Fatalf("%+v, %v", rep, err)
	}
	if _, err := os.Stat(ours); !os.IsNotExist(err) {
		t.Fatal("our leftover is still there")
	}
	if _, err := os.Stat(theirs); err != nil {
		t.Fatal("a file that is not ours was removed")
	}
}

func TestPendingTellsLiveFromInterrupted(t *testing.T) {
	w := newWorld(t)
	w.write("a.md", "a0", 0o644)
	tx, err := Begin(w.opts())
	if err != nil {
		t.Fatal(err)
	}
	if err := tx.Prepare([]Op{w.replace("a.md", "a1")}); err != nil {
		t.Fatal(err)
	}
	p, err := Pending(w.state)
	if err != nil || len(p) != 1 || !p[0].Live {
		t.Fatalf("Pending during a run = %+v, %v", p, err)
	}
	crashInProcess(tx)
	p, err = Pending(w.state)
	if err != nil || len(p) != 1 || p[0].Live {
		t.Fatalf("Pending after a crash = %+v, %v", p, err)
	}
	if p, err := Pending(filepath.Join(w.state, "none")); err != nil || p != nil {
		t.Fatalf("Pending without state = %+v, %v", p, err)
	}
}

// TestBeginSweepsLeftovers: a finished run's journal and temporary journal
// files are cleaned, not pending; backups without a journal are not
// deleted (they may be the only copy of the originals) and not pending.
func TestBeginSweepsLeftovers(t *testing.T) {
	w := newWorld(t)
	dir := filepath.Join(w.state, txnDir)
	if err := os.MkdirAll(filepath.Join(dir, "orphan-run"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "orphan-run", "0000.bak"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	j := journal{Version: journalVersion, RunID: "done-run", Root: w.root, State: StateRestored}
	if err := j.save(w.state); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".x.json.prosewash-0123456789abcdef.tmp"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tx, err := Begin(w.opts())
	if err != nil {
		t.Fatal(err)
	}
	_ = tx.Close()
	if got := w.journals(); len(got) != 1 || got[0] != "orphan-run" {
		t.Fatalf("left %v, want only the orphaned backups", got)
	}
}

// With the journal gone, recover reports the backups it finds (with whose
// originals they are) and keeps them: they are the only copy of the
// originals of the files the run had replaced.
func TestRecoverKeepsAndReportsOrphanedBackups(t *testing.T) {
	w := newWorld(t)
	id := interrupted(t, w)
	if err := os.Remove(journalPath(w.state, id)); err != nil {
		t.Fatal(err)
	}
	rep, err := Recover(w.state, RecoverOptions{Root: w.root})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Orphans) != 1 || rep.Orphans[0].RunID != id {
		t.Fatalf("orphans %+v", rep.Orphans)
	}
	o := rep.Orphans[0]
	byPath := map[string]OrphanFile{}
	for _, f := range o.Files {
		byPath[f.Path] = f
	}
	a := byPath[w.path("a.md")]
	if b, err := orphanBytes(a); err != nil || string(b) != "a0" || a.Original != fsx.SHA256([]byte("a0")) {
		t.Fatalf("a.md's orphaned backup %+v: %q %v", a, b, err)
	}
	if _, ok := byPath[w.path("c.md")]; !ok || len(o.Files) != 3 {
		t.Fatalf("orphaned backups %+v, want a.md, b.md and c.md", o.Files)
	}
	// Nothing pending, and the next run neither deletes them nor refuses.
	tx, err := Begin(w.opts())
	if err != nil {
		t.Fatal(err)
	}
	_ = tx.Close()
	if _, err := os.Stat(a.Backup); err != nil {
		t.Fatalf("the orphaned backup went: %v", err)
	}
	if o2, _ := Orphans(w.state); len(o2) != 1 {
		t.Fatalf("orphans after a run: %+v", o2)
	}
}

// A deleted or damaged backup is not an edit: the file still holds the
// candidate, and recover says the backup is the problem.
func TestRecoverNamesMissingBackup(t *testing.T) {
	for _, damage := range []string{"deleted", "corrupted"} {
		t.Run(damage, func(t *testing.T) {
			w := newWorld(t)
			id := interrupted(t, w)
			if damage == "deleted" {
				// The pack holds every backup of the run: all are gone.
				os.Remove(filepath.Join(backupDir(w.state, id), packName))
			} else {
				w.damageBackup(id, 0)
			}
			rep, err := Recover(w.state, RecoverOptions{Root: w.root})
			if err != nil || !rep.Unresolved {
				t.Fatalf("%+v, %v", rep, err)
			}
			w.mustBe("a.md", "a1")
			if damage == "deleted" {
				w.mustBe("b.md", "b1")
			} else {
				w.mustBe("b.md", "b0")
			}
			f := rep.Runs[0].Files[0]
			if f.Status != StatusKept || f.Kept != KeptBackup || !strings.Contains(f.Err.Error(), "backup") || strings.Contains(f.Err.Error(), "changed since") {
				t.Fatalf("a.md: %s %s %v", f.Status, f.Kept, f.Err)
			}
			// A real edit is still called an edit.
			w2 := newWorld(t)
			interrupted(t, w2)
			w2.write("a.md", "edited by hand", 0o644)
			rep, _ = Recover(w2.state, RecoverOptions{Root: w2.root})
			if f := rep.Runs[0].Files[0]; f.Kept != KeptEdited {
				t.Fatalf("an edit: %s %v", f.Kept, f.Err)
			}
		})
	}
}

// A journal of version 1 names a file per backup (NNNN.bak), as runs of
// older versions left them: recover still reads those and restores.
func TestRecoverReadsVersion1Backups(t *testing.T) {
	w := newWorld(t)
	id := interrupted(t, w)
	jp := journalPath(w.state, id)
	j, err := loadJournal(jp)
	if err != nil {
		t.Fatal(err)
	}
	j.Version = 1
	for k := range j.Entries {
		e := &j.Entries[k]
		if e.Backup == "" {
			continue
		}
		b, err := readBackup(w.state, e)
		if err != nil {
			t.Fatal(err)
		}
		name := fmt.Sprintf("%04d.bak", k)
		if err := os.WriteFile(filepath.Join(backupDir(w.state, id), name), b, 0o600); err != nil {
			t.Fatal(err)
		}
		e.Backup, e.BackupOffset, e.BackupSize = txnDir+"/"+id+"/"+name, 0, 0
	}
	if err := os.Remove(filepath.Join(backupDir(w.state, id), packName)); err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(j)
	if err := os.WriteFile(jp, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	rep, err := Recover(w.state, RecoverOptions{Root: w.root})
	if err != nil || rep.Unresolved {
		t.Fatalf("%+v %v", rep, err)
	}
	w.originals()
	w.noTrace()
}

// TestCleanLeftoversTellsACutWriteFromAnExchange: a kill while the candidate
// was being written leaves the journalled temporary file holding a prefix of
// it, neither hash; while the entry's file still holds its original (or, for a
// create, is absent) nothing was ever exchanged, so the prefix is ours and
// goes. Once the file holds the candidate, the temporary name holds what the
// exchange took out of it, which may be a person's edit: it stays, reported.
func TestCleanLeftoversTellsACutWriteFromAnExchange(t *testing.T) {
	dir := t.TempDir()
	hash := func(s string) fsx.Hash {
		h, err := fsx.HashReader(strings.NewReader(s))
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	const orig, cand = "original text\n", "candidate text, longer than its prefix\n"
	for _, c := range []struct {
		name     string
		op       OpKind
		at       string // what the entry's file holds; "" for absent
		temp     string
		wantGone bool
	}{
		{"replace cut short", Replace, orig, cand[:9], true},
		{"create cut short", Create, "", cand[:9], true},
		{"exchanged out a person's edit", Replace, cand, "a person's edit\n", false},
		// Created, nothing written yet, and the file edited since: an empty
		// file holds nothing of anyone's.
		{"empty after the file was edited", Replace, "edited by hand\n", "", true},
		{"created where a person's file appeared", Create, "their file\n", "a person's edit\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".md")
			if c.at != "" {
				if err := os.WriteFile(path, []byte(c.at), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			tmp, err := fsx.TempName(path, "tmp")
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(tmp, []byte(c.temp), 0o600); err != nil {
				t.Fatal(err)
			}
			e := &entry{Path: path, Op: c.op, Candidate: hash(cand), Temp: tmp}
			if c.op != Create {
				e.Original = hash(orig)
			}
			kept := cleanLeftovers(e, dirLister())
			_, err = os.Stat(tmp)
			if gone := os.IsNotExist(err); gone != c.wantGone {
				t.Fatalf("temporary file gone=%v, want %v (kept %v)", gone, c.wantGone, kept)
			}
			if !c.wantGone && (len(kept) != 1 || kept[0] != tmp) {
				t.Fatalf("kept = %v, want the temporary file reported", kept)
			}
		})
	}
}
