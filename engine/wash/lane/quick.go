package lane

import (
	"fmt"
	"math"

	"github.com/prosewash/prosewash/engine/wash/bins"
	"github.com/prosewash/prosewash/engine/wash/discover"
	"github.com/prosewash/prosewash/engine/wash/gate"
	"github.com/prosewash/prosewash/engine/wash/gauge"
)

// QuickOptions configure a Quick pass.
type QuickOptions struct {
	// DryRun plans and gates without writing anything.
	DryRun bool
}

// QuickCut is one planned cut, without content.
type QuickCut struct {
	Kind   string `json:"kind"`
	Line   int    `json:"line"`
	Lines  int    `json:"lines"`
	Tokens int    `json:"tokens"`
	Reason string `json:"reason"`
}

// QuickFile is the plan for one file.
type QuickFile struct {
	Path         string     `json:"path"` // as shown
	Real         string     `json:"real"`
	AlwaysLoaded bool       `json:"always_loaded"`
	Changed      bool       `json:"changed"`
	Refused      bool       `json:"refused,omitempty"`
	TokensBefore int        `json:"tokens_before"`
	TokensAfter  int        `json:"tokens_after"`
	Cuts         []QuickCut `json:"cuts,omitempty"`
}

// QuickFlag is a finding Quick does not act on.
type QuickFlag struct {
	Path   string `json:"path"`
	Kind   string `json:"kind"`
	Line   int    `json:"line,omitempty"`
	Reason string `json:"reason"`
}

// QuickResult is what a Quick pass planned and did.
type QuickResult struct {
	DryRun bool        `json:"dry_run"`
	Files  []QuickFile `json:"files"`
	Flags  []QuickFlag `json:"flags,omitempty"`
	// Before and After are the always-loaded footprint in tokens; RecallCut is what was cut
	// from recall-only notes (it shrinks the store, not the per-session bill).
	Before    int `json:"before"`
	After     int `json:"after"`
	RecallCut int `json:"recall_cut,omitempty"`
	// Receipt is the one line every run ends with, e.g. "cut ~812 tok (-14%)".
	Receipt string `json:"receipt"`
	// Event is the recovery bin event holding every original this run changed.
	Event    string             `json:"event,omitempty"`
	Errors   []string           `json:"errors,omitempty"`
	Problems []discover.Problem `json:"problems,omitempty"`
	// Drift names the always-loaded files changed since the last gauge: the plan was made
	// from their current content, nothing of the change is lost.
	Drift []gauge.FileDrift `json:"drift,omitempty"`
	// Band is the band after the run.
	Band      gauge.Level `json:"band"`
	Destroyed int         `json:"destroyed,omitempty"` // bin events the sweep destroyed
}

// Quick plans the mechanical Quick pass over every discovered file, gates the whole plan and,
// unless DryRun, applies it in one all-or-nothing transaction with the originals banked.
func (l *Lane) Quick(o QuickOptions) (QuickResult, error) {
	res := QuickResult{DryRun: o.DryRun}
	if err := l.refusePending(); err != nil {
		return res, err
	}
	stateDir, err := l.stateDir()
	if err != nil {
		return res, err
	}
	r, err := l.measure(nil, true, false, nil)
	if err != nil {
		return res, err
	}
	st := LoadState(stateDir)
	cfg := BandConfig(r.cfg)
	if st.Band.Last != nil {
		res.Drift = gauge.Recheck(st.Band.Last, statSize, cfg).Changed
	}
	for _, e := range r.errs {
		res.Errors = append(res.Errors, e.Error())
	}
	res.Problems = r.res.Problems
	plan := r.rep.Plan
	for _, f := range plan.Flags {
		res.Flags = append(res.Flags, QuickFlag{Path: l.rel(r.realOf(f.Path)), Kind: string(f.Kind), Line: f.Line, Reason: f.Reason})
	}
	x := run{Bin: bins.Quick, Reason: "quick", StoreBytes: r.storeBytes()}
	res.Before = r.rep.Measurement.Footprint
	res.After = res.Before
	for _, fp := range plan.Files {
		real := r.realOf(fp.Path)
		e := r.entry[real]
		g := gate.Change{Path: real, Kind: gate.Rewrite, Orig: fp.Orig, Result: fp.New, Approved: fp.Approved}
		x.Gate = append(x.Gate, g)
		qf := QuickFile{Path: l.rel(real), Real: real, AlwaysLoaded: e.AlwaysLoaded && !e.Inherited, Changed: fp.Changed, Refused: fp.Refused,
			TokensBefore: fp.TokensBefore, TokensAfter: fp.TokensAfter}
		var kinds []string
		for _, c := range fp.Cuts {
			qf.Cuts = append(qf.Cuts, QuickCut{Kind: string(c.Kind), Line: c.Line, Lines: c.Lines, Tokens: c.Tokens, Reason: c.Reason})
			kinds = append(kinds, string(c.Kind))
		}
		res.Files = append(res.Files, qf)
		if !fp.Changed {
			continue
		}
		if e.Inherited {
			return res, &RefusedError{Path: l.rel(real), Reason: "inherited from above the project: never touched"}
		}
		saved := fp.TokensBefore - fp.TokensAfter
		if qf.AlwaysLoaded {
			res.After -= saved
		} else {
			res.RecallCut += saved
		}
		x.Changes = append(x.Changes, change{Path: real, Kind: gate.Rewrite, Orig: fp.Orig, Result: fp.New,
			Cuts: cutKinds(kinds), RemovedLines: removedLines(fp.Orig, fp.New), Tokens: saved})
	}
	res.Receipt = ReceiptLine(res.Before, res.After, o.DryRun)
	if o.DryRun {
		// The dry run still proves the plan passes the gate, so what it shows is what a real
		// run would do.
		if v := gate.CheckSet(x.Gate, nil); !v.OK {
			return res, &BlockedError{Drops: v.Blocking()}
		}
		res.Band = r.band(st, cfg)
		return res, nil
	}
	out, err := l.execute(x)
	if err != nil {
		return res, err
	}
	if out.Event != nil {
		res.Event = out.Event.ID
	}
	for _, s := range out.Swept {
		res.Destroyed += len(s.Destroyed)
	}
	// Re-measure what is now on disk and record it: the band after the run.
	after, err := l.measure(nil, true, false, nil)
	if err == nil {
		v, next := gauge.Band(st.Band, after.rep.Measurement, cfg)
		record(&st, v, next, knownOf(after.rep), l.now().UTC(), "quick", cfg.RegaugeDeltaTokens)
		st.StoreBytes = after.storeBytes()
		st.Cache = nil
		res.Band = v.Band
	}
	st.QuickTried = true
	st.Receipt = &Receipt{At: l.now().UTC(), Kind: "quick", Before: res.Before, After: res.After, Line: res.Receipt, Event: res.Event}
	st.UpdatedAt = l.now().UTC()
	if err := saveState(stateDir, st); err != nil {
		return res, err
	}
	return res, nil
}

// realOf maps a planned (discovered, lexical) path to its real path.
func (r *reading) realOf(p string) string {
	if real, ok := r.real[p]; ok {
		return real
	}
	return p
}

// band is the band of a reading without recording it.
func (r *reading) band(st State, cfg gauge.Config) gauge.Level {
	v, _ := gauge.Band(st.Band, r.rep.Measurement, cfg)
	return v.Band
}

// ReceiptLine renders the one-line result of a run: "cut ~N tok (-P%)", "grew ~N tok (+P%)",
// or with dryRun "would cut ..." / "would grow ...".
func ReceiptLine(before, after int, dryRun bool) string {
	verb, sign, n := "cut", "-", before-after
	if n < 0 {
		verb, sign, n = "grew", "+", -n
		if dryRun {
			verb = "would grow"
		}
	} else if dryRun {
		verb = "would cut"
	}
	return fmt.Sprintf("%s ~%d tok (%s%s%%)", verb, n, sign, percent(n, before))
}

func percent(n, of int) string {
	if of <= 0 {
		return "0"
	}
	p := 100 * float64(n) / float64(of)
	if p > 0 && p < 1 {
		return fmt.Sprintf("%.1f", p)
	}
	return fmt.Sprintf("%.0f", math.Round(p))
}
