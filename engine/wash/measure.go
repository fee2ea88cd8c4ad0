package wash

import (
	"bytes"
	"fmt"

	"github.com/prosewash/prosewash/engine/wash/discover"
	"github.com/prosewash/prosewash/engine/wash/gauge"
	"github.com/prosewash/prosewash/engine/wash/quick"
)

// FileReport is one discovered file with its measured cost.
type FileReport struct {
	discover.Entry
	Tokens int `json:"tokens"`
	// Fat is what the Quick plan removes from this file, in tokens.
	Fat int `json:"fat"`
}

// Report is a full gauge reading: per-file figures, the measurement the band is computed from,
// and the Quick plan whose savings define the fat.
type Report struct {
	Files       []FileReport      `json:"files"`
	Measurement gauge.Measurement `json:"measurement"`
	Plan        quick.Plan        `json:"-"`
	// Errors are per-file read failures: the file is listed with zero tokens, never guessed.
	Errors []error `json:"-"`
}

// Measure reads the discovered files once each (a file several platforms load is counted once),
// plans the Quick pass over them, and returns the figures the band needs. The footprint is the
// owned always-loaded files; inherited ones are measured and reported apart; recall-only notes
// count toward the store (the cost base of a full pass) but not the footprint. read returns a
// file's bytes; opts configures the planner (its Tree enables link and index checks).
func Measure(res discover.Result, read func(path string) ([]byte, error), opts quick.Options) Report {
	return measure(res, read, opts, true)
}

// MeasureAlwaysLoaded is Measure for a session-start gauge: recall-only notes are read and
// priced but not planned. Their cuts never change the per-session bill, and a recall-only file
// is never a first copy of an always-loaded one (they are in different duplicate groups), so
// the Measurement is the same as Measure's at a fraction of the cost; the Plan and the Flags
// cover the always-loaded files only. The plan is priced without the planner's self-gate
// (quick.Options.PriceOnly): it must never be applied.
func MeasureAlwaysLoaded(res discover.Result, read func(path string) ([]byte, error), opts quick.Options) Report {
	opts.PriceOnly = true
	return measure(res, read, opts, false)
}

func measure(res discover.Result, read func(path string) ([]byte, error), opts quick.Options, planRecall bool) Report {
	var rep Report
	estimate := opts.Estimate
	if estimate == nil {
		estimate = gauge.Estimate
	}
	seen := map[string]int{} // real path -> index in rep.Files
	always := map[string]bool{}
	for _, e := range res.Entries {
		always[e.Real] = always[e.Real] || e.AlwaysLoaded
	}
	var files []quick.File
	var planIdx []int // rep.Files index of each planned file
	for _, e := range res.Entries {
		if i, ok := seen[e.Real]; ok {
			// Loaded by another platform too: the stricter flags win (always loaded, owned).
			f := &rep.Files[i]
			f.AlwaysLoaded = f.AlwaysLoaded || e.AlwaysLoaded
			f.Inherited = f.Inherited && e.Inherited
			continue
		}
		content, err := read(e.Real)
		fr := FileReport{Entry: e}
		seen[e.Real] = len(rep.Files)
		if err != nil {
			rep.Errors = append(rep.Errors, fmt.Errorf("read %s: %w", e.Path, err))
			rep.Files = append(rep.Files, fr)
			continue
		}
		fr.Tokens = estimate(content)
		rep.Files = append(rep.Files, fr)
		if !planRecall && !always[e.Real] {
			continue
		}
		files = append(files, quick.File{Path: e.Path, Content: content, Platform: e.Platform, Scope: e.Scope, Kind: string(e.Kind),
			AlwaysLoaded: e.AlwaysLoaded, Inherited: e.Inherited})
		planIdx = append(planIdx, len(rep.Files)-1)
		if e.Kind == discover.MemoryIndex && !e.Inherited {
			rep.Measurement.IndexBytes += len(content)
			rep.Measurement.IndexLines += bytes.Count(content, []byte("\n"))
			if len(content) > 0 && content[len(content)-1] != '\n' {
				rep.Measurement.IndexLines++
			}
		}
	}
	if opts.Estimate == nil {
		opts.Estimate = estimate
	}
	rep.Plan = quick.PlanQuick(files, opts)
	for k, fp := range rep.Plan.Files {
		rep.Files[planIdx[k]].Fat = fp.TokensBefore - fp.TokensAfter
	}
	m := &rep.Measurement
	for _, f := range rep.Files {
		switch {
		case f.Inherited:
			if f.AlwaysLoaded {
				m.Inherited += f.Tokens
			}
		case f.AlwaysLoaded:
			m.Footprint += f.Tokens
			m.Fat += f.Fat
			m.StoreTokens += f.Tokens
			m.Files = append(m.Files, gauge.FileStat{Path: f.Real, Size: f.Size})
		default:
			m.StoreTokens += f.Tokens
		}
	}
	return rep
}
