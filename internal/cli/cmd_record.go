package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/engine/scope"
)

const recordHelp = `Records files as written in an agent session: their absolute path and SHA-256, never
their content. The Claude Code hooks do this after every write; this command is for
other agents and for scripts. A file changed after it was recorded is skipped by the
session's clean. Paths outside the project are never recorded.

  --session ID   the session (default: $PROSEWASH_SESSION, else the most recent one)`

const recordedHelp = `Lists the files recorded for a session with their status: eligible, changed since
recorded, no longer exists, excluded by [clean] exclude, not matched by [clean] include,
replaced by checkout, outside the project root. The list goes to standard output.

  --session ID   the session (default: $PROSEWASH_SESSION, else the most recent one)
  --json         print the session and its files as JSON`

const forgetHelp = `Drops files from a session's record; with no PATH, deletes the whole record.

  --session ID   the session (default: $PROSEWASH_SESSION, else the most recent one)`

// sessionFor resolves the session a command works on, and how it was
// chosen, for the acknowledgement.
func sessionFor(p *project.Project, flag string) (stateDir, id, how string, err error) {
	stateDir, err = p.StateDir()
	if err != nil {
		return "", "", "", err
	}
	id, how, err = scope.Resolve(stateDir, flag, os.Getenv)
	if err != nil {
		return "", "", "", err
	}
	if id == "" {
		return "", "", "", usagef("no session recorded for this project; name one with --session ID (or set PROSEWASH_SESSION)")
	}
	return stateDir, id, how, nil
}

func runRecord(e *env, args []string) error {
	fs := newFlags("record")
	session := fs.String("session", "", "")
	paths, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		return usagef("record needs PATH arguments")
	}
	p, err := openProject(e)
	if err != nil {
		return err
	}
	stateDir, id, how, err := sessionFor(p, *session)
	if err != nil {
		return err
	}
	rec, err := scope.Open(stateDir, id)
	if err != nil {
		return err
	}
	var abs []string
	for _, a := range paths {
		x, err := filepath.Abs(userPath(a))
		if err != nil {
			return err
		}
		abs = append(abs, x)
	}
	added, errs := rec.Add(p.Root, abs, time.Now())
	for _, err := range errs {
		e.ui.errorf("%v", err)
	}
	e.ui.infof("recorded %d file%s for session %s%s", len(added), plural(len(added)), id, how)
	if len(errs) > 0 {
		return &exitError{code: exitUsage}
	}
	return nil
}

// recordedFile is one line of "recorded --json".
type recordedFile struct {
	Path   string    `json:"path"`
	Rel    string    `json:"rel"`
	SHA256 string    `json:"sha256,omitempty"`
	Op     string    `json:"op"`
	At     time.Time `json:"at"`
	Status string    `json:"status"`
}

func runRecorded(e *env, args []string) error {
	fs := newFlags("recorded")
	session := fs.String("session", "", "")
	asJSON := fs.Bool("json", false, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usagef("recorded takes no arguments")
	}
	p, err := openProject(e)
	if err != nil {
		return err
	}
	if err := loadConfig(e, p); err != nil {
		return err
	}
	stateDir, id, how, err := sessionFor(p, *session)
	if err != nil {
		return err
	}
	rec, err := scope.Open(stateDir, id)
	if err != nil {
		return err
	}
	entries, err := rec.Entries()
	if err != nil {
		return err
	}
	cfg, _, _ := p.Config()
	items := scope.Evaluate(entries, p.Root, scope.Filter{Include: cfg.Clean.Include, Exclude: cfg.Clean.Exclude})
	if *asJSON {
		out := struct {
			Session string         `json:"session"`
			Root    string         `json:"root"`
			Files   []recordedFile `json:"files"`
		}{Session: id, Root: p.Root, Files: []recordedFile{}}
		for _, it := range items {
			out.Files = append(out.Files, recordedFile{Path: it.Path, Rel: it.Rel, SHA256: it.Hash, Op: it.Op, At: it.At, Status: string(it.Status)})
		}
		return writeJSON(e, out)
	}
	e.ui.infof("session %s%s: %d recorded file%s", id, how, len(items), plural(len(items)))
	for _, it := range items {
		fmt.Fprintf(e.stdout, "%-24s %s\n", it.Status, it.Rel)
	}
	return nil
}

func runForget(e *env, args []string) error {
	fs := newFlags("forget")
	session := fs.String("session", "", "")
	paths, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	p, err := openProject(e)
	if err != nil {
		return err
	}
	stateDir, id, _, err := sessionFor(p, *session)
	if err != nil {
		return err
	}
	rec, err := scope.Open(stateDir, id)
	if err != nil {
		return err
	}
	if len(paths) == 0 {
		if err := rec.Forget(nil, time.Now()); err != nil {
			return err
		}
		e.ui.infof("forgot session %s", id)
		return nil
	}
	var abs []string
	for _, a := range paths {
		x, err := filepath.Abs(userPath(a))
		if err != nil {
			return err
		}
		// Records spell paths under the real root; forget by that spelling.
		if c, err := scope.Contain(p.Root, x); err == nil {
			x = c
		}
		abs = append(abs, x)
	}
	if err := rec.Forget(abs, time.Now()); err != nil {
		return err
	}
	e.ui.infof("forgot %d file%s in session %s", len(abs), plural(len(abs)), id)
	return nil
}
