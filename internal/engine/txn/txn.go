package txn

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/state"
)

// OpKind says what an operation does to its file.
type OpKind string

// The operations.
const (
	// Replace swaps new bytes in for a file whose content hashes to Expect.
	Replace OpKind = "replace"
	// Create writes a file where none exists.
	Create OpKind = "create"
	// Delete removes a file whose content hashes to Expect. Deletes run
	// last, after every replace and create of the run has been installed.
	Delete OpKind = "delete"
	// Archive moves a file into a gzip copy at To. Prepare writes the copy
	// (a temporary file beside To, fsync, rename, directory fsync) and reads
	// it back as a stream: its bytes hash as written and it decompresses to
	// Expect. The copy is the backup: nothing is kept in the state dir and the
	// file is never read whole into memory. Install deletes the original, last
	// like a Delete, by compare-and-swap on its size, modification time, inode
	// and hash, checked immediately before the unlink. Rollback and Recover put
	// a deleted original back from its copy and then remove the copy, so an
	// undone run leaves no archive behind.
	Archive OpKind = "archive"
)

// Op is one file of a run.
type Op struct {
	Kind OpKind
	// Path is absolute and must resolve (through symlinked parents) inside
	// Options.Root; the file itself must not be a symlink or hard-linked.
	Path string
	// Data is the new content (Replace, Create).
	Data []byte
	// Expect is the hash the file had when the caller read it (Replace,
	// Delete). Anything else found on disk is somebody else's work.
	Expect fsx.Hash
	// Mode is the permission of a created file (default 0644). A replaced
	// file keeps its own mode bits.
	Mode fs.FileMode
	// To is where an Archive writes its copy: inside Root or Roots, and free.
	To string
	// Size and ModTime are the original's when the caller listed it
	// (Archive): a file that no longer matches is a conflict. A zero ModTime
	// is not checked.
	Size    int64
	ModTime time.Time
}

// DefaultMaxFileSize bounds the files a run reads.
const DefaultMaxFileSize = 16 << 20

// Options configure a run.
type Options struct {
	// Root is the project root; every path must resolve inside it or
	// inside one of Roots.
	Root string
	// Roots are further directories a run may write in, for files that
	// belong to the project but live outside it (the memory lane's
	// ~/.claude/projects/<slug>/memory). Each must exist; the state dir
	// must lie outside every one of them. They are journalled, and
	// Recover acts on such a journal only when its caller trusts them
	// too (RecoverOptions.Roots).
	Roots []string
	// StateDir is the private per-repository directory (state.Dir).
	StateDir string
	// Guard runs at Begin (before any write), immediately before each
	// file's swap, and before Commit. It is the git guard
	// (gitstate.Guard.Check) in a repository; nil means no guard, and the
	// per-file hash compare is then the only protection.
	Guard func() error
	// Getenv reads PROSEWASH_FAILPOINT; nil disables failpoints.
	Getenv func(string) string
	// LockWait is how long to wait for another run's lock: 0 means
	// DefaultLockWait, a negative value means do not wait.
	LockWait time.Duration
	// MaxFileSize refuses larger files; 0 means DefaultMaxFileSize.
	MaxFileSize int64
	// AllOrNothing makes a conflict or refusal on any file stop the whole
	// run and restore every file (the wash lane: a merge must never lose
	// its source). Otherwise such a file is reported and the rest proceed.
	AllOrNothing bool
	// Test installs, validates and always rolls back (prosewash test).
	Test bool
	// RefuseOtherOpeners leaves a file alone (refused) when any other
	// process has it open or mapped at all, a reader included, not only
	// a process that could write it (see fsx.Swap): for unattended runs,
	// which nobody watches to run again.
	RefuseOtherOpeners bool
	// RunID names the run; generated when empty.
	RunID string
}

// Status is what happened to one file.
type Status string

// File statuses.
const (
	StatusPending   Status = "pending"   // prepared, not installed yet
	StatusUnchanged Status = "unchanged" // the new content equals the old: nothing to do
	StatusConflict  Status = "conflict"  // changed by someone else before the swap: left alone
	StatusRefused   Status = "refused"   // symlink, hard link, too large, outside the root, unreadable
	StatusSkipped   Status = "skipped"   // not attempted: the run stopped first
	StatusInstalled Status = "installed" // new content in place, not committed yet
	StatusCommitted Status = "committed" // new content in place for good
	StatusRestored  Status = "restored"  // back to the original
	StatusKept      Status = "kept"      // changed after install: left as found, original kept aside
)

// FileResult reports one file. Hashes are zero where they do not apply
// (Original for Create, Candidate for Delete, Current for an absent file).
type FileResult struct {
	Path      string
	Kind      OpKind
	Status    Status
	Original  fsx.Hash
	Candidate fsx.Hash
	Current   fsx.Hash
	Err       error // why it is refused, conflicting or kept
	// Kept says, for StatusKept, why the file was left as found.
	Kept KeptReason
}

// KeptReason says why a rollback or recovery left a file as it found it.
type KeptReason string

// Reasons for keeping a file.
const (
	// KeptEdited: the file changed (or was deleted, or appeared) after the
	// run touched it; that work is never overwritten.
	KeptEdited KeptReason = "edited"
	// KeptBackup: the file still holds the run's candidate, but the
	// backup of its original is missing or damaged, so there is nothing
	// safe to restore.
	KeptBackup KeptReason = "backup"
	// KeptFailed: the file could not be inspected or written.
	KeptFailed KeptReason = "failed"
)

// keptError is why restoreOne keeps a file.
type keptError struct {
	why KeptReason
	msg string
}

func (e *keptError) Error() string { return e.msg }

func keptf(why KeptReason, format string, a ...any) error {
	return &keptError{why: why, msg: fmt.Sprintf(format, a...)}
}

// Result reports a run.
type Result struct {
	RunID string
	State State // last journal state; "" when nothing had to be journalled
	Files []FileResult
	// ValidationErr is what the validation hook returned.
	ValidationErr error
	// KeptDir holds the originals of kept files (and a manifest), when any.
	KeptDir string
}

type phase int

const (
	phaseBegun phase = iota
	phasePrepared
	phaseInstalled
	phaseValidating
	phaseDone
)

// Tx is one run under the repository's lock. Its steps are called in
// order: Prepare, Install, optionally Validate, then Commit or Rollback;
// Close always (it rolls back whatever was not committed and releases the
// lock). A Tx is not safe for concurrent use.
type Tx struct {
	opts     Options
	root     string
	roots    []string // resolved Options.Roots
	stateDir string
	runID    string
	lock     *lock
	phase    phase
	j        *journal // nil when nothing needed journalling
	data     [][]byte // candidate bytes per journal entry
	idx      []int    // journal entry -> index in files
	files    []FileResult
	result   Result
}

// Begin takes the repository's lock (waiting at most LockWait), refuses
// while an interrupted journal is pending ([*PendingError]; terminal
// leftovers are cleaned up), and runs the guard once before anything is
// written ([*GuardError]).
func Begin(opts Options) (*Tx, error) {
	if opts.Root == "" || !filepath.IsAbs(opts.Root) {
		return nil, fmt.Errorf("begin: root %q must be an absolute path", opts.Root)
	}
	root, err := filepath.EvalSymlinks(opts.Root)
	if err != nil {
		return nil, fmt.Errorf("begin: root: %w", err)
	}
	if opts.StateDir == "" || !filepath.IsAbs(opts.StateDir) {
		return nil, fmt.Errorf("begin: state dir %q must be an absolute path", opts.StateDir)
	}
	if fi, err := os.Lstat(opts.StateDir); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("begin: state dir %s is not a directory", opts.StateDir)
	}
	if fsx.Inside(root, fsx.ResolveExisting(opts.StateDir)) {
		return nil, fmt.Errorf("begin: %s: %w", opts.StateDir, state.ErrInsideRepo)
	}
	roots, err := extraRoots(opts.Roots, opts.StateDir)
	if err != nil {
		return nil, err
	}
	if err := state.MkdirPrivate(filepath.Join(opts.StateDir, txnDir)); err != nil {
		return nil, fmt.Errorf("begin: %w", err)
	}
	runID := opts.RunID
	if runID == "" {
		runID = newRunID()
	}
	if !validRunID(runID) {
		return nil, fmt.Errorf("begin: invalid run id %q", runID)
	}
	wait := opts.LockWait
	if wait == 0 {
		wait = DefaultLockWait
	}
	lk, err := acquire(filepath.Join(opts.StateDir, lockName), LockInfo{PID: os.Getpid(), RunID: runID, Since: time.Now().UTC()}, wait)
	if err != nil {
		return nil, err
	}
	t := &Tx{opts: opts, root: root, roots: roots, stateDir: opts.StateDir, runID: runID, lock: lk}
	t.result.RunID = runID
	if t.opts.MaxFileSize == 0 {
		t.opts.MaxFileSize = DefaultMaxFileSize
	}
	pending, err := sweep(t.stateDir)
	if err == nil && len(pending) > 0 {
		err = &PendingError{RunIDs: pending}
	}
	if err == nil {
		err = t.guard("start")
	}
	if err != nil {
		_ = lk.release()
		return nil, err
	}
	return t, nil
}

// Prepare checks every operation, reads every original, writes backups
// (fsynced and read back) and the journal "prepared". No user file is
// touched. A file that cannot be taken is reported (refused, conflict) and
// left out; with AllOrNothing it stops the run with an [*AbortedError]
// before anything is written.
func (t *Tx) Prepare(ops []Op) error {
	if t.phase != phaseBegun {
		return ErrPhase
	}
	b, err := t.takeAll(ops)
	if err != nil {
		return err
	}
	if err := t.allOrNothing(); err != nil {
		return err
	}
	t.phase = phasePrepared
	if len(b.entries) == 0 {
		return nil
	}
	return t.record(b)
}

// batch is what Prepare takes: the journal's entries and, entry by entry,
// the candidate's bytes, the original's bytes (nil for a create or an
// archive) and the operation's index.
type batch struct {
	entries     []entry
	data, origs [][]byte
	idx         []int
}

func (b *batch) add(e entry, data, orig []byte, i int) {
	b.entries = append(b.entries, e)
	b.data = append(b.data, data)
	b.origs = append(b.origs, orig)
	b.idx = append(b.idx, i)
}

// takeAll checks and takes every operation, each with its FileResult; an
// operation that is malformed, or names a file twice, is an error for the
// whole run.
func (t *Tx) takeAll(ops []Op) (*batch, error) {
	t.files = make([]FileResult, len(ops))
	seen := map[string]int{}
	b := &batch{}
	for i := range ops {
		if err := t.take(ops, i, seen, b); err != nil {
			return nil, err
		}
	}
	return b, nil
}

// take checks operation i and adds it to the batch, or records in its
// FileResult why it is left out (refused, conflict, unchanged).
func (t *Tx) take(ops []Op, i int, seen map[string]int, b *batch) error {
	op := ops[i]
	fr := &t.files[i]
	*fr = FileResult{Path: op.Path, Kind: op.Kind, Original: op.Expect, Status: StatusPending}
	if err := checkOp(op, fr); err != nil {
		return err
	}
	real, err := t.resolve(op.Path)
	if err != nil {
		fr.Status, fr.Err = StatusRefused, err
		return nil
	}
	if prev, dup := seen[real]; dup {
		return fmt.Errorf("prepare: %s: listed twice (also as %s)", op.Path, ops[prev].Path)
	}
	seen[real] = i
	e := entry{Path: real, Op: op.Kind, Original: fr.Original, Candidate: fr.Candidate}
	switch op.Kind {
	case Archive:
		return t.takeArchive(ops, i, real, e, seen, b)
	case Create:
		if takeCreate(op, real, &e, fr) {
			b.add(e, op.Data, nil, i)
		}
	default:
		if orig, ok := t.takeOriginal(op, real, &e, fr); ok {
			b.add(e, op.Data, orig, i)
		}
	}
	return nil
}

// checkOp refuses an operation without the hashes its kind needs and sets
// the hashes its FileResult reports.
func checkOp(op Op, fr *FileResult) error {
	switch op.Kind {
	case Replace, Delete, Archive:
		if op.Expect.IsZero() {
			return fmt.Errorf("prepare: %s: %s without the original's hash", op.Path, op.Kind)
		}
	case Create:
		fr.Original = fsx.Hash{}
	default:
		return fmt.Errorf("prepare: %s: unknown operation %q", op.Path, op.Kind)
	}
	if op.Kind != Delete && op.Kind != Archive {
		fr.Candidate = fsx.SHA256(op.Data)
	}
	return nil
}

// takeArchive adds an archive operation with the archive file it writes,
// which no other operation may name.
func (t *Tx) takeArchive(ops []Op, i int, real string, e entry, seen map[string]int, b *batch) error {
	op, fr := ops[i], &t.files[i]
	if err := t.prepareArchive(op, real, &e, fr); err != nil {
		setFailed(fr, err)
		return nil
	}
	if prev, dup := seen[e.Archive]; dup {
		return fmt.Errorf("prepare: %s: archive %s listed twice (also by %s)", op.Path, e.Archive, ops[prev].Path)
	}
	seen[e.Archive] = i
	b.add(e, nil, nil, i)
	return nil
}

// takeCreate reports whether a create can be taken: nothing may be at its
// path yet. It sets the entry's mode (0644 unless the operation says).
func takeCreate(op Op, real string, e *entry, fr *FileResult) bool {
	if fi, err := os.Lstat(real); err == nil {
		if fi.Mode().IsRegular() {
			fr.Current, _, _ = fsx.HashFile(real)
		}
		fr.Status, fr.Err = StatusConflict, &fsx.ConflictError{Path: op.Path, Actual: fr.Current}
		return false
	} else if !os.IsNotExist(err) {
		fr.Status, fr.Err = StatusRefused, err
		return false
	}
	mode := op.Mode.Perm()
	if mode == 0 {
		mode = 0o644
	}
	e.Mode = uint32(mode)
	return true
}

// takeOriginal reads the original a replace or delete expects and returns
// its bytes for the backup; false when it is gone, refused, not the
// expected one or already the candidate.
func (t *Tx) takeOriginal(op Op, real string, e *entry, fr *FileResult) ([]byte, bool) {
	b, id, err := fsx.ReadFile(real, t.opts.MaxFileSize)
	switch {
	case os.IsNotExist(err):
		fr.Status, fr.Err = StatusConflict, &fsx.ConflictError{Path: op.Path, Expected: op.Expect}
		return nil, false
	case err != nil:
		fr.Status, fr.Err = StatusRefused, err
		return nil, false
	}
	fr.Current = id.Hash
	if id.Hash != op.Expect {
		fr.Status, fr.Err = StatusConflict, &fsx.ConflictError{Path: op.Path, Expected: op.Expect, Actual: id.Hash}
		return nil, false
	}
	if op.Kind == Replace && fr.Candidate == op.Expect {
		fr.Status = StatusUnchanged
		return nil, false
	}
	e.Mode = uint32(id.Mode.Perm())
	return b, true
}

// allOrNothing stops an AllOrNothing run before anything is written when
// any file was refused or had changed.
func (t *Tx) allOrNothing() error {
	if !t.opts.AllOrNothing {
		return nil
	}
	for _, fr := range t.files {
		if fr.Status == StatusConflict || fr.Status == StatusRefused {
			t.skipPending()
			t.phase = phaseDone
			return &AbortedError{Path: fr.Path, Err: fr.Err}
		}
	}
	return nil
}

// record writes the batch's backups and its journal "prepared", then the
// archives; a failure before the journal leaves nothing behind.
func (t *Tx) record(b *batch) error {
	if err := writeBackups(t.stateDir, t.runID, b.entries, b.origs); err != nil {
		_ = os.RemoveAll(backupDir(t.stateDir, t.runID))
		t.phase = phaseDone
		t.skipPending()
		return fmt.Errorf("prepare: %w", err)
	}
	failpoint(t.opts.Getenv, FailBackedUp)
	now := time.Now().UTC()
	t.j = &journal{Version: journalVersion, RunID: t.runID, PID: os.Getpid(), Root: t.root, Roots: t.roots,
		State: StatePrepared, Test: t.opts.Test, Started: now, Entries: b.entries}
	t.data, t.idx = b.data, b.idx
	if err := t.j.save(t.stateDir); err != nil {
		_ = os.Remove(journalPath(t.stateDir, t.runID))
		_ = os.RemoveAll(backupDir(t.stateDir, t.runID))
		t.j = nil
		t.phase = phaseDone
		t.skipPending()
		return fmt.Errorf("prepare: %w", err)
	}
	t.result.State = StatePrepared
	if err := t.writeArchives(); err != nil {
		return t.abort(err)
	}
	failpoint(t.opts.Getenv, FailPrepared)
	return nil
}

// Install swaps every prepared file in, replaces and creates first and
// deletes last. Immediately before each swap the guard runs (a refusal
// stops the run and restores what was installed: [*GuardError]) and the
// swap itself is a compare-and-swap on the original hash: a file changed
// by someone else is reported as a conflict and never overwritten (with
// AllOrNothing the run stops and is restored: [*AbortedError]).
//
// The journal is written a constant number of times, whatever the number
// of files: one save records every intent with its temporary name before
// the first swap, and one records the run installed after the last, once
// each directory that was written is fsynced (once per batch, not once
// per file). A swap that fails is journalled at once, so that a recovery
// never mistakes its file for one the run changed. Recovery decides from
// hashes, so a journal that lags the files by a batch costs nothing.
func (t *Tx) Install() error {
	if t.phase != phasePrepared {
		return ErrPhase
	}
	if t.j == nil {
		t.phase = phaseInstalled
		return nil
	}
	var first, last []int // replaces and creates; deletes and archives
	for _, k := range installOrder(t.j.Entries) {
		e := &t.j.Entries[k]
		if e.Skip {
			continue
		}
		tmp, err := fsx.TempName(e.Path, tempSuffix(e.Op))
		if err != nil {
			return t.abort(fmt.Errorf("install: %w", err))
		}
		e.Intent, e.Temp = true, tmp
		if e.Op == Delete || e.Op == Archive {
			last = append(last, k)
		} else {
			first = append(first, k)
		}
	}
	if len(first)+len(last) > 0 {
		if err := t.j.save(t.stateDir); err != nil {
			return t.abort(fmt.Errorf("install: %w", err))
		}
		failpoint(t.opts.Getenv, FailInstallingOne)
	}
	fired := false
	for _, batch := range [][]int{first, last} {
		if err := t.installBatch(batch, &fired); err != nil {
			return err
		}
	}
	t.j.State = StateInstalled
	if err := t.j.save(t.stateDir); err != nil {
		return t.abort(fmt.Errorf("install: %w", err))
	}
	t.result.State = StateInstalled
	t.phase = phaseInstalled
	failpoint(t.opts.Getenv, FailInstalled)
	return nil
}

// installBatch swaps the entries ks in, each through its journalled
// temporary name, then fsyncs every directory it wrote in, once. The
// first swap fires the installed-one failpoint.
func (t *Tx) installBatch(ks []int, fired *bool) error {
	dirs := map[string]bool{}
	sw := t.swap()
	sw.DeferDirSync = true
	for _, k := range ks {
		e := &t.j.Entries[k]
		fr := &t.files[t.idx[k]]
		if err := t.guard("install"); err != nil {
			return t.abort(err)
		}
		dirs[filepath.Dir(e.Path)] = true
		if err := apply(e, t.data[k], sw); err != nil && !landed(e) {
			if err := t.installFailed(e, fr, err); err != nil {
				return err
			}
			if err := t.j.save(t.stateDir); err != nil {
				return t.abort(fmt.Errorf("install: %w", err))
			}
			continue
		}
		e.Done = true
		fr.Status = StatusInstalled
		if e.Op != Archive {
			fr.Current = fr.Candidate
		}
		if !*fired {
			*fired = true
			failpoint(t.opts.Getenv, FailInstalledOne)
		}
	}
	if err := syncDirs(dirs); err != nil {
		return t.abort(fmt.Errorf("install: %w", err))
	}
	return nil
}

// installFailed records a swap that did not happen (the file is refused or conflicting and
// left as found); with AllOrNothing it stops the run and restores what was installed.
func (t *Tx) installFailed(e *entry, fr *FileResult, err error) error {
	e.Intent = false
	fr.Current, _, _ = fsx.HashFile(e.Path)
	setFailed(fr, err)
	if t.opts.AllOrNothing {
		return t.abort(&AbortedError{Path: fr.Path, Err: err})
	}
	return nil
}

// setFailed gives a file its failure: a conflict when someone else's content is in the way,
// else a refusal.
func setFailed(fr *FileResult, err error) {
	fr.Err = err
	fr.Status = StatusRefused
	if errors.Is(err, fsx.ErrConflict) {
		fr.Status = StatusConflict
	}
}

// abort marks what was not attempted as skipped, restores what was
// installed and returns err (joined with any rollback error).
func (t *Tx) abort(err error) error {
	t.skipPending()
	return errors.Join(err, t.rollback())
}

func (t *Tx) skipPending() {
	for i := range t.files {
		if t.files[i].Status == StatusPending {
			t.files[i].Status = StatusSkipped
		}
	}
}

// installOrder puts deletes last, keeping the caller's order otherwise.
func installOrder(es []entry) []int {
	var out, dels []int
	for i, e := range es {
		if e.Op == Delete || e.Op == Archive {
			dels = append(dels, i)
		} else {
			out = append(out, i)
		}
	}
	return append(out, dels...)
}

// swap is how the run's compare-and-swaps go, but for the temporary name.
func (t *Tx) swap() fsx.Swap { return fsx.Swap{RefuseOtherOpeners: t.opts.RefuseOtherOpeners} }

// apply swaps the entry's file through its recorded temporary name.
func apply(e *entry, data []byte, sw fsx.Swap) error {
	sw.Temp = e.Temp
	switch e.Op {
	case Replace:
		return fsx.ReplaceWith(e.Path, data, e.Original, sw)
	case Create:
		return fsx.CreateWith(e.Path, data, fs.FileMode(e.Mode), sw)
	case Delete:
		return fsx.RemoveWith(e.Path, e.Original, sw)
	case Archive:
		return removeArchived(e, sw)
	}
	return fmt.Errorf("%s: unknown operation %q", e.Path, e.Op)
}

// tempSuffix is the kind of temporary name an operation uses.
func tempSuffix(op OpKind) string {
	if op == Delete || op == Archive {
		return "del"
	}
	return "tmp"
}

// landed tells from the file itself whether a swap that reported an error
// happened anyway (e.g. the directory fsync failed after the rename).
func landed(e *entry) bool {
	cur, ok, err := fsx.HashFile(e.Path)
	if err != nil {
		return false
	}
	if e.Op == Delete || e.Op == Archive {
		return !ok
	}
	return ok && cur == e.Candidate
}

// Installed returns how many files are installed.
func (t *Tx) Installed() int {
	n := 0
	for _, f := range t.files {
		if f.Status == StatusInstalled {
			n++
		}
	}
	return n
}

// Validation is handed to the validation hook while the journal says
// "validating".
type Validation struct{ t *Tx }

// Failpoint fires the "validating" failpoint. The caller invokes it while
// its validation command is running, so a test can kill the process at the
// worst moment.
func (v *Validation) Failpoint() { failpoint(v.t.opts.Getenv, FailValidating) }

// Installed lists the installed paths, as the caller gave them.
func (v *Validation) Installed() []string {
	var out []string
	for _, f := range v.t.files {
		if f.Status == StatusInstalled {
			out = append(out, f.Path)
		}
	}
	return out
}

// Validate records "validating" in the journal and runs fn, whose error is
// returned and kept in the Result. The caller then commits or rolls back.
func (t *Tx) Validate(fn func(*Validation) error) error {
	if t.phase != phaseInstalled {
		return ErrPhase
	}
	if t.j != nil {
		t.j.State = StateValidating
		if err := t.j.save(t.stateDir); err != nil {
			return t.abort(fmt.Errorf("validate: %w", err))
		}
		t.result.State = StateValidating
	}
	t.phase = phaseValidating
	err := fn(&Validation{t: t})
	t.result.ValidationErr = err
	return err
}

// Commit makes the run final: the guard runs once more (a repository that
// moved during validation means the validation did not check what is now
// in place, so the run is rolled back: [*GuardError]), then the journal
// says "committed" and the backups and journal are removed.
func (t *Tx) Commit() error {
	if t.opts.Test {
		return ErrTestRun
	}
	if t.phase != phaseInstalled && t.phase != phaseValidating {
		return ErrPhase
	}
	if err := t.guard("commit"); err != nil {
		return t.abort(err)
	}
	if t.j != nil {
		t.j.State = StateCommitted
		if err := t.j.save(t.stateDir); err != nil {
			return t.abort(fmt.Errorf("commit: %w", err))
		}
		t.result.State = StateCommitted
		failpoint(t.opts.Getenv, FailCommitted)
		_ = cleanup(t.stateDir, t.runID)
	}
	for i := range t.files {
		if t.files[i].Status == StatusInstalled {
			t.files[i].Status = StatusCommitted
		}
	}
	t.phase = phaseDone
	return nil
}

// Rollback restores every installed file whose content is still the
// candidate; a file changed since install is kept as found and reported
// with both hashes (its original is copied to Result.KeptDir).
func (t *Tx) Rollback() error {
	switch t.phase {
	case phasePrepared, phaseInstalled, phaseValidating:
		return t.rollback()
	}
	return ErrPhase
}

func (t *Tx) rollback() error {
	t.phase = phaseDone
	if t.j == nil {
		return nil
	}
	t.j.State = StateRollingBack
	saveErr := t.j.save(t.stateDir)
	t.result.State = StateRollingBack
	failpoint(t.opts.Getenv, FailRollingBack)
	restoreAll(t.stateDir, t.j, t.swap(), t.opts.Getenv)
	for k, e := range t.j.Entries {
		fr := &t.files[t.idx[k]]
		switch {
		case e.Kept:
			fr.Status, fr.Current, fr.Err, fr.Kept = StatusKept, e.Current, errors.New(e.Note), e.KeptWhy
		case e.Restored && (fr.Status == StatusInstalled):
			fr.Status, fr.Current = StatusRestored, e.Original
		}
	}
	var keptErr error
	if anyKept(t.j) {
		t.result.KeptDir, keptErr = preserveKept(t.stateDir, t.j)
		if keptErr != nil {
			// The originals could not be copied aside: keep the journal so
			// recover (and a human) still has them.
			_ = t.j.save(t.stateDir)
			return fmt.Errorf("rollback: keep originals: %w", keptErr)
		}
	}
	t.j.State = StateRestored
	if err := t.j.save(t.stateDir); err != nil {
		return fmt.Errorf("rollback: %w", errors.Join(saveErr, err))
	}
	t.result.State = StateRestored
	failpoint(t.opts.Getenv, FailRestored)
	return cleanup(t.stateDir, t.runID)
}

// Result returns the run's report so far.
func (t *Tx) Result() Result {
	r := t.result
	r.Files = append([]FileResult(nil), t.files...)
	return r
}

// Close rolls back anything installed but not committed and releases the
// lock. It is safe to call more than once.
func (t *Tx) Close() error {
	var err error
	switch t.phase {
	case phasePrepared, phaseInstalled, phaseValidating:
		err = t.rollback()
	}
	if t.lock != nil {
		if rerr := t.lock.release(); err == nil {
			err = rerr
		}
		t.lock = nil
	}
	return err
}

// Run is the whole transaction: Begin, Prepare, Install, validate (when
// validate is not nil), then Commit, or Rollback on a failed validation
// ([*ValidationError]). In test mode it always rolls back, and a failed
// validation is reported in Result.ValidationErr, not as an error.
func Run(opts Options, ops []Op, validate func(*Validation) error) (res Result, err error) {
	t, err := Begin(opts)
	if err != nil {
		return Result{}, err
	}
	defer func() {
		if cerr := t.Close(); cerr != nil {
			err = errors.Join(err, cerr)
		}
		res = t.Result()
	}()
	if err := t.Prepare(ops); err != nil {
		return Result{}, err
	}
	if err := t.Install(); err != nil {
		return Result{}, err
	}
	if t.Installed() == 0 {
		if opts.Test {
			return Result{}, t.Rollback()
		}
		return Result{}, t.Commit()
	}
	var verr error
	if validate != nil {
		verr = t.Validate(validate)
	}
	if opts.Test {
		return Result{}, t.Rollback()
	}
	if verr != nil {
		return Result{}, errors.Join(&ValidationError{Err: verr}, t.Rollback())
	}
	return Result{}, t.Commit()
}

// resolve makes p absolute and real (symlinked parents resolved) and
// checks that it lies inside the root and outside .git.
func (t *Tx) resolve(p string) (string, error) {
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("%s: not an absolute path", p)
	}
	p = filepath.Clean(p)
	dir, base := filepath.Dir(p), filepath.Base(p)
	rdir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", err
	}
	real := filepath.Join(rdir, base)
	root := containing(real, append([]string{t.root}, t.roots...))
	if root == "" {
		return "", fmt.Errorf("%s: %w", p, ErrOutsideRoot)
	}
	if inGitDir(real, root) {
		return "", fmt.Errorf("%s: %w", p, ErrGitDir)
	}
	return real, nil
}

// extraRoots resolves Options.Roots: absolute, existing directories, none
// holding the state dir (a run must never be able to write its own journal).
func extraRoots(in []string, stateDir string) ([]string, error) {
	var out []string
	for _, r := range in {
		if !filepath.IsAbs(r) {
			return nil, fmt.Errorf("begin: root %q must be an absolute path", r)
		}
		real, err := filepath.EvalSymlinks(r)
		if err != nil {
			return nil, fmt.Errorf("begin: root: %w", err)
		}
		if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("begin: root %s is not a directory", r)
		}
		if fsx.Inside(real, fsx.ResolveExisting(stateDir)) {
			return nil, fmt.Errorf("begin: %s: state dir inside the root %s", stateDir, r)
		}
		if !slices.Contains(out, real) {
			out = append(out, real)
		}
	}
	return out, nil
}

// containing returns the first root that holds p (strictly below it), or "".
func containing(p string, roots []string) string {
	for _, r := range roots {
		if p != r && fsx.Inside(r, p) {
			return r
		}
	}
	return ""
}

func (t *Tx) guard(stage string) error {
	if t.opts.Guard == nil {
		return nil
	}
	if err := t.opts.Guard(); err != nil {
		return &GuardError{Stage: stage, Err: err}
	}
	return nil
}

// newRunID is sortable by start time and unique across processes.
func newRunID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return time.Now().UTC().Format("20060102T150405") + "-" + strconv.Itoa(os.Getpid()) + "-" + hex.EncodeToString(b[:])
}
