package lane

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/prosewash/prosewash/internal/engine/wash/discover"
)

// Load sources of a platform's file list.
const (
	SourceLoaded  = "instructions-loaded" // what a real session reported loading
	SourceDerived = "derived"             // the chain re-derived from the platform's rules
)

// LoadSource says where Claude Code's list of loaded files came from: the files a real
// session reported through the InstructionsLoaded hook (preferred), or the derived chain.
type LoadSource struct {
	Platform string    `json:"platform"`
	Source   string    `json:"source"`
	Session  string    `json:"session,omitempty"`
	At       time.Time `json:"at,omitzero"`
	Files    int       `json:"files,omitempty"`
	// NotLoaded are derived files the session did not report (kept, but not counted as
	// loaded); Extra are reported files the derivation did not find (measured only).
	NotLoaded []string `json:"not_loaded,omitempty"`
	Extra     []string `json:"extra,omitempty"`
}

// maxLoadedLookback bounds how many recent session records latestLoaded reads.
const maxLoadedLookback = 16

// latestLoaded returns the InstructionsLoaded reports of the newest recorded session that
// started in the lane's start directory (the project root when none is set).
func (l *Lane) latestLoaded(stateDir string) (string, time.Time, []SessionEvent) {
	want := l.p.Root
	if l.start != "" {
		if real, err := filepath.EvalSymlinks(l.start); err == nil {
			want = real
		}
	}
	for i, r := range listRecords(stateDir) {
		if i == maxLoadedLookback {
			break // a session start reads a handful of small files, never the whole history
		}
		evs, err := readEventsOf(r.path, EvLoaded)
		if err != nil {
			continue
		}
		var loaded []SessionEvent
		for _, ev := range evs {
			if ev.Ev != EvLoaded || !alwaysReason(ev.LoadReason) {
				continue
			}
			cwd, err := filepath.EvalSymlinks(ev.Cwd)
			if err != nil || cwd != want {
				continue
			}
			loaded = append(loaded, ev)
		}
		if len(loaded) > 0 {
			return loaded[0].Session, loaded[len(loaded)-1].At, loaded
		}
	}
	return "", time.Time{}, nil
}

// discover finds the memory of the given platforms (all when empty) and, for Claude Code,
// prefers what the last session really loaded over the derived chain: a derived file the
// session did not report stays measured but is no longer counted as loaded, and a reported
// file the derivation missed joins the load, measured only (never owned). The auto memory
// index and notes are kept as derived: InstructionsLoaded does not report them. A reported
// path is data from a hook payload, so it must resolve inside the project, above it (an
// inherited file), or in a platform's config directory; anything else is a problem, skipped.
func (l *Lane) discover(platforms []string) (discover.Result, *LoadSource, error) {
	res, err := discover.Discover(l.discoverOptions(platforms))
	if err != nil {
		return res, nil, err
	}
	if len(platforms) > 0 && !contains(platforms, discover.ClaudeCode) {
		return res, nil, nil
	}
	src := &LoadSource{Platform: discover.ClaudeCode, Source: SourceDerived}
	stateDir, err := l.stateDir()
	if err != nil {
		return res, src, nil
	}
	session, at, loaded := l.latestLoaded(stateDir)
	if len(loaded) == 0 {
		return res, src, nil
	}
	reported := map[string]SessionEvent{}
	var order []string
	for _, ev := range loaded {
		real, err := filepath.EvalSymlinks(ev.Path)
		if err != nil {
			continue // gone since: nothing to measure
		}
		if _, ok := reported[real]; !ok {
			order = append(order, real)
		}
		reported[real] = ev
	}
	src.Source, src.Session, src.At, src.Files = SourceLoaded, session, at, len(reported)
	found := map[string]bool{}
	for i, e := range res.Entries {
		if e.Platform != discover.ClaudeCode || e.Kind == discover.MemoryIndex || e.Kind == discover.Memory {
			continue
		}
		if _, ok := reported[e.Real]; ok {
			found[e.Real] = true
			if !e.AlwaysLoaded {
				e.AlwaysLoaded = true
				e.Why += "; reported loaded at session start"
				res.Entries[i] = e
			}
			continue
		}
		if e.AlwaysLoaded {
			e.AlwaysLoaded = false
			e.Why += "; the last session did not report loading it"
			res.Entries[i] = e
			src.NotLoaded = append(src.NotLoaded, e.Real)
		}
	}
	cfgDirs := l.TrustedRoots()
	for _, real := range order {
		if found[real] {
			continue
		}
		ev := reported[real]
		e, ok := l.reportedEntry(real, ev, cfgDirs)
		if !ok {
			res.Problems = append(res.Problems, discover.Problem{Path: ev.Path, Platform: discover.ClaudeCode,
				Reason: "reported loaded by Claude Code but outside the project, its parents and the config directories; skipped"})
			continue
		}
		res.Entries = append(res.Entries, e)
		src.Extra = append(src.Extra, real)
	}
	return res, src, nil
}

// reportedEntry builds the entry of a reported file the derivation did not find.
func (l *Lane) reportedEntry(real string, ev SessionEvent, cfgDirs []string) (discover.Entry, bool) {
	fi, err := os.Stat(real)
	if err != nil || !fi.Mode().IsRegular() {
		return discover.Entry{}, false
	}
	e := discover.Entry{Path: ev.Path, Real: real, Platform: discover.ClaudeCode, Kind: discover.Governance, AlwaysLoaded: true,
		Size: fi.Size(), Loaded: fi.Size(), Why: "reported loaded by Claude Code (InstructionsLoaded, " + ev.LoadReason + "); not in the derived chain: measured only"}
	if strings.Contains(filepath.ToSlash(real), "/.claude/rules/") {
		e.Kind = discover.Rules
	}
	switch {
	case within(real, l.p.Root):
		e.Scope = discover.ScopeProject
		if ev.MemoryType == "Local" {
			e.Scope = discover.ScopeLocal
		}
	case inAny(real, cfgDirs):
		e.Scope = discover.ScopeUser
	case within(l.p.Root, filepath.Dir(real)):
		e.Scope, e.Inherited = discover.ScopeAbove, true
	default:
		return discover.Entry{}, false
	}
	return e, true
}

func inAny(p string, roots []string) bool {
	for _, r := range roots {
		if within(p, r) {
			return true
		}
	}
	return false
}
