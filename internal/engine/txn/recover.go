package txn

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/state"
)

// restoreAll brings every touched entry back to its original when that is
// safe, deciding from hashes alone (the journal may lag the files by a
// batch): a file that holds the candidate is restored by compare-and-swap,
// a file that holds the original needs nothing, and anything else (a human
// edit, a deletion, a new file, a candidate whose backup is gone) is kept
// as found and marked Kept with its current hash and the reason. Entries
// never attempted are not looked at. The temporary files a killed swap
// left are cleaned up first (see cleanLeftovers); then every restore's
// temporary name is journalled in one save before the first is written,
// the restores run with each directory fsynced once after them, and one
// save records the outcome: the journal is written a constant number of
// times, whatever the number of files. It returns the temporary files it
// had to leave because they hold content that is not provably ours. The
// first actual restore fires the rolling-back-one failpoint.
func restoreAll(stateDir string, j *journal, sw fsx.Swap, getenv func(string) string) (leftovers []string) {
	order := installOrder(j.Entries)
	var ks []int
	for n := len(order) - 1; n >= 0; n-- {
		e := &j.Entries[order[n]]
		if e.Restored || (!e.Intent && !e.Done && e.Op != Archive) {
			continue // an archive is undone even when its original was never touched
		}
		ks = append(ks, order[n])
	}
	if len(ks) == 0 {
		return nil
	}
	names := dirLister()
	for _, k := range ks {
		leftovers = append(leftovers, cleanLeftovers(&j.Entries[k], names)...)
	}
	// A restore is written only through a name the journal holds.
	tempErr := map[int]error{}
	for _, k := range ks {
		e := &j.Entries[k]
		e.Temp, tempErr[k] = fsx.TempName(e.Path, restoreSuffix(e.Op))
	}
	if err := j.save(stateDir); err != nil {
		for _, k := range ks {
			tempErr[k] = err
		}
	}
	sw.DeferDirSync = true
	dirs := map[string]bool{}
	fired := false
	for _, k := range ks {
		e := &j.Entries[k]
		tmp, terr := e.Temp, tempErr[k]
		track := func(string) (string, error) { return tmp, terr }
		wrote, err := restoreOne(stateDir, e, sw, track)
		e.Kept, e.KeptWhy, e.Note, e.Current = false, "", "", fsx.Hash{}
		if err != nil {
			e.Kept, e.KeptWhy, e.Note = true, KeptFailed, err.Error()
			if ke, ok := err.(*keptError); ok {
				e.KeptWhy = ke.why
			}
			e.Current, _, _ = fsx.HashFile(e.Path)
		} else {
			e.Restored = true
		}
		dirs[filepath.Dir(e.Path)] = true
		if wrote && !fired {
			fired = true
			failpoint(getenv, FailRollingBackOne)
		}
	}
	_ = syncDirs(dirs)
	names = dirLister()
	for _, k := range ks {
		leftovers = append(leftovers, cleanLeftovers(&j.Entries[k], names)...)
	}
	_ = j.save(stateDir)
	return leftovers
}

// restoreSuffix is the kind of temporary name a restore uses: a created
// file is removed, anything else written back.
func restoreSuffix(op OpKind) string {
	if op == Create {
		return "del"
	}
	return "tmp"
}

// dirLister lists a directory's names once and then from memory: the
// leftovers of many files of one directory are found with one listing.
func dirLister() func(dir string) []string {
	seen := map[string][]string{}
	return func(dir string) []string {
		if names, ok := seen[dir]; ok {
			return names
		}
		ents, _ := os.ReadDir(dir)
		names := make([]string, len(ents))
		for i, e := range ents {
			names[i] = e.Name()
		}
		seen[dir] = names
		return names
	}
}

// restoreOne returns whether it wrote, and a *keptError when the file must
// be kept as it is. track names (and journals) the temporary file of the
// write it is about to make.
func restoreOne(stateDir string, e *entry, sw fsx.Swap, track func(suffix string) (string, error)) (bool, error) {
	if e.Op == Archive {
		return restoreArchiveEntry(e, track)
	}
	cur, present, err := fsx.HashFile(e.Path)
	if err != nil {
		return false, keptf(KeptFailed, "cannot inspect the file now: %v", err)
	}
	changed := func() error {
		if !present {
			return keptf(KeptEdited, "deleted since the run installed it (original %s, candidate %s)", e.Original.Short(), e.Candidate.Short())
		}
		return keptf(KeptEdited, "changed since the run installed it (original %s, candidate %s, now %s)",
			e.Original.Short(), e.Candidate.Short(), cur.Short())
	}
	backup := func() ([]byte, error) {
		data, err := readBackup(stateDir, e)
		if err != nil {
			what := "still holds the run's candidate"
			if e.Op == Delete {
				what = "is still deleted"
			}
			return nil, keptf(KeptBackup, "%s, but the backup of its original is missing or damaged (%v): nothing safe to restore", what, err)
		}
		return data, nil
	}
	switch e.Op {
	case Replace:
		switch {
		case present && cur == e.Original:
			return false, nil
		case present && cur == e.Candidate:
			data, err := backup()
			if err != nil {
				return false, err
			}
			tmp, err := track("tmp")
			if err != nil {
				return false, keptf(KeptFailed, "restore: %v", err)
			}
			sw.Temp = tmp
			if err := fsx.ReplaceWith(e.Path, data, e.Candidate, sw); err != nil {
				if errors.Is(err, fsx.ErrConflict) {
					return false, keptf(KeptEdited, "restore: %v", err)
				}
				return false, keptf(KeptFailed, "restore: %v", err)
			}
			return true, nil
		}
		return false, changed()
	case Create:
		switch {
		case !present:
			return false, nil
		case cur == e.Candidate:
			tmp, err := track("del")
			if err != nil {
				return false, keptf(KeptFailed, "remove the created file: %v", err)
			}
			sw.Temp = tmp
			if err := fsx.RemoveWith(e.Path, e.Candidate, sw); err != nil {
				return false, keptf(KeptFailed, "remove the created file: %v", err)
			}
			return true, nil
		}
		return false, keptf(KeptEdited, "the created file was changed since (candidate %s, now %s)", e.Candidate.Short(), cur.Short())
	case Delete:
		switch {
		case present && cur == e.Original:
			return false, nil
		case !present:
			data, err := backup()
			if err != nil {
				return false, err
			}
			tmp, err := track("tmp")
			if err != nil {
				return false, keptf(KeptFailed, "restore the deleted file: %v", err)
			}
			sw.Temp = tmp
			if err := fsx.CreateWith(e.Path, data, fs.FileMode(e.Mode), sw); err != nil {
				return false, keptf(KeptFailed, "restore the deleted file: %v", err)
			}
			return true, nil
		}
		return false, keptf(KeptEdited, "a new file appeared where the run deleted one (original %s, now %s)", e.Original.Short(), cur.Short())
	}
	return false, keptf(KeptFailed, "unknown operation %q", e.Op)
}

// cleanLeftovers removes the temporary files a killed swap left beside the
// entry's file. The one the journal names (Temp) is ours by name: it goes
// when it is empty (created, not yet written) or holds the original (backed
// up) or the candidate (ours), or when the entry's file still holds its
// original (see neverExchanged): then the temporary file was never swapped
// with anything, and what it holds is a write of ours a kill cut short. Any
// other temporary file of the pattern goes only when it holds the original
// or the candidate. Whatever holds other content may be someone's work (a
// compare-and-swap exchanges the file out to the temporary name before it
// checks it) and stays: it is returned, to be reported.
func cleanLeftovers(e *entry, names func(dir string) []string) (kept []string) {
	ours := func(p string, tracked bool) (remove, report bool) {
		fi, err := os.Lstat(p)
		if err != nil {
			return false, false
		}
		if !fi.Mode().IsRegular() {
			return false, tracked
		}
		h, ok, err := fsx.HashFile(p)
		if err != nil || !ok {
			return false, tracked
		}
		if (!e.Original.IsZero() && h == e.Original) || (!e.Candidate.IsZero() && h == e.Candidate) || (tracked && fi.Size() == 0) {
			return true, false
		}
		if tracked && neverExchanged(e) {
			return true, false
		}
		return false, tracked
	}
	seen := map[string]bool{}
	if e.Temp != "" {
		seen[e.Temp] = true
		switch remove, report := ours(e.Temp, true); {
		case remove:
			_ = os.Remove(e.Temp)
		case report:
			kept = append(kept, e.Temp)
		}
	}
	for _, p := range fsx.LeftoversAmong(e.Path, names(filepath.Dir(e.Path))) {
		if seen[p] {
			continue
		}
		if remove, _ := ours(p, false); remove {
			_ = os.Remove(p)
		}
	}
	return kept
}

// neverExchanged reports an entry whose file still holds its original (for a
// create: is still absent), so its journalled temporary file was never
// exchanged with it: an exchange leaves the candidate at the path, and an
// exchange undone leaves the candidate at the temporary name. A kill while
// the candidate was being written leaves the temporary file holding a prefix
// of it, which is neither hash.
func neverExchanged(e *entry) bool {
	cur, present, err := fsx.HashFile(e.Path)
	if err != nil {
		return false
	}
	if e.Op == Create {
		return !present
	}
	return present && !e.Original.IsZero() && cur == e.Original
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
	for k := range j.Entries {
		e := &j.Entries[k]
		if !e.Kept {
			continue
		}
		it := keptItem{Path: e.Path, Op: e.Op, Original: e.Original, Candidate: e.Candidate, Current: e.Current, Note: e.Note}
		if e.Backup != "" && e.KeptWhy != KeptBackup {
			data, err := readBackup(stateDir, e)
			if err != nil {
				return "", err
			}
			it.Backup = fmt.Sprintf("%04d.bak", k)
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

// listTxn lists the journal directory; a missing one is empty.
func listTxn(dir string) ([]os.DirEntry, error) {
	ents, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list journals: %w", err)
	}
	return ents, nil
}

// sweep runs under the lock at Begin: it removes what finished runs left
// (terminal journals with their backups and temporary files, temporary
// journal files) and returns the runs that need recover.
func sweep(stateDir string) ([]string, error) {
	dir := filepath.Join(stateDir, txnDir)
	ents, err := listTxn(dir)
	if err != nil {
		return nil, err
	}
	var pending []string
	for _, d := range ents {
		name := d.Name()
		id, ok := strings.CutSuffix(name, ".json")
		if !ok || d.IsDir() {
			continue
		}
		j, err := loadJournal(filepath.Join(dir, name))
		if err == nil && j.RunID == id && j.State.terminal() {
			// Only a journal that passes the checks may name files to
			// delete; an untrusted finished journal just goes.
			if j.verify(filepath.Join(dir, name), "", nil) == nil {
				names := dirLister()
				for k := range j.Entries {
					cleanLeftovers(&j.Entries[k], names)
				}
			}
			if err := cleanup(stateDir, id); err != nil {
				return nil, err
			}
			continue
		}
		pending = append(pending, id)
	}
	// Backup directories without a journal are left alone: a prepare
	// killed before its journal was written leaves some, but so does a
	// journal deleted by hand, and then they are the only copy of the
	// originals. Orphans lists them; a person removes them. One that holds
	// no backup (a prepare killed before its first, or an older version's
	// run that had nothing to back up, whose index said null) holds
	// nothing anybody could need, and goes.
	for _, d := range ents {
		name := d.Name()
		if !d.IsDir() && strings.HasPrefix(name, ".") && strings.Contains(name, ".prosewash-") {
			_ = os.Remove(filepath.Join(dir, name))
		}
		if d.IsDir() && validRunID(name) && !exists(journalPath(stateDir, name)) && (holdsNoBackup(filepath.Join(dir, name)) || backupsAtTheirPaths(filepath.Join(dir, name))) {
			_ = os.RemoveAll(filepath.Join(dir, name))
		}
	}
	sort.Strings(pending)
	return pending, nil
}

// holdsNoBackup reports a run's backup directory that holds nothing but,
// at most, an index listing no backup.
func holdsNoBackup(dir string) bool {
	files, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, f := range files {
		if f.Name() != indexName || !f.Type().IsRegular() {
			return false
		}
		b, err := fsx.ReadRegular(filepath.Join(dir, indexName), maxJournal, false)
		var items []backupIndexItem
		if err != nil || json.Unmarshal(b, &items) != nil || len(items) > 0 {
			return false
		}
	}
	return true
}

// backupsAtTheirPaths reports a run's backup directory without a journal
// whose every backup is what its file holds now: each one read back hashes to
// the original its index names, and so does the file at its path. A prepare
// killed after its backups and before its journal (the backed-up failpoint)
// changed no file, and such a directory holds nothing the files do not; left,
// it made every later recover exit 1 asking a person to compare backups with
// files identical to them. Anything else in the directory, an index that does
// not parse, or one file that differs keeps the whole directory an orphan.
func backupsAtTheirPaths(dir string) bool {
	b, err := fsx.ReadRegular(filepath.Join(dir, indexName), maxJournal, false)
	var items []backupIndexItem
	if err != nil || json.Unmarshal(b, &items) != nil || len(items) == 0 {
		return false
	}
	known := map[string]bool{indexName: true}
	for _, it := range items {
		known[it.Backup] = true
	}
	files, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, f := range files {
		if !known[f.Name()] || !f.Type().IsRegular() {
			return false
		}
	}
	for _, it := range items {
		if !filepath.IsAbs(it.Path) || it.Original.IsZero() || strings.ContainsRune(it.Backup, '/') {
			return false
		}
		if cur, ok, err := fsx.HashFile(it.Path); err != nil || !ok || cur != it.Original {
			return false
		}
		if h, err := backupHash(filepath.Join(dir, it.Backup), it); err != nil || h != it.Original {
			return false
		}
	}
	return true
}

// backupHash hashes one backup of an index: its slice of the pack, or a
// version 1 backup file whole.
func backupHash(p string, it backupIndexItem) (fsx.Hash, error) {
	f, err := os.Open(p)
	if err != nil {
		return fsx.Hash{}, err
	}
	defer f.Close()
	if it.Backup != packName {
		return fsx.HashReader(f)
	}
	return fsx.HashReader(io.NewSectionReader(f, it.Offset, it.Size))
}

// Orphan is a run's backup directory without a journal.
type Orphan struct {
	RunID string
	Dir   string
	Files []OrphanFile
}

// OrphanFile is one backup in an orphaned directory. Path and Original
// come from the directory's index; they are empty when it is missing.
type OrphanFile struct {
	Backup   string // absolute path of the backup file, or of the pack that holds it
	Path     string // the file it is the original of
	Original fsx.Hash
	// Packed says the original is Size bytes at Offset in the pack Backup
	// names (with no index, the whole pack).
	Packed       bool
	Offset, Size int64
}

// Orphans lists backup directories that have no journal, with what the
// index written next to the backups says they are the originals of. It
// changes nothing.
func Orphans(stateDir string) ([]Orphan, error) {
	dir := filepath.Join(stateDir, txnDir)
	ents, err := listTxn(dir)
	if err != nil {
		return nil, err
	}
	var out []Orphan
	for _, d := range ents {
		id := d.Name()
		if !d.IsDir() || !validRunID(id) || exists(journalPath(stateDir, id)) || holdsNoBackup(filepath.Join(dir, id)) {
			continue
		}
		o := Orphan{RunID: id, Dir: filepath.Join(dir, id)}
		o.Files = orphanFiles(o.Dir)
		out = append(out, o)
	}
	return out, nil
}

// orphanFiles lists the backups in a run's backup directory, with what its
// index says of each: a file per backup (journal version 1), or a slice of
// the pack per original (a pack without an index is listed whole).
func orphanFiles(dir string) []OrphanFile {
	var items []backupIndexItem
	if b, err := fsx.ReadRegular(filepath.Join(dir, indexName), maxJournal, false); err == nil {
		_ = json.Unmarshal(b, &items)
	}
	var out []OrphanFile
	files, _ := os.ReadDir(dir)
	for _, f := range files {
		p := filepath.Join(dir, f.Name())
		switch {
		case strings.HasSuffix(f.Name(), ".bak"):
			of := OrphanFile{Backup: p}
			for _, it := range items {
				if it.Backup == f.Name() {
					of.Path, of.Original = it.Path, it.Original
				}
			}
			out = append(out, of)
		case f.Name() == packName:
			n := len(out)
			for _, it := range items {
				if it.Backup == packName {
					out = append(out, OrphanFile{Backup: p, Packed: true, Offset: it.Offset, Size: it.Size, Path: it.Path, Original: it.Original})
				}
			}
			if len(out) == n {
				size := int64(0)
				if fi, err := f.Info(); err == nil {
					size = fi.Size()
				}
				out = append(out, OrphanFile{Backup: p, Packed: true, Size: size})
			}
		}
	}
	return out
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
	ents, err := listTxn(dir)
	if err != nil || ents == nil {
		return nil, err
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
	// Leftovers are temporary files beside the run's files that hold
	// neither the original nor the candidate: kept, to be looked at.
	Leftovers []string
}

// RecoverReport is Recover's account of the state dir.
type RecoverReport struct {
	Runs []RunReport
	// Orphans are backup directories without a journal (see Orphans):
	// reported and kept, never deleted.
	Orphans []Orphan
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
	rep.Orphans, err = Orphans(stateDir)
	if err != nil {
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
		names := dirLister()
		for k := range j.Entries {
			rr.Leftovers = append(rr.Leftovers, cleanLeftovers(&j.Entries[k], names)...)
		}
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
	rr.Leftovers = restoreAll(stateDir, j, fsx.Swap{}, getenv)
	for _, e := range j.Entries {
		fr := FileResult{Path: e.Path, Kind: e.Op, Original: e.Original, Candidate: e.Candidate, Status: StatusRestored}
		switch {
		case e.Kept:
			fr.Status, fr.Current, fr.Err, fr.Kept = StatusKept, e.Current, errors.New(e.Note), e.KeptWhy
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
	j, _ := loadJournal(jp)
	dest := filepath.Join(stateDir, keptDir, runID)
	if err := state.MkdirPrivate(dest); err != nil {
		return "", fmt.Errorf("abandon: %w", err)
	}
	if bd := backupDir(stateDir, runID); exists(bd) {
		if err := os.Rename(bd, filepath.Join(dest, "backups")); err != nil {
			return "", fmt.Errorf("abandon: %w", err)
		}
		unpack(filepath.Join(dest, "backups"), j)
	}
	if err := os.Rename(jp, filepath.Join(dest, "journal.json")); err != nil {
		return "", fmt.Errorf("abandon: %w", err)
	}
	if err := fsx.SyncDir(filepath.Join(stateDir, txnDir)); err != nil {
		return "", fmt.Errorf("abandon: %w", err)
	}
	return dest, nil
}

// unpack writes each original a journal's pack holds, verified by its
// hash, to a file of its own (NNNN.bak, by the entry's place) in dir, the
// run's backups once moved aside: a person looking for an original finds
// it as a file. The pack stays; an original that cannot be read out is
// left in it.
func unpack(dir string, j *journal) {
	if j == nil {
		return
	}
	f, err := os.Open(filepath.Join(dir, packName))
	if err != nil {
		return
	}
	defer f.Close()
	for k := range j.Entries {
		e := &j.Entries[k]
		if !packed(e.Backup) {
			continue
		}
		if b, err := sliceOf(f, e); err == nil {
			_ = fsx.WriteNew(filepath.Join(dir, fmt.Sprintf("%04d.bak", k)), b)
		}
	}
	_ = fsx.SyncDir(dir)
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
