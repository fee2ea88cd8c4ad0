package lane

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/jsonfast"
	"github.com/prosewash/prosewash/internal/engine/state"
	"github.com/prosewash/prosewash/internal/engine/wash/discover"
	"github.com/prosewash/prosewash/internal/engine/wash/gauge"
)

// The session record of the memory lane: one JSON line per event, appended with a single
// write on a file opened O_APPEND, so hooks running in parallel (the plugin and a settings
// hook, several subagents at once) never lose or tear a line. It holds paths and figures,
// never content.

// Event kinds of the session record.
const (
	EvLoaded = "loaded" // InstructionsLoaded: a memory file the session really loaded
	EvSpawn  = "spawn"  // a subagent started (SubagentStart, or PostToolUse on Agent|Task)
)

// Spawn sources.
const (
	ViaSubagentStart = "SubagentStart"
	ViaToolUse       = "PostToolUse"
)

// maxSessionRecords bounds how many session records are kept (the oldest go first).
const maxSessionRecords = 200

// maxEventLine bounds one record line; a longer path is refused, never split.
const maxEventLine = 3800

// SessionEvent is one line of a session's record.
type SessionEvent struct {
	Ev      string    `json:"ev"`
	At      time.Time `json:"at"`
	Session string    `json:"session"`
	Cwd     string    `json:"cwd,omitempty"`
	// InstructionsLoaded.
	Path       string `json:"path,omitempty"`
	MemoryType string `json:"memory_type,omitempty"`
	LoadReason string `json:"load_reason,omitempty"`
	Parent     string `json:"parent,omitempty"`
	// Spawns.
	AgentType string `json:"agent_type,omitempty"`
	AgentID   string `json:"agent_id,omitempty"`
	Via       string `json:"via,omitempty"`
	// Tokens is the always-loaded set the spawn carries, priced when it started.
	Tokens int `json:"tokens,omitempty"`
	// Priced says what the price came from: "loaded" (this session's InstructionsLoaded
	// files, estimated now), "gauge" (the last gauge of Claude Code's load), "" (unpriced).
	Priced string `json:"priced,omitempty"`
}

func sessionsDir(stateDir string) string { return filepath.Join(stateDir, "wash", "sessions") }

func sessionRecordPath(stateDir, session string) string {
	h := sha256.Sum256([]byte(session))
	return filepath.Join(sessionsDir(stateDir), hex.EncodeToString(h[:8])+".jsonl")
}

// marshal is json.Marshal(ev), byte for byte, without its reflection (set
// up again in every hook process, which appends one event).
func (ev *SessionEvent) marshal() ([]byte, error) {
	w := jsonfast.NewWriter(256)
	w.Open()
	w.Str("ev", ev.Ev)
	w.Time("at", ev.At)
	w.Str("session", ev.Session)
	w.OptStr("cwd", ev.Cwd)
	w.OptStr("path", ev.Path)
	w.OptStr("memory_type", ev.MemoryType)
	w.OptStr("load_reason", ev.LoadReason)
	w.OptStr("parent", ev.Parent)
	w.OptStr("agent_type", ev.AgentType)
	w.OptStr("agent_id", ev.AgentID)
	w.OptStr("via", ev.Via)
	w.OptInt("tokens", int64(ev.Tokens))
	w.OptStr("priced", ev.Priced)
	w.Close()
	return w.Bytes()
}

// appendEvent writes one event as one line with one write.
func appendEvent(stateDir string, ev SessionEvent) error {
	if ev.Session == "" {
		return errors.New("session record: no session id")
	}
	b, err := ev.marshal()
	if err != nil {
		return err
	}
	if len(b) > maxEventLine {
		return fmt.Errorf("session record: event of %d bytes is too large", len(b))
	}
	dir := sessionsDir(stateDir)
	if err := state.MkdirPrivate(dir); err != nil {
		return fmt.Errorf("session record: %w", err)
	}
	f, err := fsx.OpenWriteRegular(sessionRecordPath(stateDir, ev.Session), os.O_APPEND, false)
	if err != nil {
		return fmt.Errorf("session record: %w", err)
	}
	_, werr := f.Write(append(b, '\n'))
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return fmt.Errorf("session record: %w", werr)
	}
	return nil
}

// readEvents reads a session's record; a torn or foreign line is skipped.
func readEvents(path string) ([]SessionEvent, error) { return readEventsOf(path, "") }

// readEventsOf reads the events of one kind from a session's record (every kind for "").
// A line is decoded only when it holds the kind's name as a JSON string: a session resumed
// many times has hundreds of events, and a session start looks for the few it needs.
func readEventsOf(path, kind string) ([]SessionEvent, error) {
	f, _, err := fsx.OpenRegular(path, true)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	quoted := []byte(`"` + kind + `"`)
	var out []SessionEvent
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() {
		if kind != "" && !bytes.Contains(sc.Bytes(), quoted) {
			continue
		}
		var ev SessionEvent
		if json.Unmarshal(sc.Bytes(), &ev) != nil || ev.Ev == "" || kind != "" && ev.Ev != kind {
			continue
		}
		out = append(out, ev)
	}
	return out, sc.Err()
}

// SessionEvents returns the record of one session (none: empty).
func (l *Lane) SessionEvents(session string) ([]SessionEvent, error) {
	stateDir, err := l.stateDir()
	if err != nil {
		return nil, err
	}
	evs, err := readEvents(sessionRecordPath(stateDir, session))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	return evs, err
}

// Loaded is what Claude Code's InstructionsLoaded hook reports for one file.
type Loaded struct {
	Path       string
	MemoryType string // User, Project, Local, Managed
	LoadReason string // session_start, nested_traversal, path_glob_match, include, compact
	Parent     string // the importing file, for include
	Cwd        string
}

// RecordLoaded appends one InstructionsLoaded report to the session's record. Only an
// absolute path is recorded; what it names is checked when the record is used, never here.
func (l *Lane) RecordLoaded(session string, ld Loaded) error {
	if !filepath.IsAbs(ld.Path) {
		return fmt.Errorf("InstructionsLoaded: %q is not an absolute path", ld.Path)
	}
	stateDir, err := l.stateDir()
	if err != nil {
		return err
	}
	return appendEvent(stateDir, SessionEvent{Ev: EvLoaded, At: l.now().UTC(), Session: session, Cwd: ld.Cwd,
		Path: filepath.Clean(ld.Path), MemoryType: ld.MemoryType, LoadReason: ld.LoadReason, Parent: ld.Parent})
}

// RecordSpawn counts one subagent spawn in the session's record, priced at the always-loaded
// set it carries. A PostToolUse report (older CLIs) is not recorded when the session already
// has SubagentStart reports: the exact meter is in place and the spawn was counted there.
func (l *Lane) RecordSpawn(session, agentType, agentID, via string) error {
	stateDir, err := l.stateDir()
	if err != nil {
		return err
	}
	var evs []SessionEvent
	if via == ViaToolUse || agentID != "" {
		evs, _ = readEvents(sessionRecordPath(stateDir, session))
	}
	for _, ev := range evs {
		if ev.Ev != EvSpawn {
			continue
		}
		if via == ViaToolUse && ev.Via == ViaSubagentStart {
			return nil
		}
		if agentID != "" && ev.AgentID == agentID && ev.Via == via {
			return nil // the same spawn reported twice (two installs of the hook)
		}
	}
	tok, priced := l.spawnPrice(stateDir, session, evs)
	return appendEvent(stateDir, SessionEvent{Ev: EvSpawn, At: l.now().UTC(), Session: session, AgentType: agentType, AgentID: agentID,
		Via: via, Tokens: tok, Priced: priced})
}

// spawnPrice is what one spawn carries: the files this session's InstructionsLoaded reported
// at its start (estimated now), else the last gauge's Claude Code load (its footprint and
// the inherited files, which a subagent loads too).
func (l *Lane) spawnPrice(stateDir, session string, evs []SessionEvent) (int, string) {
	if evs == nil {
		evs, _ = readEvents(sessionRecordPath(stateDir, session))
	}
	seen := map[string]bool{}
	total, n := 0, 0
	for _, ev := range evs {
		if ev.Ev != EvLoaded || !alwaysReason(ev.LoadReason) || seen[ev.Path] {
			continue
		}
		seen[ev.Path] = true
		if tok, err := estimateFile(ev.Path); err == nil {
			total += tok
			n++
		}
	}
	if n > 0 {
		return total, "loaded"
	}
	st := LoadState(stateDir)
	if st.Cache != nil {
		for _, p := range st.Cache.Measurement.Platforms {
			if p.Platform == discover.ClaudeCode {
				return p.Footprint + p.Inherited, "gauge"
			}
		}
	}
	if v := st.Verdict; v != nil && v.Platform == discover.ClaudeCode {
		return v.Footprint + v.Inherited, "gauge"
	}
	return 0, ""
}

// alwaysReason reports the load reasons that put a file in every session's context (and in
// every subagent's): at the start, or imported by such a file.
func alwaysReason(r string) bool { return r == "session_start" || r == "include" || r == "" }

// estimateFile prices one file: read whole under the cap, streamed above it.
func estimateFile(path string) (int, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	if fi.Size() > MaxReadBytes {
		return count(path)
	}
	b, err := read(path)
	if err != nil {
		return 0, err
	}
	return gauge.Estimate(b), nil
}

// SpawnStats is the spawn meter of one session or of every recorded one.
type SpawnStats struct {
	Session string         `json:"session,omitempty"`
	Spawns  int            `json:"spawns"`
	Tokens  int            `json:"tokens"`
	ByType  map[string]int `json:"by_type,omitempty"`
	// Via says which source counted: SubagentStart when the session had any, else PostToolUse.
	Via string `json:"via,omitempty"`
}

// spawnStats counts a session's spawns from its record: SubagentStart reports when there are
// any, else the PostToolUse ones (never both: they report the same spawns).
func spawnStats(session string, evs []SessionEvent) SpawnStats {
	s := SpawnStats{Session: session}
	exact := false
	for _, ev := range evs {
		if ev.Ev == EvSpawn && ev.Via == ViaSubagentStart {
			exact = true
		}
	}
	for _, ev := range evs {
		if ev.Ev != EvSpawn || (exact && ev.Via != ViaSubagentStart) {
			continue
		}
		s.Spawns++
		s.Tokens += ev.Tokens
		s.Via = ev.Via
		if s.ByType == nil {
			s.ByType = map[string]int{}
		}
		t := ev.AgentType
		if t == "" {
			t = "unknown"
		}
		s.ByType[t]++
	}
	return s
}

// Spawns returns the spawn meter of one session.
func (l *Lane) Spawns(session string) (SpawnStats, error) {
	evs, err := l.SessionEvents(session)
	return spawnStats(session, evs), err
}

// sessionRecord is one session's record file, newest first when listed.
type sessionRecord struct {
	path string
	mod  time.Time
}

func listRecords(stateDir string) []sessionRecord {
	ents, err := os.ReadDir(sessionsDir(stateDir))
	if err != nil {
		return nil
	}
	var out []sessionRecord
	for _, e := range ents {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".jsonl") {
			continue
		}
		if fi, err := e.Info(); err == nil {
			out = append(out, sessionRecord{path: filepath.Join(sessionsDir(stateDir), e.Name()), mod: fi.ModTime()})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].mod.After(out[j].mod) })
	return out
}

// AllSpawns sums the spawn meter over every recorded session, newest session first.
func (l *Lane) AllSpawns() ([]SpawnStats, error) {
	stateDir, err := l.stateDir()
	if err != nil {
		return nil, err
	}
	var out []SpawnStats
	for _, r := range listRecords(stateDir) {
		evs, err := readEvents(r.path)
		if err != nil || len(evs) == 0 {
			continue
		}
		if s := spawnStats(evs[0].Session, evs); s.Spawns > 0 {
			out = append(out, s)
		}
	}
	return out, nil
}

// pruneRecords keeps the newest maxSessionRecords session records.
func pruneRecords(stateDir string) {
	rs := listRecords(stateDir)
	for _, r := range rs[min(len(rs), maxSessionRecords):] {
		_ = os.Remove(r.path)
	}
}
