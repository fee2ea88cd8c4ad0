package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/prosewash/prosewash/internal/engine/config"
	"github.com/prosewash/prosewash/internal/engine/txn"
	"github.com/prosewash/prosewash/internal/engine/wash/archive"
	"github.com/prosewash/prosewash/internal/engine/wash/discover"
	"github.com/prosewash/prosewash/internal/engine/wash/lane"
)

const washGaugeHelp = `Discovers what every agent platform loads for this project, started from the current
directory (Claude Code, Codex and other AGENTS.md readers, Gemini CLI, Copilot, Cursor, Cline,
Windsurf: a directory below the project root adds its own memory files, as the platforms do),
estimates each file's tokens and the provable fat the quick pass would remove, and shows each
platform's own load: no agent loads the sum. The band is decided on the load of the platform
with the most fat (then the largest): LEAN (nothing to do), OBESE (fat armed: run 'prosewash
wash quick'), FULL (a full pass pays for itself, or a capacity wall: a file over the 4 MiB read
cap is measured by streaming and always needs splitting or externalizing). Files above the
project are shown but never counted; recall-only notes count toward the store, not the
per-session bill; user-level memory, settings and code reached through imports are measured
and shown, never washed. The band is recorded in the state dir unless --platform limits the
reading. Repeat --platform (or give a comma list) to limit discovery. Token figures are
estimates (see internal/engine/wash/ESTIMATOR.md).`

const washQuickHelp = `Removes only provable fat from the memory files this project owns (Markdown memory in the
project and in the Claude Code memory directory): exact duplicate lines and blocks within one
file under the same heading (the first copy stays; a line repeated inside one list is a step
and stays; a copy in another file is reported, never cut, since another agent may read that
file alone), runs of blank lines, trailing whitespace (never a Markdown hard break), MEMORY.md
index entries that hold nothing but a link to a missing note and its title (an entry with
text of its own is reported), and relative links whose target moved to exactly one other
Markdown file of the same name. Fenced code, front matter and files with "pinned: true" (or
front matter that cannot be read with certainty) are never touched; user-level memory,
settings, code and JSON reached through imports are measured only. Every cut is listed.

FILE... limits the pass to the files named. A user-level memory file (~/.claude/CLAUDE.md,
~/.codex/AGENTS.md, ~/.gemini/GEMINI.md, ~/.claude/rules/*.md) is washed only when named
here by a person on a terminal, who confirms it.

The whole plan passes the fidelity gate first: any structured token it would lose blocks the
run before anything is written, naming the tokens. Then one transaction applies it: every
original is kept in the quick recovery bin (30 days) before the first write, each file is
swapped only if it still holds what was planned from, and any failure puts every file back.
Every run ends with one receipt line: "cut ~N tok (-P%)". --dry-run shows the plan.`

const washApplyHelp = `Applies an adjudicated semantic plan (schema: internal/engine/wash/PLAN.md): delete, merge, shrink
and rewrite actions, each with a reason and the sha256 of every file as the judge read it.
Every file must be a memory file this project owns; a changed file, a pinned file, an
anchored keep that would not survive or an unapproved drop ("approvedDrops": ["type:value"])
refuses the whole plan before anything is written. The originals go to the plan recovery bin
(60 days); keeps and the applied plan are recorded in keeps.json in the state dir. With
[wash] local_only = true only a plan whose judge is "local:..." is applied. No model is
called by this command.`

const washBinsHelp = `Lists every banked cut, newest first: quick cuts (30 days), plan cuts (60 days) and
write-guard snapshots taken before an agent's first write to a memory file (30 days). Every
48 hours is kept whole; older events thin to one a day, then one a week, and a size cap (twice
the store) never removes anything younger than 48 hours. Nothing is ever removed except inside
a real wash run, and every removal is a line in death.log.`

const washRestoreHelp = `Puts a banked cut back: ID restores every file of a run, ID.N one file, "last" the newest
quick or plan run ("last.N" one of its files). A file that is gone
is re-created; a file still holding what the run wrote gets its original back; a file changed
since is restored only when every line it holds now is in the original and the gate finds no
token missing, so a restore can only add content. Otherwise nothing is written and --stdout
prints the banked bytes for a merge by hand. Pinned files are never written.`

const washRecoverHelp = `Ends a wash run that was interrupted (killed, power cut): every file it had touched goes
back to its original unless it was edited since, in which case it is left as found and both
hashes are reported. Trusts the project and the platforms' config directories.`

// washLane opens the project, loads its configuration and returns its lane.
func washLane(e *env) (*lane.Lane, error) {
	p, err := openProject(e)
	if err != nil {
		return nil, err
	}
	if err := loadConfig(e, p); err != nil {
		return nil, err
	}
	start, _ := os.Getwd()
	return lane.New(p, lane.Options{Start: start}), nil
}

// jsonFlagOnly parses the flags of a command that takes no arguments and
// only --json.
func jsonFlagOnly(name string, args []string) (bool, error) {
	fs := newFlags(name)
	asJSON := fs.Bool("json", false, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return false, err
	}
	if len(rest) > 0 {
		return false, usagef("%s takes no arguments", name)
	}
	return *asJSON, nil
}

// writeRunJSON prints a wash run's result (with its refusal, if any) and
// maps the refusal to the exit status.
func writeRunJSON(e *env, out any, runErr error) error {
	if err := writeJSON(e, out); err != nil {
		return err
	}
	if runErr != nil {
		return washError(e, runErr)
	}
	return nil
}

// printReceipt is the line every wash run ends with, and where its cuts are kept.
func printReceipt(e *env, receipt, event string) {
	e.ui.infof("%s", receipt)
	if event != "" {
		e.ui.infof("originals kept in %s: 'prosewash wash restore %s' puts them back", event, event)
	}
}

// writeJSON prints one indented JSON document on standard output.
func writeJSON(e *env, v any) error {
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// washError reports a refused wash and maps it to its exit status.
func washError(e *env, err error) error {
	var blocked *lane.BlockedError
	var refused *lane.RefusedError
	var changed *lane.ChangedError
	var localOnly *lane.LocalOnlyError
	var conflict *lane.ConflictError
	var pend *txn.PendingError
	var locked *txn.LockedError
	var cfgErr *config.Error
	switch {
	case errors.As(err, &blocked):
		e.ui.errorf("refused by the fidelity gate: %d structured token(s) would be lost; nothing was written", len(blocked.Drops))
		for _, d := range blocked.Drops {
			e.ui.infof("  %s", d.String())
		}
		e.ui.hintf("keep the tokens, or approve each one deliberately as \"type:value\" in the plan's approvedDrops")
		return errRefused
	case errors.As(err, &pend):
		e.ui.errorf("%v", err)
		e.ui.hintf("run 'prosewash wash recover' to bring the interrupted run to a safe end")
		return errRefused
	case errors.As(err, &refused), errors.As(err, &changed), errors.As(err, &localOnly), errors.As(err, &conflict), errors.As(err, &locked):
		e.ui.errorf("refused: %v", err)
		return errRefused
	case errors.As(err, &cfgErr):
		return err
	}
	return err
}

// errorJSON is the --json form of a refusal.
type errorJSON struct {
	Error   string   `json:"error"`
	Blocked []string `json:"blocked,omitempty"`
}

func jsonError(err error) *errorJSON {
	if err == nil {
		return nil
	}
	ej := &errorJSON{Error: err.Error()}
	var blocked *lane.BlockedError
	if errors.As(err, &blocked) {
		for _, d := range blocked.Drops {
			ej.Blocked = append(ej.Blocked, d.String())
		}
	}
	return ej
}

// listFlag accepts repeated flags and comma lists.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error {
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*l = append(*l, p)
		}
	}
	return nil
}

func runWashGauge(e *env, args []string) error {
	fs := newFlags("wash gauge")
	asJSON := fs.Bool("json", false, "")
	var platforms listFlag
	fs.Var(&platforms, "platform", "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 0 {
		return usagef("wash gauge takes no arguments")
	}
	known := discover.AllPlatforms()
	for _, p := range platforms {
		if !contains(known, p) {
			return usagef("unknown platform %q (known: %s)", p, strings.Join(known, ", "))
		}
	}
	l, err := washLane(e)
	if err != nil {
		return err
	}
	g, err := l.Gauge(lane.GaugeOptions{Platforms: platforms})
	if err != nil {
		return washError(e, err)
	}
	if *asJSON {
		return writeJSON(e, g)
	}
	v := g.Verdict
	e.ui.infof("wash gauge: %s (%s) for %s: ~%d tok loaded every session, ~%d tok provable fat, ~%d tok inherited (shown, not counted)", v.Band, v.Reason, orNone(v.Platform), v.Footprint, v.Fat, v.Inherited)
	for _, pl := range g.Measure.Platforms {
		e.ui.infof("  %-12s ~%d tok every session in %d file(s), ~%d tok provable fat, ~%d tok inherited", pl.Platform, pl.Footprint, pl.Files, pl.Fat, pl.Inherited)
	}
	e.ui.infof("  %7s %6s  %-24s %-13s %s", "tokens", "fat", "loaded by", "kind", "file")
	for _, f := range g.Files {
		fat := fmt.Sprint(f.Fat)
		note := ""
		switch {
		case f.Inherited:
			fat, note = "-", "  (inherited: not counted, never touched)"
		case !f.AlwaysLoaded:
			note = "  (recall-only)"
		}
		if f.Streamed {
			note += "  (over the read cap: streamed reading, never rewritten)"
		}
		if !f.Owned && !f.Inherited {
			fat, note = "-", note+"  (measured only: not washed)"
		}
		by := strings.Join(f.Platforms, ",")
		if by == "" {
			by = f.Platform
		}
		e.ui.infof("  %7d %6s  %-24s %-13s %s%s", f.Tokens, fat, by, f.Kind, l.Rel(f.Real), note)
	}
	if len(g.Files) == 0 {
		e.ui.infof("  (no memory or instruction files found)")
	}
	e.ui.infof("advice: %s", v.Advice)
	if src := g.Source; src != nil {
		switch src.Source {
		case lane.SourceLoaded:
			e.ui.infof("claude-code load list: what session %s reported loading (InstructionsLoaded, %d file(s), %s)", src.Session, src.Files, src.At.Format("2006-01-02 15:04 MST"))
			for _, p := range src.NotLoaded {
				e.ui.infof("  derived but not reported loaded: %s", l.Rel(p))
			}
			for _, p := range src.Extra {
				e.ui.infof("  reported loaded, not derived (measured only): %s", l.Rel(p))
			}
		default:
			e.ui.infof("claude-code load list: derived from Claude Code's rules (no InstructionsLoaded report recorded for this directory yet)")
		}
	}
	if v.Potential > 0 || v.OverBudget > 0 {
		e.ui.infof("judgement candidates: ~%d tok superseded, ~%d tok stale, footprint ~%d of a %d-token budget; 'prosewash wash full' briefs a judge", v.Superseded, v.Stale, v.Footprint, v.Budget)
	}
	if v.Economical || v.BreakEvenSessions > 0 {
		e.ui.infof("break-even: a full pass costs ~%d tok, the fat ~%d tok per session: %.1f sessions (horizon %d)", v.RunCost, v.CarryPerSession, v.BreakEvenSessions, v.HorizonSessions)
	}
	for _, w := range v.Walls {
		e.ui.warnf("capacity wall: %s", w)
	}
	for _, fl := range g.Flags {
		where := l.Rel(fl.Path)
		if fl.Line > 0 {
			where = fmt.Sprintf("%s:%d", where, fl.Line)
		}
		e.ui.warnf("%s: %s: %s", where, fl.Kind, fl.Reason)
	}
	for _, p := range g.Problems {
		e.ui.warnf("%s (%s): %s", l.Rel(p.Path), p.Platform, p.Reason)
	}
	for _, er := range g.Errors {
		e.ui.warnf("%s", er)
	}
	if len(g.Drift) > 0 {
		e.ui.infof("%d always-loaded file(s) changed size since the last recorded gauge", len(g.Drift))
	}
	if !g.Recorded {
		e.ui.infof("limited to %s: the band was not recorded", strings.Join(platforms, ", "))
	}
	return nil
}

func runWashQuick(e *env, args []string) error {
	fs := newFlags("wash quick")
	asJSON := fs.Bool("json", false, "")
	dry := fs.Bool("dry-run", false, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	l, err := washLane(e)
	if err != nil {
		return err
	}
	o := lane.QuickOptions{DryRun: *dry}
	for _, a := range rest {
		o.Files = append(o.Files, userPath(a))
	}
	user, err := l.UserLevel(o.Files)
	if err != nil {
		return washError(e, err)
	}
	if ask := terminalAsk(e); len(user) > 0 && ask != nil {
		// Only a person can let the pass write a user-level file; naming one is not enough.
		o.Terminal = ask(fmt.Sprintf("wash %s, user-level memory every project loads?", strings.Join(user, ", ")))
	}
	res, runErr := l.Quick(o)
	if runErr != nil {
		res.Receipt = lane.ReceiptLine(res.Before, res.Before, *dry)
	}
	if *asJSON {
		out := struct {
			lane.QuickResult
			Refused *errorJSON `json:"refused,omitempty"`
		}{res, jsonError(runErr)}
		return writeRunJSON(e, out, runErr)
	}
	cuts, files := 0, 0
	for _, f := range res.Files {
		if len(f.Cuts) > 0 {
			files++
		}
		for _, c := range f.Cuts {
			cuts++
			e.ui.infof("  %s:%d %s (%d line(s), ~%d tok): %s", f.Path, c.Line, c.Kind, c.Lines, c.Tokens, c.Reason)
		}
		for _, d := range f.ApprovedDrops {
			e.ui.infof("  %s: approved drop %s ('prosewash wash verify' on the old and new file reports exactly these)", f.Path, d)
		}
	}
	for _, f := range res.Files {
		if f.MeasuredOnly {
			e.ui.infof("  %s: measured only, never cut (not a Markdown memory file this project owns)", f.Path)
		}
	}
	verb := "cut"
	if *dry {
		verb = "would cut"
	}
	if runErr == nil {
		e.ui.infof("wash quick: %s %d piece(s) of fat in %d file(s)", verb, cuts, files)
	}
	for _, fl := range res.Flags {
		where := fl.Path
		if fl.Line > 0 {
			where = fmt.Sprintf("%s:%d", fl.Path, fl.Line)
		}
		e.ui.warnf("flagged %s: %s: %s", where, fl.Kind, fl.Reason)
	}
	for _, er := range res.Errors {
		e.ui.warnf("%s", er)
	}
	for _, p := range res.Problems {
		e.ui.warnf("%s (%s): %s", p.Path, p.Platform, p.Reason)
	}
	if len(res.Drift) > 0 {
		e.ui.infof("%d file(s) changed since the last gauge: planned from their current content", len(res.Drift))
	}
	if res.RecallCut > 0 {
		e.ui.infof("also %s ~%d tok from recall-only notes", verb, res.RecallCut)
	}
	var rerr error
	if runErr != nil {
		rerr = washError(e, runErr)
	}
	printReceipt(e, res.Receipt, res.Event)
	if res.Destroyed > 0 {
		e.ui.infof("retention: %d old bin event(s) destroyed (listed in death.log)", res.Destroyed)
	}
	return rerr
}

func runWashApply(e *env, args []string) error {
	fs := newFlags("wash apply")
	asJSON := fs.Bool("json", false, "")
	dry := fs.Bool("dry-run", false, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usagef("wash apply takes one PLAN.json")
	}
	path := userPath(rest[0])
	b, err := readInput(rest[0])
	if err != nil {
		return err
	}
	plan, err := lane.ParsePlan(b, filepath.Dir(path))
	if err != nil {
		return err
	}
	l, err := washLane(e)
	if err != nil {
		return err
	}
	res, runErr := l.ApplyPlan(plan, lane.PlanOptions{DryRun: *dry})
	if runErr != nil {
		res.Receipt = lane.ReceiptLine(res.Before, res.Before, *dry)
	}
	if *asJSON {
		out := struct {
			lane.PlanResult
			Refused *errorJSON `json:"refused,omitempty"`
		}{res, jsonError(runErr)}
		return writeRunJSON(e, out, runErr)
	}
	var rerr error
	if runErr != nil {
		rerr = washError(e, runErr)
	} else {
		for _, a := range res.Actions {
			e.ui.infof("  %s %s (~%d -> ~%d tok): %s", a.Type, a.Path, a.TokensBefore, a.TokensAfter, a.Reason)
		}
		for _, k := range res.Approved {
			e.ui.infof("  approved drop %s", k)
		}
		for _, w := range res.Warnings {
			e.ui.warnf("%s", w)
		}
		if !*dry && res.Keeps > 0 {
			e.ui.infof("%d keep(s) recorded in keeps.json", res.Keeps)
		}
	}
	printReceipt(e, res.Receipt, res.Event)
	return rerr
}

func runWashBins(e *env, args []string) error {
	asJSON, err := jsonFlagOnly("wash bins", args)
	if err != nil {
		return err
	}
	l, err := washLane(e)
	if err != nil {
		return err
	}
	evs, errs := l.Bins()
	if asJSON {
		if evs == nil {
			evs = []lane.BinEvent{}
		}
		return writeJSON(e, struct {
			Events []lane.BinEvent `json:"events"`
			Errors []string        `json:"errors,omitempty"`
		}{evs, errStrings(errs)})
	}
	if len(evs) == 0 {
		e.ui.infof("wash bins: empty")
	}
	for _, ev := range evs {
		state := "committed"
		if !ev.Committed {
			state = "not committed (the run was interrupted or rolled back; the files were restored)"
		}
		if len(ev.Restored) > 0 {
			state += fmt.Sprintf(", restored %dx", len(ev.Restored))
		}
		e.ui.infof("%s  %s  %s, %d file(s), %d bytes, %s", ev.ID, ev.At.Format("2006-01-02 15:04 MST"), ev.Reason, len(ev.Files), ev.Bytes, state)
		for _, f := range ev.Files {
			detail := f.Op
			if f.RemovedLines > 0 || f.Tokens > 0 {
				detail += fmt.Sprintf(", %d line(s) cut, ~%d tok", f.RemovedLines, f.Tokens)
			}
			if len(f.Cuts) > 0 {
				detail += " (" + strings.Join(f.Cuts, ", ") + ")"
			}
			e.ui.infof("  %s  %s  %s", f.Ref, f.Path, detail)
		}
	}
	for _, er := range errs {
		e.ui.warnf("%v", er)
	}
	return nil
}

func errStrings(errs []error) []string {
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func runWashRestore(e *env, args []string) error {
	fs := newFlags("wash restore")
	asJSON := fs.Bool("json", false, "")
	dry := fs.Bool("dry-run", false, "")
	toStdout := fs.Bool("stdout", false, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usagef("wash restore takes one ID or ID.N (see 'prosewash wash bins')")
	}
	l, err := washLane(e)
	if err != nil {
		return err
	}
	if *toStdout {
		b, err := l.BinBytes(rest[0])
		if err != nil {
			return err
		}
		_, err = e.stdout.Write(b)
		return err
	}
	// A user-level memory file (washed before by a person who named it) is written back only
	// when the restore, too, is asked for on a terminal.
	res, runErr := l.Restore(rest[0], lane.RestoreOptions{DryRun: *dry, Terminal: terminalAsk(e) != nil})
	if *asJSON {
		out := struct {
			lane.RestoreResult
			Refused *errorJSON `json:"refused,omitempty"`
		}{res, jsonError(runErr)}
		return writeRunJSON(e, out, runErr)
	}
	if runErr != nil {
		return washError(e, runErr)
	}
	for _, f := range res.Files {
		e.ui.infof("  %s %s (%s)", f.Action, f.Path, f.Ref)
	}
	e.ui.infof("%s", res.Receipt)
	return nil
}

func runWashStats(e *env, args []string) error {
	asJSON, err := jsonFlagOnly("wash stats", args)
	if err != nil {
		return err
	}
	l, err := washLane(e)
	if err != nil {
		return err
	}
	s, err := l.Stats()
	if err != nil {
		return err
	}
	// The transcript stores of every project and their archives: read only.
	var ts *archive.StoreStats
	if o, err := l.ArchiveOptions(Version()); err == nil {
		root, _ := l.ArchiveRoot()
		if st, err := archive.Stats(o.ConfigDir, root, time.Now()); err == nil {
			ts = &st
		} else {
			s.Errors = append(s.Errors, "transcripts: "+err.Error())
		}
	}
	if asJSON {
		return writeJSON(e, struct {
			lane.Stats
			Transcripts *archive.StoreStats `json:"transcripts,omitempty"`
		}{s, ts})
	}
	if s.Verdict == nil {
		e.ui.infof("wash stats: never gauged (run 'prosewash wash gauge')")
	} else {
		v := s.Verdict
		e.ui.infof("wash stats: %s (%s) as of %s: ~%d tok always loaded, ~%d tok fat, ~%d tok muscle, ~%d tok inherited", v.Band, v.Reason, s.GaugedAt.Format("2006-01-02 15:04 MST"), v.Footprint, v.Fat, v.Muscle, v.Inherited)
		e.ui.infof("advice: %s", v.Advice)
	}
	if c := s.Crossing; c != nil {
		state := "acted on"
		if c.Pending {
			state = "pending: the Stop hook will direct a quick pass once"
		}
		e.ui.infof("crossing: %s (%s), %s", c.Band, c.Reason, state)
	}
	e.ui.infof("sessions gauged: %d; known always-loaded files: %d; store %d bytes", s.Sessions, s.Known, s.StoreBytes)
	if n := len(s.History); n > 0 {
		e.ui.infof("footprint history (last %d of %d readings):", min(n, 10), n)
		for _, p := range s.History[max(0, n-10):] {
			e.ui.infof("  %s  %-13s %6d tok  fat %5d  %s", p.At.Format("2006-01-02 15:04"), p.Source, p.Footprint, p.Fat, p.Band)
		}
		first, last := s.History[0], s.History[n-1]
		e.ui.infof("since the first reading: %+d tok", last.Footprint-first.Footprint)
	}
	if s.Receipt != nil {
		e.ui.infof("last receipt (%s, %s): %s", s.Receipt.Kind, s.Receipt.At.Format("2006-01-02 15:04 MST"), s.Receipt.Line)
	}
	for _, b := range s.Bins {
		line := fmt.Sprintf("bin %-6s %3d event(s), %d bytes", b.Bin, b.Events, b.Bytes)
		if b.Events > 0 {
			line += fmt.Sprintf(", %s to %s", b.Oldest.Format("2006-01-02"), b.Newest.Format("2006-01-02"))
		}
		e.ui.infof("%s", line)
	}
	e.ui.infof("destroyed by retention: %d (death.log); keeps recorded: %d", s.Deaths, s.Keeps)
	if len(s.Spawns) > 0 {
		n, tok := 0, 0
		for _, sp := range s.Spawns {
			n += sp.Spawns
			tok += sp.Tokens
		}
		last := s.Spawns[0]
		e.ui.infof("subagents: the memory rode %d spawn(s), ~%d tok, over %d recorded session(s); latest session %s: %d spawn(s), ~%d tok (counted by %s)",
			n, tok, len(s.Spawns), last.Session, last.Spawns, last.Tokens, last.Via)
	}
	if ts != nil && (ts.Sessions > 0 || len(ts.Projects) > 0) {
		e.ui.infof("transcripts: %d session(s), %s in %d project(s); compression measured on %s: %.1f:1", ts.Sessions, human(ts.Bytes), len(ts.Projects), human(ts.SampleBytes), ts.Ratio)
		for i, p := range ts.Projects {
			if i == 10 {
				e.ui.infof("  (%d more project(s))", len(ts.Projects)-10)
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
			e.ui.infof("%s", line)
		}
	}
	for _, p := range s.Pending {
		e.ui.warnf("interrupted run %s pending: run 'prosewash wash recover'", p.RunID)
	}
	for _, er := range s.Errors {
		e.ui.warnf("%s", er)
	}
	return nil
}

func runWashRecover(e *env, args []string) error {
	asJSON, err := jsonFlagOnly("wash recover", args)
	if err != nil {
		return err
	}
	l, err := washLane(e)
	if err != nil {
		return err
	}
	rep, err := l.Recover()
	if err != nil {
		return washError(e, err)
	}
	if asJSON {
		if err := writeJSON(e, rep); err != nil {
			return err
		}
	} else {
		if len(rep.Runs) == 0 {
			e.ui.infof("wash recover: nothing to recover")
		}
		for _, r := range rep.Runs {
			e.ui.infof("run %s (%s): %s", r.RunID, r.Found, r.Outcome)
			for _, f := range r.Files {
				if f.Status == txn.StatusKept {
					e.ui.warnf("  %s changed since the run: kept as found (original %s, now %s)", l.Rel(f.Path), f.Original.Short(), f.Current.Short())
				}
			}
			if r.Err != nil {
				e.ui.warnf("  %v", r.Err)
			}
		}
	}
	if rep.Unresolved {
		return errFindings
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "no platform"
	}
	return s
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}
