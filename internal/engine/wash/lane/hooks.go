package lane

import (
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

	"github.com/prosewash/prosewash/internal/engine/config"
	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/wash"
	"github.com/prosewash/prosewash/internal/engine/wash/bins"
	"github.com/prosewash/prosewash/internal/engine/wash/discover"
	"github.com/prosewash/prosewash/internal/engine/wash/gate"
	"github.com/prosewash/prosewash/internal/engine/wash/gauge"
	"github.com/prosewash/prosewash/internal/engine/wash/quick"
)

// Result is what Measure found at the start of a session.
type Result struct {
	// Band is empty when the lane did not run (mode off or manual).
	Band    gauge.Level    `json:"band,omitempty"`
	Verdict *gauge.Verdict `json:"verdict,omitempty"`
	// Context is one line for the session's additionalContext, empty when LEAN or silent.
	Context string `json:"context,omitempty"`
}

// mode is the configured wash mode; a configuration that cannot be read means off for hooks
// (they fail open and must not act on a configuration they could not read).
func (l *Lane) mode() string {
	w, err := l.config()
	if err != nil || w.Mode == "" {
		return config.WashOff
	}
	return w.Mode
}

// Enabled reports whether the memory lane records anything for this project: not when its
// mode is off (or its configuration unreadable, which hooks treat as off).
func (l *Lane) Enabled() bool { return l.mode() != config.WashOff }

// Measure measures the memory at the start of a session and records the band (mode auto only;
// manual and off stay silent and measure nothing). It returns one line for the session's
// context when the band is OBESE or FULL.
func (l *Lane) Measure(session string) (Result, error) {
	if l.mode() != config.WashAuto {
		return Result{}, nil
	}
	g, err := l.Gauge(GaugeOptions{Source: "session-start", Session: session, Light: true})
	if err != nil {
		return Result{}, err
	}
	if stateDir, err := l.stateDir(); err == nil {
		pruneRecords(stateDir)
	}
	v := g.Verdict
	res := Result{Band: v.Band, Verdict: &v}
	switch {
	case v.Band == gauge.Lean:
	case v.Reason == gauge.ReasonExternalize:
		res.Context = fmt.Sprintf("prosewash: always-loaded memory is FULL (%s): it needs splitting or externalizing, not washing.", v.Advice)
	case judgeOnly(v):
		res.Context = fmt.Sprintf("prosewash: always-loaded memory is %s: ~%d tok carried every session with little provable fat, but ~%d tok a judgement pass could win (superseded facts, stale entries, over the %d-token budget); `prosewash wash full` (/prosewash:wash) prepares one, only with the user's consent.",
			v.Band, v.Footprint, v.Potential, v.Budget)
	default:
		res.Context = fmt.Sprintf("prosewash: always-loaded memory is %s: ~%d tok carried every session, ~%d tok of it provable fat; `prosewash wash quick` removes the fat without losing a fact.",
			v.Band, v.Footprint, v.Fat)
	}
	return res, nil
}

// judgeOnly reports a band armed by what a judgement pass could win, not by mechanical fat:
// the quick pass has nothing to do, and the full pass needs the user's consent.
func judgeOnly(v gauge.Verdict) bool {
	return v.Band != gauge.Lean && !v.Armed && v.JudgeArmed && v.Reason != gauge.ReasonExternalize
}

func firstWall(v gauge.Verdict) string {
	if len(v.Walls) > 0 {
		return v.Walls[0]
	}
	return "capacity wall"
}

// Recheck rechecks the last gauge's always-loaded files by stat alone (no directory walk, no
// discovery), at the end of a turn. A large drift re-reads those same known files (still no
// walk) and re-bands. In OBESE or FULL with a crossing not yet acted on it returns the reason
// to continue once and marks the crossing consumed: never a repeating nag; a plateau stays
// silent until the fat grows by the re-gauge delta. It is silent when LEAN and unless the
// mode is auto. A turn that already continued once never reaches it (the adapter knows).
func (l *Lane) Recheck(session string) (string, error) {
	if l.mode() != config.WashAuto {
		return "", nil
	}
	stateDir, err := l.stateDir()
	if err != nil {
		return "", err
	}
	st := LoadState(stateDir)
	if st.Verdict == nil {
		return "", nil // never gauged: nothing to recheck without a walk
	}
	w, err := l.config()
	if err != nil {
		return "", err
	}
	cfg := BandConfig(w)
	dirty := false
	if d := gauge.Recheck(st.Band.Last, statSize, cfg); d.Regauge && len(st.Known) > 0 {
		m := l.remeasureKnown(st.Known, w)
		if st.Cache != nil {
			m.BriefTokens = st.Cache.Measurement.BriefTokens
		}
		v, next := gauge.Band(st.Band, m, cfg)
		record(&st, v, next, nil, l.now().UTC(), "stop", cfg.RegaugeDeltaTokens)
		dirty = true
	}
	c := st.Crossing
	if c == nil || !c.Pending || st.Verdict.Band == gauge.Lean {
		if dirty {
			st.UpdatedAt = l.now().UTC()
			return "", saveState(stateDir, st)
		}
		return "", nil
	}
	reason := directive(*st.Verdict)
	if sp, err := l.Spawns(session); err == nil && sp.Spawns > 0 && reason != "" {
		reason += fmt.Sprintf(" This memory also rode %d subagent(s) this session, ~%d tok.", sp.Spawns, sp.Tokens)
	}
	c.Pending, c.Session = false, session
	st.NudgedFat = st.Verdict.CarryPerSession
	st.UpdatedAt = l.now().UTC()
	if err := saveState(stateDir, st); err != nil {
		// Without a record of the nudge it would repeat: stay silent instead.
		return "", err
	}
	return reason, nil
}

// remeasureKnown re-reads the known always-loaded files (no discovery, no walk), plans the
// Quick pass over the owned ones to price the fat, and tallies each platform's load as the
// gauge does.
func (l *Lane) remeasureKnown(known []Known, w config.Wash) gauge.Measurement {
	var files []quick.File
	var reports []wash.FileReport
	var idx []int
	indexBytes, indexLines := 0, 0
	for _, k := range known {
		fr := wash.FileReport{Entry: discover.Entry{Path: k.Path, Real: k.Path, Platform: k.Platform, Kind: discover.Kind(k.Kind), Scope: k.Scope,
			AlwaysLoaded: true, Owned: k.Owned}, Platforms: k.Platforms}
		if len(fr.Platforms) == 0 {
			fr.Platforms = []string{k.Platform}
		}
		if fi, err := os.Stat(k.Path); err == nil && fi.Size() > MaxReadBytes {
			if n, err := count(k.Path); err == nil {
				fr.Tokens, fr.Size, fr.Streamed = n, fi.Size(), true
				reports = append(reports, fr)
			}
			continue
		}
		b, err := read(k.Path)
		if err != nil {
			continue
		}
		fr.Tokens, fr.Size = gauge.Estimate(b), int64(len(b))
		fr.Loads, fr.LoadTokens = k.Loads, map[string]int{}
		for p, n := range k.Loads {
			// A file that grew past its old head keeps loading at most that head (the cap);
			// one that shrank loads what it has.
			fr.LoadTokens[p] = fr.Tokens
			if n < int64(len(b)) {
				fr.LoadTokens[p] = gauge.Estimate(b[:n])
			}
		}
		files = append(files, quick.File{Path: k.Path, Real: k.Path, Content: b, Platform: k.Platform, Scope: k.Scope, Kind: k.Kind, AlwaysLoaded: true, ReadOnly: !k.Owned, Loads: k.Loads})
		idx = append(idx, len(reports))
		reports = append(reports, fr)
		if k.Kind == string(discover.MemoryIndex) {
			indexBytes += len(b)
			indexLines += strings.Count(string(b), "\n")
		}
	}
	plan := quick.PlanQuick(files, quick.Options{IndexMaxBytes: w.IndexMaxBytes, IndexMaxLines: w.IndexMaxLines, PriceOnly: true})
	for i, fp := range plan.Files {
		reports[idx[i]].Fat = max(0, fp.TokensBefore-fp.TokensAfter)
	}
	return wash.Tally(reports, l.platform, indexBytes, indexLines)
}

// directive is the Stop hook's block reason: numbers only, never content.
//
// A band armed only by what a judgement pass could win asks at FULL alone (the pass pays for
// itself): in OBESE there is nothing mechanical to run and the semantic pass is never asked
// for below its break-even, as in the original; the session-start line has said it.
func directive(v gauge.Verdict) string {
	tail := " Every cut passes the fidelity gate (no link, date, version, number, quote or code span can be lost) and is kept in a recovery bin (`prosewash wash bins`). Then answer the user's last message as you would have."
	switch {
	case judgeOnly(v) && v.Band != gauge.Full:
		return ""
	case judgeOnly(v):
		return fmt.Sprintf("prosewash: this project's always-loaded memory is %s: ~%d tok carried every session with only ~%d tok of provable fat, but ~%d tok a judgement pass could win (%d tok superseded facts, %d tok stale entries, budget %d tok). Ask the user, in one line, whether to run the judgement pass (/prosewash:wash, or `prosewash wash full` and follow its brief); do not start it unless the user says yes. Then answer the user's last message as you would have.",
			v.Band, v.Footprint, v.Fat, v.Potential, v.Superseded, v.Stale, v.Budget)
	case v.Reason == gauge.ReasonExternalize:
		return fmt.Sprintf("prosewash: this project's always-loaded memory reached a capacity wall (%s) with only ~%d tok of provable fat. Run `prosewash wash quick` once, then tell the user in one line that the memory needs splitting or externalizing; do not rewrite it yourself.%s", firstWall(v), v.Fat, tail)
	case v.Band == gauge.Full:
		return fmt.Sprintf("prosewash: this project's always-loaded memory is FULL: ~%d tok carried every session, ~%d tok of it provable fat (%s). Run `prosewash wash quick` now and report its one-line receipt.%s", v.Footprint, v.Fat, v.Advice, tail)
	default:
		return fmt.Sprintf("prosewash: this project's always-loaded memory is OBESE: ~%d tok carried every session, ~%d tok of it provable fat (duplicates, blank runs, dead index entries). Run `prosewash wash quick` now and report its one-line receipt.%s", v.Footprint, v.Fat, tail)
	}
}

// guardMarker records that a session snapshotted a file: the bin event holding the snapshot
// and the drop keys already reported, so each drop is reported once.
type guardMarker struct {
	Event    string   `json:"event"`
	Path     string   `json:"path"`
	Reported []string `json:"reported,omitempty"`
}

func guardMarkerPath(stateDir, session, real string) string {
	s := sha256.Sum256([]byte(session))
	p := sha256.Sum256([]byte(real))
	return filepath.Join(stateDir, "wash", "guard", hex.EncodeToString(s[:8]), hex.EncodeToString(p[:8])+".json")
}

// isMemory reports whether real is a file discovery returns (always-loaded or recall-only,
// owned or inherited): the last gauge's known files answer first, discovery otherwise.
func (l *Lane) isMemory(stateDir, real string) bool {
	if !memoryName(real) {
		return false
	}
	for _, k := range LoadState(stateDir).Known {
		if k.Path == real {
			return true
		}
	}
	res, err := discover.Discover(l.discoverOptions(nil))
	if err != nil {
		return false
	}
	for _, e := range res.Entries {
		if e.Real == real {
			return true
		}
	}
	return false
}

// memoryName reports whether a path could be a memory file at all: every
// platform's memory is Markdown or text, or one of three dotfiles. Anything
// else is answered without a discovery (the write guard sees every write).
func memoryName(real string) bool {
	switch strings.ToLower(filepath.Ext(real)) {
	case ".md", ".mdc", ".txt":
		return true
	}
	switch filepath.Base(real) {
	case ".clinerules", ".windsurfrules", ".cursorrules":
		return true
	}
	return false
}

// resolveHookPath makes a tool's file_path absolute (relative to the project) and real; ok is
// false for a file that does not exist (a new file has nothing to snapshot).
func (l *Lane) resolveHookPath(path string) (string, bool) {
	if path == "" {
		return "", false
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(l.p.Root, path)
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", false
	}
	return real, true
}

// Snapshot is the write guard's airbag: before the session's first write to a memory file
// (any path discovery returns) it banks a copy of the file in the guard bin. Later writes in
// the same session, files that do not exist yet and other files are left alone. Mode off
// disables it; manual keeps it (it is silent).
func (l *Lane) Snapshot(session, path string) error {
	real, ok := l.resolveHookPath(path)
	if !ok || !memoryName(real) {
		return nil // cheap answers first: every write of a session passes here
	}
	if l.mode() == config.WashOff {
		return nil
	}
	stateDir, err := l.stateDir()
	if err != nil {
		return err
	}
	mp := guardMarkerPath(stateDir, session, real)
	if _, err := os.Lstat(mp); err == nil {
		return nil
	}
	if !l.isMemory(stateDir, real) {
		return nil
	}
	b, err := read(real)
	if err != nil {
		return fmt.Errorf("write guard: %w", err)
	}
	store, err := bins.Open(stateDir)
	if err != nil {
		return err
	}
	m, err := store.Add(bins.Meta{Bin: bins.Guard, At: l.now().UTC(), Session: session, Reason: "write guard: before the session's first write",
		Items: []bins.Item{{Path: real, Op: bins.OpSnapshot}}}, [][]byte{b})
	if err != nil {
		return fmt.Errorf("write guard: %w", err)
	}
	if m, err = store.Commit(m); err != nil {
		return fmt.Errorf("write guard: %w", err)
	}
	return writeMarker(mp, guardMarker{Event: m.ID, Path: real})
}

func writeMarker(p string, mk guardMarker) error {
	b, err := json.Marshal(mk)
	if err != nil {
		return err
	}
	return writePrivate(p, b)
}

// Compare is the write guard's seatbelt: it gates the session's snapshot of a memory file
// against what is on disk now and returns one FYI line naming the classes of structured
// tokens that were dropped, and the bin event to get the earlier version from. A drop is
// reported once per session; a clean edit, a file without a snapshot and any error are
// silent. It never blocks.
func (l *Lane) Compare(session, path string) string {
	real, ok := l.resolveHookPath(path)
	if !ok || !memoryName(real) {
		return ""
	}
	stateDir, err := l.stateDir()
	if err != nil {
		return ""
	}
	// Only files Snapshot banked have a marker: one stat answers
	// every other write, before any configuration is read.
	mp := guardMarkerPath(stateDir, session, real)
	mb, err := fsx.ReadRegular(mp, 0, false)
	if err != nil {
		return ""
	}
	if l.mode() == config.WashOff {
		return ""
	}
	var mk guardMarker
	if json.Unmarshal(mb, &mk) != nil || mk.Path != real {
		return ""
	}
	store := bins.OpenReadOnly(stateDir)
	m, err := store.Get(mk.Event)
	if err != nil || len(m.Items) != 1 {
		return ""
	}
	snap, err := store.Read(m, 0)
	if err != nil {
		return ""
	}
	cur, err := read(real)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Sprintf("prosewash: FYI (not a block): %s was deleted this session; its earlier version is kept: prosewash wash restore %s", l.rel(real), mk.Event)
		}
		return ""
	}
	drops := gate.Check(snap, cur)
	reported := map[string]bool{}
	for _, k := range mk.Reported {
		reported[k] = true
	}
	classes := map[string]bool{}
	var fresh []string
	for _, d := range drops {
		if reported[d.Key()] {
			continue
		}
		fresh = append(fresh, d.Key())
		classes[d.Type] = true
	}
	if len(fresh) == 0 {
		return ""
	}
	mk.Reported = append(mk.Reported, fresh...)
	_ = writeMarker(mp, mk)
	var cls []string
	for c := range classes {
		cls = append(cls, c)
	}
	sort.Strings(cls)
	return fmt.Sprintf("prosewash: FYI (not a block): %s no longer holds %d structured token(s) (%s) it had before this session's first write; if that was not intended, the earlier version is kept: prosewash wash restore %s --stdout",
		l.rel(real), len(fresh), strings.Join(cls, ", "), mk.Event)
}
