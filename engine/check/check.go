package check

import (
	"unicode/utf8"

	"github.com/prosewash/prosewash/engine/carrier"
	"github.com/prosewash/prosewash/engine/region"
	"github.com/prosewash/prosewash/engine/textpos"
)

// Scanner finds the carriers of a whole file. The caller passes the carrier
// provider's scanner, so the engine never imports a provider. lang is the
// file's language ("" when it has none).
type Scanner func(data []byte, lang string) []carrier.Finding

// Finding is one carrier, where it sits and what clean would do with it.
type Finding struct {
	Path   string `json:"path"`
	Line   int    `json:"line"`
	Col    int    `json:"col"`
	Code   string `json:"code"`
	Name   string `json:"name"`
	Class  string `json:"class"`
	Region string `json:"region"` // prose, directive, runtime or unclassified
	Action string `json:"action"`
}

// Result is what check found in one file.
type Result struct {
	Findings []Finding
	// Note says why the findings are report-only for the whole file
	// (invalid UTF-8, a classifier error), or is empty.
	Note string
}

// File finds the carriers of one file and places each in its region. A
// file of plain ASCII has none and costs one fast pass; only a file with
// findings is classified, because classification is the expensive part
// and most non-ASCII files carry nothing. It keeps no reference to data,
// so walkers may reuse their buffers.
func File(path string, data []byte, scan Scanner) *Result {
	if carrier.Plain(data) {
		return nil
	}
	lang := region.Language(path, data)
	res := &Result{}
	if !utf8.Valid(data) {
		res.Note = "invalid UTF-8: carriers are reported, never cleaned"
	}
	fs := scan(data, lang)
	if len(fs) == 0 {
		if res.Note == "" {
			return nil
		}
		return res
	}
	var m *region.Map
	if lang != "" {
		var err error
		if m, err = region.Classify(path, data); err != nil {
			res.Note = err.Error()
		}
	}
	lc := textpos.NewCounter(data)
	for _, f := range fs {
		kind, action := "unclassified", carrier.Report
		if m != nil {
			k := m.At(f.Offset).Kind
			kind = k.String()
			if k == region.Prose && f.Action != carrier.Report {
				action = f.Action
			}
		}
		line, col := lc.At(f.Offset)
		res.Findings = append(res.Findings, Finding{
			Path: path, Line: line, Col: col, Code: f.Code(), Name: f.Name, Class: f.Class,
			Region: kind, Action: string(action),
		})
	}
	return res
}
