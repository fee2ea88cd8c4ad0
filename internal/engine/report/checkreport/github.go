package checkreport

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// GitHub writes GitHub Actions workflow commands: one annotation per
// finding on its line (::error, ::warning or ::notice by the finding's
// level), one notice per skipped path and per report-only file, so a log
// never reads as clean where check did not look.
type GitHub struct{}

func (GitHub) Write(w io.Writer, r *Report) error {
	bw := bufio.NewWriter(w)
	for _, f := range r.Findings {
		if f.Kept() {
			continue
		}
		cmd := map[string]string{"error": "error", "warning": "warning", "note": "notice"}[Level(f)]
		fmt.Fprintf(bw, "::%s file=%s,line=%d,col=%d,endColumn=%d,title=%s::%s\n", cmd,
			ghProperty(filepath.ToSlash(f.Path)), f.Line, f.Col, f.EndCol, ghProperty("prosewash "+f.Class),
			ghData(Message(f)))
	}
	for _, n := range r.Notes {
		fmt.Fprintf(bw, "::notice file=%s,title=%s::%s\n", ghProperty(filepath.ToSlash(n.Path)), ghProperty("prosewash report-only"), ghData(n.Text))
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(bw, "::notice file=%s,title=%s::%s\n", ghProperty(filepath.ToSlash(s.Path)), ghProperty("prosewash skipped"), ghData(skipText(s)))
	}
	return bw.Flush()
}

// skipText says why a path was not looked into.
func skipText(s Skipped) string {
	t := "not scanned: " + s.Reason
	if s.Error != "" {
		t += " (" + s.Error + ")"
	}
	return t
}

// ghData escapes a workflow command's message as GitHub's runner reads it
// back: '%', CR and LF.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a property value (a file name, a title): the data
// escapes plus ':' and ',', which end a property.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
