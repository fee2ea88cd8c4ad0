package cli

import (
	"github.com/prosewash/prosewash/internal/engine/txn"
	"github.com/prosewash/prosewash/internal/engine/wash/archive"
	"github.com/prosewash/prosewash/internal/engine/wash/lane"
)

// washWriter renders what the memory lane's commands found and did, in one format: text for a
// person (stderr, "prosewash:" lines) or JSON for a machine (stdout). Each method gets the
// command's result and its refusal (nil when it ran) and returns the error the command exits
// with; the commands parse flags, call the lane and hand over, nothing more.
type washWriter interface {
	gauge(g lane.Gauge, limited []string) error
	quick(res lane.QuickResult, dry bool, runErr error) error
	apply(res lane.PlanResult, dry bool, runErr error) error
	bins(evs []lane.BinEvent, errs []error) error
	restore(res lane.RestoreResult, runErr error) error
	stats(s lane.Stats, ts *archive.StoreStats) error
	recovered(rep txn.RecoverReport) error
}

// newWashWriter returns the writer of the chosen format; l renders paths the way the lane's
// messages do.
func newWashWriter(e *env, l *lane.Lane, asJSON bool) washWriter {
	if asJSON {
		return washJSON{e: e}
	}
	return washText{e: e, rel: l.Rel}
}
