package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/prosewash/prosewash/internal/engine/carrier"
	"github.com/prosewash/prosewash/internal/engine/check"
	"github.com/prosewash/prosewash/internal/engine/clean"
	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/engine/report"
	"github.com/prosewash/prosewash/internal/engine/report/checkreport"
	"github.com/prosewash/prosewash/internal/engine/scope"
	"github.com/prosewash/prosewash/internal/engine/walk"
	"github.com/prosewash/prosewash/internal/providers/ucarrier"
)

const checkHelp = `Reports every invisible Unicode carrier in the files and directories given, one per
line on standard output:

  FILE:LINE:COL U+XXXX NAME REGION ACTION SEVERITY [(REASON)][; hidden ...]

LINE and COL are 1-based; COL counts characters. REGION is prose, directive, runtime
or unclassified (a file type without a classifier). ACTION is exactly what "prosewash
clean" would do, decided by clean's own engine in-process with the built-in carrier
policy: remove or replace (with a plain space) in prose; report where a carrier is not
prose (code, literals, directives) or where removing it would change the file's
structure (the reason says what would change). SEVERITY is high (bidi controls in
code or literals, tag characters, selector payloads, line terminators of the language,
anything in a directive), medium (other invisible carriers) or low (exotic spaces,
private use). A payload is decoded: the text a run of tag characters spells, the bytes
a run of variation selectors encodes. In instruction files (CLAUDE.md, AGENTS.md, ...)
a long HTML comment is reported too: rendered pages hide it, the agent reads it.
Legitimate uses (emoji sequences, joiners in Persian or Hindi words, French spacing,
...) are not findings; neither are carriers kept by [clean] allow or by a
"prosewash: keep U+XXXX" marker on the same or the previous line (--format json
lists them with action keep).

On a terminal, many findings are grouped under their file. One summary line on
standard error ends the report: files read, findings by action and by severity, what
was skipped and kept.

Directories are walked in sorted order, skipping .git, git-ignored paths (unless
--no-ignore), [check] exclude and --exclude patterns, symlinks and binary files. A
file whose only non-text bytes are NULs is still read: its carriers are reported,
never cleaned, and the report says why. Every skipped file is listed as skipped in
the JSON, SARIF and GitHub formats, so a report never reads as clean where check did
not look.

  --format text|json|sarif|github
                             json prints one document with findings, skipped paths,
                             per-file notes and the summary's counts; sarif a SARIF 2.1.0
                             log for GitHub code scanning (one rule per carrier class with
                             a docs link, a level per result, columns in UTF-16 code units
                             as GitHub counts them, GitHub's line hash and prosewash's own
                             fingerprint, kept carriers as suppressed results, skipped
                             files as tool notifications); github one workflow command per
                             finding and per skipped file for plain Actions logs
  --json                     the same as --format json
  --profile standard|strict  default: [clean] profile
  --min-severity low|medium|high
                             report (and exit 1 for) findings at least this severe
  --exclude GLOB             do not walk into paths matching GLOB (doublestar, matched
                             against the path relative to the project root and as
                             given); repeatable, added to [check] exclude
  --no-ignore                also walk git-ignored paths
  --exit-zero                exit 0 even when carriers are found (errors still exit 2)
  --stdin-filename NAME      with the path "-": read standard input, and name it NAME in
                             the report (its extension picks the language)

Exit status: 0 nothing found, 1 carriers found, 2 usage error, invalid configuration
or an unreadable path.`

// checkFlags are check's options.
type checkFlags struct {
	format, profile, minSev, stdinName string
	asJSON, noIgnore, exitZero         bool
	exclude                            multiFlag
}

// multiFlag is a repeatable string flag.
type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

func parseCheckFlags(args []string) (checkFlags, []string, error) {
	var cf checkFlags
	fs := newFlags("check")
	fs.StringVar(&cf.format, "format", "text", "")
	fs.BoolVar(&cf.asJSON, "json", false, "")
	fs.StringVar(&cf.profile, "profile", "", "")
	fs.StringVar(&cf.minSev, "min-severity", "low", "")
	fs.BoolVar(&cf.noIgnore, "no-ignore", false, "")
	fs.BoolVar(&cf.exitZero, "exit-zero", false, "")
	fs.StringVar(&cf.stdinName, "stdin-filename", "", "")
	fs.Var(&cf.exclude, "exclude", "")
	paths, err := parseFlags(fs, args)
	if err != nil {
		return cf, nil, err
	}
	if cf.asJSON {
		if cf.format != "text" && cf.format != "json" {
			return cf, nil, usagef("--json and --format %s disagree", cf.format)
		}
		cf.format = "json"
	}
	if len(paths) == 0 {
		return cf, nil, usagef("check needs at least one PATH (use . for the current directory, - for standard input)")
	}
	if (len(paths) > 1 && containsString(paths, "-")) || (cf.stdinName != "" && paths[0] != "-") {
		return cf, nil, usagef("standard input is read alone: 'prosewash check [--stdin-filename NAME] -'")
	}
	if n := filepath.ToSlash(filepath.Clean(cf.stdinName)); cf.stdinName != "" && (n == ".." || strings.HasPrefix(n, "../")) {
		// The name is what every report (a SARIF URI relative to the
		// project) calls the input: one outside the project would point
		// code scanning at another file, or at none.
		return cf, nil, usagef("--stdin-filename %s: name standard input as a path inside the project, not above it", report.Quote(cf.stdinName))
	}
	return cf, paths, nil
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func runCheck(e *env, args []string) error {
	cf, paths, err := parseCheckFlags(args)
	if err != nil {
		return err
	}
	w, err := checkreport.For(cf.format, false)
	if err != nil {
		return usagef("%v", err)
	}
	min, err := carrier.ParseSeverity(cf.minSev)
	if err != nil {
		return usagef("--min-severity: %v", err)
	}
	for _, g := range cf.exclude {
		if err := (scope.Filter{Exclude: []string{g}}).Check(); err != nil {
			return usagef("--exclude: %v", err)
		}
	}
	proj, err := openProject(e)
	if err != nil {
		return err
	}
	if err := loadConfig(e, proj); err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	cfg, _, _ := proj.Config()
	if cf.profile != "" {
		if _, err := carrier.ParseProfile(cf.profile); err != nil {
			return usagef("%v", err)
		}
	}
	// Check decides with clean's own plan for the shipped safe pipeline,
	// its carrier policy answering in-process (the same requests and
	// replies as its subprocess).
	plan, err := clean.Prepare(clean.Request{
		Project: proj, Pipeline: "safe", ShippedOnly: true, Profile: cf.profile, Explicit: true, Version: Version(),
		Runner: ucarrier.InProcess, Specials: ucarrier.Specials,
	})
	if err != nil {
		return err
	}
	profile, eng := plan.Profile(), plan.Engine()
	c := &checkRun{e: e, proj: proj, min: min, identities: cf.format == "sarif",
		rep: &checkreport.Report{Version: Version()}, explicit: map[string]bool{}}
	c.opt = check.Options{
		Any: ucarrier.Any,
		Scan: func(data []byte, lang string) []carrier.Finding {
			return ucarrier.Scan(nil, data, nil, ucarrier.Options{Profile: profile, Lang: lang, FileStart: true})
		},
		Engine: eng,
		Rel:    c.rel,
	}
	if paths[0] == "-" {
		err = c.stdin(cf.stdinName)
	} else {
		err = c.walk(paths, cf, append(append([]string{}, cfg.Check.Exclude...), cf.exclude...))
	}
	if err != nil {
		return err
	}
	return c.finish(w, cf)
}

// checkRun gathers one check's report.
type checkRun struct {
	e          *env
	proj       *project.Project
	opt        check.Options
	min        carrier.Severity
	identities bool // SARIF: line hashes and fingerprints
	rep        *checkreport.Report
	explicit   map[string]bool // files named on the command line
	ioErr      bool
	excluded   atomic.Int64
}

// rel is a path relative to the project root, slash-separated.
func (c *checkRun) rel(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.ToSlash(path)
	}
	return c.proj.Rel(abs)
}

// excludes returns the walk's Exclude for patterns, nil for none.
func (c *checkRun) excludes(patterns []string) func(string, bool) bool {
	if len(patterns) == 0 {
		return nil
	}
	f := scope.Filter{Exclude: patterns}
	return func(path string, dir bool) bool {
		if f.Match(path) == scope.Excluded || f.Match(c.rel(path)) == scope.Excluded {
			c.excluded.Add(1)
			return true
		}
		return false
	}
}

func (c *checkRun) walk(paths []string, cf checkFlags, exclude []string) error {
	for i, p := range paths {
		paths[i] = userPath(p)
		if fi, err := os.Stat(paths[i]); err == nil && !fi.IsDir() {
			c.explicit[paths[i]] = true
		}
	}
	process := func(f walk.File) (any, error) {
		// Annotate reads the bytes now: the walker reuses its buffers.
		r := check.File(f.Path, f.Data, c.opt)
		if r == nil {
			return nil, nil
		}
		return annotated{r, checkreport.Annotate(f.Data, r.Findings, c.identities)}, nil
	}
	emit := func(path string, res any, err error) error {
		c.rep.Files++
		if err != nil {
			c.ioErr = true
			c.e.ui.errorf("%s: %v", report.Quote(path), err)
			return nil
		}
		if a, ok := res.(annotated); ok {
			c.add(path, a)
		}
		return nil
	}
	wopt := walk.Options{NoIgnore: cf.noIgnore, NULText: true, Exclude: c.excludes(exclude)}
	return walk.Walk(c.e.ctx, paths, wopt, process, emit, c.skipped)
}

// annotated is one file's result with its findings annotated.
type annotated struct {
	res      *check.Result
	findings []checkreport.Finding
}

// add takes one file's findings at or above the minimum severity, and the
// kept ones.
func (c *checkRun) add(path string, a annotated) {
	if a.res.Note != "" {
		c.rep.Notes = append(c.rep.Notes, checkreport.Note{Path: path, Text: a.res.Note})
	}
	for _, f := range a.findings {
		if f.Kept() || carrier.Severity(f.Severity).Rank() >= c.min.Rank() {
			c.rep.Findings = append(c.rep.Findings, f)
		}
	}
}

func (c *checkRun) skipped(s walk.Skip) {
	k := checkreport.Skipped{Path: s.Path, Reason: string(s.Reason)}
	if s.Err != nil {
		k.Error = fsx.Cause(s.Err).Error()
	}
	c.rep.Skipped = append(c.rep.Skipped, k)
	switch {
	case s.Reason == walk.SkipError:
		c.ioErr = true
		c.e.ui.errorf("%s: %v", report.Quote(s.Path), fsx.Cause(s.Err))
	case c.explicit[s.Path]:
		c.e.ui.warnf("%s", s)
	}
}

// stdin checks standard input as one file named name.
func (c *checkRun) stdin(name string) error {
	data, err := io.ReadAll(io.LimitReader(c.e.stdin, maxInput+1))
	if err != nil {
		return &exitError{code: exitUsage, err: fmt.Errorf("standard input: %w", err)}
	}
	if int64(len(data)) > maxInput {
		return &exitError{code: exitUsage, err: fmt.Errorf("standard input: larger than %d MiB", maxInput>>20)}
	}
	if name == "" {
		name = "-"
	}
	if walk.Binary(data, true) {
		c.rep.Skipped = append(c.rep.Skipped, checkreport.Skipped{Path: name, Reason: string(walk.SkipBinary)})
		c.e.ui.warnf("%s: skipped: %s", report.Quote(name), walk.SkipBinary)
		return nil
	}
	c.rep.Files++
	// The name is a label, not a file to open: keep it as given.
	opt := c.opt
	opt.Rel = func(string) string { return filepath.ToSlash(name) }
	if r := check.File(name, bytes.Clone(data), opt); r != nil {
		c.add(name, annotated{r, checkreport.Annotate(data, r.Findings, c.identities)})
	}
	return nil
}

// finish writes the report and its summary and decides the exit status.
func (c *checkRun) finish(w checkreport.Writer, cf checkFlags) error {
	c.rep.Sort()
	if t, ok := w.(checkreport.Text); ok {
		t.Group = isTerminal(c.e.stdout) && manyFindings(c.rep)
		w = t
	}
	out := bufio.NewWriterSize(c.e.stdout, 64<<10)
	if err := w.Write(out, c.rep); err != nil {
		return err
	}
	if err := out.Flush(); err != nil {
		return err
	}
	if cf.format == "text" {
		for _, n := range c.rep.Notes {
			c.e.ui.warnf("%s: %s", report.Quote(n.Path), n.Text)
		}
		summary := c.rep.Summary()
		if n := c.excluded.Load(); n > 0 {
			summary += fmt.Sprintf("; %s excluded", report.Count(int(n), "path"))
		}
		c.e.ui.infof("%s", summary)
	}
	switch {
	case c.ioErr:
		return &exitError{code: exitUsage}
	case c.rep.Count().Findings > 0 && !cf.exitZero:
		return errFindings
	}
	return nil
}

// manyFindings is when a terminal reader is better served by findings
// grouped under their file: more than 20, in more than one file.
func manyFindings(r *checkreport.Report) bool {
	c := r.Count()
	return c.Findings > 20 && c.WithFinds > 1
}
