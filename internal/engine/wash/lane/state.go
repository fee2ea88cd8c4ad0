package lane

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strconv"
	"time"

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/state"
	"github.com/prosewash/prosewash/internal/engine/wash/gauge"
)

// StateSchema versions State; another version is ignored (the lane starts un-armed).
const StateSchema = 1

// maxHistory bounds the footprint history.
const maxHistory = 60 // every hook parses the state: keep it small

// State is what the lane remembers between runs and sessions.
type State struct {
	Schema int `json:"schema"`
	// Gen counts saves; the newer of the two state slots wins (see saveState).
	Gen uint64 `json:"gen"`
	// Band is the gauge's hysteresis state and the last snapshot the Stop hook rechecks.
	Band    gauge.State    `json:"band"`
	Verdict *gauge.Verdict `json:"verdict,omitempty"`
	// GaugedAt is when the verdict was taken (shown, never used to decide anything).
	GaugedAt time.Time `json:"gauged_at,omitempty"`
	// Known are the always-loaded owned files of the last full gauge: what the Stop hook may
	// re-read without a directory walk.
	Known []Known `json:"known,omitempty"`
	// Crossing is the band rise the Stop hook acts on, once.
	Crossing *Crossing `json:"crossing,omitempty"`
	// NudgedFat is what a pass could win (gauge.Verdict.CarryPerSession) when the Stop hook
	// last blocked: the band re-arms only when it grows past it by the re-gauge delta, so a
	// plateau stays silent.
	NudgedFat  int       `json:"nudged_fat,omitempty"`
	QuickTried bool      `json:"quick_tried,omitempty"`
	History    []Point   `json:"history,omitempty"`
	Receipt    *Receipt  `json:"receipt,omitempty"`
	Sessions   int       `json:"sessions"`
	Session    string    `json:"session,omitempty"`
	StoreBytes int64     `json:"store_bytes"`
	UpdatedAt  time.Time `json:"updated_at,omitempty"`
	// Cache is the last full measurement with the signature of every discovered file: a
	// session start whose files all match it reuses the measurement instead of re-reading.
	Cache *Cache `json:"cache,omitempty"`
}

// Cache is a measurement and the files it was taken from.
type Cache struct {
	// Key names the reading: the session's start directory and platform change what a
	// measurement holds.
	Key string `json:"key,omitempty"`
	// Loaded is the session whose InstructionsLoaded reports the measurement followed ("":
	// the derived chain): another session's reports are another load.
	Loaded      string            `json:"loaded,omitempty"`
	Files       []FileSig         `json:"files"`
	Measurement gauge.Measurement `json:"measurement"`
}

// FileSig identifies a file's content without reading it: path, size and modification time
// (nanoseconds), as make and git do.
type FileSig struct {
	Path  string `json:"path"`
	Size  int64  `json:"size"`
	MTime int64  `json:"mtime_ns"`
}

// Known is one always-loaded file the last gauge measured.
type Known struct {
	Path     string `json:"path"`
	Platform string `json:"platform"`
	// Platforms are every platform that loads the file; Owned says the lane may cut it.
	Platforms []string `json:"platforms,omitempty"`
	Owned     bool     `json:"owned,omitempty"`
	Scope     string   `json:"scope"`
	Kind      string   `json:"kind"`
	// Loads are the bytes each platform loads of it (a head when it is truncated).
	Loads map[string]int64 `json:"loads,omitempty"`
}

// Crossing is a rise into OBESE or FULL waiting for the end-of-turn recheck.
type Crossing struct {
	Band    gauge.Level `json:"band"`
	Reason  string      `json:"reason"`
	Fat     int         `json:"fat"`
	Pending bool        `json:"pending"`
	// Session is the session whose Stop consumed it.
	Session string `json:"session,omitempty"`
}

// Point is one footprint reading in the history.
type Point struct {
	At        time.Time   `json:"at"`
	Source    string      `json:"source"` // session-start, gauge, stop, quick, plan, restore
	Footprint int         `json:"footprint"`
	Fat       int         `json:"fat"`
	Inherited int         `json:"inherited"`
	Band      gauge.Level `json:"band"`
}

// Receipt is the last run's one-line result.
type Receipt struct {
	At     time.Time `json:"at"`
	Kind   string    `json:"kind"` // quick, plan, restore
	DryRun bool      `json:"dry_run,omitempty"`
	Before int       `json:"before"`
	After  int       `json:"after"`
	Line   string    `json:"line"`
	Event  string    `json:"event,omitempty"`
}

// statePath is one of the two state slots.
func statePath(stateDir string, slot uint64) string {
	return filepath.Join(stateDir, "wash", fmt.Sprintf("state-%d.json", slot%2))
}

// LoadState reads the lane's state: the valid slot with the higher generation. A missing,
// torn, unreadable or foreign state is a fresh one.
func LoadState(stateDir string) State {
	s, _ := loadSlots(stateDir)
	s.Schema = StateSchema
	return s
}

// loadSlots decodes the state slots and returns the valid one (its schema is StateSchema)
// with the higher generation, and whether there was one.
func loadSlots(stateDir string) (State, bool) {
	var raw [2][]byte
	for slot := range raw {
		raw[slot], _ = fsx.ReadRegular(statePath(stateDir, uint64(slot)), 0, true)
	}
	decode := func(slot int) (State, bool) {
		var s State
		if raw[slot] == nil || !decodeState(raw[slot], &s) || s.Schema != StateSchema {
			return State{}, false
		}
		return s, true
	}
	// saveState writes the generation at the front: the newer slot is decoded first, and
	// the older one only when the newer is torn (one decode instead of two).
	g0, ok0 := prefixGen(raw[0])
	g1, ok1 := prefixGen(raw[1])
	if ok0 && ok1 {
		first := 0
		if g1 > g0 {
			first = 1
		}
		if s, ok := decode(first); ok {
			return s, true
		}
		return decode(1 - first)
	}
	var best State
	found := false
	for slot := range raw {
		s, ok := decode(slot)
		if ok && (!found || s.Gen > best.Gen) {
			best, found = s, true
		}
	}
	return best, found
}

// prefixGen reads the generation from the front of a state slot as saveState writes it
// ({"schema":N,"gen":G,...}); ok is false for anything else (missing, foreign, written by
// another encoder), which is then decoded whole.
func prefixGen(b []byte) (gen uint64, ok bool) {
	const head = `{"schema":`
	if !bytes.HasPrefix(b, []byte(head)) {
		return 0, false
	}
	rest := b[len(head):]
	i := bytes.IndexByte(rest, ',')
	if i < 0 || !bytes.HasPrefix(rest[i:], []byte(`,"gen":`)) {
		return 0, false
	}
	rest = rest[i+len(`,"gen":`):]
	n := 0
	for n < len(rest) && n < 20 && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if n == 0 || n == len(rest) || rest[n] != ',' && rest[n] != '}' {
		return 0, false
	}
	gen, err := strconv.ParseUint(string(rest[:n]), 10, 64)
	return gen, err == nil
}

// saveState writes the state into the slot the previous generation does not occupy,
// truncating and rewriting that file in place (0600, not fsynced). A crash or a concurrent
// writer can only tear the slot being written, and LoadState then falls back to the other
// one: the replace is atomic in effect without a rename, which on ext4 costs a data flush
// (about a millisecond, most of a session start's budget). The state is a cache: losing the
// last update costs one re-gauge.
func saveState(stateDir string, s State) error {
	s.Schema = StateSchema
	s.Gen++
	if len(s.History) > maxHistory {
		s.History = s.History[len(s.History)-maxHistory:]
	}
	b, err := marshalState(&s) // json.Marshal's bytes without its reflection
	if err != nil {
		return fmt.Errorf("encode wash state: %w", err)
	}
	dir := filepath.Join(stateDir, "wash")
	if err := state.MkdirPrivate(dir); err != nil {
		return fmt.Errorf("wash state: %w", err)
	}
	p := statePath(stateDir, s.Gen)
	// Not O_TRUNC: ext4 flushes a file truncated to zero and rewritten
	// (auto_da_alloc) at close, a disk wait on every session start. Write
	// over the old bytes and cut the tail instead; a torn slot is read as
	// invalid and the other slot wins.
	f, err := fsx.OpenWriteRegular(p, 0, false)
	if err != nil {
		return fmt.Errorf("write wash state: %w", err)
	}
	_, werr := f.WriteAt(b, 0)
	if werr == nil {
		werr = f.Truncate(int64(len(b)))
	}
	if fi, err := f.Stat(); werr == nil && err == nil && fi.Mode().Perm() != 0o600 {
		werr = f.Chmod(0o600)
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return fmt.Errorf("write wash state: %w", werr)
	}
	return nil
}

// rank orders the bands: LEAN < OBESE < FULL.
func rank(b gauge.Level) int {
	switch b {
	case gauge.Full:
		return 2
	case gauge.Obese:
		return 1
	}
	return 0
}

// record folds a verdict into the state: the edge-triggered crossing the Stop hook acts on.
// LEAN clears everything; a rise in band arms a crossing; in the same band, what a pass
// could win (the fat, plus the judgement potential once armed) grown past the last nudge by
// delta re-arms it (a new lump), a plateau never does.
func record(s *State, v gauge.Verdict, next gauge.State, known []Known, at time.Time, source string, delta int) {
	prev := gauge.Lean
	if s.Verdict != nil {
		prev = s.Verdict.Band
	}
	switch {
	case v.Band == gauge.Lean:
		s.Crossing, s.QuickTried, s.NudgedFat = nil, false, 0
	case rank(v.Band) > rank(prev) || s.Crossing == nil:
		s.Crossing = &Crossing{Band: v.Band, Reason: v.Reason, Fat: v.Fat, Pending: true}
	case !s.Crossing.Pending && v.CarryPerSession >= s.NudgedFat+delta:
		s.Crossing = &Crossing{Band: v.Band, Reason: v.Reason, Fat: v.Fat, Pending: true}
	default:
		s.Crossing.Band, s.Crossing.Reason, s.Crossing.Fat = v.Band, v.Reason, v.Fat
	}
	vv := v
	s.Verdict = &vv
	s.Band = next
	s.GaugedAt = at
	if known != nil {
		s.Known = known
	}
	s.History = append(s.History, Point{At: at, Source: source, Footprint: v.Footprint, Fat: v.Fat, Inherited: v.Inherited, Band: v.Band})
}
