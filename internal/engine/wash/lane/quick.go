package lane

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/wash"
	"github.com/prosewash/prosewash/internal/engine/wash/bins"
	"github.com/prosewash/prosewash/internal/engine/wash/discover"
	"github.com/prosewash/prosewash/internal/engine/wash/gate"
	"github.com/prosewash/prosewash/internal/engine/wash/gauge"
)

// QuickOptions configure a Quick pass.
type QuickOptions struct {
	// DryRun plans and gates without writing anything.
	DryRun bool
	// Files limits the pass to these files (paths as the user typed them, relative to the
	// project, "~/..." or absolute); empty means every file the lane owns.
	Files []string
	// Terminal says the pass was asked for on a terminal: only then may Files name a
	// user-level memory file (~/.claude/CLAUDE.md and the like), which is never washed
	// otherwise.
	Terminal bool
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
	Path         string `json:"path"` // as shown
	Real         string `json:"real"`
	AlwaysLoaded bool   `json:"always_loaded"`
	// MeasuredOnly files are loaded but not the lane's to write (user-level memory, settings,
	// code or JSON reached through an import): never cut.
	MeasuredOnly bool       `json:"measured_only,omitempty"`
	Changed      bool       `json:"changed"`
	Refused      bool       `json:"refused,omitempty"`
	TokensBefore int        `json:"tokens_before"`
	TokensAfter  int        `json:"tokens_after"`
	Cuts         []QuickCut `json:"cuts,omitempty"`
	// ApprovedDrops are the "type:value" tokens the cuts remove on purpose (a dead index
	// entry's link, a repointed link's old target): exactly what `wash verify` reports.
	ApprovedDrops []string `json:"approved_drops,omitempty"`
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
	// Platform is the platform Before and After describe (see gauge.Measurement.Platform);
	// Platforms is every platform's own load before and after.
	Platform  string          `json:"platform,omitempty"`
	Platforms []PlatformDelta `json:"platforms,omitempty"`
	// Before and After are the headline platform's always-loaded footprint in tokens;
	// TokensCut is what the run removes from always-loaded files (each file once); RecallCut is
	// what was cut from recall-only notes (it shrinks the store, not the per-session bill).
	Before    int `json:"before"`
	After     int `json:"after"`
	TokensCut int `json:"tokens_cut"`
	RecallCut int `json:"recall_cut,omitempty"`
	// ApprovedDrops counts the approved drops over all files (each file names its own).
	ApprovedDrops int `json:"approved_drops,omitempty"`
	// Unloaded names the files a platform would no longer load after the run.
	Unloaded []string `json:"unloaded,omitempty"`
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

// PlatformDelta is one platform's always-loaded footprint before and after a run.
type PlatformDelta struct {
	Platform string `json:"platform"`
	Before   int    `json:"before"`
	After    int    `json:"after"`
}

// Quick plans the mechanical Quick pass over every discovered file, gates the whole plan and,
// unless DryRun, applies it in one all-or-nothing transaction with the originals banked. Only
// owned files are cut (and with Files, only the files named).
func (l *Lane) Quick(o QuickOptions) (QuickResult, error) {
	res := QuickResult{DryRun: o.DryRun}
	if err := l.refusePending(); err != nil {
		return res, err
	}
	stateDir, err := l.stateDir()
	if err != nil {
		return res, err
	}
	named, user, err := l.namedFiles(o.Files)
	if err != nil {
		return res, err
	}
	if len(user) > 0 && !o.Terminal {
		return res, &RefusedError{Path: user[0], Reason: "a user-level memory file is washed only when a person names it on a terminal"}
	}
	r, err := l.measureAllowing(nil, true, false, nil, named)
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
	writable := r.writable()
	x := run{Bin: bins.Quick, Reason: "quick", StoreBytes: r.storeBytes(), Writable: writable, Reading: r}
	m := r.rep.Measurement
	res.Platform, res.Before = m.Platform, m.Footprint
	saved := map[string]int{} // real path -> tokens cut
	for _, fp := range plan.Files {
		real := r.realOf(fp.Path)
		e := r.entry[real]
		if len(named) > 0 && !named[real] && fp.Changed {
			// Not named: planned for the figures, left as it is.
			fp.New, fp.Changed, fp.Cuts, fp.Approved, fp.ApprovedDrops, fp.TokensAfter = fp.Orig, false, nil, nil, nil, fp.TokensBefore
		}
		x.Gate = append(x.Gate, gate.Change{Path: real, Kind: gate.Rewrite, Orig: fp.Orig, Result: fp.New})
		x.Approved.fileApproved(l.planPath(real), fp.Approved)
		qf := QuickFile{Path: l.rel(real), Real: real, AlwaysLoaded: e.AlwaysLoaded && !e.Inherited, MeasuredOnly: !writable[real] && !e.Inherited,
			Changed: fp.Changed, Refused: fp.Refused, TokensBefore: fp.TokensBefore, TokensAfter: fp.TokensAfter, ApprovedDrops: fp.ApprovedDrops}
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
		if !writable[real] {
			return res, &RefusedError{Path: l.rel(real), Reason: measuredOnly}
		}
		cut := fp.TokensBefore - fp.TokensAfter
		if qf.AlwaysLoaded {
			res.TokensCut += cut
			saved[real] = cut
		} else {
			res.RecallCut += cut
		}
		res.ApprovedDrops += len(fp.ApprovedDrops)
		x.Changes = append(x.Changes, change{Path: real, Kind: gate.Rewrite, Orig: fp.Orig, Result: fp.New,
			Cuts: cutKinds(kinds), RemovedLines: removedLines(fp.Orig, fp.New), Tokens: cut})
	}
	res.Platforms = platformDeltas(r.rep, saved)
	if o.DryRun {
		// The dry run gates exactly as the run does and its receipt comes from the same
		// loads, so what it shows is what a real run would do.
		lc, err := l.gateRun(x)
		res.figures(l, lc)
		res.Receipt = quickReceipt(res, true)
		if err != nil {
			return res, err
		}
		res.Band = r.band(st, cfg)
		return res, nil
	}
	out, err := l.execute(x)
	res.figures(l, out.Loads)
	res.Receipt = quickReceipt(res, false)
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

// figures sets the receipt's figures from the gate's loads: every platform's footprint before
// and after, the headline platform's, and the tokens cut (the largest saving of one platform,
// never a sum over platforms). Without loads (nothing changed) the reading's figures stand.
func (res *QuickResult) figures(l *Lane, lc *loadCheck) {
	if lc != nil && lc.before != nil {
		res.Platforms = lc.deltas()
		res.Unloaded = lc.unloaded(l)
	}
	res.After = res.Before
	cut := 0
	for _, p := range res.Platforms {
		if p.Platform == res.Platform {
			res.Before, res.After = p.Before, p.After
		}
		cut = max(cut, p.Before-p.After)
	}
	if lc != nil && lc.before != nil {
		res.TokensCut = cut
	}
}

// UserLevel returns the files among those named (as QuickOptions.Files takes them) that are
// user-level memory: a Quick pass writes them only when a person asked on a terminal.
func (l *Lane) UserLevel(files []string) ([]string, error) {
	_, user, err := l.namedFiles(files)
	return user, err
}

// namedFiles resolves QuickOptions.Files to real paths: each must be a file a platform loads
// for this project; user lists (as shown) the user-level ones (in ~/.claude, the Codex home,
// ~/.gemini), which only a person on a terminal may have washed. Code, JSON and settings can
// never be named.
func (l *Lane) namedFiles(files []string) (named map[string]bool, user []string, err error) {
	if len(files) == 0 {
		return nil, nil, nil
	}
	res, err := discover.Discover(l.discoverOptions(nil))
	if err != nil {
		return nil, nil, err
	}
	named = map[string]bool{}
	for _, f := range files {
		real, err := l.resolvePlanPath(f)
		if err != nil {
			return nil, nil, err
		}
		var found *discover.Entry
		owned := true
		for i, e := range res.Entries {
			if e.Real == real {
				found = &res.Entries[i]
				owned = owned && e.Owned
			}
		}
		switch {
		case found == nil:
			return nil, nil, &RefusedError{Path: l.rel(real), Reason: "not a memory file any platform loads for this project"}
		case found.Inherited:
			return nil, nil, &RefusedError{Path: l.rel(real), Reason: "inherited from above the project: never touched"}
		case !owned && !l.userLevel(*found):
			return nil, nil, &RefusedError{Path: l.rel(real), Reason: measuredOnly}
		case !owned:
			user = append(user, l.rel(real))
		}
		named[real] = true
	}
	return named, user, nil
}

// platformDeltas is every platform's always-loaded footprint before and after the cuts
// (saved: tokens cut per real path), each file counted once per platform that loads it.
func platformDeltas(rep wash.Report, saved map[string]int) []PlatformDelta {
	var out []PlatformDelta
	for _, p := range rep.Measurement.Platforms {
		d := PlatformDelta{Platform: p.Platform, Before: p.Footprint, After: p.Footprint}
		for _, f := range rep.Files {
			if !f.Inherited && f.AlwaysLoaded && slices.Contains(f.Platforms, p.Platform) {
				d.After -= saved[f.Real]
			}
		}
		out = append(out, d)
	}
	return out
}

// quickReceipt is the line a Quick run ends with: the tokens cut, the share of each
// platform's own load they were (never one total summed over platforms), and the approved
// drops, which `wash verify` would report, by count (each file lists its own).
func quickReceipt(res QuickResult, dryRun bool) string {
	verb := "cut"
	if dryRun {
		verb = "would cut"
	}
	var shares []string
	for _, p := range res.Platforms {
		if p.After != p.Before {
			shares = append(shares, fmt.Sprintf("%s -%s%%", p.Platform, percent(p.Before-p.After, p.Before)))
		}
	}
	line := fmt.Sprintf("%s ~%d tok (-0%%)", verb, res.TokensCut)
	switch {
	case len(res.Platforms) == 1 && len(shares) == 1:
		// One platform loads this memory: its share is the share.
		p := res.Platforms[0]
		line = fmt.Sprintf("%s ~%d tok (-%s%%)", verb, res.TokensCut, percent(p.Before-p.After, p.Before))
	case len(shares) == 1:
		line = fmt.Sprintf("%s ~%d tok (%s)", verb, res.TokensCut, shares[0])
	case len(shares) > 1:
		line = fmt.Sprintf("%s ~%d tok (%s)", verb, res.TokensCut, strings.Join(shares, ", "))
	}
	if res.ApprovedDrops > 0 {
		line += fmt.Sprintf("; %d approved drop(s) named per file", res.ApprovedDrops)
	}
	return line
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
