package validate

import (
	"context"
	"fmt"
	"go/parser"
	"go/scanner"
	"go/token"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"
)

// Status is the outcome of a check.
type Status string

const (
	// OK means every check that applies passed, including a parser.
	OK Status = "ok"
	// Failed means the candidate must not replace the original.
	Failed Status = "failed"
	// Unchecked means the byte-level checks passed but no parser vouched
	// for the file (no parser for its type, python3 missing, or the
	// original did not parse either). It is never reported as valid.
	Unchecked Status = "unchecked"
)

// Candidate is a proposed replacement for a file.
type Candidate struct {
	// Path chooses the parser (by extension) and names the file in
	// results; the file is not read.
	Path      string
	Original  []byte
	Candidate []byte
	// Lang is the classifier's language name (region.Language), which
	// chooses the parser for files whose name does not: an extension-less
	// script, a Dockerfile. Dialect is the shell a "shell" file is written
	// for (region.ShellDialect).
	Lang, Dialect string
}

// Result is the outcome of the minimum checks for one file. Reason never
// contains file contents.
type Result struct {
	Path   string
	Status Status
	Reason string
}

// Options tune the minimum checks.
type Options struct {
	// Python is the interpreter used to parse .py files. Empty means look
	// up python3 on PATH.
	Python string
	// NoPython reports .py files as unchecked without looking for python3.
	NoPython bool
	// Node is the node binary that checks .js, .mjs and .cjs files. Empty
	// means look up node on PATH; NoNode reports them as unchecked.
	Node   string
	NoNode bool
	// Timeout bounds the python3 and node processes; zero means one minute.
	Timeout time.Duration
}

// LineEndings is the line-ending profile of a file.
type LineEndings string

// The line-ending profiles. A file's profile must not change.
const (
	EndingsNone  LineEndings = "none"
	EndingsLF    LineEndings = "lf"
	EndingsCRLF  LineEndings = "crlf"
	EndingsCR    LineEndings = "cr"
	EndingsMixed LineEndings = "mixed"
)

// Profile returns the line-ending profile of b: which of \n, \r\n and a
// lone \r it uses.
func Profile(b []byte) LineEndings {
	var lf, crlf, cr bool
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '\n':
			lf = true
		case '\r':
			if i+1 < len(b) && b[i+1] == '\n' {
				crlf = true
				i++
			} else {
				cr = true
			}
		}
	}
	switch {
	case !lf && !crlf && !cr:
		return EndingsNone
	case lf && !crlf && !cr:
		return EndingsLF
	case crlf && !lf && !cr:
		return EndingsCRLF
	case cr && !lf && !crlf:
		return EndingsCR
	}
	return EndingsMixed
}

func trailingNewline(b []byte) bool {
	return len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == '\r')
}

// byteChecks runs the checks that need no parser and returns the reasons
// the candidate fails, if any.
func byteChecks(orig, cand []byte) []string {
	var fails []string
	if len(orig) > 0 && len(cand) == 0 {
		fails = append(fails, "candidate is empty but the original was not")
	}
	if !utf8.Valid(cand) {
		fails = append(fails, "candidate is not valid UTF-8")
	}
	if po, pc := Profile(orig), Profile(cand); po != pc {
		fails = append(fails, fmt.Sprintf("line endings changed from %s to %s", po, pc))
	}
	if to, tc := trailingNewline(orig), trailingNewline(cand); to != tc {
		if to {
			fails = append(fails, "trailing newline removed")
		} else {
			fails = append(fails, "trailing newline added")
		}
	}
	return fails
}

// parserFor names the parser for a candidate, or "" when there is none.
func parserFor(f Candidate) string {
	switch strings.ToLower(filepath.Ext(f.Path)) {
	case ".go":
		return "go"
	case ".py", ".pyi":
		return "python"
	case ".js", ".mjs", ".cjs":
		return "node"
	}
	switch f.Lang {
	case "shell", "toml", "json", "jsonc":
		return f.Lang
	case "":
		switch strings.ToLower(filepath.Ext(f.Path)) {
		case ".json", ".jsonc", ".json5":
			// Without the classifier's word, read it as JSONC: strict
			// JSON is JSONC too, and the original is held to the same rule.
			return "jsonc"
		}
	}
	return ""
}

// Minimum runs the checks every candidate must pass, whatever the level:
// non-empty when the original was, valid UTF-8, line-ending profile and
// trailing newline unchanged, and it parses where a parser exists. All
// Python files are parsed by one python3 process, all JavaScript files
// compiled by one node process. Results are in the order of files.
func Minimum(ctx context.Context, files []Candidate, opts Options) []Result {
	res := make([]Result, len(files))
	var pyIdx, jsIdx []int
	for i, f := range files {
		res[i] = Result{Path: f.Path}
		if fails := byteChecks(f.Original, f.Candidate); len(fails) > 0 {
			res[i].Status, res[i].Reason = Failed, strings.Join(fails, "; ")
			continue
		}
		switch parserFor(f) {
		case "go":
			res[i].Status, res[i].Reason = checkGo(f)
		case "shell":
			res[i].Status, res[i].Reason = checkShell(ctx, f, opts)
		case "toml":
			res[i].Status, res[i].Reason = checkTOML(f)
		case "python":
			pyIdx = append(pyIdx, i)
		case "json", "jsonc":
			res[i].Status, res[i].Reason = checkJSON(f, parserFor(f) == "jsonc")
		case "node":
			jsIdx = append(jsIdx, i)
		default:
			res[i].Status = Unchecked
			res[i].Reason = fmt.Sprintf("no parser for %q files", extName(f.Path))
		}
	}
	if len(pyIdx) > 0 {
		checkPython(ctx, files, pyIdx, res, opts)
	}
	if len(jsIdx) > 0 {
		checkJSAll(ctx, files, jsIdx, res, opts)
	}
	return res
}

func extName(path string) string {
	if e := filepath.Ext(path); e != "" {
		return e
	}
	return filepath.Base(path)
}

// goParse returns nil when src parses as a Go file, else a position and a
// message with any source text removed.
func goParse(path string, src []byte) error {
	fset := token.NewFileSet()
	_, err := parser.ParseFile(fset, path, src, parser.ParseComments|parser.SkipObjectResolution)
	if err == nil {
		return nil
	}
	if list, ok := err.(scanner.ErrorList); ok && len(list) > 0 {
		e := list[0]
		return fmt.Errorf("%d:%d: %s", e.Pos.Line, e.Pos.Column, scrubGoMessage(e.Msg))
	}
	return fmt.Errorf("does not parse")
}

// scrubGoMessage drops the ", found ..." tail of a go/parser message,
// which can quote a literal from the file.
func scrubGoMessage(msg string) string {
	if i := strings.Index(msg, ", found"); i >= 0 {
		return msg[:i]
	}
	if rest, ok := strings.CutPrefix(msg, "illegal character "); ok {
		// "illegal character U+200B '​'": keep the code point only.
		code, _, _ := strings.Cut(rest, " ")
		if strings.HasPrefix(code, "U+") {
			return "illegal character " + code
		}
		return "illegal character"
	}
	return msg
}

func checkGo(f Candidate) (Status, string) {
	err := goParse(f.Path, f.Candidate)
	if err == nil {
		return OK, "parses as Go"
	}
	// The original is parsed only now, to tell a breakage from a file
	// that never parsed.
	if goParse(f.Path, f.Original) != nil {
		return Unchecked, "unchanged: original did not parse as Go either"
	}
	return Failed, "does not parse as Go: " + err.Error()
}
