package lane

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/prosewash/prosewash/engine/wash/bins"
	"github.com/prosewash/prosewash/engine/wash/gate"
)

// RestoreOptions configure Restore.
type RestoreOptions struct {
	DryRun bool
}

// RestoreFile says what a restore does to one file.
type RestoreFile struct {
	Ref    string `json:"ref"`
	Path   string `json:"path"`
	Action string `json:"action"` // replace, create, unchanged
}

// RestoreResult is what Restore did.
type RestoreResult struct {
	DryRun  bool          `json:"dry_run"`
	ID      string        `json:"id"`
	Files   []RestoreFile `json:"files"`
	Receipt string        `json:"receipt"`
}

// ConflictError refuses a restore that would lose content written since the cut: lines of
// the current file that the banked original does not hold, or structured tokens the gate
// finds missing from it.
type ConflictError struct {
	Ref   string
	Path  string
	Lines int
	Drops []gate.Drop
}

func (e *ConflictError) Error() string {
	var what []string
	if e.Lines > 0 {
		what = append(what, fmt.Sprintf("%d line(s)", e.Lines))
	}
	if len(e.Drops) > 0 {
		keys := []string{}
		for _, d := range e.Drops {
			keys = append(keys, d.Key())
		}
		if len(keys) > 6 {
			keys = append(keys[:6], "...")
		}
		what = append(what, "tokens "+strings.Join(keys, ", "))
	}
	return fmt.Sprintf("%s changed since the cut; putting %s back would lose %s written since; nothing was written (print the banked bytes with --stdout and merge by hand)",
		e.Path, e.Ref, strings.Join(what, " and "))
}

// Restore puts a banked cut back: "ID" restores every file of the event, "ID.N" one file.
// A file that is gone is re-created; a file still holding what the run installed is replaced
// by its original; a file changed since is replaced only when every line it holds now is in
// the original (as a multiset, blanks aside) and the gate finds no token of it missing from
// the original, so a restore can only add content. Anything else refuses the whole restore.
// The restore is one gated, all-or-nothing transaction.
func (l *Lane) Restore(ref string, o RestoreOptions) (RestoreResult, error) {
	res := RestoreResult{DryRun: o.DryRun}
	id, n, err := bins.ParseRef(ref)
	if err != nil {
		return res, err
	}
	res.ID = id
	stateDir, err := l.stateDir()
	if err != nil {
		return res, err
	}
	store := bins.OpenReadOnly(stateDir)
	m, err := store.Get(id)
	if err != nil {
		return res, err
	}
	if m.Schema != bins.MetaSchema {
		return res, fmt.Errorf("bin event %s has schema %d; this build restores %d", id, m.Schema, bins.MetaSchema)
	}
	items := m.Items
	if n >= 0 {
		if n >= len(m.Items) {
			return res, fmt.Errorf("bin event %s has no item %d", id, n)
		}
		items = m.Items[n : n+1]
	}
	seen := map[string]bool{}
	x := run{Bin: m.Bin, Reason: "restore " + ref, NoBank: true}
	for _, it := range items {
		if seen[it.Path] {
			return res, fmt.Errorf("bin event %s holds %s twice; restore one item (ID.N)", id, l.rel(it.Path))
		}
		seen[it.Path] = true
		orig, err := store.Read(m, it.N)
		if err != nil {
			return res, err
		}
		itemRef := fmt.Sprintf("%s.%d", id, it.N)
		rf := RestoreFile{Ref: itemRef, Path: l.rel(it.Path)}
		cur, err := read(it.Path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			rf.Action = "create"
			x.Changes = append(x.Changes, change{Path: it.Path, Kind: gate.Create, Result: orig})
			x.Gate = append(x.Gate, gate.Change{Path: it.Path, Kind: gate.Create, Result: orig})
		case err != nil:
			return res, &RefusedError{Path: l.rel(it.Path), Reason: "unreadable: " + err.Error()}
		case bytes.Equal(cur, orig):
			rf.Action = "unchanged"
		default:
			lost := linesLost(cur, orig)
			drops := gate.Check(cur, orig)
			if lost > 0 || len(drops) > 0 {
				return res, &ConflictError{Ref: itemRef, Path: l.rel(it.Path), Lines: lost, Drops: drops}
			}
			rf.Action = "replace"
			x.Changes = append(x.Changes, change{Path: it.Path, Kind: gate.Rewrite, Orig: cur, Result: orig})
			x.Gate = append(x.Gate, gate.Change{Path: it.Path, Kind: gate.Rewrite, Orig: cur, Result: orig})
		}
		res.Files = append(res.Files, rf)
	}
	changed := len(x.Changes)
	res.Receipt = fmt.Sprintf("restored %d file(s) from %s", changed, ref)
	if o.DryRun {
		res.Receipt = fmt.Sprintf("would restore %d file(s) from %s", changed, ref)
		return res, nil
	}
	if _, err := l.execute(x); err != nil {
		return res, err
	}
	if changed > 0 {
		if s, err := bins.Open(stateDir); err == nil {
			_, _ = s.MarkRestored(m, l.now())
		}
		st := LoadState(stateDir)
		st.Receipt = &Receipt{At: l.now().UTC(), Kind: "restore", Line: res.Receipt, Event: id}
		st.UpdatedAt = l.now().UTC()
		_ = saveState(stateDir, st)
	}
	return res, nil
}

// BinBytes returns the banked bytes of one item ("ID.N", or "ID" when the event holds one
// file), verified against their hash, for a human to merge by hand.
func (l *Lane) BinBytes(ref string) ([]byte, error) {
	id, n, err := bins.ParseRef(ref)
	if err != nil {
		return nil, err
	}
	stateDir, err := l.stateDir()
	if err != nil {
		return nil, err
	}
	store := bins.OpenReadOnly(stateDir)
	m, err := store.Get(id)
	if err != nil {
		return nil, err
	}
	if n < 0 {
		if len(m.Items) != 1 {
			return nil, fmt.Errorf("bin event %s holds %d files; name one as %s.N", id, len(m.Items), id)
		}
		n = 0
	}
	return store.Read(m, n)
}

// linesLost counts the non-blank lines of cur (trailing whitespace ignored) that orig does
// not hold as often: content a restore from orig would remove.
func linesLost(cur, orig []byte) int { return removedLines(cur, orig) }
