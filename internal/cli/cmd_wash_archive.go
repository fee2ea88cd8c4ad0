package cli

import (
	"errors"
	"fmt"
	"time"

	"github.com/prosewash/prosewash/internal/engine/approval"
	"github.com/prosewash/prosewash/internal/engine/wash/archive"
	"github.com/prosewash/prosewash/internal/engine/wash/lane"
)

const washArchiveHelp = `Moves old Claude Code session transcripts of this project (~/.claude/projects/<slug>/)
into verified gzip archives, one directory per session under [wash] archive_dir (default
~/.local/share/prosewash/transcripts/<slug>/), and back.

A session is its transcript, its subagents/, tool-results/ and workflows/ files and the flat
agent-*.jsonl files of older CLIs that name it; never memory/ (that is the memory lane's) and
never anything else in the session's directory, which stays. A session is archived only when
nothing says it is in use: not this session ($PROSEWASH_SESSION), not named by a live
~/.claude/sessions/<pid>.json whose process runs, no file written in the last --live-minutes
(60), and its newest file older than [wash] archive_after_days (14). An unreadable live-session
file makes every session live. Cloud placeholders (a size, no blocks on this disk) are refused.

Each file is hashed when listed, compressed to a temporary file beside its archive, fsynced,
moved into place, fsynced, read back and decompressed to the same hash; a manifest with every
hash is written; only then is the original deleted, by compare-and-swap on its size,
modification time, inode and hash. All of it goes through the project's journal: an
interrupted run is undone by 'prosewash recover' (or 'prosewash wash recover'), never half done.

It runs only from a terminal, after you answer yes, and never under an agent or from a hook.
--dry-run shows what it would do and needs no terminal.

  wash archive list              the archived sessions, newest first
  wash archive restore SESSION   put a session back (never over an existing file)`

func runWashArchive(e *env, args []string) error {
	if len(args) > 0 {
		switch args[0] {
		case "list":
			return runWashArchiveList(e, args[1:])
		case "restore":
			return runWashArchiveRestore(e, args[1:])
		}
	}
	fs := newFlags("wash archive")
	asJSON := fs.Bool("json", false, "")
	dry := fs.Bool("dry-run", false, "")
	liveMin := fs.Int("live-minutes", 60, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("wash archive takes no arguments (or: list, restore SESSION)")
	}
	if *liveMin < 1 {
		return usagef("--live-minutes must be at least 1")
	}
	l, o, err := archiveSetup(e)
	if err != nil {
		return err
	}
	o.LiveWindow = time.Duration(*liveMin) * time.Minute
	if !*dry {
		if goOn, err := confirmArchive(e, l, o); !goOn {
			return err
		}
	}
	rep, runErr := l.Archive(o, *dry, nil)
	if runErr != nil && len(rep.Sessions) == 0 {
		return washError(e, archiveErr(runErr))
	}
	if *asJSON {
		if err := writeJSON(e, rep); err != nil {
			return err
		}
	} else {
		reportArchive(e, rep, o, *dry)
	}
	if runErr != nil {
		return washError(e, archiveErr(runErr))
	}
	return nil
}

// confirmArchive asks the person on the terminal whether to archive what is eligible, and
// refuses an agent or a run without a terminal. It reports whether to go on, with the error
// to return when not (nil when there is nothing to do or the answer was no).
func confirmArchive(e *env, l *lane.Lane, o archive.Options) (bool, error) {
	var ae *approval.AgentError
	var ue *approval.UnknownCallerError
	switch err := e.who().CheckPerson(); {
	case errors.As(err, &ae):
		e.ui.errorf("refused: wash archive deletes transcripts and runs only for a person; an agent runs this command (%s); nothing was written", ae.Signals[0])
		e.ui.hintf("run 'prosewash wash archive --dry-run' to see what it would do, or run it yourself in a terminal")
		return false, errRefused
	case errors.As(err, &ue):
		e.ui.errorf("refused: wash archive deletes transcripts and runs only for a person, and %v; nothing was written", ue.Err)
		e.ui.hintf("run 'prosewash wash archive --dry-run' to see what it would do")
		return false, errRefused
	}
	ask := terminalAsk(e)
	if ask == nil {
		e.ui.errorf("refused: wash archive needs a terminal to ask you first; nothing was written")
		e.ui.hintf("run it in your own terminal, or add --dry-run")
		return false, errRefused
	}
	plan, err := l.Archive(o, true, nil)
	if err != nil {
		return false, washError(e, archiveErr(err))
	}
	n, bytes := eligible(plan)
	if n == 0 {
		e.ui.infof("wash archive: nothing to archive in %s", o.Store)
		return false, nil
	}
	if !ask(fmt.Sprintf("archive %d session(s), %s, from %s into %s?", n, human(bytes), o.Store, o.Archive)) {
		e.ui.infof("wash archive: nothing done")
		return false, nil
	}
	return true, nil
}

// eligible counts the sessions a run would archive and their bytes.
func eligible(rep archive.Report) (int, int64) {
	n, b := 0, int64(0)
	for _, s := range rep.Sessions {
		if s.Band == archive.Eligible {
			n++
			b += s.Bytes
		}
	}
	return n, b
}

// reportArchive says what happened to each session, then the run's totals.
func reportArchive(e *env, rep archive.Report, o archive.Options, dry bool) {
	counts := map[string]int{}
	for _, s := range rep.Sessions {
		counts[s.Band]++
		reportSession(e, s)
	}
	if dry {
		n, b := eligible(rep)
		e.ui.infof("wash archive: would archive %d session(s), %s; %d live, %d recent, %d refused", n, human(b), counts[archive.Live], counts[archive.Recent], counts[archive.Refused])
		return
	}
	ratio := 0.0
	if rep.Compressed > 0 {
		ratio = float64(rep.Freed) / float64(rep.Compressed)
	}
	e.ui.infof("wash archive: archived %d session(s): %s freed, %s kept compressed (%.1f:1) in %s; %d live, %d recent, %d refused",
		rep.Archived, human(rep.Freed), human(rep.Compressed), ratio, o.Archive, counts[archive.Live], counts[archive.Recent], counts[archive.Refused])
}

// reportSession says what happened to one session and, when it was archived, what was left
// in place beside it.
func reportSession(e *env, s archive.SessionResult) {
	switch {
	case s.Err != "":
		e.ui.warnf("  %s: not archived: %s", s.ID, s.Err)
	case s.Archived:
		e.ui.infof("  archived %s: %d file(s), %s -> %s", s.ID, s.Files, human(s.Bytes), human(s.Compressed))
	case s.Band == archive.Eligible:
		e.ui.infof("  would archive %s: %d file(s), %s", s.ID, s.Files, human(s.Bytes))
	case s.Band == archive.Refused:
		e.ui.warnf("  refused %s: %s", s.ID, s.Why)
	case s.Band == archive.Live:
		e.ui.infof("  kept %s: live (%s)", s.ID, s.Why)
	}
	if !s.Archived {
		return
	}
	for _, left := range s.Left {
		e.ui.infof("    left in place (not part of a session): %s", left)
	}
}

// archiveErr maps the archive's refusals onto the wash lane's.
func archiveErr(err error) error {
	var ns *lane.NoStoreError
	var ce *archive.ConflictError
	if errors.As(err, &ns) || errors.As(err, &ce) {
		return &lane.RefusedError{Path: "wash archive", Reason: err.Error()}
	}
	return err
}

func archiveSetup(e *env) (*lane.Lane, archive.Options, error) {
	l, err := washLane(e)
	if err != nil {
		return nil, archive.Options{}, err
	}
	o, err := l.ArchiveOptions(Version())
	return l, o, err
}

func runWashArchiveList(e *env, args []string) error {
	asJSON, err := jsonFlagOnly("wash archive list", args)
	if err != nil {
		return err
	}
	_, o, err := archiveSetup(e)
	if err != nil {
		return err
	}
	var as []archive.Archived
	if o.Archive != "" {
		if as, err = archive.ListArchived(o.Archive); err != nil {
			return err
		}
	}
	if asJSON {
		if as == nil {
			as = []archive.Archived{}
		}
		return writeJSON(e, struct {
			Archive  string             `json:"archive"`
			Sessions []archive.Archived `json:"sessions"`
		}{o.Archive, as})
	}
	if len(as) == 0 {
		e.ui.infof("wash archive list: no archived session in %s", orNone(o.Archive))
	}
	for _, a := range as {
		if a.Err != "" {
			e.ui.warnf("%s  %s: %s", a.Session, a.Dir, a.Err)
			continue
		}
		e.ui.infof("%s  archived %s, last written %s, %d file(s), %s -> %s", a.Session, a.Created.Format("2006-01-02 15:04"), a.Newest.Format("2006-01-02"), a.Files, human(a.Bytes), human(a.Compressed))
	}
	return nil
}

func runWashArchiveRestore(e *env, args []string) error {
	fs := newFlags("wash archive restore")
	asJSON := fs.Bool("json", false, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usagef("wash archive restore takes one SESSION id (see 'prosewash wash archive list')")
	}
	l, o, err := archiveSetup(e)
	if err != nil {
		return err
	}
	if o.Store == "" {
		return washError(e, archiveErr(&lane.NoStoreError{Looked: l.Project().Root}))
	}
	res, err := archive.Restore(o, rest[0])
	if *asJSON {
		if jerr := writeJSON(e, res); jerr != nil {
			return jerr
		}
	}
	if err != nil {
		return washError(e, archiveErr(err))
	}
	if !*asJSON {
		for _, r := range res.Restored {
			e.ui.infof("  restored %s", r)
		}
		e.ui.infof("wash archive restore: %d file(s) of %s back in %s (%d already there); the archive stays in %s", len(res.Restored), res.Session, o.Store, len(res.Present), res.From)
	}
	return nil
}

// human renders a byte count.
func human(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.2f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
