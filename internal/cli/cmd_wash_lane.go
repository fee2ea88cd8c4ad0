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
anchored keep that would not survive or an unapproved drop refuses the whole plan before
anything is written. The gate compares what every platform loads before and after (a file no
longer imported is a drop of all its tokens), and an approval names one token at one place:
"approvedDrops": ["type:value@FILE:LINE"], as the refusal prints it. The originals go to the plan recovery bin
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
			e.ui.infof("  %s: %s", lane.PlaceKey(d), d.String())
		}
		e.ui.hintf("keep the tokens, or approve each one deliberately at its place, as the first column shows it (type:value@FILE:LINE), in the plan's approvedDrops")
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
	// Places are the blocked drops' approval keys (type:value@FILE:LINE), in the same order.
	Places []string `json:"places,omitempty"`
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
			ej.Places = append(ej.Places, lane.PlaceKey(d))
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
	return newWashWriter(e, l, *asJSON).gauge(g, platforms)
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
	if runErr != nil && res.Receipt == "" {
		res.Receipt = lane.ReceiptLine(res.Before, res.Before, *dry)
	}
	return newWashWriter(e, l, *asJSON).quick(res, *dry, runErr)
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
		// A refused plan changes nothing: its receipt says so, whatever it would have done.
		res.Receipt = lane.ReceiptLine(res.Before, res.Before, *dry)
	}
	return newWashWriter(e, l, *asJSON).apply(res, *dry, runErr)
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
	return newWashWriter(e, l, asJSON).bins(evs, errs)
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
	return newWashWriter(e, l, *asJSON).restore(res, runErr)
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
	return newWashWriter(e, l, asJSON).stats(s, ts)
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
	return newWashWriter(e, l, asJSON).recovered(rep)
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
