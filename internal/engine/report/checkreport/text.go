package checkreport

import (
	"bufio"
	"fmt"
	"io"

	"github.com/prosewash/prosewash/internal/engine/report"
)

// Text writes one line per finding, FILE:LINE:COL U+XXXX NAME REGION
// ACTION SEVERITY [(REASON)][; hidden ...], the shape editors and grep
// read. With Group, each file's path is a heading and its findings follow
// indented as LINE:COL ..., which reads better when there are many. Kept
// carriers are left out (the summary counts them; JSON lists them).
type Text struct {
	Group bool
}

func (t Text) Write(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	last := ""
	for _, f := range r.Findings {
		if f.Kept() {
			continue
		}
		path := report.Quote(f.Path)
		if !t.Group {
			fmt.Fprintf(bw, "%s:%d:%d %s\n", path, f.Line, f.Col, describe(f))
			continue
		}
		if f.Path != last || last == "" {
			fmt.Fprintf(bw, "%s\n", path)
			last = f.Path
		}
		fmt.Fprintf(bw, "  %d:%d %s\n", f.Line, f.Col, describe(f))
	}
	return bw.Flush()
}

// describe is a finding after its position: code point, name, region,
// action, severity, why it stays and what a payload spells.
func describe(f Finding) string {
	s := fmt.Sprintf("%s %s %s %s %s", f.Code, f.Name, f.Region, f.Action, f.Severity)
	if f.Reason != "" && f.Action != "remove" && f.Action != "replace" {
		s += " (" + f.Reason + ")"
	}
	return s + report.HiddenNote(f.Class, f.Hidden)
}
