package checkreport

import (
	"encoding/json"
	"io"
	"strings"
	"unicode/utf16"

	"github.com/prosewash/prosewash/internal/engine/report"
)

// JSON writes one document: every finding (kept carriers included, with
// action keep), every skipped path with its reason, the per-file notes and
// the counts the text summary says.
type JSON struct{}

func (JSON) Write(w io.Writer, r *Report) error {
	b, err := json.Marshal(struct {
		Findings []Finding `json:"findings"`
		Skipped  []Skipped `json:"skipped"`
		Notes    []Note    `json:"notes"`
		Summary  Counts    `json:"summary"`
	}{nonNil(r.Findings), nonNil(r.Skipped), nonNil(r.Notes), r.Count()})
	if err != nil {
		return err
	}
	return writeIndented(w, b)
}

// writeIndented writes the compact JSON document b made terminal-safe and
// indented as an Encoder with SetIndent("", "  ") writes it.
func writeIndented(w io.Writer, b []byte) error {
	b = terminalSafe(b)
	_, err := w.Write(append(appendIndented(make([]byte, 0, len(b)+len(b)/2), b, "  "), '\n'))
	return err
}

// terminalSafe rewrites the runes encoding/json leaves raw that report.Escape
// holds unsafe on a terminal (DEL, C1 controls, format characters such as
// bidi overrides and tags; json escapes the C0 controls itself) as \u
// escapes: the document decodes to the same values, and one printed to a
// terminal cannot act on it. Such runes stand only inside strings: compact
// json output between them is printable ASCII.
func terminalSafe(b []byte) []byte {
	s, changed := report.Escape(string(b), nil, jsonEscape)
	if !changed {
		return b
	}
	return []byte(s)
}

// jsonEscape writes a rune as JSON's \u escape, a surrogate pair beyond
// the Basic Multilingual Plane.
func jsonEscape(b *strings.Builder, r rune, _ string) {
	const hex = "0123456789abcdef"
	units := []uint16{uint16(r)}
	if r > 0xffff {
		r1, r2 := utf16.EncodeRune(r)
		units = []uint16{uint16(r1), uint16(r2)}
	}
	for _, u := range units {
		b.WriteString(`\u`)
		b.WriteByte(hex[u>>12])
		b.WriteByte(hex[u>>8&0xf])
		b.WriteByte(hex[u>>4&0xf])
		b.WriteByte(hex[u&0xf])
	}
}

// nonNil makes an empty list print as [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
