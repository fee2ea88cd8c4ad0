package lane

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/wash/bins"
	"github.com/prosewash/prosewash/internal/engine/wash/discover"
	"github.com/prosewash/prosewash/internal/engine/wash/gate"
)

// RestoreOptions configure Restore.
type RestoreOptions struct {
	DryRun bool
	// Terminal says the restore was asked for on a terminal: only then may it write back a
	// user-level memory file (one a platform loads from ~/.claude, the Codex home or ~/.gemini).
	Terminal bool
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
	if err := l.refusePending(); err != nil {
		return res, err
	}
	stateDir, err := l.stateDir()
	if err != nil {
		return res, err
	}
	store := bins.OpenReadOnly(stateDir)
	id, n, err := resolveRef(store, ref)
	if err != nil {
		return res, err
	}
	res.ID = id
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
	x := run{Bin: m.Bin, Reason: "restore " + ref, NoBank: true, Writable: l.ownedNow(o.Terminal)}
	type pending struct {
		it        bins.Item
		ref       string
		cur, orig []byte
	}
	var replaced []pending
	origs := map[string][]byte{} // path -> the original this restore puts back
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
			origs[it.Path] = orig
		case err != nil:
			return res, &RefusedError{Path: l.rel(it.Path), Reason: "unreadable: " + err.Error()}
		case bytes.Equal(cur, orig):
			rf.Action = "unchanged"
		default:
			rf.Action = "replace"
			replaced = append(replaced, pending{it: it, ref: itemRef, cur: cur, orig: orig})
			x.Changes = append(x.Changes, change{Path: it.Path, Kind: gate.Rewrite, Orig: cur, Result: orig})
			x.Gate = append(x.Gate, gate.Change{Path: it.Path, Kind: gate.Rewrite, Orig: cur, Result: orig})
			origs[it.Path] = orig
		}
		res.Files = append(res.Files, rf)
	}
	// A restore may only add content: every line a replaced file holds now must be in its
	// original, or (the undo of a merge) in another original this restore puts back; and the
	// gate must find no token of the current files missing from the restored set.
	v := gate.CheckSet(x.Gate, nil)
	for _, p := range replaced {
		lost := 0
		for _, ln := range missingLines(p.cur, p.orig) {
			found := false
			for path, o := range origs {
				if path != p.it.Path && hasLine(o, ln) {
					found = true
					break
				}
			}
			if !found {
				lost++
			}
		}
		var drops []gate.Drop
		for _, fv := range v.Files {
			if fv.Path == p.it.Path {
				drops = fv.Blocking
			}
		}
		if lost > 0 || len(drops) > 0 {
			return res, &ConflictError{Ref: p.ref, Path: l.rel(p.it.Path), Lines: lost, Drops: drops}
		}
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
		st.Cache = nil
		st.UpdatedAt = l.now().UTC()
		_ = saveState(stateDir, st)
	}
	return res, nil
}

// ownedNow discovers the memory afresh and returns the real paths the lane may write: the
// owned files, and with terminal the user-level Markdown memory files.
func (l *Lane) ownedNow(terminal bool) map[string]bool {
	w := map[string]bool{}
	res, err := discover.Discover(l.discoverOptions(nil))
	if err != nil {
		return w
	}
	no := map[string]bool{} // a file several platforms load is owned only if all say so
	for _, e := range res.Entries {
		if e.Owned || terminal && l.userLevel(e) {
			w[e.Real] = true
		} else {
			no[e.Real] = true
		}
	}
	for p := range no {
		delete(w, p)
	}
	return w
}

// BinBytes returns the banked bytes of one item ("ID.N", or "ID" when the event holds one
// file), verified against their hash, for a human to merge by hand.
func (l *Lane) BinBytes(ref string) ([]byte, error) {
	stateDir, err := l.stateDir()
	if err != nil {
		return nil, err
	}
	store := bins.OpenReadOnly(stateDir)
	id, n, err := resolveRef(store, ref)
	if err != nil {
		return nil, err
	}
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

// LastRef names the newest committed quick or plan event: "undo the last wash".
const LastRef = "last"

// resolveRef parses "ID", "ID.N", "last" or "last.N".
func resolveRef(store *bins.Store, ref string) (string, int, error) {
	if ref == LastRef || strings.HasPrefix(ref, LastRef+".") {
		var newest *bins.Meta
		for _, b := range []string{bins.Quick, bins.Plan} {
			ms, _ := store.List(b)
			for i := range ms {
				if ms[i].Committed && (newest == nil || ms[i].At.After(newest.At)) {
					newest = &ms[i]
				}
				if ms[i].Committed {
					break
				}
			}
		}
		if newest == nil {
			return "", 0, fmt.Errorf("no wash run is banked yet")
		}
		ref = newest.ID + strings.TrimPrefix(ref, LastRef)
	}
	return bins.ParseRef(ref)
}

// missingLines lists the non-blank lines of cur (trailing whitespace ignored) that orig does
// not hold as often: content a restore from orig alone would remove.
func missingLines(cur, orig []byte) []string {
	have := map[string]int{}
	for _, ln := range strings.Split(string(orig), "\n") {
		have[strings.TrimRight(ln, " \t\r")]++
	}
	var out []string
	for _, ln := range strings.Split(string(cur), "\n") {
		k := strings.TrimRight(ln, " \t\r")
		if k == "" {
			continue
		}
		if have[k] > 0 {
			have[k]--
			continue
		}
		out = append(out, k)
	}
	return out
}

func hasLine(b []byte, line string) bool {
	for _, ln := range strings.Split(string(b), "\n") {
		if strings.TrimRight(ln, " \t\r") == line {
			return true
		}
	}
	return false
}
