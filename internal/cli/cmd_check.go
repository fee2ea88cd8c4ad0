package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/prosewash/prosewash/internal/engine/carrier"
	"github.com/prosewash/prosewash/internal/engine/check"
	"github.com/prosewash/prosewash/internal/engine/clean"
	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/report"
	"github.com/prosewash/prosewash/internal/engine/walk"
	"github.com/prosewash/prosewash/internal/providers/ucarrier"
	"github.com/prosewash/prosewash/internal/safe"
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

Directories are walked in sorted order, skipping .git, git-ignored paths (unless
--no-ignore), binary files and symlinks.

  --format text|json|sarif|github
                             json prints one document with findings and skipped paths
                             (carriers kept as asked included, with action keep); sarif a
                             SARIF 2.1.0 log for GitHub code scanning (one rule per carrier
                             class, columns in Unicode code points, fingerprints that
                             survive lines moving, kept carriers as suppressed results);
                             github one workflow command per finding for plain Actions logs
  --profile standard|strict  default: [clean] profile
  --min-severity low|medium|high
                             report (and exit 1 for) findings at least this severe
  --no-ignore                also walk git-ignored paths

Exit status: 0 nothing found, 1 carriers found, 2 usage error, invalid configuration
or an unreadable path.`

func runCheck(e *env, args []string) error {
	fs := newFlags("check")
	format := fs.String("format", "text", "")
	profileName := fs.String("profile", "", "")
	minSev := fs.String("min-severity", "low", "")
	noIgnore := fs.Bool("no-ignore", false, "")
	paths, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	switch *format {
	case "text", "json", "sarif", "github":
	default:
		return usagef("--format must be text, json, sarif or github, not %q", *format)
	}
	min, err := carrier.ParseSeverity(*minSev)
	if err != nil {
		return usagef("--min-severity: %v", err)
	}
	if len(paths) == 0 {
		return usagef("check needs at least one PATH (use . for the current directory)")
	}
	proj, err := openProject(e)
	if err != nil {
		return err
	}
	if err := loadConfig(e, proj); err != nil {
		return &exitError{code: exitUsage, err: err}
	}
	cfg, _, _ := proj.Config()
	profile := cfg.Clean.Profile
	if *profileName != "" {
		if profile, err = carrier.ParseProfile(*profileName); err != nil {
			return usagef("%v", err)
		}
	}
	eng, err := safe.Engine(profile, cfg.AllowRules())
	if err != nil {
		return err
	}
	for i, p := range paths {
		paths[i] = userPath(p)
	}
	explicit := map[string]bool{}
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			explicit[p] = true
		}
	}

	out := bufio.NewWriterSize(e.stdout, 64<<10)
	defer out.Flush()
	all := []check.Finding{}
	var sarif []sarifFinding
	var skips []map[string]any
	found, kept, ioErr := 0, 0, false
	skipCounts := map[walk.SkipReason]int{}

	opt := check.Options{
		Any: ucarrier.Any,
		Scan: func(data []byte, lang string) []carrier.Finding {
			return ucarrier.Scan(nil, data, nil, ucarrier.Options{Profile: profile, Lang: lang, FileStart: true})
		},
		Engine: eng,
		Rel: func(path string) string {
			abs, err := filepath.Abs(path)
			if err != nil {
				return filepath.ToSlash(path)
			}
			return proj.Rel(abs)
		},
	}
	type withPrints struct {
		res    *check.Result
		prints []string
	}
	process := func(f walk.File) (any, error) {
		r := check.File(f.Path, f.Data, opt)
		if *format != "sarif" || r == nil {
			return withPrints{res: r}, nil
		}
		// Fingerprints read the lines now: the walker reuses its buffers.
		fp := newFingerprinter(f.Data)
		w := withPrints{res: r}
		for _, x := range r.Findings {
			w.prints = append(w.prints, fp.of(x))
		}
		return w, nil
	}
	emit := func(path string, res any, err error) error {
		if err != nil {
			ioErr = true
			e.ui.errorf("%s: %v", report.Quote(path), err)
			return nil
		}
		wp := res.(withPrints)
		r := wp.res
		if r == nil {
			return nil
		}
		if r.Note != "" {
			e.ui.warnf("%s: %s", report.Quote(path), r.Note)
		}
		for i, f := range r.Findings {
			keep := f.Action == clean.ActionKeep
			if keep {
				kept++
			} else if carrier.Severity(f.Severity).Rank() < min.Rank() {
				continue
			} else {
				found++
			}
			switch {
			case *format == "sarif":
				sarif = append(sarif, sarifFinding{Finding: f, print: wp.prints[i]})
				continue
			case *format == "json", *format == "github" && !keep:
				all = append(all, f)
				continue
			case keep || *format == "github":
				continue
			}
			fmt.Fprintf(out, "%s:%d:%d %s %s %s %s %s", report.Quote(f.Path), f.Line, f.Col, f.Code, f.Name, f.Region, f.Action, f.Severity)
			if f.Reason != "" && f.Action != string(carrier.Remove) && f.Action != string(carrier.Replace) {
				fmt.Fprintf(out, " (%s)", f.Reason)
			}
			fmt.Fprintf(out, "%s\n", report.HiddenNote(f.Class, f.Hidden))
		}
		return nil
	}
	skipped := func(s walk.Skip) {
		skipCounts[s.Reason]++
		if *format == "json" {
			m := map[string]any{"path": s.Path, "reason": string(s.Reason)}
			if s.Err != nil {
				m["error"] = fsx.Cause(s.Err).Error()
			}
			skips = append(skips, m)
		}
		switch {
		case s.Reason == walk.SkipError:
			ioErr = true
			e.ui.errorf("%s: %v", report.Quote(s.Path), fsx.Cause(s.Err))
		case explicit[s.Path]:
			e.ui.warnf("%s", s)
		}
	}
	wopt := walk.Options{NoIgnore: *noIgnore}
	if err := walk.Walk(e.ctx, paths, wopt, process, emit, skipped); err != nil {
		return err
	}
	switch *format {
	case "sarif":
		sortFindings(sarif)
		if err := writeSARIF(out, Version(), sarif); err != nil {
			return err
		}
	case "github":
		writeGitHub(out, all)
	}
	if *format == "json" {
		if skips == nil {
			skips = []map[string]any{}
		}
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(map[string]any{"findings": all, "skipped": skips}); err != nil {
			return err
		}
	} else {
		var parts []string
		for _, r := range []walk.SkipReason{walk.SkipBinary, walk.SkipTooLarge, walk.SkipSymlink, walk.SkipNotRegular} {
			if n := skipCounts[r]; n > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", n, r))
			}
		}
		if len(parts) > 0 {
			e.ui.infof("check: skipped %s", joinList(parts))
		}
		if kept > 0 {
			e.ui.infof("check: %s kept as asked ([clean] allow, keep markers; --format json lists them)", report.Count(kept, "carrier"))
		}
	}
	switch {
	case ioErr:
		return &exitError{code: exitUsage}
	case found > 0:
		return errFindings
	}
	return nil
}

func joinList(parts []string) string {
	switch len(parts) {
	case 0:
		return ""
	case 1:
		return parts[0]
	}
	s := ""
	for i, p := range parts {
		switch {
		case i == 0:
			s = p
		case i == len(parts)-1:
			s += " and " + p
		default:
			s += ", " + p
		}
	}
	return s
}
