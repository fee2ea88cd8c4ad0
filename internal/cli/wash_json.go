package cli

import (
	"github.com/prosewash/prosewash/internal/engine/txn"
	"github.com/prosewash/prosewash/internal/engine/wash/archive"
	"github.com/prosewash/prosewash/internal/engine/wash/lane"
)

// washJSON renders the memory lane for a machine: one indented JSON document on stdout, a
// refusal inside it as "refused"; the exit status and the human refusal on stderr are the
// same as the text writer's.
type washJSON struct{ e *env }

func (w washJSON) gauge(g lane.Gauge, _ []string) error { return writeJSON(w.e, g) }

func (w washJSON) quick(res lane.QuickResult, _ bool, runErr error) error {
	return writeRunJSON(w.e, struct {
		lane.QuickResult
		Refused *errorJSON `json:"refused,omitempty"`
	}{res, jsonError(runErr)}, runErr)
}

func (w washJSON) apply(res lane.PlanResult, _ bool, runErr error) error {
	return writeRunJSON(w.e, struct {
		lane.PlanResult
		Refused *errorJSON `json:"refused,omitempty"`
	}{res, jsonError(runErr)}, runErr)
}

func (w washJSON) bins(evs []lane.BinEvent, errs []error) error {
	if evs == nil {
		evs = []lane.BinEvent{}
	}
	return writeJSON(w.e, struct {
		Events []lane.BinEvent `json:"events"`
		Errors []string        `json:"errors,omitempty"`
	}{evs, errStrings(errs)})
}

func (w washJSON) restore(res lane.RestoreResult, runErr error) error {
	return writeRunJSON(w.e, struct {
		lane.RestoreResult
		Refused *errorJSON `json:"refused,omitempty"`
	}{res, jsonError(runErr)}, runErr)
}

func (w washJSON) stats(s lane.Stats, ts *archive.StoreStats) error {
	return writeJSON(w.e, struct {
		lane.Stats
		Transcripts *archive.StoreStats `json:"transcripts,omitempty"`
	}{s, ts})
}

func (w washJSON) recovered(rep txn.RecoverReport) error {
	if err := writeJSON(w.e, rep); err != nil {
		return err
	}
	if rep.Unresolved {
		return errFindings
	}
	return nil
}
