package txn

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/engine/fsx"
)

// world is a project root and a state dir for one test.
type world struct {
	t     *testing.T
	root  string
	state string
}

func newWorld(t *testing.T) *world {
	t.Helper()
	base := t.TempDir()
	w := &world{t: t, root: filepath.Join(base, "proj"), state: filepath.Join(base, "state")}
	for _, d := range []string{w.root, w.state} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func (w *world) path(name string) string { return filepath.Join(w.root, filepath.FromSlash(name)) }

func (w *world) write(name, content string, mode fs.FileMode) {
	w.t.Helper()
	p := w.path(name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), mode); err != nil {
		w.t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil {
		w.t.Fatal(err)
	}
}

// read returns the content and whether the file exists.
func (w *world) read(name string) (string, bool) {
	w.t.Helper()
	b, err := os.ReadFile(w.path(name))
	if os.IsNotExist(err) {
		return "", false
	}
	if err != nil {
		w.t.Fatal(err)
	}
	return string(b), true
}

func (w *world) mustBe(name, want string) {
	w.t.Helper()
	got, ok := w.read(name)
	if !ok {
		w.t.Fatalf("%s: missing, want %q", name, want)
	}
	if got != want {
		w.t.Fatalf("%s = %q, want %q", name, got, want)
	}
}

func (w *world) mustBeAbsent(name string) {
	w.t.Helper()
	if got, ok := w.read(name); ok {
		w.t.Fatalf("%s exists with %q, want absent", name, got)
	}
}

func (w *world) mode(name string) fs.FileMode {
	w.t.Helper()
	fi, err := os.Lstat(w.path(name))
	if err != nil {
		w.t.Fatal(err)
	}
	return fi.Mode().Perm()
}

func (w *world) opts() Options {
	return Options{Root: w.root, StateDir: w.state, LockWait: 5 * time.Second}
}

func (w *world) replace(name, content string) Op {
	w.t.Helper()
	cur, ok := w.read(name)
	if !ok {
		w.t.Fatalf("%s: missing", name)
	}
	return Op{Kind: Replace, Path: w.path(name), Data: []byte(content), Expect: fsx.SHA256([]byte(cur))}
}

func (w *world) del(name string) Op {
	w.t.Helper()
	cur, ok := w.read(name)
	if !ok {
		w.t.Fatalf("%s: missing", name)
	}
	return Op{Kind: Delete, Path: w.path(name), Expect: fsx.SHA256([]byte(cur))}
}

func (w *world) create(name, content string) Op {
	return Op{Kind: Create, Path: w.path(name), Data: []byte(content), Mode: 0o640}
}

// journals lists the journal files in the state dir.
func (w *world) journals() []string {
	w.t.Helper()
	ents, err := os.ReadDir(filepath.Join(w.state, txnDir))
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		w.t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

// noTrace asserts the state dir holds no journal or backup and the root no
// temporary file: a finished run leaves nothing behind.
func (w *world) noTrace() {
	w.t.Helper()
	if j := w.journals(); len(j) != 0 {
		w.t.Fatalf("state dir still holds %v", j)
	}
	w.noTempFiles()
}

// noTempFiles asserts the root holds no temporary file of a swap.
func (w *world) noTempFiles() {
	w.t.Helper()
	_ = filepath.WalkDir(w.root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".prosewash-") {
			w.t.Fatalf("temporary file left in the project: %s", p)
		}
		return nil
	})
}

// loadState reads the one journal's state.
func (w *world) journalState(runID string) State {
	w.t.Helper()
	b, err := os.ReadFile(journalPath(w.state, runID))
	if err != nil {
		w.t.Fatal(err)
	}
	var j journal
	if err := json.Unmarshal(b, &j); err != nil {
		w.t.Fatal(err)
	}
	return j.State
}

func statusOf(r Result, path string) FileResult {
	for _, f := range r.Files {
		if f.Path == path {
			return f
		}
	}
	return FileResult{}
}

// crashInProcess simulates a process that died mid-run: the lock is let go
// and nothing else happens (no rollback, no cleanup), as after kill -9.
// The real kill -9 tests are in crash_test.go; this lets unit tests build
// interrupted journals cheaply.
func crashInProcess(tx *Tx) {
	tx.phase = phaseDone
	_ = tx.lock.release()
	tx.lock = nil
}

// backupOf returns the backup of entry k of run id, read as recovery reads it.
func (w *world) backupOf(id string, k int) ([]byte, error) {
	w.t.Helper()
	j, err := loadJournal(journalPath(w.state, id))
	if err != nil {
		w.t.Fatal(err)
	}
	return readBackup(w.state, &j.Entries[k])
}

// damageBackup flips every byte of entry k's backup in run id's pack, as
// bit rot would, leaving the other backups whole.
func (w *world) damageBackup(id string, k int) {
	w.t.Helper()
	j, err := loadJournal(journalPath(w.state, id))
	if err != nil {
		w.t.Fatal(err)
	}
	e := j.Entries[k]
	f, err := os.OpenFile(filepath.Join(w.state, filepath.FromSlash(e.Backup)), os.O_RDWR, 0)
	if err != nil {
		w.t.Fatal(err)
	}
	defer f.Close()
	b := make([]byte, e.BackupSize)
	if _, err := f.ReadAt(b, e.BackupOffset); err != nil {
		w.t.Fatal(err)
	}
	for i := range b {
		b[i] ^= 0xff
	}
	if _, err := f.WriteAt(b, e.BackupOffset); err != nil {
		w.t.Fatal(err)
	}
}

// Count returns how many files have status s.
func (r Result) Count(s Status) int {
	n := 0
	for _, f := range r.Files {
		if f.Status == s {
			n++
		}
	}
	return n
}

// RunID names the run (journal and backups use it).
func (t *Tx) RunID() string { return t.runID }

// failpointNames lists every failpoint that any run reaches, in step order.
func failpointNames() []string {
	return []string{
		FailPrepared, FailInstallingOne, FailInstalledOne, FailInstalled, FailValidating,
		FailCommitted, FailRollingBack, FailRollingBackOne, FailRestored,
	}
}

// archiveFailpoints lists the failpoints only a run with Archive
// operations reaches, in step order; they come before FailPrepared.
func archiveFailpoints() []string { return []string{FailArchivingOne, FailArchivedOne} }
