package checkreport

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/check"
)

// Finding is one carrier as the reports show it: check's finding and the
// positions and identities that only the file's bytes can give, computed
// while they are at hand (see Annotate).
type Finding struct {
	check.Finding
	// EndCol is the column just after the carrier, in characters.
	EndCol int `json:"-"`
	// Col16 and EndCol16 are Col and EndCol in UTF-16 code units, the
	// columns GitHub code scanning counts (set with identities, see
	// Annotate).
	Col16    int `json:"-"`
	EndCol16 int `json:"-"`
	// LineHash is GitHub's primaryLocationLineHash of the finding's line;
	// Print is prosewash's own identity of the carrier (see fingerprint).
	LineHash string `json:"-"`
	Print    string `json:"-"`
}

// Kept reports whether people asked to keep the carrier ([clean] allow, a
// keep marker): shown as suppressed, never counted as a finding.
func (f Finding) Kept() bool { return f.Action == "keep" }

// Skipped is a path check did not look into, and why.
type Skipped struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
	Error  string `json:"error,omitempty"`
}

// Note says why a file's findings are report-only as a whole (it holds NUL
// bytes, it is not valid UTF-8, its classifier refused it).
type Note struct {
	Path string `json:"path"`
	Text string `json:"note"`
}

// Report is everything one check run found.
type Report struct {
	Version  string    // prosewash's version, for SARIF's driver
	Files    int       // files read
	Findings []Finding // at least the minimum severity, and the kept ones
	Skipped  []Skipped
	Notes    []Note
}

// Sort puts findings in path, line, column order and skipped paths in path
// order, so every format lists them the same way whatever order the walk
// delivered them in.
func (r *Report) Sort() {
	sort.SliceStable(r.Findings, func(i, j int) bool {
		a, b := r.Findings[i], r.Findings[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	})
	sort.SliceStable(r.Skipped, func(i, j int) bool { return r.Skipped[i].Path < r.Skipped[j].Path })
	sort.SliceStable(r.Notes, func(i, j int) bool { return r.Notes[i].Path < r.Notes[j].Path })
}

// Writer writes a report in one format.
type Writer interface {
	Write(w io.Writer, r *Report) error
}

// Formats are the names --format takes, in the order help lists them.
var Formats = []string{"text", "json", "sarif", "github"}

// For returns the writer of a format; group asks the text writer to group
// findings under their file.
func For(format string, group bool) (Writer, error) {
	switch format {
	case "text":
		return Text{Group: group}, nil
	case "json":
		return JSON{}, nil
	case "sarif":
		return SARIF{}, nil
	case "github":
		return GitHub{}, nil
	}
	return nil, fmt.Errorf("--format must be %s or %s, not %q", strings.Join(Formats[:len(Formats)-1], ", "), Formats[len(Formats)-1], format)
}

// Counts are a report's findings counted the ways the summary says them.
type Counts struct {
	Findings  int            `json:"findings"`
	Kept      int            `json:"kept"`
	Files     int            `json:"files"` // files read
	WithFinds int            `json:"filesWithFindings"`
	Action    map[string]int `json:"byAction"`
	Severity  map[string]int `json:"bySeverity"`
	Skipped   map[string]int `json:"skipped"`
}

// Count tallies a report.
func (r *Report) Count() Counts {
	c := Counts{Files: r.Files, Action: map[string]int{}, Severity: map[string]int{}, Skipped: map[string]int{}}
	files := map[string]bool{}
	for _, f := range r.Findings {
		if f.Kept() {
			c.Kept++
			continue
		}
		c.Findings++
		c.Action[f.Action]++
		c.Severity[f.Severity]++
		files[f.Path] = true
	}
	c.WithFinds = len(files)
	for _, s := range r.Skipped {
		c.Skipped[s.Reason]++
	}
	return c
}

// Summary is the one line that ends a text report: files read, findings by
// action and by severity, what was skipped and kept.
func (r *Report) Summary() string {
	c := r.Count()
	s := "check: " + plural(c.Files, "file") + " read"
	if c.Findings == 0 {
		s += ", no findings"
	} else {
		s += fmt.Sprintf(", %s in %s (%s; %s)", plural(c.Findings, "finding"), plural(c.WithFinds, "file"),
			tally(c.Action, []string{"remove", "replace", "report"}), tally(c.Severity, []string{"high", "medium", "low"}))
	}
	if len(c.Skipped) > 0 {
		s += "; skipped " + tally(c.Skipped, nil)
	}
	if c.Kept > 0 {
		s += fmt.Sprintf("; %s kept as asked", plural(c.Kept, "carrier"))
	}
	return s
}

// tally says "3 remove, 1 report": the keys in order, then any others
// sorted, leaving out zeros.
func tally(m map[string]int, order []string) string {
	seen := map[string]bool{}
	var parts []string
	for _, k := range order {
		seen[k] = true
		if m[k] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", m[k], k))
		}
	}
	var rest []string
	for k := range m {
		if !seen[k] && m[k] > 0 {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	for _, k := range rest {
		parts = append(parts, fmt.Sprintf("%d %s", m[k], k))
	}
	return strings.Join(parts, ", ")
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
