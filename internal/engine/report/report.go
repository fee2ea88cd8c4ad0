package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Status is where a file ended up in a run.
type Status string

// The statuses a file can end a run with.
const (
	Cleaned     Status = "cleaned"      // the cleaned file replaced the original
	WouldChange Status = "would-change" // a dry run, a test or a confirm-mode survey: it would be cleaned
	Unchanged   Status = "unchanged"    // nothing to clean
	Refused     Status = "refused"      // not touched; Reason says why
	Restored    Status = "restored"     // installed, then put back because validation failed
	Conflict    Status = "conflict"     // someone else changed it during the run; left as found
	Kept        Status = "kept"         // changed after install; kept as found, original saved aside
	Skipped     Status = "skipped"      // not attempted: the run stopped first
)

// Settled reports whether a file with this status needs no look: it was
// cleaned, would be, or had nothing to clean.
func (s Status) Settled() bool { return s == Cleaned || s == WouldChange || s == Unchanged }

// Run is the report of one clean or test run. It never holds file contents.
type Run struct {
	Command  string `json:"command"`
	Pipeline string `json:"pipeline"`
	Mode     string `json:"mode"`
	Scope    string `json:"scope"` // "explicit targets" or "session <id>"
	Files    []File `json:"files"`
	Skipped  []Skip `json:"skipped,omitempty"`
	// Level is the validation level applied; Guarantee states what was
	// checked when it is less than asked for.
	Level      string   `json:"validation_level,omitempty"`
	Guarantee  string   `json:"guarantee,omitempty"`
	Validation []Check  `json:"validation,omitempty"`
	Notes      []string `json:"notes,omitempty"`
	Summary    Summary  `json:"summary"`
}

// Check is one validation command's outcome.
type Check struct {
	Level  string `json:"level"`
	Status string `json:"status"` // ok, failed, unchecked
	Reason string `json:"reason,omitempty"`
	Tail   string `json:"output_tail,omitempty"`
}

// File is one file's line in the report.
type File struct {
	Path       string    `json:"path"`
	Status     Status    `json:"status"`
	Reason     string    `json:"reason,omitempty"`
	Stages     []Stage   `json:"stages,omitempty"`
	Reported   []Finding `json:"reported,omitempty"`
	Validation string    `json:"validation,omitempty"` // ok, unchecked, failed
	Note       string    `json:"note,omitempty"`
}

// Removed counts the carriers the transform stages took out of the file.
// A file that was refused or put back lost none, whatever the stages did
// to its candidate.
func (f File) Removed() int {
	if f.Status != Cleaned && f.Status != WouldChange {
		return 0
	}
	n := 0
	for _, st := range f.Stages {
		if st.Role == "transform" {
			n += st.Removed
		}
	}
	return n
}

// Stage counts what one stage did to one file.
type Stage struct {
	Stage    int    `json:"stage"`
	Role     string `json:"role"`
	Label    string `json:"label"`
	Regions  int    `json:"regions"`           // regions sent
	Changed  int    `json:"changed"`           // regions whose text changed
	Findings int    `json:"findings"`          // carriers acted on or reported
	Removed  int    `json:"removed,omitempty"` // carriers a transform removed or replaced
	Skipped  string `json:"skipped,omitempty"` // why the stage did not run on this file
}

// Finding is a carrier left in place, with where it sits.
type Finding struct {
	Line   int    `json:"line"`
	Col    int    `json:"col"` // 1-based, in characters
	Code   string `json:"code"`
	Name   string `json:"name"`
	Class  string `json:"class"`
	Region string `json:"region"`
	Why    string `json:"why,omitempty"` // the region's reason, e.g. "string literal"
	// Reason says why a carrier in prose was left: removing it would
	// change the file's structure.
	Reason   string `json:"reason,omitempty"`
	Severity string `json:"severity,omitempty"`
	Hidden   string `json:"hidden,omitempty"` // what a tag or selector payload spells
}

// Skip is a file the run did not consider, with why.
type Skip struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

// Summary counts files by outcome.
type Summary struct {
	Cleaned     int `json:"cleaned"`
	WouldChange int `json:"would_change,omitempty"`
	Unchanged   int `json:"unchanged"`
	Refused     int `json:"refused"`
	Skipped     int `json:"skipped"`
	Removed     int `json:"carriers_removed"`
	Reported    int `json:"carriers_reported"`
}

// Ack is the acknowledgement line every run starts with.
func (r *Run) Ack() string {
	return fmt.Sprintf("%s: pipeline %s, mode %s, %s", r.Command, r.Pipeline, r.Mode, r.Scope)
}

// Tally fills Summary from Files and Skipped.
func (r *Run) Tally() {
	s := Summary{Skipped: len(r.Skipped)}
	for _, f := range r.Files {
		switch f.Status {
		case Cleaned:
			s.Cleaned++
		case WouldChange:
			s.WouldChange++
		case Unchanged:
			s.Unchanged++
		default:
			s.Refused++
		}
		s.Removed += f.Removed()
		s.Reported += len(f.Reported)
	}
	r.Summary = s
}

// WriteJSON writes the report as one indented JSON document.
func (r *Run) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// Level says how a line of the human report is shown.
type Level int

// Report line levels.
const (
	Info Level = iota // what happened; left out by quiet renderings
	Warn              // something needs a look; always shown
)

// Line is one line of the human report, without the "prosewash:" prefix.
type Line struct {
	Level Level
	Text  string
}

// ListUnchanged is how many unchanged files the human report names one by
// one: a run over a tree (9,188 unchanged files in Go's source) names
// none of them, as ruff and black do, and its headline counts them
// (--json still lists every file).
const ListUnchanged = 10

// Lines renders the report for people, one line per skipped file, file
// (unchanged files only up to ListUnchanged), carrier left in place and
// validation step, then the headline. quiet keeps only what needs a look. Every adapter (the command line, the
// hooks) prints these lines, so the wording lives here once.
func (r *Run) Lines(quiet bool) []Line {
	var out []Line
	add := func(l Level, format string, args ...any) {
		if l == Warn || !quiet {
			out = append(out, Line{Level: l, Text: fmt.Sprintf(format, args...)})
		}
	}
	for _, s := range r.Skipped {
		add(Info, "skipped %s: %s", Quote(s.Path), s.Reason)
	}
	listUnchanged := r.Summary.Unchanged <= ListUnchanged
	for _, f := range r.Files {
		path := Quote(f.Path)
		switch f.Status {
		case Cleaned:
			add(Info, "cleaned %s: %s removed%s", path, Count(f.Removed(), "carrier"), validationNote(f))
		case WouldChange:
			add(Info, "would clean %s: %s%s", path, Count(f.Removed(), "carrier"), validationNote(f))
		case Unchanged:
			if listUnchanged {
				add(Info, "unchanged %s", path)
			}
		default:
			add(Warn, "%s %s: %s", f.Status, path, f.Reason)
		}
		for _, x := range f.Reported {
			if x.Reason != "" {
				add(Warn, "left %s:%d:%d %s %s in %s (%s): %s; review it%s", path, x.Line, x.Col, x.Code, x.Name, x.Region, x.Why, x.Reason, HiddenNote(x.Class, x.Hidden))
				continue
			}
			add(Warn, "left %s:%d:%d %s %s in %s (%s): not prose, never touched; review it%s", path, x.Line, x.Col, x.Code, x.Name, x.Region, x.Why, HiddenNote(x.Class, x.Hidden))
		}
	}
	for _, c := range r.Validation {
		if c.Status == "failed" {
			add(Warn, "validation %s failed: %s", c.Level, c.Reason)
			for _, l := range strings.Split(strings.TrimRight(c.Tail, "\n"), "\n") {
				if l != "" {
					add(Warn, "  | %s", l)
				}
			}
			continue
		}
		add(Info, "validation %s: %s%s", c.Level, c.Status, suffix(c.Reason))
	}
	if r.Guarantee != "" {
		add(Warn, "%s", r.Guarantee)
	}
	for _, n := range r.Notes {
		add(Warn, "%s", n)
	}
	add(Info, "%s", r.Headline())
	return out
}

// Headline sums the run up in one line: what was cleaned (or would be),
// and what was left, skipped or refused.
func (r *Run) Headline() string {
	s := r.Summary
	var b strings.Builder
	if r.Command == "test" || s.WouldChange > 0 && s.Cleaned == 0 {
		fmt.Fprintf(&b, "%s would change, %s to remove", Count(s.WouldChange, "file"), Count(s.Removed, "carrier"))
	} else {
		fmt.Fprintf(&b, "cleaned %s, %s removed", Count(s.Cleaned, "file"), Count(s.Removed, "carrier"))
	}
	if s.Unchanged > 0 {
		fmt.Fprintf(&b, "; %d unchanged", s.Unchanged)
	}
	if s.Skipped > 0 {
		fmt.Fprintf(&b, "; %d skipped", s.Skipped)
	}
	if s.Refused > 0 {
		fmt.Fprintf(&b, "; %d refused", s.Refused)
	}
	if s.Reported > 0 {
		fmt.Fprintf(&b, "; %s left to review", Count(s.Reported, "carrier"))
	}
	return b.String()
}

// HiddenNote renders what a payload spells for a line of text output:
// `; hidden text: "..."` for tag characters, `; hidden bytes: 68 69 ("hi")`
// for variation selectors; empty when nothing is hidden. The text is
// quoted with Go escapes, so a payload can never reach a terminal raw.
func HiddenNote(class, hidden string) string {
	if hidden == "" {
		return ""
	}
	if class == "tag" {
		return fmt.Sprintf("; hidden text: %q", hidden)
	}
	note := "; hidden bytes: " + hidden
	if b, ok := hexDecode(hidden); ok && utf8.Valid(b) && printable(string(b)) {
		note += fmt.Sprintf(" (%q)", b)
	}
	return note
}

func hexDecode(s string) ([]byte, bool) {
	var out []byte
	for _, w := range strings.Fields(s) {
		if len(w) != 2 {
			return nil, false
		}
		var c byte
		for i := 0; i < 2; i++ {
			d := w[i]
			switch {
			case d >= '0' && d <= '9':
				d -= '0'
			case d >= 'a' && d <= 'f':
				d = d - 'a' + 10
			default:
				return nil, false
			}
			c = c<<4 | d
		}
		out = append(out, c)
	}
	return out, true
}

func printable(s string) bool {
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return false
		}
	}
	return true
}

// Count renders n with its noun, plural when n is not 1: "1 carrier",
// "3 files".
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func validationNote(f File) string {
	if f.Validation == "" || f.Validation == "ok" {
		return ""
	}
	return fmt.Sprintf(" (syntax %s%s)", f.Validation, suffix(f.Note))
}

func suffix(s string) string {
	if s == "" {
		return ""
	}
	return ": " + s
}
