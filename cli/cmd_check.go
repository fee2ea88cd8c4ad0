package cli

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"github.com/prosewash/prosewash/engine/carrier"
	"github.com/prosewash/prosewash/engine/check"
	"github.com/prosewash/prosewash/engine/fsx"
	"github.com/prosewash/prosewash/engine/report"
	"github.com/prosewash/prosewash/engine/walk"
	"github.com/prosewash/prosewash/providers/ucarrier"
)

const checkHelp = `Reports every invisible Unicode carrier in the files and directories given, one per
line on standard output:

  FILE:LINE:COL U+XXXX NAME REGION ACTION

LINE and COL are 1-based; COL counts characters. REGION is prose, directive, runtime
or unclassified (a file type without a classifier). ACTION is what "prosewash clean"
would do: remove or replace (with a plain space) in prose; report everywhere else,
because carriers in code, literals and directives are never touched automatically.
Legitimate uses (emoji sequences, joiners in Persian or Hindi words, French spacing,
...) are not findings.

Directories are walked in sorted order, skipping .git, git-ignored paths (unless
--no-ignore), binary files and symlinks.

  --format text|json|sarif|github
                       json prints one document with findings and skipped paths;
                       sarif a SARIF 2.1.0 log for GitHub code scanning (one rule per
                       carrier class, columns in Unicode code points, fingerprints that
                       survive lines moving); github one workflow command per finding
                       (::warning file=...,line=...::) for plain Actions logs
  --profile standard|strict
  --no-ignore          also walk git-ignored paths

Exit status: 0 nothing found, 1 carriers found, 2 usage error or an unreadable path.`

func runCheck(e *env, args []string) error {
	fs := newFlags("check")
	format := fs.String("format", "text", "")
	profileName := fs.String("profile", "standard", "")
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
	profile, err := carrier.ParseProfile(*profileName)
	if err != nil {
		return usagef("%v", err)
	}
	if len(paths) == 0 {
		return usagef("check needs at least one PATH (use . for the current directory)")
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
	var all []check.Finding
	var sarif []sarifFinding
	var skips []map[string]any
	found, ioErr := 0, false
	skipCounts := map[walk.SkipReason]int{}

	scan := func(data []byte, lang string) []carrier.Finding {
		return ucarrier.Scan(nil, data, nil, ucarrier.Options{Profile: profile, Lang: lang, FileStart: true})
	}
	type withPrints struct {
		res    *check.Result
		prints []string
	}
	process := func(f walk.File) (any, error) {
		r := check.File(f.Path, f.Data, scan)
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
		found += len(r.Findings)
		switch *format {
		case "json", "github":
			all = append(all, r.Findings...)
			return nil
		case "sarif":
			for i, x := range r.Findings {
				sarif = append(sarif, sarifFinding{Finding: x, print: wp.prints[i]})
			}
			return nil
		}
		for _, f := range r.Findings {
			fmt.Fprintf(out, "%s:%d:%d %s %s %s %s\n", report.Quote(f.Path), f.Line, f.Col, f.Code, f.Name, f.Region, f.Action)
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
	opt := walk.Options{NoIgnore: *noIgnore}
	if err := walk.Walk(e.ctx, paths, opt, process, emit, skipped); err != nil {
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
		if all == nil {
			all = []check.Finding{}
		}
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
