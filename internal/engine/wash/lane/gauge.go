package lane

import (
	"os"
	"path/filepath"
	"sort"

	"github.com/prosewash/prosewash/internal/engine/wash"
	"github.com/prosewash/prosewash/internal/engine/wash/discover"
	"github.com/prosewash/prosewash/internal/engine/wash/gauge"
	"github.com/prosewash/prosewash/internal/engine/wash/judge"
	"github.com/prosewash/prosewash/internal/engine/wash/quick"
)

// GaugeOptions select what a gauge measures.
type GaugeOptions struct {
	// Platforms limits discovery; empty means every platform. A limited gauge is shown but
	// not recorded: the band is about everything the project loads.
	Platforms []string
	// Source names the reading in the history (gauge, session-start).
	Source string
	// Session is the agent session (SessionStart).
	Session string
	// Light prices recall-only notes without planning them: the same band for a fraction of
	// the cost (SessionStart); their flags are not reported.
	Light bool
}

// Gauge is one reading of the project's memory.
type Gauge struct {
	Files    []wash.FileReport  `json:"files"`
	Problems []discover.Problem `json:"problems,omitempty"`
	Errors   []string           `json:"errors,omitempty"` // unreadable files
	Flags    []quick.Flag       `json:"flags,omitempty"`  // oversize, pinned, dead links, ...
	Measure  gauge.Measurement  `json:"measurement"`
	Verdict  gauge.Verdict      `json:"verdict"`
	Recorded bool               `json:"recorded"`
	// Drift lists always-loaded files whose size changed since the last recorded gauge.
	Drift []gauge.FileDrift `json:"drift,omitempty"`
	// Source says where Claude Code's list of loaded files came from (nil when the gauge
	// did not look at Claude Code).
	Source *LoadSource `json:"source,omitempty"`
	// Findings are what only a judgement pass can cut (superseded facts, stale entries).
	Findings []judge.Finding `json:"findings,omitempty"`
	// NeverLoaded is text written for a platform that never reaches its model.
	NeverLoaded []wash.NeverLoaded `json:"never_loaded,omitempty"`
}

// Gauge discovers, measures and bands the project's memory, and records the band unless the
// gauge was limited to some platforms.
func (l *Lane) Gauge(o GaugeOptions) (Gauge, error) {
	stateDir, err := l.stateDir()
	if err != nil {
		return Gauge{}, err
	}
	st := LoadState(stateDir)
	var pre *discovered
	if o.Light && len(o.Platforms) == 0 {
		g, res, ok, err := l.cachedGauge(stateDir, &st, o)
		if ok || err != nil {
			return g, err
		}
		pre = res
	}
	r, err := l.measure(o.Platforms, true, o.Light, pre)
	if err != nil {
		return Gauge{}, err
	}
	cfg := BandConfig(r.cfg)
	if keeps, err := LoadKeeps(stateDir); err == nil {
		// The full pass pays for its own brief: the band's break-even counts it.
		r.rep.Measurement.BriefTokens = briefCost(l.briefOf(r, gauge.Verdict{}, keeps, r.cfg, false))
	}
	g := Gauge{Files: r.rep.Files, Problems: r.res.Problems, Flags: r.rep.Plan.Flags, Measure: r.rep.Measurement, Source: r.src, Findings: r.rep.Judge.Findings,
		NeverLoaded: r.rep.NeverLoaded}
	for _, e := range r.errs {
		g.Errors = append(g.Errors, e.Error())
	}
	if st.Band.Last != nil {
		d := gauge.Recheck(st.Band.Last, statSize, cfg)
		g.Drift = d.Changed
	}
	v, next := gauge.Band(st.Band, r.rep.Measurement, cfg)
	g.Verdict = v
	if len(o.Platforms) > 0 {
		return g, nil
	}
	src := o.Source
	if src == "" {
		src = "gauge"
	}
	record(&st, v, next, knownOf(r.rep), l.now().UTC(), src, cfg.RegaugeDeltaTokens)
	st.StoreBytes = r.storeBytes()
	st.Cache = nil
	if len(r.errs) == 0 {
		if sigs, ok := signatures(r.res); ok {
			st.Cache = &Cache{Key: l.cacheKey(), Loaded: loadedSession(r.src), Files: sigs, Measurement: r.rep.Measurement}
		}
	}
	if o.Session != "" && o.Session != st.Session {
		st.Sessions++
		st.Session = o.Session
	}
	st.UpdatedAt = l.now().UTC()
	if err := saveState(stateDir, st); err != nil {
		return g, err
	}
	g.Recorded = true
	return g, nil
}

// knownOf lists the always-loaded owned files of a reading, in load order (the order the
// Quick planner keeps first copies in).
func knownOf(rep wash.Report) []Known {
	out := []Known{}
	for _, f := range rep.Files {
		if f.AlwaysLoaded && !f.Inherited {
			out = append(out, Known{Path: f.Real, Platform: f.Platform, Platforms: f.Platforms, Owned: f.Owned, Scope: f.Scope, Kind: string(f.Kind), Loads: f.Loads})
		}
	}
	return out
}

// cacheKey names what a cached measurement depends on besides the files: where the session
// starts and whose load the headline figures are.
func (l *Lane) cacheKey() string {
	start := l.p.Root
	if l.start != "" {
		if real, err := filepath.EvalSymlinks(l.start); err == nil {
			start = real
		}
	}
	return l.platform + "\x00" + start
}

// loadedSession names the session a load list came from ("" for the derived chain).
func loadedSession(src *LoadSource) string {
	if src == nil || src.Source != SourceLoaded {
		return ""
	}
	return src.Session
}

// signatures stats every discovered file; ok is false when one cannot be stat'ed.
func signatures(res discover.Result) ([]FileSig, bool) {
	seen := map[string]bool{}
	var out []FileSig
	for _, e := range res.Entries {
		if seen[e.Real] {
			continue
		}
		seen[e.Real] = true
		fi, err := os.Stat(e.Real)
		if err != nil {
			return nil, false
		}
		out = append(out, FileSig{Path: e.Real, Size: fi.Size(), MTime: fi.ModTime().UnixNano()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, true
}

// cachedGauge answers a session-start gauge from the last measurement when discovery finds
// exactly the same files with the same sizes and modification times: nothing is read and
// nothing is planned, and the band is decided afresh from the cached measurement (the
// thresholds may have changed). ok is false when the cache does not apply; the discovery made
// to find out is returned for the measurement to reuse.
func (l *Lane) cachedGauge(stateDir string, st *State, o GaugeOptions) (Gauge, *discovered, bool, error) {
	if st.Cache == nil || st.Cache.Key != l.cacheKey() {
		return Gauge{}, nil, false, nil
	}
	w, err := l.config()
	if err != nil {
		return Gauge{}, nil, false, err
	}
	res, src, err := l.discover(nil)
	if err != nil {
		return Gauge{}, nil, false, err
	}
	pre := &discovered{res: res, src: src}
	sigs, ok := signatures(res)
	if !ok || len(sigs) != len(st.Cache.Files) || st.Cache.Loaded != loadedSession(src) {
		return Gauge{}, pre, false, nil
	}
	for i := range sigs {
		if sigs[i] != st.Cache.Files[i] {
			return Gauge{}, pre, false, nil
		}
	}
	cfg := BandConfig(w)
	m := st.Cache.Measurement
	v, next := gauge.Band(st.Band, m, cfg)
	g := Gauge{Problems: res.Problems, Measure: m, Verdict: v, Source: src}
	from := o.Source
	if from == "" {
		from = "gauge"
	}
	record(st, v, next, nil, l.now().UTC(), from, cfg.RegaugeDeltaTokens)
	if o.Session != "" && o.Session != st.Session {
		st.Sessions++
		st.Session = o.Session
	}
	st.UpdatedAt = l.now().UTC()
	if err := saveState(stateDir, *st); err != nil {
		return g, nil, true, err
	}
	g.Recorded = true
	return g, nil, true, nil
}
