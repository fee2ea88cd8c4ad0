package scope

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/jsonfast"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// A session record is an append-only log of small JSON lines, one file per
// session, in the state directory. Appending one short line with O_APPEND is
// atomic on local filesystems, so parallel hook invocations can record
// without a lock and never lose or tear each other's entries. Reading folds
// the log: the last line for a path wins. The record holds absolute paths
// and SHA-256 hashes only, never content.

// Entry is the latest state of one recorded path.
type Entry struct {
	Path string    `json:"path"`
	Hash string    `json:"sha256,omitempty"` // hex; empty with Op "forget"
	Op   string    `json:"op"`               // record, rebaseline, forget, checkout
	At   time.Time `json:"at"`
}

// Ops written to the log.
const (
	OpRecord     = "record"
	OpRebaseline = "rebaseline"
	OpForget     = "forget"
	OpCheckout   = "checkout" // the file was replaced by a git checkout
)

// maxLine keeps every appended line well under PIPE_BUF-sized atomic writes.
const maxLine = 3500

// Record is one session's attribution record.
type Record struct {
	Session string
	file    string
}

// safeID reports whether a session id can name a file as it is: 1 to 128
// of [A-Za-z0-9._-], starting with a letter or digit. (A regexp with a
// {0,127} repetition would cost every process ~0.5 ms to compile at init.)
func safeID(s string) bool {
	if len(s) == 0 || len(s) > 128 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		alnum := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !alnum && (i == 0 || c != '.' && c != '_' && c != '-') {
			return false
		}
	}
	return true
}

func sessionsDir(stateDir string) string { return filepath.Join(stateDir, "sessions") }

// fileName maps a session id to a file name; ids that are not plain are
// hashed so a hostile id cannot name a path.
func fileName(session string) string {
	if safeID(session) {
		return session + ".log"
	}
	sum := sha256.Sum256([]byte(session))
	return "h-" + hex.EncodeToString(sum[:12]) + ".log"
}

// Open returns the record of a session. It creates nothing until the first
// append.
func Open(stateDir, session string) (*Record, error) {
	if strings.TrimSpace(session) == "" {
		return nil, errors.New("empty session id")
	}
	return &Record{Session: session, file: filepath.Join(sessionsDir(stateDir), fileName(session))}, nil
}

// File is where the record lives.
func (r *Record) File() string { return r.file }

// marshal is json.Marshal(e), byte for byte, without its reflection (set up
// again in every hook process, which appends one entry).
func (e *Entry) marshal() ([]byte, error) {
	w := jsonfast.NewWriter(256)
	w.Open()
	w.Str("path", e.Path)
	w.OptStr("sha256", e.Hash)
	w.Str("op", e.Op)
	w.Time("at", e.At)
	w.Close()
	return w.Bytes()
}

func (r *Record) append(entries []Entry) error {
	if len(entries) == 0 {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(r.file), 0o700); err != nil {
		return fmt.Errorf("create session record dir: %w", err)
	}
	f, err := fsx.OpenWriteRegular(r.file, os.O_APPEND, true)
	if err != nil {
		return fmt.Errorf("open session record: %w", err)
	}
	for _, e := range entries {
		line, err := e.marshal()
		if err != nil {
			f.Close()
			return fmt.Errorf("encode record entry: %w", err)
		}
		if len(line) > maxLine {
			f.Close()
			return fmt.Errorf("path too long to record: %.80s (cut)", e.Path)
		}
		// One write per line: the unit the kernel appends atomically.
		if _, err := f.Write(append(line, '\n')); err != nil {
			f.Close()
			return fmt.Errorf("append session record: %w", err)
		}
	}
	// No fsync: a record line lost to a power cut only means a file is not
	// cleaned automatically (the safe direction), and an fsync would cost
	// every agent write a disk flush.
	return f.Close()
}

// Entries folds the log into the latest entry per path, sorted by path.
// Forgotten paths are left out. A torn or foreign line is skipped, never
// fatal: a damaged record can only make the tool clean less.
func (r *Record) Entries() ([]Entry, error) {
	f, _, err := fsx.OpenRegular(r.file, true)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read session record: %w", err)
	}
	defer f.Close()
	latest := map[string]Entry{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for sc.Scan() {
		var e Entry
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || json.Unmarshal(line, &e) != nil || !filepath.IsAbs(e.Path) {
			continue
		}
		latest[e.Path] = e
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read session record: %w", err)
	}
	out := make([]Entry, 0, len(latest))
	for _, e := range latest {
		if e.Op != OpForget {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// OutsideError says a path is not inside the project root: it is never recorded.
type OutsideError struct {
	Path, Root string
}

func (e *OutsideError) Error() string {
	return fmt.Sprintf("%s is outside the project root %s; not recorded", e.Path, e.Root)
}

// Contain resolves path against root and checks it stays inside, both
// lexically and after resolving symlinks of the parent directories. It
// returns the cleaned absolute path.
func Contain(root, path string) (string, error) {
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", fmt.Errorf("resolve project root: %w", err)
	}
	p := path
	if !filepath.IsAbs(p) {
		return "", fmt.Errorf("%s: not an absolute path", path)
	}
	p = filepath.Clean(p)
	if !fsx.Below(root, p) && !fsx.Below(realRoot, p) {
		return "", &OutsideError{Path: path, Root: root}
	}
	// The parent must resolve inside the root too, or a symlinked directory
	// could carry a write outside the project.
	parent, err := filepath.EvalSymlinks(filepath.Dir(p))
	if err == nil && parent != realRoot && !fsx.Below(realRoot, parent) {
		return "", &OutsideError{Path: path, Root: root}
	}
	if fsx.Below(realRoot, p) {
		return p, nil
	}
	// Express the path under the real root so every record uses one spelling.
	rel, _ := filepath.Rel(root, p)
	return filepath.Join(realRoot, rel), nil
}

// HashFile returns the hex SHA-256 of a file's content.
func HashFile(path string) (string, error) {
	h, ok, err := fsx.HashFile(path)
	if err == nil && !ok {
		err = fs.ErrNotExist
	}
	return h.String(), err
}

// Add records paths (absolute, inside root) with their current hashes.
// Paths that are outside the root or unreadable are returned as errors and
// not recorded; the others are.
func (r *Record) Add(root string, paths []string, now time.Time) ([]Entry, []error) {
	in := make([]containedPath, len(paths))
	for i, p := range paths {
		abs, err := Contain(root, p)
		in[i] = containedPath{given: p, abs: abs, err: err}
	}
	return r.add(in, now)
}

// AddContained is Add for paths Contain has just returned: a hook that
// checked each path itself (to tell the files outside the project from the
// others) does not resolve the root and each parent directory again.
func (r *Record) AddContained(paths []string, now time.Time) ([]Entry, []error) {
	in := make([]containedPath, len(paths))
	for i, p := range paths {
		in[i] = containedPath{given: p, abs: p}
	}
	return r.add(in, now)
}

// containedPath is a path as it was given and what Contain returned for it.
type containedPath struct {
	given, abs string
	err        error
}

// add records contained paths with their current hashes; errors name a path as it was given.
func (r *Record) add(paths []containedPath, now time.Time) ([]Entry, []error) {
	var entries []Entry
	var errs []error
	for _, c := range paths {
		p, abs := c.given, c.abs
		if c.err != nil {
			errs = append(errs, c.err)
			continue
		}
		fi, err := os.Lstat(abs)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", p, fsx.Cause(err)))
			continue
		}
		if !fi.Mode().IsRegular() {
			errs = append(errs, fmt.Errorf("%s: not a regular file; not recorded", p))
			continue
		}
		h, err := HashFile(abs)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", p, fsx.Cause(err)))
			continue
		}
		entries = append(entries, Entry{Path: abs, Hash: h, Op: OpRecord, At: now.UTC()})
	}
	if err := r.append(entries); err != nil {
		return nil, append(errs, err)
	}
	return entries, errs
}

// Rebaseline records new hashes for paths the tool itself just changed, so
// its own edit is not mistaken for a human one.
func (r *Record) Rebaseline(hashes map[string]string, now time.Time) error {
	var entries []Entry
	for p, h := range hashes {
		entries = append(entries, Entry{Path: p, Hash: h, Op: OpRebaseline, At: now.UTC()})
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Path < entries[j].Path })
	return r.append(entries)
}

// MarkCheckout marks recorded paths as replaced by a git checkout.
func (r *Record) MarkCheckout(paths []string, now time.Time) error {
	var entries []Entry
	for _, p := range paths {
		entries = append(entries, Entry{Path: p, Op: OpCheckout, At: now.UTC()})
	}
	return r.append(entries)
}

// Forget drops paths from the record; with no paths it deletes the record.
func (r *Record) Forget(paths []string, now time.Time) error {
	if len(paths) == 0 {
		err := os.Remove(r.file)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	var entries []Entry
	for _, p := range paths {
		entries = append(entries, Entry{Path: filepath.Clean(p), Op: OpForget, At: now.UTC()})
	}
	return r.append(entries)
}

// Sessions names every session record in the state dir. A name opens the
// same record again with Open (hashed names are themselves plain ids).
func Sessions(stateDir string) ([]string, error) {
	des, err := os.ReadDir(sessionsDir(stateDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	var out []string
	for _, de := range des {
		if name := de.Name(); strings.HasSuffix(name, ".log") && de.Type().IsRegular() {
			out = append(out, strings.TrimSuffix(name, ".log"))
		}
	}
	return out, nil
}

// Resolve picks the session a command works on: the flag, else
// $PROSEWASH_SESSION (the SessionStart hook exports it to the agent's
// shell), else the session recorded most recently. how says which, for the
// acknowledgement line; id is empty when there is none.
func Resolve(stateDir, flag string, getenv func(string) string) (id, how string, err error) {
	if flag != "" {
		return flag, "", nil
	}
	if s := getenv("PROSEWASH_SESSION"); s != "" {
		return s, " (from PROSEWASH_SESSION)", nil
	}
	s, ok, err := Latest(stateDir)
	if err != nil || !ok {
		return "", "", err
	}
	return s, ", the most recent", nil
}

// Latest names the session recorded most recently for this state directory.
func Latest(stateDir string) (string, bool, error) {
	dir := sessionsDir(stateDir)
	des, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("list sessions: %w", err)
	}
	var best string
	var bestT time.Time
	for _, de := range des {
		name := de.Name()
		if !strings.HasSuffix(name, ".log") || strings.HasPrefix(name, "h-") {
			continue
		}
		fi, err := de.Info()
		if err != nil {
			continue
		}
		if best == "" || fi.ModTime().After(bestT) || (fi.ModTime().Equal(bestT) && name > best) {
			best, bestT = strings.TrimSuffix(name, ".log"), fi.ModTime()
		}
	}
	return best, best != "", nil
}
