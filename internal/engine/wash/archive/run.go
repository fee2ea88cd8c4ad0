package archive

import (
	"bufio"
	"compress/gzip"
	"crypto/rand"
	"encoding/hex"
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
	"github.com/prosewash/prosewash/internal/engine/txn"
)

// ManifestVersion versions manifest.json.
const ManifestVersion = 1

// ManifestName is the manifest's file name in an archived session's directory.
const ManifestName = "manifest.json"

// Manifest lists one archived session: every file, with what restore checks it against.
type Manifest struct {
	Version int    `json:"version"`
	Session string `json:"session"`
	// Store is the transcript directory the files came from; Project the project root.
	Store    string         `json:"store"`
	Project  string         `json:"project"`
	RunID    string         `json:"run_id"`
	Created  time.Time      `json:"created"`
	Tool     string         `json:"tool"`
	Level    int            `json:"gzip_level"`
	Files    []ManifestFile `json:"files"`
	Bytes    int64          `json:"bytes"`
	Newest   time.Time      `json:"newest"`
	Subagent int            `json:"subagents,omitempty"`
}

// ManifestFile is one archived file.
type ManifestFile struct {
	Rel     string      `json:"rel"`
	Archive string      `json:"archive"` // relative to the session's archive directory
	Size    int64       `json:"size"`
	MTime   time.Time   `json:"mtime"`
	Mode    fs.FileMode `json:"mode"`
	SHA256  string      `json:"sha256"`
}

// SessionResult is what a run did with one unit.
type SessionResult struct {
	ID         string `json:"id"`
	Band       string `json:"band"`
	Why        string `json:"why,omitempty"`
	Files      int    `json:"files"`
	Bytes      int64  `json:"bytes"`
	Compressed int64  `json:"compressed,omitempty"`
	Archive    string `json:"archive,omitempty"`
	Archived   bool   `json:"archived"`
	Err        string `json:"error,omitempty"`
	// Left are entries of the session directory that are not part of the unit: not archived,
	// not deleted.
	Left []string `json:"left,omitempty"`
}

// Report is one archive run.
type Report struct {
	DryRun     bool            `json:"dry_run"`
	Store      string          `json:"store"`
	Archive    string          `json:"archive"`
	Sessions   []SessionResult `json:"sessions"`
	Archived   int             `json:"archived"`
	Freed      int64           `json:"bytes_freed"`
	Compressed int64           `json:"bytes_compressed"`
}

// newRunID names an archive run; sortable by time.
func newRunID(now time.Time) string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return now.UTC().Format("20060102T150405") + "-" + hex.EncodeToString(b[:])
}

// Run archives every eligible unit (only those named in only, when given), one transaction per
// unit: each file is hashed as it is listed, compressed and verified by internal/engine/txn, a manifest
// is created with them, and only then are the originals deleted by compare-and-swap. A unit
// that fails is undone and reported; the others go on. DryRun lists what would happen and
// writes nothing.
func Run(o Options, dryRun bool, only []string) (Report, error) {
	rep := Report{DryRun: dryRun, Store: o.Store, Archive: o.Archive}
	units, err := List(o)
	if err != nil {
		return rep, err
	}
	if !dryRun {
		pruneEmpty(o.Archive)
	}
	want := map[string]bool{}
	for _, id := range only {
		want[id] = true
	}
	var batch []Unit
	var batchBytes int64
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		results, err := archiveBatch(o, batch)
		batch, batchBytes = nil, 0
		for _, sr := range results {
			if sr.Archived {
				rep.Archived++
				rep.Freed += sr.Bytes
				rep.Compressed += sr.Compressed
			}
			rep.Sessions = append(rep.Sessions, sr)
		}
		return err
	}
	for _, u := range units {
		if len(want) > 0 && !want[u.ID] {
			continue
		}
		if u.Band != Eligible || dryRun {
			rep.Sessions = append(rep.Sessions, SessionResult{ID: u.ID, Band: u.Band, Why: u.Why, Files: len(u.Files), Bytes: u.Bytes, Left: u.Unknown})
			continue
		}
		batch = append(batch, u)
		batchBytes += u.Bytes
		if len(batch) >= batchSessions || batchBytes >= batchBytesMax {
			if err := flush(); err != nil {
				return rep, err
			}
		}
	}
	if err := flush(); err != nil {
		return rep, err
	}
	return rep, nil
}

// A batch of units shares one transaction (its journal's fsyncs are the cost of a run); a
// batch that fails is retried unit by unit, so one changed session never holds back the rest.
const (
	batchSessions = 16
	batchBytesMax = 256 << 20
)

// archiveBatch archives units in one transaction; when it fails for a reason other than a
// pending or locked run, each unit is tried alone.
func archiveBatch(o Options, units []Unit) ([]SessionResult, error) {
	results, err := archiveUnits(o, units)
	if err == nil || len(units) == 1 {
		return results, err
	}
	var pend *txn.PendingError
	var locked *txn.LockedError
	if errors.As(err, &pend) || errors.As(err, &locked) {
		return results, err
	}
	results = nil
	for _, u := range units {
		r, err := archiveUnits(o, []Unit{u})
		results = append(results, r...)
		if errors.As(err, &pend) || errors.As(err, &locked) {
			return results, err
		}
	}
	return results, nil
}

// archiveUnits archives units in one all-or-nothing transaction: every file an Archive
// operation, every unit a manifest. On failure each unit's result carries the error and
// nothing of any of them is archived.
func archiveUnits(o Options, units []Unit) ([]SessionResult, error) {
	now := o.now()
	runID := newRunID(now)
	var ops []txn.Op
	var dirs []string
	results := make([]SessionResult, len(units))
	for i, u := range units {
		results[i] = SessionResult{ID: u.ID, Band: u.Band, Files: len(u.Files), Bytes: u.Bytes, Left: u.Unknown}
		uops, dir, err := unitOps(o, u, runID, now)
		results[i].Archive = dir
		if err != nil {
			for j := range results[:i+1] {
				results[j].Err = err.Error()
			}
			return results[:i+1], err
		}
		ops = append(ops, uops...)
		dirs = append(dirs, dir)
	}
	_, err := txn.Run(txn.Options{Root: o.Root, Roots: []string{o.Store, o.Archive}, StateDir: o.StateDir, Getenv: o.Getenv,
		AllOrNothing: true, RunID: "archive-" + runID}, ops, nil)
	if err != nil {
		for i := range results {
			results[i].Err = err.Error()
			pruneTree(dirs[i]) // empty after an undone run; nothing is removed while it holds a file
		}
		return results, err
	}
	for i, u := range units {
		results[i].Archived = true
		_ = filepath.WalkDir(dirs[i], func(p string, d fs.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, ".gz") {
				if fi, err := d.Info(); err == nil {
					results[i].Compressed += fi.Size()
				}
			}
			return nil
		})
		pruneUnitDir(o, u)
	}
	return results, nil
}

// unitOps lists one unit's operations: each file hashed now (the transaction checks the
// original still hashes to it while compressing, and again immediately before deleting it),
// then the manifest.
func unitOps(o Options, u Unit, runID string, now time.Time) ([]txn.Op, string, error) {
	dir := filepath.Join(o.Archive, u.ID+"@"+runID)
	m := Manifest{Version: ManifestVersion, Session: u.ID, Store: o.Store, Project: o.Root, RunID: runID, Created: now.UTC(),
		Tool: o.Version, Level: txn.ArchiveLevel, Bytes: u.Bytes, Newest: u.Newest, Subagent: u.Subagents}
	var ops []txn.Op
	for _, f := range u.Files {
		p := filepath.Join(o.Store, filepath.FromSlash(f.Rel))
		// The hash at listing: the transaction checks the original still hashes to it while
		// compressing, and again immediately before deleting it.
		h, ok, err := fsx.HashFile(p)
		if err != nil || !ok {
			return nil, dir, fmt.Errorf("hash %s: %v", f.Rel, errOr(err, "gone"))
		}
		fi, err := os.Lstat(p)
		if err != nil || fi.Size() != f.Size || !fi.ModTime().Equal(f.MTime) {
			return nil, dir, &fsx.ConflictError{Path: p, Expected: h}
		}
		arch := f.Rel + ".gz"
		m.Files = append(m.Files, ManifestFile{Rel: f.Rel, Archive: arch, Size: f.Size, MTime: f.MTime, Mode: f.Mode, SHA256: h.String()})
		ops = append(ops, txn.Op{Kind: txn.Archive, Path: p, Expect: h, To: filepath.Join(dir, filepath.FromSlash(arch)), Size: f.Size, ModTime: f.MTime})
	}
	mb, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, dir, err
	}
	ops = append(ops, txn.Op{Kind: txn.Create, Path: filepath.Join(dir, ManifestName), Data: append(mb, '\n'), Mode: 0o600})
	if err := state.MkdirPrivate(dir); err != nil {
		return nil, dir, fmt.Errorf("archive directory: %w", err)
	}
	return ops, dir, nil
}

func errOr(err error, s string) any {
	if err != nil {
		return err
	}
	return s
}

// pruneUnitDir removes the session directory's now empty directories, bottom up, with a
// non-recursive rmdir: a directory that still holds anything (an unknown entry) stays.
func pruneUnitDir(o Options, u Unit) { pruneTree(filepath.Join(o.Store, u.ID)) }

// pruneEmpty removes the empty session directories an undone run (or one killed and
// recovered) left in the archive directory: nothing in them, nothing lost.
func pruneEmpty(archiveDir string) {
	ents, err := os.ReadDir(archiveDir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if sid, _, ok := strings.Cut(e.Name(), "@"); ok && e.IsDir() && validID(sid) {
			pruneTree(filepath.Join(archiveDir, e.Name()))
		}
	}
}

// pruneTree removes a tree's empty directories bottom up (rmdir of an empty directory only).
func pruneTree(root string) {
	var dirs []string
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			dirs = append(dirs, p)
		}
		return nil
	})
	sort.Slice(dirs, func(i, j int) bool { return len(dirs[i]) > len(dirs[j]) })
	for _, d := range dirs {
		_ = syscallRmdir(d)
	}
}

// hasFiles reports whether a tree holds anything but directories.
func hasFiles(root string) bool {
	found := false
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

// syscallRmdir removes an empty directory only.
func syscallRmdir(p string) error {
	fi, err := os.Lstat(p)
	if err != nil || !fi.IsDir() {
		return err
	}
	ents, err := os.ReadDir(p)
	if err != nil || len(ents) > 0 {
		return err
	}
	return os.Remove(p)
}

// Archived is one archived session as the archive directory holds it.
type Archived struct {
	Session    string    `json:"session"`
	RunID      string    `json:"run_id"`
	Dir        string    `json:"dir"`
	Created    time.Time `json:"created"`
	Newest     time.Time `json:"newest"`
	Files      int       `json:"files"`
	Bytes      int64     `json:"bytes"`
	Compressed int64     `json:"compressed"`
	Err        string    `json:"error,omitempty"`
}

// ListArchived reads the archive directory: one entry per archived session and run, newest
// first. A directory without a readable manifest is listed with an error, never guessed.
func ListArchived(archiveDir string) ([]Archived, error) {
	ents, err := os.ReadDir(archiveDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Archived
	for _, e := range ents {
		sid, run, ok := strings.Cut(e.Name(), "@")
		if !ok || !e.IsDir() || !validID(sid) {
			continue
		}
		a := Archived{Session: sid, RunID: run, Dir: filepath.Join(archiveDir, e.Name())}
		if dirBytes(a.Dir) == 0 && !hasFiles(a.Dir) {
			continue // left empty by an undone run
		}
		m, err := readManifest(a.Dir)
		if err != nil {
			a.Err = err.Error()
			out = append(out, a)
			continue
		}
		a.Created, a.Newest, a.Files, a.Bytes = m.Created, m.Newest, len(m.Files), m.Bytes
		for _, f := range m.Files {
			if fi, err := os.Stat(filepath.Join(a.Dir, filepath.FromSlash(f.Archive))); err == nil {
				a.Compressed += fi.Size()
			}
		}
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].RunID > out[j].RunID })
	return out, nil
}

func readManifest(dir string) (Manifest, error) {
	var m Manifest
	b, _, err := fsx.ReadFile(filepath.Join(dir, ManifestName), 64<<20)
	if err != nil {
		return m, fmt.Errorf("manifest: %w", err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("manifest %s: %w", dir, err)
	}
	if m.Version != ManifestVersion {
		return m, fmt.Errorf("manifest %s: version %d is not one this build reads", dir, m.Version)
	}
	for _, f := range m.Files {
		if !filepath.IsLocal(filepath.FromSlash(f.Rel)) || !filepath.IsLocal(filepath.FromSlash(f.Archive)) {
			return m, fmt.Errorf("manifest %s: path %q leaves its directory", dir, f.Rel)
		}
	}
	return m, nil
}

// RestoreResult is what Restore did.
type RestoreResult struct {
	Session  string   `json:"session"`
	From     string   `json:"from"`
	Restored []string `json:"restored"`
	Present  []string `json:"already_present,omitempty"`
}

// ConflictError refuses a restore over a file that exists with other content.
type ConflictError struct{ Path string }

func (e *ConflictError) Error() string {
	return fmt.Sprintf("%s exists with other content; restore never overwrites a file (nothing was written)", e.Path)
}

// Restore puts an archived session back into the store from its newest archive: every file
// is decompressed as a stream and written only if it hashes to the manifest's sha256, with its
// mode and modification time, never over an existing file. It checks every file before
// writing any: a file that exists with other content (a live session's) refuses the whole
// restore; one that exists with the archived content is already restored. The archive stays.
func Restore(o Options, session string) (RestoreResult, error) {
	res := RestoreResult{Session: session}
	if !validID(session) {
		return res, fmt.Errorf("restore: %q is not a session id", session)
	}
	all, err := ListArchived(o.Archive)
	if err != nil {
		return res, err
	}
	var from *Archived
	for i := range all {
		if all[i].Session == session && all[i].Err == "" {
			from = &all[i]
			break
		}
	}
	if from == nil {
		return res, fmt.Errorf("restore: no archive of session %s in %s", session, o.Archive)
	}
	res.From = from.Dir
	m, err := readManifest(from.Dir)
	if err != nil {
		return res, err
	}
	todo := []ManifestFile{}
	for _, f := range m.Files {
		p := filepath.Join(o.Store, filepath.FromSlash(f.Rel))
		want, err := fsx.ParseHash(f.SHA256)
		if err != nil || want.IsZero() {
			return res, fmt.Errorf("manifest %s: %s has no usable sha256", from.Dir, f.Rel)
		}
		cur, ok, err := fsx.HashFile(p)
		switch {
		case err != nil:
			return res, err
		case ok && cur == want:
			res.Present = append(res.Present, f.Rel)
		case ok:
			return res, &ConflictError{Path: p}
		default:
			todo = append(todo, f)
		}
	}
	for _, f := range todo {
		p := filepath.Join(o.Store, filepath.FromSlash(f.Rel))
		if err := restoreFile(o.Store, p, filepath.Join(from.Dir, filepath.FromSlash(f.Archive)), f); err != nil {
			return res, err
		}
		res.Restored = append(res.Restored, f.Rel)
	}
	return res, nil
}

func restoreFile(store, p, archive string, f ManifestFile) error {
	want, _ := fsx.ParseHash(f.SHA256)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	if real, err := filepath.EvalSymlinks(filepath.Dir(p)); err != nil || !fsx.Inside(store, real) && real != store {
		return fmt.Errorf("restore %s: its directory resolves outside the store", f.Rel)
	}
	in, _, err := fsx.OpenRegular(archive, false)
	if err != nil {
		return fmt.Errorf("restore %s: %w", f.Rel, err)
	}
	defer in.Close()
	zr, err := gzip.NewReader(bufio.NewReaderSize(in, 256<<10))
	if err != nil {
		return fmt.Errorf("restore %s: %w", f.Rel, err)
	}
	zr.Multistream(false)
	if err := fsx.CreateFrom(p, io.Reader(zr), want, f.Mode, f.MTime, ""); err != nil {
		return fmt.Errorf("restore %s: %w", f.Rel, err)
	}
	return nil
}
