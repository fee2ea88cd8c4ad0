package txn

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/prosewash/prosewash/engine/fsx"
	"github.com/prosewash/prosewash/engine/state"
)

// restoreAll brings every touched entry back to its original when that is
// safe, deciding from hashes alone (the journal may lag the files by one
// step): a file that holds the candidate is restored by compare-and-swap, a
// file that holds the original needs nothing, and anything else (a human
// edit, a deletion, a new file) is kept as found and marked Kept with its
// current hash. Entries never attempted are not looked at. The journal is
// saved after every entry; the first actual restore fires the
// rolling-back-one failpoint.
func restoreAll(stateDir string, j *journal, getenv func(string) string) {
	order := installOrder(j.Entries)
	fired := false
	for n := len(order) - 1; n >= 0; n-- {
		e := &j.Entries[order[n]]
		if e.Restored || (!e.Intent && !e.Done) {
			continue
		}
		wrote, err := restoreOne(stateDir, e)
		e.Kept, e.Note, e.Current = false, "", fsx.Hash{}
		if err != nil {
			e.Kept, e.Note = true, err.Error()
			e.Current, _, _ = fsx.HashFile(e.Path)
		} else {
			e.Restored = true
		}
		cleanLeftovers(e)
		_ = j.save(stateDir)
		if wrote && !fired {
			fired = true
			failpoint(getenv, FailRollingBackOne)
		}
	}
}

// restoreOne returns whether it wrote, and an error when the file must be
// kept as it is.
func restoreOne(stateDir string, e *entry) (bool, error) {
	cur, present, err := fsx.HashFile(e.Path)
	if err != nil {
		return false, fmt.Errorf("cannot inspect the file now: %v", err)
	}
	changed := func() error {
		if !present {
			return fmt.Errorf("deleted since the run installed it (original %s, candidate %s)", e.Original.Short(), e.Candidate.Short())
		}
		return fmt.Errorf("changed since the run installed it (original %s, candidate %s, now %s)",
			e.Original.Short(), e.Candidate.Short(), cur.Short())
	}
	switch e.Op {
	case Replace:
		switch {
		case present && cur == e.Original:
			return false, nil
		case present && cur == e.Candidate:
			data, err := readBackup(stateDir, e.Backup, e.Original)
			if err != nil {
				return false, err
			}
			if err := fsx.Replace(e.Path, data, e.Candidate); err != nil {
				return false, fmt.Errorf("restore: %v", err)
			}
			return true, nil
		}
		return false, changed()
	case Create:
		switch {
		case !present:
			return false, nil
		case cur == e.Candidate:
			if err := fsx.Remove(e.Path, e.Candidate); err != nil {
				return false, fmt.Errorf("remove the created file: %v", err)
			}
			return true, nil
		}
		return false, fmt.Errorf("the created file was changed since (candidate %s, now %s)", e.Candidate.Short(), cur.Short())
	case Delete:
		switch {
		case present && cur == e.Original:
			return false, nil
		case !present:
			data, err := readBackup(stateDir, e.Backup, e.Original)
			if err != nil {
				return false, err
			}
			if err := fsx.Create(e.Path, data, fs.FileMode(e.Mode)); err != nil {
				return false, fmt.Errorf("restore the deleted file: %v", err)
			}
			return true, nil
		}
		return false, fmt.Errorf("a new file appeared where the run deleted one (original %s, now %s)", e.Original.Short(), cur.Short())
	}
	return false, fmt.Errorf("unknown operation %q", e.Op)
}

// cleanLeftovers removes temporary files a killed swap left beside the
// entry's file, but only those holding the original (backed up) or the
// candidate (ours); anything else is not ours to delete.
func cleanLeftovers(e *entry) {
	l, err := fsx.Leftovers(e.Path)
	if err != nil {
		return
	}
	for _, p := range l {
		h, ok, err := fsx.HashFile(p)
		if err != nil || !ok {
			continue
		}
		if (!e.Original.IsZero() && h == e.Original) || (!e.Candidate.IsZero() && h == e.Candidate) {
			_ = os.Remove(p)
		}
	}
}

func anyKept(j *journal) bool {
	for _, e := range j.Entries {
		if e.Kept {
			return true
		}
	}
	return false
}

// keptItem is one line of kept/<runid>/manifest.json.
type keptItem struct {
	Path      string   `json:"path"`
	Op        OpKind   `json:"op"`
	Original  fsx.Hash `json:"original_hash"`
	Candidate fsx.Hash `json:"candidate_hash"`
	Current   fsx.Hash `json:"current_hash"`
	Backup    string   `json:"backup,omitempty"` // file name in this directory
	Note      string   `json:"note"`
}

// preserveKept copies the originals of kept files to kept/<runid>/ with a
// manifest, so that nothing the user had is lost when the journal goes.
func preserveKept(stateDir string, j *journal) (string, error) {
	dir := filepath.Join(stateDir, keptDir, j.RunID)
	if err := state.MkdirPrivate(dir); err != nil {
		return "", err
	}
	var items []keptItem
	for _, e := range j.Entries {
		if !e.Kept {
			continue
		}
		it := keptItem{Path: e.Path, Op: e.Op, Original: e.Original, Candidate: e.Candidate, Current: e.Current, Note: e.Note}
		if e.Backup != "" {
			data, err := readBackup(stateDir, e.Backup, e.Original)
			if err != nil {
				return "", err
			}
			it.Backup = filepath.Base(filepath.FromSlash(e.Backup))
			if err := state.WriteFile(filepath.Join(dir, it.Backup), data); err != nil {
				return "", err
			}
		}
		items = append(items, it)
	}
	b, err := json.MarshalIndent(items, "", "  ")
	if err != nil {
		return "", err
	}
	if err := state.WriteFile(filepath.Join(dir, "manifest.json"), b); err != nil {
		return "", err
	}
	return dir, nil
}

// cleanup removes a finished run's backups, then its journal.
func cleanup(stateDir, runID string) error {
	if err := os.RemoveAll(backupDir(stateDir, runID)); err != nil {
		return fmt.Errorf("remove backups: %w", err)
	}
	if err := os.Remove(journalPath(stateDir, runID)); err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("remove journal: %w", err)
	}
	return fsx.SyncDir(filepath.Join(stateDir, txnDir))
}

// sweep runs under the lock at Begin: it removes what finished runs and
// killed prepares left (terminal journals, backup directories without a
// journal, temporary journal files) and returns the runs that need
// recover.
func sweep(stateDir string) ([]string, error) {
	dir := filepath.Join(stateDir, txnDir)
	ents, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("list journals: %w", err)
	}
	journals := map[string]bool{}
	var pending []string
	for _, d := range ents {
		name := d.Name()
		id, ok := strings.CutSuffix(name, ".json")
		if !ok || d.IsDir() {
			continue
		}
		journals[id] = true
		j, err := loadJournal(filepath.Join(dir, name))
		if err == nil && j.RunID == id && j.State.terminal() {
			if err := cleanup(stateDir, id); err != nil {
				return nil, err
			}
			continue
		}
		pending = append(pending, id)
	}
	for _, d := range ents {
		name := d.Name()
		switch {
		case d.IsDir() && !journals[name] && validRunID(name):
			// A prepare killed before its journal was written: nothing
			// was installed, the backups are not needed.
			if err := os.RemoveAll(filepath.Join(dir, name)); err != nil {
				return nil, fmt.Errorf("remove orphaned backups: %w", err)
			}
		case !d.IsDir() && strings.HasPrefix(name, ".") && strings.Contains(name, ".prosewash-"):
			_ = os.Remove(filepath.Join(dir, name))
		}
	}
	sort.Strings(pending)
	return pending, nil
}

// PendingRun describes a journal found in the state dir.
type PendingRun struct {
	RunID   string
	State   State
	PID     int
	Root    string
	Started time.Time
	Files   int
	// Live is true when the run's process still holds the lock: it is in
	// progress, not interrupted.
	Live bool
	// Err is set when the journal cannot be read or trusted.
	Err error
}

// Interrupted lists runs whose journal is unfinished and whose process is
// gone: they need "prosewash recover". A run still in progress is not one.
func Interrupted(stateDir string) []string {
	ps, err := Pending(stateDir)
	if err != nil {
		return nil
	}
	var ids []string
	for _, p := range ps {
		if !p.Live {
			ids = append(ids, p.RunID)
		}
	}
	return ids
}

// Pending lists the runs whose journals are not finished, without
// changing anything (it only probes the lock to tell live runs from
// interrupted ones). A missing state dir has none.
func Pending(stateDir string) ([]PendingRun, error) {
	dir := filepath.Join(stateDir, txnDir)
	ents, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, fmt.Errorf("list journals: %w", err)
	}
	held, holder := probeLock(filepath.Join(stateDir, lockName))
	var out []PendingRun
	for _, d := range ents {
		id, ok := strings.CutSuffix(d.Name(), ".json")
		if !ok || d.IsDir() || strings.HasPrefix(d.Name(), ".") {
			continue
		}
		p := PendingRun{RunID: id, Live: held && holder.RunID == id}
		j, err := loadJournal(filepath.Join(dir, d.Name()))
		if err == nil {
			err = j.verify(filepath.Join(dir, d.Name()), "", nil)
		}
		if err != nil {
			p.Err = err
			out = append(out, p)
			continue
		}
		if j.State.terminal() {
			continue
		}
		p.State, p.PID, p.Root, p.Started, p.Files = j.State, j.PID, j.Root, j.Started, len(j.Entries)
		out = append(out, p)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].RunID < out[b].RunID })
	return out, nil
}

// RecoverOptions configure Recover.
type RecoverOptions struct {
	// Root is the trusted project root; a journal recorded for another
	// root is refused. Empty accepts the journal's own (still checked)
	// root.
	Root string
	// Roots are the further roots (Options.Roots) the caller trusts; with
	// Root set, a journal naming any other extra root is refused.
	Roots []string
	// LockWait as in Options.
	LockWait time.Duration
	// Getenv arms failpoints during recovery (rolling-back,
	// rolling-back-one, restored), so tests can crash a recovery too.
	Getenv func(string) string
}

// Outcome is what Recover did with one journal.
type Outcome string

// Recover outcomes.
const (
	OutcomeCleaned    Outcome = "cleaned"    // the run had finished: leftovers removed
	OutcomeRestored   Outcome = "restored"   // every touched file is back to its original
	OutcomeUnresolved Outcome = "unresolved" // some file changed since: kept, journal kept
	OutcomeRefused    Outcome = "refused"    // unreadable or untrustworthy journal: not acted on
)

// RunReport is Recover's account of one journal.
type RunReport struct {
	RunID   string
	Found   State // the state the journal was in
	Outcome Outcome
	Files   []FileResult
	Err     error // for OutcomeRefused
}

// RecoverReport is Recover's account of the state dir.
type RecoverReport struct {
	Runs []RunReport
	// Unresolved is true while any journal remains: the caller exits
	// non-zero and every writing command keeps refusing.
	Unresolved bool
}

// Recover ends every interrupted run under the lock. A run that had
// committed is only cleaned up. Any other run is rolled back: a file that
// still holds the run's candidate is restored from its verified backup, a
// file already back to its original needs nothing, and a file edited
// after the interrupted run is never overwritten: it is reported with
// its original, candidate and current hashes, and the journal and backups
// are kept (Unresolved). A journal that is unreadable or untrustworthy
// (a path outside the recorded or trusted root, a backup outside this
// run's backup directory, an unknown version) is not acted on at all.
func Recover(stateDir string, opts RecoverOptions) (RecoverReport, error) {
	var rep RecoverReport
	if _, err := os.Stat(filepath.Join(stateDir, txnDir)); os.IsNotExist(err) {
		return rep, nil
	}
	trusted := ""
	if opts.Root != "" {
		r, err := filepath.EvalSymlinks(opts.Root)
		if err != nil {
			return rep, fmt.Errorf("recover: root: %w", err)
		}
		trusted = r
	}
	var trustedExtra []string
	for _, r := range opts.Roots {
		if rr, err := filepath.EvalSymlinks(r); err == nil {
			trustedExtra = append(trustedExtra, rr)
		}
	}
	wait := opts.LockWait
	if wait == 0 {
		wait = DefaultLockWait
	}
	lk, err := acquire(filepath.Join(stateDir, lockName), LockInfo{PID: os.Getpid(), RunID: "recover", Since: time.Now().UTC()}, wait)
	if err != nil {
		return rep, err
	}
	defer lk.release()

	dir := filepath.Join(stateDir, txnDir)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return rep, fmt.Errorf("recover: %w", err)
	}
	for _, d := range ents {
		id, ok := strings.CutSuffix(d.Name(), ".json")
		if !ok || d.IsDir() || strings.HasPrefix(d.Name(), ".") {
			continue
		}
		rr := recoverOne(stateDir, filepath.Join(dir, d.Name()), id, trusted, trustedExtra, opts.Getenv)
		if rr.Outcome == OutcomeUnresolved || rr.Outcome == OutcomeRefused {
			rep.Unresolved = true
		}
		rep.Runs = append(rep.Runs, rr)
	}
	if _, err := sweep(stateDir); err != nil {
		return rep, fmt.Errorf("recover: %w", err)
	}
	return rep, nil
}

func recoverOne(stateDir, path, id, trusted string, trustedExtra []string, getenv func(string) string) RunReport {
	rr := RunReport{RunID: id}
	j, err := loadJournal(path)
	if err == nil {
		err = j.verify(path, trusted, trustedExtra)
	}
	if err != nil {
		rr.Outcome, rr.Err = OutcomeRefused, err
		return rr
	}
	rr.Found = j.State
	if j.State.terminal() {
		if err := cleanup(stateDir, id); err != nil {
			rr.Outcome, rr.Err = OutcomeRefused, err
			return rr
		}
		rr.Outcome = OutcomeCleaned
		return rr
	}
	j.State = StateRollingBack
	_ = j.save(stateDir)
	failpoint(getenv, FailRollingBack)
	restoreAll(stateDir, j, getenv)
	for _, e := range j.Entries {
		fr := FileResult{Path: e.Path, Kind: e.Op, Original: e.Original, Candidate: e.Candidate, Status: StatusRestored}
		switch {
		case e.Kept:
			fr.Status, fr.Current, fr.Err = StatusKept, e.Current, errors.New(e.Note)
		case !e.Intent && !e.Done:
			fr.Status = StatusSkipped
			fr.Current, _, _ = fsx.HashFile(e.Path)
		default:
			fr.Current = e.Original
		}
		rr.Files = append(rr.Files, fr)
	}
	if anyKept(j) {
		_ = j.save(stateDir)
		rr.Outcome = OutcomeUnresolved
		return rr
	}
	j.State = StateRestored
	if err := j.save(stateDir); err != nil {
		rr.Outcome, rr.Err = OutcomeRefused, err
		return rr
	}
	failpoint(getenv, FailRestored)
	if err := cleanup(stateDir, id); err != nil {
		rr.Outcome, rr.Err = OutcomeRefused, err
		return rr
	}
	rr.Outcome = OutcomeRestored
	return rr
}

// Abandon stops tracking an unresolved run without touching any user
// file: its journal and backups move to kept/<runid>/ in the state dir (so
// every original stays available) and writing commands stop refusing. It
// is the explicit human decision that the files as they are now win.
func Abandon(stateDir, runID string, lockWait time.Duration) (string, error) {
	if !validRunID(runID) {
		return "", fmt.Errorf("abandon: invalid run id %q", runID)
	}
	if lockWait == 0 {
		lockWait = DefaultLockWait
	}
	lk, err := acquire(filepath.Join(stateDir, lockName), LockInfo{PID: os.Getpid(), RunID: "abandon", Since: time.Now().UTC()}, lockWait)
	if err != nil {
		return "", err
	}
	defer lk.release()
	jp := journalPath(stateDir, runID)
	if _, err := os.Lstat(jp); err != nil {
		return "", fmt.Errorf("abandon: %w", err)
	}
	dest := filepath.Join(stateDir, keptDir, runID)
	if err := state.MkdirPrivate(dest); err != nil {
		return "", fmt.Errorf("abandon: %w", err)
	}
	if bd := backupDir(stateDir, runID); exists(bd) {
		if err := os.Rename(bd, filepath.Join(dest, "backups")); err != nil {
			return "", fmt.Errorf("abandon: %w", err)
		}
	}
	if err := os.Rename(jp, filepath.Join(dest, "journal.json")); err != nil {
		return "", fmt.Errorf("abandon: %w", err)
	}
	if err := fsx.SyncDir(filepath.Join(stateDir, txnDir)); err != nil {
		return "", fmt.Errorf("abandon: %w", err)
	}
	return dest, nil
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
