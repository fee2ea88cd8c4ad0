package report

import (
	"encoding/json"
	"fmt"
	"io"
)

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
	Status     string    `json:"status"` // cleaned, unchanged, refused, would-change, conflict, restored
	Reason     string    `json:"reason,omitempty"`
	Stages     []Stage   `json:"stages,omitempty"`
	Reported   []Finding `json:"reported,omitempty"`
	Validation string    `json:"validation,omitempty"` // ok, unchecked, failed
	Note       string    `json:"note,omitempty"`
}

// Stage counts what one stage did to one file.
type Stage struct {
	Stage    int    `json:"stage"`
	Role     string `json:"role"`
	Label    string `json:"label"`
	Regions  int    `json:"regions"`
	Changed  int    `json:"changed"`
	Findings int    `json:"findings"`
	Skipped  string `json:"skipped,omitempty"`
}

// Finding is a carrier left in place.
type Finding struct {
	Line   int    `json:"line"`
	Col    int    `json:"col"`
	Code   string `json:"code"`
	Name   string `json:"name"`
	Class  string `json:"class"`
	Region string `json:"region"`
	Why    string `json:"why,omitempty"`
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
		case "cleaned":
			s.Cleaned++
		case "would-change":
			s.WouldChange++
		case "unchanged":
			s.Unchanged++
		default:
			s.Refused++
		}
		for _, st := range f.Stages {
			if (f.Status == "cleaned" || f.Status == "would-change") && st.Role == "transform" {
				s.Removed += st.Findings
			}
		}
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
