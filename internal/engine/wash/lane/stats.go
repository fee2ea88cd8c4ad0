package lane

import (
	"strconv"
	"time"

	"github.com/prosewash/prosewash/internal/engine/txn"
	"github.com/prosewash/prosewash/internal/engine/wash/bins"
	"github.com/prosewash/prosewash/internal/engine/wash/gauge"
)

// BinFile is one file of a bin event, without content.
type BinFile struct {
	Ref          string   `json:"ref"` // "ID.N", what restore takes
	Path         string   `json:"path"`
	Op           string   `json:"op"`
	Bytes        int64    `json:"bytes"`
	RemovedLines int      `json:"removed_lines,omitempty"`
	Tokens       int      `json:"tokens,omitempty"`
	Cuts         []string `json:"cuts,omitempty"`
}

// BinEvent is one banked run.
type BinEvent struct {
	ID        string      `json:"id"`
	Bin       string      `json:"bin"`
	At        time.Time   `json:"at"`
	Reason    string      `json:"reason,omitempty"`
	Committed bool        `json:"committed"`
	Restored  []time.Time `json:"restored,omitempty"`
	Bytes     int64       `json:"bytes"`
	Files     []BinFile   `json:"files"`
	// Horizon is when the event ages out at the latest (thinning and the cap may come first,
	// and only inside a real run).
	Horizon time.Time `json:"horizon"`
}

// Bins lists every bin's events, newest first, without reading their content or changing
// anything.
func (l *Lane) Bins() ([]BinEvent, []error) {
	stateDir, err := l.stateDir()
	if err != nil {
		return nil, []error{err}
	}
	store := bins.OpenReadOnly(stateDir)
	var out []BinEvent
	var errs []error
	for _, b := range bins.Names() {
		ms, es := store.List(b)
		errs = append(errs, es...)
		pol := bins.DefaultPolicy(b, 0)
		for _, m := range ms {
			ev := BinEvent{ID: m.ID, Bin: m.Bin, At: m.At, Reason: m.Reason, Committed: m.Committed, Restored: m.Restored, Bytes: m.Bytes, Horizon: m.At.Add(pol.Horizon)}
			for _, it := range m.Items {
				ev.Files = append(ev.Files, BinFile{Ref: m.ID + "." + strconv.Itoa(it.N), Path: l.rel(it.Path), Op: it.Op, Bytes: it.Bytes,
					RemovedLines: it.RemovedLines, Tokens: it.Tokens, Cuts: it.Cuts})
			}
			out = append(out, ev)
		}
	}
	return out, errs
}

// BinStat summarises one bin.
type BinStat struct {
	Bin         string    `json:"bin"`
	Events      int       `json:"events"`
	Bytes       int64     `json:"bytes"`
	Oldest      time.Time `json:"oldest,omitempty"`
	Newest      time.Time `json:"newest,omitempty"`
	Uncommitted int       `json:"uncommitted,omitempty"`
}

// Stats is the fuller view behind the one-line receipt.
type Stats struct {
	Verdict    *gauge.Verdict   `json:"verdict,omitempty"`
	GaugedAt   time.Time        `json:"gauged_at,omitempty"`
	Crossing   *Crossing        `json:"crossing,omitempty"`
	History    []Point          `json:"history"`
	Receipt    *Receipt         `json:"receipt,omitempty"`
	Sessions   int              `json:"sessions"`
	Session    string           `json:"session,omitempty"`
	Known      int              `json:"known_files"`
	StoreBytes int64            `json:"store_bytes"`
	Bins       []BinStat        `json:"bins"`
	Deaths     int              `json:"deaths"`
	Keeps      int              `json:"keeps"`
	Pending    []txn.PendingRun `json:"pending,omitempty"`
	// Spawns is the subagent spawn meter of every recorded session, newest first.
	Spawns []SpawnStats `json:"spawns,omitempty"`
	Errors []string     `json:"errors,omitempty"`
}

// Stats reads the lane's state, bins, keeps and pending journals. It measures nothing and
// writes nothing.
func (l *Lane) Stats() (Stats, error) {
	stateDir, err := l.stateDir()
	if err != nil {
		return Stats{}, err
	}
	st := LoadState(stateDir)
	s := Stats{Verdict: st.Verdict, GaugedAt: st.GaugedAt, Crossing: st.Crossing, History: st.History, Receipt: st.Receipt,
		Sessions: st.Sessions, Session: st.Session, Known: len(st.Known), StoreBytes: st.StoreBytes}
	if s.History == nil {
		s.History = []Point{}
	}
	store := bins.OpenReadOnly(stateDir)
	for _, b := range bins.Names() {
		ms, errs := store.List(b)
		for _, e := range errs {
			s.Errors = append(s.Errors, e.Error())
		}
		bs := BinStat{Bin: b, Events: len(ms)}
		for i, m := range ms {
			bs.Bytes += m.Bytes
			if !m.Committed {
				bs.Uncommitted++
			}
			if i == 0 {
				bs.Newest = m.At
			}
			bs.Oldest = m.At
		}
		s.Bins = append(s.Bins, bs)
	}
	if lines, err := store.ReadDeathLog(); err == nil {
		for _, ln := range lines {
			if len(ln) > 0 {
				s.Deaths++
			}
		}
	} else {
		s.Errors = append(s.Errors, err.Error())
	}
	if k, err := LoadKeeps(stateDir); err == nil {
		s.Keeps = len(k)
	} else {
		s.Errors = append(s.Errors, err.Error())
	}
	if p, err := txn.Pending(stateDir); err == nil {
		s.Pending = p
	}
	if sp, err := l.AllSpawns(); err == nil {
		s.Spawns = sp
	}
	return s, nil
}

// Recover ends interrupted wash (and clean) runs, trusting the project root and the
// platforms' config directories.
func (l *Lane) Recover() (txn.RecoverReport, error) {
	stateDir, err := l.stateDir()
	if err != nil {
		return txn.RecoverReport{}, err
	}
	return txn.Recover(stateDir, txn.RecoverOptions{Root: l.p.Root, Roots: l.RecoverRoots(), Getenv: l.getenv})
}
