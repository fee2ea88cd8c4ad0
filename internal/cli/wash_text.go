package cli

import (
	"fmt"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/txn"
	"github.com/prosewash/prosewash/internal/engine/wash"
	"github.com/prosewash/prosewash/internal/engine/wash/archive"
	"github.com/prosewash/prosewash/internal/engine/wash/lane"
)

// washText renders the memory lane for a person: one "prosewash:" line per fact on stderr,
// never file content beyond token values and paths.
type washText struct {
	e *env
	// rel renders a path the way the lane's messages do.
	rel func(string) string
}

func (w washText) gauge(g lane.Gauge, limited []string) error {
	ui, v := w.e.ui, g.Verdict
	ui.infof("wash gauge: %s (%s) for %s: ~%d tok loaded every session, ~%d tok provable fat, ~%d tok inherited (shown, not counted)", v.Band, v.Reason, orNone(v.Platform), v.Footprint, v.Fat, v.Inherited)
	for _, pl := range g.Measure.Platforms {
		line := fmt.Sprintf("  %-12s ~%d tok every session in %d file(s), ~%d tok provable fat, ~%d tok inherited", pl.Platform, pl.Footprint, pl.Files, pl.Fat, pl.Inherited)
		if pl.NeverLoaded > 0 {
			line += fmt.Sprintf(", ~%d tok written but never loaded", pl.NeverLoaded)
		}
		ui.infof("%s", line)
	}
	ui.infof("  %7s %6s  %-24s %-13s %s", "tokens", "fat", "loaded by", "kind", "file")
	for _, f := range g.Files {
		ui.infof("  %7d %6s  %-24s %-13s %s%s", f.Tokens, fatColumn(f), loadedBy(f), f.Kind, w.rel(f.Real), fileNote(f))
	}
	if len(g.Files) == 0 {
		ui.infof("  (no memory or instruction files found)")
	}
	ui.infof("advice: %s", v.Advice)
	w.loadSource(g.Source)
	w.neverLoaded(g)
	if v.Potential > 0 || v.OverBudget > 0 {
		ui.infof("judgement candidates: ~%d tok superseded, ~%d tok stale, footprint ~%d of a %d-token budget; 'prosewash wash full' briefs a judge", v.Superseded, v.Stale, v.Footprint, v.Budget)
	}
	if v.Economical || v.BreakEvenSessions > 0 {
		ui.infof("break-even: a full pass costs ~%d tok, the fat ~%d tok per session: %.1f sessions (horizon %d)", v.RunCost, v.CarryPerSession, v.BreakEvenSessions, v.HorizonSessions)
	}
	for _, wall := range v.Walls {
		ui.warnf("capacity wall: %s", wall)
	}
	for _, fl := range g.Flags {
		ui.warnf("%s: %s: %s", at(w.rel(fl.Path), fl.Line), fl.Kind, fl.Reason)
	}
	for _, p := range g.Problems {
		ui.warnf("%s (%s): %s", w.rel(p.Path), p.Platform, p.Reason)
	}
	for _, er := range g.Errors {
		ui.warnf("%s", er)
	}
	if len(g.Drift) > 0 {
		ui.infof("%d always-loaded file(s) changed size since the last recorded gauge", len(g.Drift))
	}
	if !g.Recorded {
		ui.infof("limited to %s: the band was not recorded", strings.Join(limited, ", "))
	}
	return nil
}

// loadedBy names the platforms that load a file every session, with what each loads of it when
// that is less than the whole file.
func loadedBy(f wash.FileReport) string {
	by := strings.Join(f.Platforms, ",")
	if by == "" {
		by = f.Platform
	}
	return by
}

func fatColumn(f wash.FileReport) string {
	switch {
	case f.Inherited, !f.Owned:
		return "-"
	}
	return fmt.Sprint(f.Fat)
}

func fileNote(f wash.FileReport) string {
	note := ""
	switch {
	case f.Inherited:
		note = "  (inherited: not counted, never touched)"
	case !f.AlwaysLoaded:
		note = "  (recall-only)"
	}
	for _, p := range f.Platforms {
		if n, ok := f.Loads[p]; ok && n < f.Size {
			note += fmt.Sprintf("  (%s loads %d of %d bytes)", p, n, f.Size)
		}
	}
	if f.Streamed {
		note += "  (over the read cap: streamed reading, never rewritten)"
	}
	if !f.Owned && !f.Inherited {
		note += "  (measured only: not washed)"
	}
	return note
}

// neverLoaded is the finding no other tool reports: text the user wrote for a platform that
// never reaches its model.
func (w washText) neverLoaded(g lane.Gauge) {
	for _, u := range g.NeverLoaded {
		where := at(w.rel(u.Path), u.Line)
		if u.Lines > 1 {
			where = fmt.Sprintf("%s-%d", where, u.Line+u.Lines-1)
		}
		w.e.ui.warnf("never loaded: %s (%s, ~%d tok): %s", where, u.Platform, u.Tokens, u.Reason)
	}
}

func (w washText) loadSource(src *lane.LoadSource) {
	if src == nil {
		return
	}
	ui := w.e.ui
	if src.Source != lane.SourceLoaded {
		ui.infof("claude-code load list: derived from Claude Code's rules (no InstructionsLoaded report recorded for this directory yet)")
		return
	}
	ui.infof("claude-code load list: what session %s reported loading (InstructionsLoaded, %d file(s), %s)", src.Session, src.Files, src.At.Format("2006-01-02 15:04 MST"))
	for _, p := range src.NotLoaded {
		ui.infof("  derived but not reported loaded: %s", w.rel(p))
	}
	for _, p := range src.Extra {
		ui.infof("  reported loaded, not derived (measured only): %s", w.rel(p))
	}
}

func at(path string, line int) string {
	if line > 0 {
		return fmt.Sprintf("%s:%d", path, line)
	}
	return path
}

func (w washText) quick(res lane.QuickResult, dry bool, runErr error) error {
	ui := w.e.ui
	cuts, files := 0, 0
	for _, f := range res.Files {
		if len(f.Cuts) > 0 {
			files++
		}
		for _, c := range f.Cuts {
			cuts++
			ui.infof("  %s:%d %s (%d line(s), ~%d tok): %s", f.Path, c.Line, c.Kind, c.Lines, c.Tokens, c.Reason)
		}
		for _, d := range f.ApprovedDrops {
			ui.infof("  %s: approved drop %s ('prosewash wash verify' on the old and new file reports exactly these)", f.Path, d)
		}
	}
	for _, f := range res.Files {
		if f.MeasuredOnly {
			ui.infof("  %s: measured only, never cut (not a Markdown memory file this project owns)", f.Path)
		}
	}
	verb := "cut"
	if dry {
		verb = "would cut"
	}
	if runErr == nil {
		ui.infof("wash quick: %s %d piece(s) of fat in %d file(s)", verb, cuts, files)
	}
	for _, fl := range res.Flags {
		ui.warnf("flagged %s: %s: %s", at(fl.Path, fl.Line), fl.Kind, fl.Reason)
	}
	for _, er := range res.Errors {
		ui.warnf("%s", er)
	}
	for _, p := range res.Problems {
		ui.warnf("%s (%s): %s", p.Path, p.Platform, p.Reason)
	}
	if len(res.Drift) > 0 {
		ui.infof("%d file(s) changed since the last gauge: planned from their current content", len(res.Drift))
	}
	if res.RecallCut > 0 {
		ui.infof("also %s ~%d tok from recall-only notes", verb, res.RecallCut)
	}
	for _, u := range res.Unloaded {
		ui.warnf("%s", u)
	}
	var rerr error
	if runErr != nil {
		rerr = washError(w.e, runErr)
	}
	printReceipt(w.e, res.Receipt, res.Event)
	if res.Destroyed > 0 {
		ui.infof("retention: %d old bin event(s) destroyed (listed in death.log)", res.Destroyed)
	}
	return rerr
}

func (w washText) apply(res lane.PlanResult, dry bool, runErr error) error {
	ui := w.e.ui
	if runErr != nil {
		rerr := washError(w.e, runErr)
		printReceipt(w.e, res.Receipt, res.Event)
		return rerr
	}
	for _, a := range res.Actions {
		ui.infof("  %s %s (~%d -> ~%d tok): %s", a.Type, a.Path, a.TokensBefore, a.TokensAfter, a.Reason)
	}
	for _, k := range res.Approved {
		ui.infof("  approved drop %s", k)
	}
	for _, p := range res.Platforms {
		if p.Before != p.After {
			ui.infof("  %s loads ~%d -> ~%d tok", p.Platform, p.Before, p.After)
		}
	}
	for _, u := range res.Unloaded {
		ui.warnf("%s", u)
	}
	for _, wn := range res.Warnings {
		ui.warnf("%s", wn)
	}
	if !dry && res.Keeps > 0 {
		ui.infof("%d keep(s) recorded in keeps.json", res.Keeps)
	}
	printReceipt(w.e, res.Receipt, res.Event)
	return nil
}

func (w washText) bins(evs []lane.BinEvent, errs []error) error {
	ui := w.e.ui
	if len(evs) == 0 {
		ui.infof("wash bins: empty")
	}
	for _, ev := range evs {
		state := "committed"
		if !ev.Committed {
			state = "not committed (the run was interrupted or rolled back; the files were restored)"
		}
		if len(ev.Restored) > 0 {
			state += fmt.Sprintf(", restored %dx", len(ev.Restored))
		}
		ui.infof("%s  %s  %s, %d file(s), %d bytes, %s", ev.ID, ev.At.Format("2006-01-02 15:04 MST"), ev.Reason, len(ev.Files), ev.Bytes, state)
		for _, f := range ev.Files {
			detail := f.Op
			if f.RemovedLines > 0 || f.Tokens > 0 {
				detail += fmt.Sprintf(", %d line(s) cut, ~%d tok", f.RemovedLines, f.Tokens)
			}
			if len(f.Cuts) > 0 {
				detail += " (" + strings.Join(f.Cuts, ", ") + ")"
			}
			ui.infof("  %s  %s  %s", f.Ref, f.Path, detail)
		}
	}
	for _, er := range errs {
		ui.warnf("%v", er)
	}
	return nil
}

func (w washText) restore(res lane.RestoreResult, runErr error) error {
	if runErr != nil {
		return washError(w.e, runErr)
	}
	for _, f := range res.Files {
		w.e.ui.infof("  %s %s (%s)", f.Action, f.Path, f.Ref)
	}
	w.e.ui.infof("%s", res.Receipt)
	return nil
}

func (w washText) stats(s lane.Stats, ts *archive.StoreStats) error {
	ui := w.e.ui
	if s.Verdict == nil {
		ui.infof("wash stats: never gauged (run 'prosewash wash gauge')")
	} else {
		v := s.Verdict
		ui.infof("wash stats: %s (%s) as of %s: ~%d tok always loaded, ~%d tok fat, ~%d tok muscle, ~%d tok inherited", v.Band, v.Reason, s.GaugedAt.Format("2006-01-02 15:04 MST"), v.Footprint, v.Fat, v.Muscle, v.Inherited)
		ui.infof("advice: %s", v.Advice)
	}
	if c := s.Crossing; c != nil {
		state := "acted on"
		if c.Pending {
			state = "pending: the end-of-turn recheck will ask for a quick pass once"
		}
		ui.infof("crossing: %s (%s), %s", c.Band, c.Reason, state)
	}
	ui.infof("sessions gauged: %d; known always-loaded files: %d; store %d bytes", s.Sessions, s.Known, s.StoreBytes)
	w.history(s)
	for _, b := range s.Bins {
		line := fmt.Sprintf("bin %-6s %3d event(s), %d bytes", b.Bin, b.Events, b.Bytes)
		if b.Events > 0 {
			line += fmt.Sprintf(", %s to %s", b.Oldest.Format("2006-01-02"), b.Newest.Format("2006-01-02"))
		}
		ui.infof("%s", line)
	}
	ui.infof("destroyed by retention: %d (death.log); keeps recorded: %d", s.Deaths, s.Keeps)
	w.spawns(s)
	w.transcripts(ts)
	for _, p := range s.Pending {
		ui.warnf("interrupted run %s pending: run 'prosewash wash recover'", p.RunID)
	}
	for _, er := range s.Errors {
		ui.warnf("%s", er)
	}
	return nil
}

func (w washText) history(s lane.Stats) {
	ui := w.e.ui
	if n := len(s.History); n > 0 {
		ui.infof("footprint history (last %d of %d readings):", min(n, 10), n)
		for _, p := range s.History[max(0, n-10):] {
			ui.infof("  %s  %-13s %6d tok  fat %5d  %s", p.At.Format("2006-01-02 15:04"), p.Source, p.Footprint, p.Fat, p.Band)
		}
		first, last := s.History[0], s.History[n-1]
		ui.infof("since the first reading: %+d tok", last.Footprint-first.Footprint)
	}
	if s.Receipt != nil {
		ui.infof("last receipt (%s, %s): %s", s.Receipt.Kind, s.Receipt.At.Format("2006-01-02 15:04 MST"), s.Receipt.Line)
	}
}

func (w washText) spawns(s lane.Stats) {
	if len(s.Spawns) == 0 {
		return
	}
	n, tok := 0, 0
	for _, sp := range s.Spawns {
		n += sp.Spawns
		tok += sp.Tokens
	}
	last := s.Spawns[0]
	w.e.ui.infof("subagents: the memory rode %d spawn(s), ~%d tok, over %d recorded session(s); latest session %s: %d spawn(s), ~%d tok (counted by %s)",
		n, tok, len(s.Spawns), last.Session, last.Spawns, last.Tokens, last.Via)
}

func (w washText) transcripts(ts *archive.StoreStats) {
	if ts == nil || ts.Sessions == 0 && len(ts.Projects) == 0 {
		return
	}
	ui := w.e.ui
	ui.infof("transcripts: %d session(s), %s in %d project(s); compression measured on %s: %.1f:1", ts.Sessions, human(ts.Bytes), len(ts.Projects), human(ts.SampleBytes), ts.Ratio)
	for i, p := range ts.Projects {
		if i == 10 {
			ui.infof("  (%d more project(s))", len(ts.Projects)-10)
			break
		}
		var ages []string
		for b, n := range p.ByAge {
			if n > 0 {
				ages = append(ages, fmt.Sprintf("%s %s", archive.BandName(b), human(n)))
			}
		}
		line := fmt.Sprintf("  %s: %d session(s), %s (%s)", p.Slug, p.Sessions, human(p.Bytes), strings.Join(ages, ", "))
		if p.Archived > 0 {
			line += fmt.Sprintf("; archived %d session(s), %s -> %s", p.Archived, human(p.ArchivedBytes), human(p.ArchivedCompressed))
		}
		ui.infof("%s", line)
	}
}

func (w washText) recovered(rep txn.RecoverReport) error {
	ui := w.e.ui
	if len(rep.Runs) == 0 {
		ui.infof("wash recover: nothing to recover")
	}
	for _, r := range rep.Runs {
		ui.infof("run %s (%s): %s", r.RunID, r.Found, r.Outcome)
		for _, f := range r.Files {
			if f.Status == txn.StatusKept {
				ui.warnf("  %s changed since the run: kept as found (original %s, now %s)", w.rel(f.Path), f.Original.Short(), f.Current.Short())
			}
		}
		if r.Err != nil {
			ui.warnf("  %v", r.Err)
		}
	}
	if rep.Unresolved {
		return errFindings
	}
	return nil
}
