package txn

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/state"
)

// State is the journal's phase.
type State string

// Journal states. The happy path is prepared -> installed -> validating ->
// committed; a failure goes rolling-back -> restored. committed and
// restored are terminal: recovery only cleans them up.
const (
	StatePrepared    State = "prepared"
	StateInstalled   State = "installed"
	StateValidating  State = "validating"
	StateCommitted   State = "committed"
	StateRollingBack State = "rolling-back"
	StateRestored    State = "restored"
)

func (s State) terminal() bool { return s == StateCommitted || s == StateRestored }

func (s State) known() bool {
	switch s {
	case StatePrepared, StateInstalled, StateValidating, StateCommitted, StateRollingBack, StateRestored:
		return true
	}
	return false
}

// journalVersion is bumped on any incompatible change; recovery refuses a
// journal it does not know rather than guess. Version 2 keeps a run's
// backups in one pack (BackupOffset, BackupSize); version 1, a file per
// backup, is still recovered.
const journalVersion = 2

// oldestJournal is the oldest version recovery still reads.
const oldestJournal = 1

// Layout inside the state dir.
const (
	txnDir  = "txn"  // <runid>.json journals and <runid>/ backups
	keptDir = "kept" // originals of files that were not restored
	// maxJournal bounds what recovery will parse.
	maxJournal = 64 << 20
)

// journal is the durable record of one run. Every field recovery needs to
// decide what to do is here, and decisions are made from hashes, so the
// journal may lag the files by one step without harm.
type journal struct {
	Version int       `json:"version"`
	RunID   string    `json:"run_id"`
	PID     int       `json:"pid"`
	Root    string    `json:"root"`
	Roots   []string  `json:"roots,omitempty"` // Options.Roots, resolved
	State   State     `json:"state"`
	Test    bool      `json:"test,omitempty"`
	Started time.Time `json:"started"`
	Updated time.Time `json:"updated"`
	Entries []entry   `json:"entries"`
}

// entry is one file of a run.
type entry struct {
	Path      string   `json:"path"` // realpath-resolved, inside Root
	Op        OpKind   `json:"op"`
	Mode      uint32   `json:"mode"`             // permission bits to restore a deleted file with
	Original  fsx.Hash `json:"original_hash"`    // zero for create
	Candidate fsx.Hash `json:"candidate_hash"`   // zero for delete
	Backup    string   `json:"backup,omitempty"` // relative to the state dir
	// BackupOffset and BackupSize say where in the pack Backup names the
	// original is (journal version 2).
	BackupOffset int64      `json:"backup_offset,omitempty"`
	BackupSize   int64      `json:"backup_size,omitempty"`
	Intent       bool       `json:"intent"`                 // the swap is about to happen or happened
	Done         bool       `json:"done"`                   // the swap happened
	Restored     bool       `json:"restored,omitempty"`     // rolled back (or never installed)
	Kept         bool       `json:"kept,omitempty"`         // changed since install: left as found
	Current      fsx.Hash   `json:"current_hash,omitempty"` // for Kept: what is there now
	Note         string     `json:"note,omitempty"`         // why Kept
	KeptWhy      KeptReason `json:"kept_why,omitempty"`
	// Temp is the temporary name (beside Path) of the swap in progress,
	// recorded before the temporary file is created, so that what a killed
	// process leaves there is found and removed by name.
	Temp string `json:"temp,omitempty"`
	// Archive: the compressed copy, its hash once verified (zero until then), and the
	// original's identity for the compare-and-swap delete.
	Archive     string   `json:"archive,omitempty"`
	ArchiveHash fsx.Hash `json:"archive_hash,omitempty"`
	Size        int64    `json:"size,omitempty"`
	MTime       int64    `json:"mtime_ns,omitempty"`
	Dev         uint64   `json:"dev,omitempty"`
	Ino         uint64   `json:"ino,omitempty"`
	HasID       bool     `json:"has_id,omitempty"`
	// Skip marks an entry left out after Prepare (its archive failed and the run goes on).
	Skip bool `json:"skip,omitempty"`
}

func journalPath(stateDir, runID string) string {
	return filepath.Join(stateDir, txnDir, runID+".json")
}

func backupDir(stateDir, runID string) string { return filepath.Join(stateDir, txnDir, runID) }

func (j *journal) save(stateDir string) error {
	j.Updated = time.Now().UTC()
	b, err := json.MarshalIndent(j, "", "  ")
	if err != nil {
		return fmt.Errorf("encode journal: %w", err)
	}
	if err := state.WriteFile(journalPath(stateDir, j.RunID), b); err != nil {
		return fmt.Errorf("write journal: %w", err)
	}
	return nil
}

// loadJournal reads a journal without trusting it; see verify.
func loadJournal(path string) (*journal, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, &PoisonedError{Journal: path, Reason: "not a regular file"}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxJournal+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxJournal {
		return nil, &PoisonedError{Journal: path, Reason: "journal too large"}
	}
	var j journal
	if err := json.Unmarshal(b, &j); err != nil {
		return nil, fmt.Errorf("%s: unreadable journal: %w", path, err)
	}
	return &j, nil
}

// validRunID keeps run ids usable as file names and nothing else.
func validRunID(id string) bool {
	if id == "" || len(id) > 100 || id[0] == '.' {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// verify refuses a journal that recovery must not act on: unknown version
// or state, a run id that does not match its file, a root other than the
// trusted one, a path outside the root (lexically or through a symlink),
// inside .git, or listed twice, a backup outside this run's backup dir, or
// hashes that do not fit the operation. trustedRoot, when not empty, is the
// caller's realpath'd project root, and trustedExtra the further roots it
// trusts: a journal naming an extra root the caller does not trust is
// refused.
func (j *journal) verify(file, trustedRoot string, trustedExtra []string) error {
	bad := func(format string, a ...any) error {
		return &PoisonedError{Journal: file, Reason: fmt.Sprintf(format, a...)}
	}
	if err := j.verifyHeader(bad, file, trustedRoot); err != nil {
		return err
	}
	roots, realRoots, err := j.verifyRoots(bad, trustedRoot, trustedExtra)
	if err != nil {
		return err
	}
	pl := &placer{bad: bad, roots: roots, realRoots: realRoots, seen: map[string]bool{}}
	for i, e := range j.Entries {
		if err := j.verifyEntry(bad, pl, i, e); err != nil {
			return err
		}
	}
	return nil
}

// badFunc makes the refusal of a poisoned journal.
type badFunc func(format string, a ...any) error

// verifyHeader checks the version, the run id against the journal's file
// name, the state and the root.
func (j *journal) verifyHeader(bad badFunc, file, trustedRoot string) error {
	if j.Version < oldestJournal || j.Version > journalVersion {
		return bad("unknown journal version %d", j.Version)
	}
	if !validRunID(j.RunID) || j.RunID+".json" != filepath.Base(file) {
		return bad("run id %q does not match the journal's name", j.RunID)
	}
	if !j.State.known() {
		return bad("unknown state %q", j.State)
	}
	if !filepath.IsAbs(j.Root) || filepath.Clean(j.Root) != j.Root {
		return bad("root %q is not a clean absolute path", j.Root)
	}
	if trustedRoot != "" && j.Root != trustedRoot {
		return bad("root %q is not this project (%s)", j.Root, trustedRoot)
	}
	return nil
}

// verifyRoots returns the journal's roots, the project root first, as
// recorded and resolved; an extra root the caller does not trust, or one
// that is not clean, absolute and below the filesystem root, is refused.
func (j *journal) verifyRoots(bad badFunc, trustedRoot string, trustedExtra []string) (roots, realRoots []string, err error) {
	realRoot, err := filepath.EvalSymlinks(j.Root)
	if err != nil {
		return nil, nil, bad("root %q cannot be resolved: %v", j.Root, err)
	}
	roots, realRoots = []string{j.Root}, []string{realRoot}
	for _, r := range j.Roots {
		if !filepath.IsAbs(r) || filepath.Clean(r) != r || r == filepath.Dir(r) {
			return nil, nil, bad("root %q is not a clean absolute path below the filesystem root", r)
		}
		if trustedRoot != "" && !slices.Contains(trustedExtra, r) {
			return nil, nil, bad("root %q is not trusted by this caller", r)
		}
		rr, err := filepath.EvalSymlinks(r)
		if err != nil {
			return nil, nil, bad("root %q cannot be resolved: %v", r, err)
		}
		roots, realRoots = append(roots, r), append(realRoots, rr)
	}
	return roots, realRoots, nil
}

// placer checks the paths a journal names against its roots.
type placer struct {
	bad              badFunc
	roots, realRoots []string
	seen             map[string]bool
}

// placed checks a path a journal names: clean, absolute, strictly inside a recorded root
// (lexically and once resolved), outside .git, and named once in the journal.
func (pl *placer) placed(i int, what, p string) error {
	bad := pl.bad
	k := slices.IndexFunc(pl.roots, func(r string) bool { return p != r && fsx.Inside(r, p) })
	if !filepath.IsAbs(p) || filepath.Clean(p) != p || k < 0 {
		return bad("entry %d: %s %q is outside the recorded root", i, what, p)
	}
	if inGitDir(p, pl.roots[k]) {
		return bad("entry %d: %s %q is inside .git", i, what, p)
	}
	if rp := fsx.ResolveExisting(filepath.Dir(p)); !fsx.Inside(pl.realRoots[k], rp) {
		return bad("entry %d: %s %q resolves outside the root", i, what, p)
	}
	if pl.seen[p] {
		return bad("entry %d: %s %q listed twice", i, what, p)
	}
	pl.seen[p] = true
	return nil
}

// verifyEntry checks entry i: its path, mode, hashes for its operation,
// an archive's file, its temporary name and its backup's place.
func (j *journal) verifyEntry(bad badFunc, pl *placer, i int, e entry) error {
	if err := pl.placed(i, "path", e.Path); err != nil {
		return err
	}
	if e.Mode&^uint32(fs.ModePerm) != 0 {
		return bad("entry %d: mode %o is not permission bits", i, e.Mode)
	}
	if err := entryHashes(bad, i, e); err != nil {
		return err
	}
	if e.Op == Archive {
		return pl.placed(i, "archive", e.Archive)
	}
	if e.Temp != "" && !fsx.IsTempFor(e.Path, e.Temp) {
		return bad("entry %d: temporary name %q is not one prosewash gives %q", i, e.Temp, e.Path)
	}
	if e.Op == Create {
		return nil
	}
	return j.verifyBackup(bad, i, e)
}

// entryHashes checks that an entry's hashes and backup fit its operation.
func entryHashes(bad badFunc, i int, e entry) error {
	switch e.Op {
	case Replace:
		if e.Original.IsZero() || e.Candidate.IsZero() {
			return bad("entry %d: replace without both hashes", i)
		}
	case Create:
		if !e.Original.IsZero() || e.Candidate.IsZero() || e.Backup != "" {
			return bad("entry %d: create with an original", i)
		}
	case Delete:
		if e.Original.IsZero() || !e.Candidate.IsZero() {
			return bad("entry %d: delete with a candidate", i)
		}
	case Archive:
		if e.Original.IsZero() || !e.Candidate.IsZero() || e.Backup != "" {
			return bad("entry %d: archive with a candidate or a backup", i)
		}
	default:
		return bad("entry %d: unknown operation %q", i, e.Op)
	}
	return nil
}

// verifyBackup checks that a replace's or delete's backup is in this run's
// backup directory, at a place its kind can have.
func (j *journal) verifyBackup(bad badFunc, i int, e entry) error {
	wantPrefix := txnDir + "/" + j.RunID + "/"
	b := filepath.ToSlash(e.Backup)
	if !filepath.IsLocal(e.Backup) || !strings.HasPrefix(b, wantPrefix) || strings.Contains(b[len(wantPrefix):], "/") {
		return bad("entry %d: backup %q is outside this run's backup directory", i, e.Backup)
	}
	if e.BackupOffset < 0 || e.BackupSize < 0 || (!packed(e.Backup) && (e.BackupOffset != 0 || e.BackupSize != 0)) {
		return bad("entry %d: backup %q has a place (%d, %d bytes) it cannot have", i, e.Backup, e.BackupOffset, e.BackupSize)
	}
	return nil
}

// inGitDir reports whether p has a ".git" element below root.
func inGitDir(p, root string) bool {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return true
	}
	for _, el := range strings.Split(rel, string(filepath.Separator)) {
		if strings.EqualFold(el, ".git") {
			return true
		}
	}
	return false
}
