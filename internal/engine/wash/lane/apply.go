package lane

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/state"
	"github.com/prosewash/prosewash/internal/engine/txn"
	"github.com/prosewash/prosewash/internal/engine/wash/bins"
	"github.com/prosewash/prosewash/internal/engine/wash/discover"
	"github.com/prosewash/prosewash/internal/engine/wash/frontmatter"
	"github.com/prosewash/prosewash/internal/engine/wash/gate"
)

// BlockedError says the fidelity gate found structured tokens the run would lose without an
// approval: nothing was written.
type BlockedError struct {
	Drops []gate.Drop
}

func (e *BlockedError) Error() string {
	keys := make([]string, 0, len(e.Drops))
	for _, d := range e.Drops {
		keys = append(keys, d.Key())
	}
	if len(keys) > 8 {
		keys = append(keys[:8], fmt.Sprintf("and %d more", len(e.Drops)-8))
	}
	return fmt.Sprintf("fidelity gate: %d structured token(s) would be lost (%s); nothing was written", len(e.Drops), strings.Join(keys, ", "))
}

// RefusedError says a file may not be touched (pinned, unverifiable front matter, outside the
// allowed roots, not a memory file): nothing was written.
type RefusedError struct {
	Path   string
	Reason string
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("%s: refused: %s; nothing was written", e.Path, e.Reason)
}

// ChangedError says a file changed after it was read (or after the plan was made): nothing
// was written, and the newer content is untouched.
type ChangedError struct {
	Path string
}

func (e *ChangedError) Error() string {
	return fmt.Sprintf("%s changed since it was read; nothing was written and the newer content is untouched: run again", e.Path)
}

// change is one file a run writes.
type change struct {
	Path   string // real path
	Kind   gate.ChangeKind
	Orig   []byte // current bytes (rewrite, delete); nil for a create
	Result []byte // new bytes (rewrite, create)
	// Cuts name the kinds of cut for the bin (never content).
	Cuts         []string
	RemovedLines int
	Tokens       int
}

// run is one writing run of the lane.
type run struct {
	Bin    string
	Reason string
	// Gate is the whole change set the fidelity gate checks on disk (unchanged files
	// included: they hold the first copies that make a cross-file duplicate removal a move).
	Gate []gate.Change
	// Approved are the drops the run may make, by place (a person's) or per file (the
	// planner's own).
	Approved approvals
	Changes  []change
	// Reading is what the run was planned from: the gate compares every platform's load
	// before and after on it.
	Reading *reading
	// StoreBytes sizes the bins' cap.
	StoreBytes int64
	// NoBank skips banking (a restore only adds content).
	NoBank bool
	// Writable are the real paths this run may rewrite or delete: the owned memory files of
	// the reading it was planned from (and user-level files named on a terminal). Anything
	// else refuses the whole run before the first write.
	Writable map[string]bool
}

// outcome is what a run did.
type outcome struct {
	Event *bins.Meta
	Txn   txn.Result
	Swept []bins.SweepReport
	// Loads is the gate's view of every platform's load before and after (nil when the run
	// changed nothing or was not gated on loads).
	Loads *loadCheck
}

// execute gates, checks pins and roots, then applies the run as one all-or-nothing
// transaction whose originals are banked before the first swap. It writes nothing unless
// every check passes.
func (l *Lane) execute(x run) (out outcome, err error) {
	if len(x.Changes) == 0 {
		return out, nil
	}
	// The lane writes only what it owns, whoever planned the run.
	for _, c := range x.Changes {
		if !l.mayWrite(c, x.Writable) {
			return out, &RefusedError{Path: l.rel(c.Path), Reason: measuredOnly}
		}
	}
	// A pin refuses outright, before anything else is even considered.
	for _, c := range x.Changes {
		if c.Kind == gate.Create || l.off.pin {
			continue
		}
		if refused, why := pinned(c.Orig); refused {
			return out, &RefusedError{Path: l.rel(c.Path), Reason: why}
		}
	}
	if !l.off.gate {
		lc, err := l.gateRun(x)
		out.Loads = lc
		if err != nil {
			return out, err
		}
	}
	roots, rerr := l.rootsFor(x.Changes)
	if rerr != nil {
		return out, rerr
	}
	stateDir, err := l.stateDir()
	if err != nil {
		return out, err
	}
	ops := txnOps(x.Changes)
	if l.beforeExecute != nil {
		l.beforeExecute()
	}
	tx, err := txn.Begin(txn.Options{Root: l.p.Root, Roots: roots, StateDir: stateDir, Getenv: l.getenv, AllOrNothing: !l.off.allOrNothing, MaxFileSize: MaxReadBytes})
	if err != nil {
		return out, err
	}
	defer func() {
		_ = tx.Close()
		out.Txn = tx.Result()
	}()
	if err := tx.Prepare(ops); err != nil {
		return out, changedOr(l, err)
	}
	store, err := bins.Open(stateDir)
	if err != nil {
		return out, err
	}
	var ev *bins.Meta
	if !x.NoBank && !l.off.bank {
		m, err := l.bank(store, x)
		if err != nil {
			return out, errors.Join(err, tx.Rollback())
		}
		ev = &m
	}
	if l.afterBank != nil {
		l.afterBank()
	}
	if err := tx.Install(); err != nil {
		if ev != nil {
			_ = store.Discard(*ev)
		}
		return out, changedOr(l, err)
	}
	if err := tx.Commit(); err != nil {
		if ev != nil {
			_ = store.Discard(*ev)
		}
		return out, err
	}
	if ev != nil {
		m, err := store.Commit(*ev)
		if err == nil {
			ev = &m
		}
		out.Event = ev
	}
	// The only place a cut is ever destroyed: inside a real run, after its commit.
	now := l.now()
	for _, b := range bins.Names() {
		out.Swept = append(out.Swept, store.Sweep(b, now, bins.DefaultPolicy(b, x.StoreBytes)))
	}
	return out, nil
}

// txnOps turns a run's changes into the transaction's operations, each swap compare-and-swap
// on the bytes the run was planned from.
func txnOps(cs []change) []txn.Op {
	ops := make([]txn.Op, 0, len(cs))
	for _, c := range cs {
		op := txn.Op{Path: c.Path}
		switch c.Kind {
		case gate.Rewrite:
			op.Kind, op.Data, op.Expect = txn.Replace, c.Result, fsx.SHA256(c.Orig)
		case gate.Delete:
			op.Kind, op.Expect = txn.Delete, fsx.SHA256(c.Orig)
		case gate.Create:
			op.Kind, op.Data, op.Mode = txn.Create, c.Result, 0o644
		}
		ops = append(ops, op)
	}
	return ops
}

// gateRun is the fidelity gate of a run, the same for its dry run and its apply: the changed
// files on disk (a fact may move to another file of the run, never vanish), then every
// platform's load before and after (an import removed, a truncation moved, a file deleted:
// whatever no longer reaches a platform's model is a drop). Any drop not approved at its place
// blocks the run before anything is written.
func (l *Lane) gateRun(x run) (*loadCheck, error) {
	disk := make([]gate.Change, len(x.Gate))
	for i, c := range x.Gate {
		c.Path = l.planPath(c.Path)
		c.Approved = nil
		disk[i] = c
	}
	drops, approved := x.Approved.settle(disk, gate.CheckSet(disk, nil).Blocking())
	lc := &loadCheck{}
	if x.Reading != nil && len(x.Changes) > 0 {
		var err error
		if lc, err = l.checkLoads(x.Reading, x.Changes, x.Approved); err != nil {
			return nil, err
		}
		at := map[string]int{}
		for i, d := range drops {
			at[placeKey(d)] = i
		}
		for _, d := range lc.drops {
			if i, ok := at[placeKey(d)]; ok {
				// The same token lost on disk and from the loads: one drop, naming the
				// platforms that would lose it as the load gate found them.
				drops[i].Note = withLoss(drops[i].Note, d.Note)
				continue
			}
			drops = append(drops, d)
		}
	}
	lc.approved = append(lc.approved, approved...)
	sort.Strings(lc.approved)
	lc.approved = slices.Compact(lc.approved)
	if len(drops) > 0 {
		return lc, &BlockedError{Drops: drops}
	}
	return lc, nil
}

// bank writes the originals of every rewritten and deleted file to the run's bin.
func (l *Lane) bank(store *bins.Store, x run) (bins.Meta, error) {
	m := bins.Meta{Bin: x.Bin, At: l.now().UTC(), Reason: x.Reason}
	var data [][]byte
	for _, c := range x.Changes {
		if c.Kind == gate.Create {
			continue
		}
		it := bins.Item{Path: c.Path, Op: bins.OpRewrite, RemovedLines: c.RemovedLines, Tokens: c.Tokens, Cuts: c.Cuts}
		if c.Kind == gate.Delete {
			it.Op = bins.OpDelete
		} else {
			it.Result = fsx.SHA256(c.Result)
		}
		m.Items = append(m.Items, it)
		data = append(data, c.Orig)
	}
	if len(data) == 0 {
		return m, errors.New("bank cut: nothing to bank")
	}
	return store.Add(m, data)
}

// measuredOnly is why a file outside the lane's ownership is refused.
const measuredOnly = "measured only: not a Markdown memory file this project owns (user-level memory, settings, code or JSON reached through an import are never written; name a user-level memory file on a terminal to wash it)"

// mayWrite reports whether a change may be made: a rewrite or delete of a writable file, or
// the creation of a Markdown file in the project or the memory directory.
func (l *Lane) mayWrite(c change, writable map[string]bool) bool {
	if writable[c.Path] {
		return true
	}
	if c.Kind != gate.Create || !discover.MarkdownName(c.Path) {
		return false
	}
	if within(c.Path, l.p.Root) && c.Path != l.p.Root {
		return true
	}
	md, err := filepath.EvalSymlinks(discover.MemoryDir(l.discoverOptions(nil)))
	return err == nil && within(c.Path, md) && c.Path != md
}

// rootsFor returns the trusted roots outside the project that the changes need, refusing a
// change that lies in none of them.
func (l *Lane) rootsFor(cs []change) ([]string, error) {
	trusted := l.TrustedRoots()
	var roots []string
	for _, c := range cs {
		if within(c.Path, l.p.Root) && c.Path != l.p.Root {
			continue
		}
		found := ""
		for _, r := range trusted {
			if within(c.Path, r) && c.Path != r {
				found = r
				break
			}
		}
		if found == "" {
			return nil, &RefusedError{Path: l.rel(c.Path), Reason: "outside the project and the platforms' config directories"}
		}
		if !contains(roots, found) {
			roots = append(roots, found)
		}
	}
	return roots, nil
}

func contains(xs []string, s string) bool {
	for _, x := range xs {
		if x == s {
			return true
		}
	}
	return false
}

// changedOr turns a transaction's conflict into a ChangedError naming the file.
func changedOr(l *Lane, err error) error {
	var ab *txn.AbortedError
	if errors.As(err, &ab) && errors.Is(err, fsx.ErrConflict) {
		return &ChangedError{Path: l.rel(ab.Path)}
	}
	return err
}

// removedLines counts the original's non-blank lines missing from the result (a multiset
// difference): what a bin item's "lines cut" figure means.
func removedLines(orig, result []byte) int {
	have := map[string]int{}
	for _, ln := range strings.Split(string(result), "\n") {
		have[strings.TrimRight(ln, " \t\r")]++
	}
	n := 0
	for _, ln := range strings.Split(string(orig), "\n") {
		k := strings.TrimRight(ln, " \t\r")
		if k == "" {
			continue
		}
		if have[k] > 0 {
			have[k]--
			continue
		}
		n++
	}
	return n
}

// cutKinds lists distinct kinds, sorted.
func cutKinds(kinds []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, k := range kinds {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// pinned reports whether a file's front matter forbids touching it: a pin, or a head that
// cannot be read with certainty.
func pinned(content []byte) (bool, string) {
	return frontmatter.Parse(content).Refuse()
}

// writePrivate replaces a private state file durably (0600, fsynced).
func writePrivate(path string, b []byte) error {
	if err := state.MkdirPrivate(filepath.Dir(path)); err != nil {
		return err
	}
	return state.WriteFile(path, b)
}

// refusePending refuses a writing command while an interrupted run waits for recovery: the
// files may be half-installed, and planning over them would bake that in.
func (l *Lane) refusePending() error {
	stateDir, err := l.stateDir()
	if err != nil {
		return err
	}
	runs, err := txn.Pending(stateDir)
	if err != nil {
		return err
	}
	var ids []string
	for _, r := range runs {
		if !r.Live {
			ids = append(ids, r.RunID)
		}
	}
	if len(ids) > 0 {
		return &txn.PendingError{RunIDs: ids}
	}
	return nil
}
