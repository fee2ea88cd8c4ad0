package bins

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/state"
)

// MetaSchema is the version of meta.json; an event with another version is listed but never
// restored or destroyed.
const MetaSchema = 1

// Item operations: what the run did to the file whose original bytes the item holds.
const (
	OpRewrite  = "rewrite"  // the file was rewritten; the item is its whole original
	OpDelete   = "delete"   // the file was deleted; the item is its whole original
	OpSnapshot = "snapshot" // a write-guard copy taken before an agent's first write
)

// Item is one file of an event.
type Item struct {
	N    int    `json:"n"`
	Path string `json:"path"` // absolute path the bytes came from
	Op   string `json:"op"`
	// Original hashes the banked bytes; Result is what the run installed (zero for a delete
	// or a snapshot), so a restore can tell whether the file was touched since.
	Original fsx.Hash `json:"original"`
	Result   fsx.Hash `json:"result,omitempty"`
	Bytes    int64    `json:"bytes"`
	// RemovedLines counts the original's lines absent from the result; Tokens estimates the cut.
	RemovedLines int `json:"removed_lines,omitempty"`
	Tokens       int `json:"tokens,omitempty"`
	// Cuts names the kinds of cut (duplicate-line, delete, shrink, ...), never content.
	Cuts []string `json:"cuts,omitempty"`
}

// Meta describes one event.
type Meta struct {
	Schema  int       `json:"schema"`
	ID      string    `json:"id"`
	Bin     string    `json:"bin"`
	At      time.Time `json:"at"`
	Run     string    `json:"run,omitempty"`     // the transaction's run id
	Session string    `json:"session,omitempty"` // the agent session, for write-guard snapshots
	Reason  string    `json:"reason,omitempty"`  // e.g. "quick", "plan <file>", a judge
	// Committed is false until the run that made the cut committed: an interrupted or
	// rolled-back run leaves an event whose files were restored (harmless, still a copy).
	Committed bool        `json:"committed"`
	Restored  []time.Time `json:"restored,omitempty"`
	Items     []Item      `json:"items"`
	// Bytes is the sum of the items' bytes.
	Bytes int64 `json:"bytes"`
}

// Store is the bins directory of one project's state dir.
type Store struct{ dir string }

// Open returns the store under stateDir, creating it private.
func Open(stateDir string) (*Store, error) {
	dir := filepath.Join(stateDir, "wash", "bins")
	if err := state.MkdirPrivate(dir); err != nil {
		return nil, fmt.Errorf("open bins: %w", err)
	}
	return &Store{dir: dir}, nil
}

// OpenReadOnly returns the store without creating anything (for listings).
func OpenReadOnly(stateDir string) *Store {
	return &Store{dir: filepath.Join(stateDir, "wash", "bins")}
}

// DeathLog is the path of the death log.
func (s *Store) DeathLog() string { return filepath.Join(s.dir, "death.log") }

// NewID returns an event id: the bin, the time (sortable) and random hex.
func NewID(bin string, at time.Time) string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return bin + "-" + at.UTC().Format("20060102T150405") + "-" + hex.EncodeToString(b[:])
}

// ValidID reports whether id can name an event: a known bin prefix and nothing that could
// leave the bin directory.
func ValidID(id string) bool {
	bin, _, ok := strings.Cut(id, "-")
	if !ok || !validBin(bin) || len(id) > 80 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

func validBin(bin string) bool { return bin == Quick || bin == Plan || bin == Guard }

// ParseRef splits "ID" or "ID.N" (one file of an event); n is -1 for the whole event.
func ParseRef(ref string) (id string, n int, err error) {
	id, ns, one := strings.Cut(ref, ".")
	if !ValidID(id) {
		return "", 0, fmt.Errorf("bin reference %q is not an event id", ref)
	}
	n = -1
	if one {
		n, err = strconv.Atoi(ns)
		if err != nil || n < 0 {
			return "", 0, fmt.Errorf("bin reference %q: bad item number", ref)
		}
	}
	return id, n, nil
}

// Add banks an event: every original in data[i] becomes item i of m (whose Path, Op, Result
// and counters the caller fills). The event is written to a temporary directory, fsynced,
// renamed into place and read back before Add returns; it is not committed yet.
func (s *Store) Add(m Meta, data [][]byte) (Meta, error) {
	if !validBin(m.Bin) {
		return m, fmt.Errorf("bank cut: unknown bin %q", m.Bin)
	}
	if len(data) != len(m.Items) {
		return m, errors.New("bank cut: items and data differ in length")
	}
	if m.ID == "" {
		m.ID = NewID(m.Bin, m.At)
	}
	if !ValidID(m.ID) || !strings.HasPrefix(m.ID, m.Bin+"-") {
		return m, fmt.Errorf("bank cut: invalid event id %q", m.ID)
	}
	m.Schema = MetaSchema
	m.Bytes = 0
	for i := range m.Items {
		m.Items[i].N = i
		m.Items[i].Original = fsx.SHA256(data[i])
		m.Items[i].Bytes = int64(len(data[i]))
		m.Bytes += int64(len(data[i]))
	}
	binDir := filepath.Join(s.dir, m.Bin)
	if err := state.MkdirPrivate(binDir); err != nil {
		return m, fmt.Errorf("bank cut: %w", err)
	}
	final := filepath.Join(binDir, m.ID)
	tmp := filepath.Join(binDir, ".tmp-"+m.ID)
	_ = os.RemoveAll(tmp)
	if err := os.Mkdir(tmp, 0o700); err != nil {
		return m, fmt.Errorf("bank cut: %w", err)
	}
	fail := func(err error) (Meta, error) {
		_ = os.RemoveAll(tmp)
		return m, fmt.Errorf("bank cut: %w", err)
	}
	for i, b := range data {
		if err := fsx.WriteNew(filepath.Join(tmp, itemName(i)), b); err != nil {
			return fail(err)
		}
	}
	mb, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fail(err)
	}
	if err := fsx.WriteNew(filepath.Join(tmp, "meta.json"), mb); err != nil {
		return fail(err)
	}
	if err := fsx.SyncDir(tmp); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp, final); err != nil {
		return fail(err)
	}
	if err := fsx.SyncDir(binDir); err != nil {
		return m, fmt.Errorf("bank cut: %w", err)
	}
	// Read back: a cut must not be made on the strength of a copy that is not there.
	for i := range m.Items {
		if _, err := s.Read(m, i); err != nil {
			return m, fmt.Errorf("bank cut: read back: %w", err)
		}
	}
	return m, nil
}

func itemName(i int) string { return strconv.Itoa(i) + ".orig" }

// Commit marks an event as belonging to a committed run.
func (s *Store) Commit(m Meta) (Meta, error) {
	m.Committed = true
	return m, s.saveMeta(m)
}

// MarkRestored records that the event (or one of its files) was put back at t.
func (s *Store) MarkRestored(m Meta, t time.Time) (Meta, error) {
	m.Restored = append(m.Restored, t.UTC())
	return m, s.saveMeta(m)
}

func (s *Store) saveMeta(m Meta) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := state.WriteFile(filepath.Join(s.dir, m.Bin, m.ID, "meta.json"), b); err != nil {
		return fmt.Errorf("update bin event %s: %w", m.ID, err)
	}
	return nil
}

// Discard removes an event that was banked for a run that then rolled back: its files were
// never cut, so nothing is destroyed and nothing is logged. A committed event is refused.
func (s *Store) Discard(m Meta) error {
	cur, err := s.Get(m.ID)
	if err != nil {
		return err
	}
	if cur.Committed {
		return fmt.Errorf("discard %s: the event belongs to a committed run", m.ID)
	}
	return os.RemoveAll(filepath.Join(s.dir, m.Bin, m.ID))
}

// Get reads one event's meta.
func (s *Store) Get(id string) (Meta, error) {
	if !ValidID(id) {
		return Meta{}, fmt.Errorf("bin event %q: invalid id", id)
	}
	bin, _, _ := strings.Cut(id, "-")
	return s.readMeta(filepath.Join(s.dir, bin, id))
}

func (s *Store) readMeta(dir string) (Meta, error) {
	var m Meta
	fi, err := os.Lstat(dir)
	if err != nil {
		return m, fmt.Errorf("bin event %s: %w", filepath.Base(dir), fsx.Cause(err))
	}
	if !fi.IsDir() {
		return m, fmt.Errorf("bin event %s: not a directory", filepath.Base(dir))
	}
	b, _, err := fsx.ReadFile(filepath.Join(dir, "meta.json"), 16<<20)
	if err != nil {
		return m, fmt.Errorf("bin event %s: %w", filepath.Base(dir), err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("bin event %s: unreadable meta: %w", filepath.Base(dir), err)
	}
	if m.ID != filepath.Base(dir) {
		return m, fmt.Errorf("bin event %s: meta names %q", filepath.Base(dir), m.ID)
	}
	return m, nil
}

// Read returns item n's banked bytes, verified against their hash.
func (s *Store) Read(m Meta, n int) ([]byte, error) {
	if n < 0 || n >= len(m.Items) {
		return nil, fmt.Errorf("bin event %s has no item %d", m.ID, n)
	}
	b, id, err := fsx.ReadFile(filepath.Join(s.dir, m.Bin, m.ID, itemName(n)), 0)
	if err != nil {
		return nil, fmt.Errorf("bin item %s.%d: %w", m.ID, n, err)
	}
	if id.Hash != m.Items[n].Original {
		return nil, fmt.Errorf("bin item %s.%d is damaged (hash %s, want %s)", m.ID, n, id.Hash.Short(), m.Items[n].Original.Short())
	}
	return b, nil
}

// List returns a bin's events, newest first. Unreadable events are returned as errors and
// left alone.
func (s *Store) List(bin string) ([]Meta, []error) {
	ents, err := os.ReadDir(filepath.Join(s.dir, bin))
	if err != nil {
		if os.IsNotExist(err) {
			return nil, nil
		}
		return nil, []error{fmt.Errorf("list bin %s: %w", bin, err)}
	}
	var out []Meta
	var errs []error
	for _, d := range ents {
		if !d.IsDir() || strings.HasPrefix(d.Name(), ".") {
			continue
		}
		m, err := s.readMeta(filepath.Join(s.dir, bin, d.Name()))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].At.Equal(out[j].At) {
			return out[i].At.After(out[j].At)
		}
		return out[i].ID > out[j].ID
	})
	return out, errs
}

// SweepReport is what one sweep of a bin did.
type SweepReport struct {
	Bin       string
	Destroyed []Death
	Kept      int
	Conflict  *Conflict
	// Errors are events that could not be destroyed (they stay listed).
	Errors []error
}

// Sweep applies Retain to a bin and destroys what it decides, logging each verified
// destruction. Only a real wash run may call it: nothing else ever deletes a cut.
func (s *Store) Sweep(bin string, now time.Time, p Policy) SweepReport {
	rep := SweepReport{Bin: bin}
	metas, errs := s.List(bin)
	rep.Errors = errs
	var evs []Event
	byID := map[string]Meta{}
	for _, m := range metas {
		if m.Schema != MetaSchema {
			continue // a newer layout: not ours to judge
		}
		evs = append(evs, Event{ID: m.ID, At: m.At, Bytes: m.Bytes})
		byID[m.ID] = m
	}
	d := Retain(evs, now, p)
	rep.Kept, rep.Conflict = len(d.Keep), d.Conflict
	for _, death := range d.Destroy {
		m := byID[death.ID]
		dir := filepath.Join(s.dir, bin, death.ID)
		err := os.RemoveAll(dir)
		if _, lerr := os.Lstat(dir); err == nil && !os.IsNotExist(lerr) {
			err = errors.New("still present after removal")
		}
		if err != nil {
			rep.Errors = append(rep.Errors, fmt.Errorf("destroy %s: %w", death.ID, err))
			rep.Kept++
			continue
		}
		rep.Destroyed = append(rep.Destroyed, death)
		line := fmt.Sprintf("%s destroyed %s (bin %s, age %s, rule %s, %d file(s), %d bytes)",
			now.UTC().Format(time.RFC3339), death.ID, bin, ageText(death.Age), death.Rule, len(m.Items), m.Bytes)
		if err := s.appendLog(line); err != nil {
			rep.Errors = append(rep.Errors, err)
		}
	}
	if len(rep.Destroyed) > 0 {
		_ = fsx.SyncDir(filepath.Join(s.dir, bin))
	}
	if d.Conflict != nil {
		line := fmt.Sprintf("%s cap-conflict bin %s kept %d bytes > budget %d bytes: the 48h keep-all floor and the newest event exceed the cap; nothing under 48h is ever evicted",
			now.UTC().Format(time.RFC3339), bin, d.Conflict.Kept, d.Conflict.Budget)
		if err := s.appendLog(line); err != nil {
			rep.Errors = append(rep.Errors, err)
		}
	}
	return rep
}

func (s *Store) appendLog(line string) error {
	// Never a plain open: one of a FIFO put there waits for a reader for ever.
	f, err := fsx.OpenWriteRegular(s.DeathLog(), os.O_APPEND, false)
	if err != nil {
		return fmt.Errorf("death log: %w", err)
	}
	if _, err := f.WriteString(line + "\n"); err != nil {
		_ = f.Close()
		return fmt.Errorf("death log: %w", err)
	}
	if err := f.Sync(); err != nil {
		_ = f.Close()
		return fmt.Errorf("death log: %w", err)
	}
	return f.Close()
}

// ReadDeathLog returns the death log's lines (none when there is no log).
func (s *Store) ReadDeathLog() ([]string, error) {
	b, err := fsx.ReadRegular(s.DeathLog(), 0, false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("death log: %w", err)
	}
	return strings.Split(strings.TrimRight(string(b), "\n"), "\n"), nil
}

func ageText(d time.Duration) string {
	if d >= Day {
		return fmt.Sprintf("%dd", int(d/Day))
	}
	return fmt.Sprintf("%dh", int(d/time.Hour))
}
