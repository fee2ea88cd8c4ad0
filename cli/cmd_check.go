package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"unicode/utf8"

	"github.com/prosewash/prosewash/engine/carrier"
	"github.com/prosewash/prosewash/engine/region"
	"github.com/prosewash/prosewash/engine/walk"
	ucarrier "github.com/prosewash/prosewash/providers/unicode"
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

  --format text|json   json prints one document with findings and skipped paths
  --profile standard|strict
  --no-ignore          also walk git-ignored paths

Exit status: 0 nothing found, 1 carriers found, 2 usage error or an unreadable path.`

type checkFinding struct {
	Path   string `json:"path"`
	Line   int    `json:"line"`
	Col    int    `json:"col"`
	Code   string `json:"code"`
	Name   string `json:"name"`
	Class  string `json:"class"`
	Region string `json:"region"`
	Action string `json:"action"`
}

type checkResult struct {
	findings []checkFinding
	note     string // e.g. invalid UTF-8
}

func runCheck(e *env, args []string) error {
	fs := newFlags("check")
	format := fs.String("format", "text", "")
	profileName := fs.String("profile", "standard", "")
	noIgnore := fs.Bool("no-ignore", false, "")
	paths, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *format != "text" && *format != "json" {
		return usagef("--format must be text or json, not %q", *format)
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
	var all []checkFinding
	var skips []map[string]any
	found, ioErr := 0, false
	skipCounts := map[walk.SkipReason]int{}

	process := func(f walk.File) (any, error) {
		return scanFile(f.Path, f.Data, profile), nil
	}
	emit := func(path string, res any, err error) error {
		if err != nil {
			ioErr = true
			e.ui.errorf("%s: %v", path, err)
			return nil
		}
		r := res.(*checkResult)
		if r == nil {
			return nil
		}
		if r.note != "" {
			e.ui.warnf("%s: %s", path, r.note)
		}
		found += len(r.findings)
		if *format == "json" {
			all = append(all, r.findings...)
			return nil
		}
		for _, f := range r.findings {
			fmt.Fprintf(out, "%s:%d:%d %s %s %s %s\n", f.Path, f.Line, f.Col, f.Code, f.Name, f.Region, f.Action)
		}
		return nil
	}
	skipped := func(s walk.Skip) {
		skipCounts[s.Reason]++
		if *format == "json" {
			m := map[string]any{"path": s.Path, "reason": string(s.Reason)}
			if s.Err != nil {
				m["error"] = unwrapPathErr(s.Err).Error()
			}
			skips = append(skips, m)
		}
		switch {
		case s.Reason == walk.SkipError:
			ioErr = true
			e.ui.errorf("%s: %v", s.Path, unwrapPathErr(s.Err))
		case explicit[s.Path]:
			e.ui.warnf("%s", s)
		}
	}
	opt := walk.Options{NoIgnore: *noIgnore}
	if err := walk.Walk(context.Background(), paths, opt, process, emit, skipped); err != nil {
		return err
	}
	if *format == "json" {
		if all == nil {
			all = []checkFinding{}
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

// scanFile finds the carriers of one file and places each in its region.
// It runs on walker goroutines: it must not keep a reference to data.
func scanFile(path string, data []byte, profile carrier.Profile) *checkResult {
	if carrier.Plain(data) {
		return nil
	}
	lang := region.Language(path, data)
	res := &checkResult{}
	if !utf8.Valid(data) {
		res.note = "invalid UTF-8: carriers are reported, never cleaned"
	}
	fs := ucarrier.Scan(nil, data, nil, ucarrier.Options{Profile: profile, Lang: lang, FileStart: true})
	if len(fs) == 0 {
		if res.note == "" {
			return nil
		}
		return res
	}
	// Classify only files that have findings: most non-ASCII files carry
	// none, and classification is the expensive part.
	var m *region.Map
	if lang != "" {
		var err error
		if m, err = region.Classify(path, data); err != nil {
			res.note = err.Error()
		}
	}
	lc := newLineCounter(data)
	for _, f := range fs {
		kind, action := "unclassified", carrier.Report
		if m != nil {
			k := m.At(f.Offset).Kind
			kind = k.String()
			if k == region.Prose && f.Action != carrier.Report {
				action = f.Action
			}
		}
		line, col := lc.at(f.Offset)
		res.findings = append(res.findings, checkFinding{
			Path: path, Line: line, Col: col, Code: f.Code(), Name: f.Name, Class: f.Class,
			Region: kind, Action: string(action),
		})
	}
	return res
}

// lineCounter turns increasing byte offsets into line:col in one pass.
type lineCounter struct {
	data      []byte
	pos, line int
	lineStart int
}

func newLineCounter(b []byte) *lineCounter { return &lineCounter{data: b, line: 1} }

func (c *lineCounter) at(off int) (int, int) {
	if off < c.pos {
		c.pos, c.line, c.lineStart = 0, 1, 0
	}
	for ; c.pos < off && c.pos < len(c.data); c.pos++ {
		switch c.data[c.pos] {
		case '\n':
			c.line++
			c.lineStart = c.pos + 1
		case '\r':
			if c.pos+1 < len(c.data) && c.data[c.pos+1] == '\n' {
				continue
			}
			c.line++
			c.lineStart = c.pos + 1
		}
	}
	return c.line, utf8.RuneCount(c.data[c.lineStart:off]) + 1
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
