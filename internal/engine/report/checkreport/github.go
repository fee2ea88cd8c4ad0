package checkreport

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/report"
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
// back: '%', CR and LF as %25, %0D and %0A, which the runner turns back
// into themselves, and every other byte report.Escape holds unsafe (ESC,
// BEL, C1, bidi controls, invalid UTF-8) as a %XX the runner leaves as it
// is, so it shows instead of acting on the terminal or the log.
func ghData(s string) string {
	out, _ := report.Escape(s, func(r rune) bool { return r == '%' }, percentEscape)
	return out
}

// ghProperty escapes a property value (a file name, a title): the data
// escapes plus ':' and ',', which end a property.
func ghProperty(s string) string {
	out, _ := report.Escape(s, func(r rune) bool { return r == '%' || r == ':' || r == ',' }, percentEscape)
	return out
}

// percentEscape writes each byte of a rune as %XX.
func percentEscape(b *strings.Builder, _ rune, raw string) {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(raw); i++ {
		b.WriteByte('%')
		b.WriteByte(hex[raw[i]>>4])
		b.WriteByte(hex[raw[i]&0xf])
	}
}
