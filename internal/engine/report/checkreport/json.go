package checkreport

import (
	"encoding/json"
	"io"
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
	// As an Encoder with SetIndent("", "  ") writes it.
	_, err = w.Write(append(appendIndented(make([]byte, 0, len(b)+len(b)/2), b, "  "), '\n'))
	return err
}

// nonNil makes an empty list print as [] rather than null.
func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
