package lane

import (
	"github.com/prosewash/prosewash/engine/wash"
	"github.com/prosewash/prosewash/engine/wash/discover"
	"github.com/prosewash/prosewash/engine/wash/gauge"
	"github.com/prosewash/prosewash/engine/wash/quick"
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
}

// Gauge discovers, measures and bands the project's memory, and records the band unless the
// gauge was limited to some platforms.
func (l *Lane) Gauge(o GaugeOptions) (Gauge, error) {
	stateDir, err := l.stateDir()
	if err != nil {
		return Gauge{}, err
	}
	r, err := l.measure(o.Platforms, true)
	if err != nil {
		return Gauge{}, err
	}
	st := LoadState(stateDir)
	cfg := BandConfig(r.cfg)
	g := Gauge{Files: r.rep.Files, Problems: r.res.Problems, Flags: r.rep.Plan.Flags, Measure: r.rep.Measurement}
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
			out = append(out, Known{Path: f.Real, Platform: f.Platform, Scope: f.Scope, Kind: string(f.Kind)})
		}
	}
	return out
}
