package lane

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/wash/bins"
	"github.com/prosewash/prosewash/internal/engine/wash/discover"
	"github.com/prosewash/prosewash/internal/engine/wash/gate"
	"github.com/prosewash/prosewash/internal/engine/wash/gauge"
	"github.com/prosewash/prosewash/internal/engine/wash/judge"
)

// PlanVersion is the only plan schema version this build applies (internal/engine/wash/PLAN.md).
const PlanVersion = 1

// Action types of a semantic plan.
const (
	ActDelete  = "delete"  // remove a file whose facts live elsewhere (or are approved to go)
	ActMerge   = "merge"   // fold sources into a target (created or rewritten); sources are deleted
	ActShrink  = "shrink"  // reword a file shorter, every fact verbatim
	ActRewrite = "rewrite" // any other rewrite of one file
)

// Plan is an adjudicated semantic plan (see internal/engine/wash/PLAN.md).
type Plan struct {
	Version int `json:"version"`
	// Judge names who produced the flags: "local:<provider>/<model>" for the local model
	// provider, anything else (e.g. "agent:claude-code", "remote:...") is an outside judge.
	Judge         string   `json:"judge"`
	MadeAt        string   `json:"made_at,omitempty"`
	ApprovedDrops []string `json:"approvedDrops,omitempty"`
	Actions       []Action `json:"actions"`
	Keeps         []Keep   `json:"keeps,omitempty"`
}

// Action is one adjudicated change.
type Action struct {
	Type   string `json:"type"`
	Path   string `json:"path"`
	Expect string `json:"expect,omitempty"` // sha256 (hex) of the file as the judge read it
	// Content or ContentFile (relative to the plan file) is the new text of a rewrite,
	// shrink or merge.
	Content     *string  `json:"content,omitempty"`
	ContentFile string   `json:"contentFile,omitempty"`
	Sources     []Source `json:"sources,omitempty"`
	Reason      string   `json:"reason"`

	content []byte // loaded content
}

// Source is one file a merge absorbs (and deletes).
type Source struct {
	Path   string `json:"path"`
	Expect string `json:"expect"`
}

// ParsePlan decodes and checks the shape of a plan; ContentFile is read relative to baseDir.
// Unknown fields are refused: a typo must not silently drop an approval or a source.
func ParsePlan(b []byte, baseDir string) (Plan, error) {
	var p Plan
	// A byte order mark an editor put before a hand-edited plan is not
	// part of it.
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return p, fmt.Errorf("plan: %w", err)
	}
	if dec.More() {
		return p, errors.New("plan: trailing data after the JSON object")
	}
	if p.Version != PlanVersion {
		return p, fmt.Errorf("plan: version %d is not supported (want %d)", p.Version, PlanVersion)
	}
	if len(p.Actions) == 0 {
		return p, errors.New("plan: no actions")
	}
	for i := range p.Actions {
		a := &p.Actions[i]
		where := fmt.Sprintf("plan: action %d (%s %s)", i+1, a.Type, a.Path)
		switch a.Type {
		case ActDelete, ActMerge, ActShrink, ActRewrite:
		default:
			return p, fmt.Errorf("plan: action %d: unknown type %q", i+1, a.Type)
		}
		if a.Path == "" {
			return p, fmt.Errorf("%s: no path", where)
		}
		if strings.TrimSpace(a.Reason) == "" {
			return p, fmt.Errorf("%s: every action needs a reason", where)
		}
		if (a.Type == ActMerge) != (len(a.Sources) > 0) {
			return p, fmt.Errorf("%s: sources belong to merges, and a merge needs at least one", where)
		}
		switch {
		case a.Type == ActDelete:
			if a.Content != nil || a.ContentFile != "" {
				return p, fmt.Errorf("%s: a delete has no content", where)
			}
		case a.Content != nil && a.ContentFile != "":
			return p, fmt.Errorf("%s: give content or contentFile, not both", where)
		case a.Content != nil:
			a.content = []byte(*a.Content)
		case a.ContentFile != "":
			cf := a.ContentFile
			if !filepath.IsAbs(cf) {
				cf = filepath.Join(baseDir, cf)
			}
			c, _, err := fsx.ReadFile(cf, MaxReadBytes)
			if err != nil {
				return p, fmt.Errorf("%s: contentFile: %w", where, err)
			}
			a.content = c
		default:
			return p, fmt.Errorf("%s: no content", where)
		}
		if a.Type != ActDelete {
			if err := gate.CheckText(a.content); err != nil {
				return p, fmt.Errorf("%s: content: %w", where, err)
			}
		}
	}
	for _, d := range p.ApprovedDrops {
		if _, _, _, ok := parsePlaceKey(d); !ok {
			return p, fmt.Errorf("plan: approved drop %q names no place: approve a token where it is lost, as type:value@FILE:LINE (the refusal prints each one so), never a value across the plan", d)
		}
	}
	for i, k := range p.Keeps {
		if k.Target == "" || strings.TrimSpace(k.Reason) == "" {
			return p, fmt.Errorf("plan: keep %d needs a target and a reason", i+1)
		}
		if (k.Anchor == "") != (k.AnchorFile == "") {
			return p, fmt.Errorf("plan: keep %d: anchor and anchorFile go together", i+1)
		}
	}
	return p, nil
}

// LocalJudge reports whether a plan's judge is the local model provider.
func LocalJudge(judge string) bool {
	return judge == "local" || strings.HasPrefix(judge, "local:")
}

// PlanOptions configure ApplyPlan.
type PlanOptions struct {
	DryRun bool
}

// ActionView reports one action without content.
type ActionView struct {
	Type         string `json:"type"`
	Path         string `json:"path"`
	Reason       string `json:"reason"`
	Created      bool   `json:"created,omitempty"`
	TokensBefore int    `json:"tokens_before"`
	TokensAfter  int    `json:"tokens_after"`
}

// PlanResult is what ApplyPlan checked and did.
type PlanResult struct {
	DryRun   bool         `json:"dry_run"`
	Judge    string       `json:"judge"`
	Actions  []ActionView `json:"actions"`
	Approved []string     `json:"approved_drops,omitempty"` // drops the plan's approvals let through
	// Before and After are the headline platform's load; Platforms every platform's;
	// Unloaded the files a platform no longer loads after the plan.
	Platform  string          `json:"platform,omitempty"`
	Before    int             `json:"before"`
	After     int             `json:"after"`
	Platforms []PlatformDelta `json:"platforms,omitempty"`
	Unloaded  []string        `json:"unloaded,omitempty"`
	Receipt   string          `json:"receipt"`
	Event     string          `json:"event,omitempty"`
	Band      gauge.Level     `json:"band,omitempty"`
	Keeps     int             `json:"keeps_recorded"`
	Warnings  []string        `json:"warnings,omitempty"`
}

// LocalOnlyError refuses a plan from an outside judge under [wash] local_only.
type LocalOnlyError struct{ Judge string }

func (e *LocalOnlyError) Error() string {
	j := e.Judge
	if j == "" {
		j = "(none named)"
	}
	return fmt.Sprintf("[wash] local_only is set and the plan's judge %s is not local; nothing was written", j)
}

// ApplyPlan applies an adjudicated semantic plan: every path must be an owned memory file
// (a merge may create a new .md file in the project or the memory directory), every file the
// plan reads must still hash to its expect value, pinned files refuse the whole plan, anchored
// keeps must survive, and the whole change set passes the gate with the plan's approvals
// before one transaction applies it with every original banked in the plan bin.
func (l *Lane) ApplyPlan(p Plan, o PlanOptions) (PlanResult, error) {
	res := PlanResult{DryRun: o.DryRun, Judge: p.Judge}
	if err := l.refusePending(); err != nil {
		return res, err
	}
	w, err := l.config()
	if err != nil {
		return res, err
	}
	if w.LocalOnly && !LocalJudge(p.Judge) {
		return res, &LocalOnlyError{Judge: p.Judge}
	}
	stateDir, err := l.stateDir()
	if err != nil {
		return res, err
	}
	keeps, err := loadKeeps(stateDir)
	if err != nil {
		return res, err
	}
	r, err := l.measure(nil, false, false, nil)
	if err != nil {
		return res, err
	}
	res.Before = r.rep.Measurement.Footprint
	owned := r.writable()
	x := run{Bin: bins.Plan, StoreBytes: r.storeBytes(), Approved: approvals{place: map[string]bool{}}, Writable: owned, Reading: r}
	for _, d := range p.ApprovedDrops {
		x.Approved.place[d] = true
	}
	pb := &planBuilder{l: l, r: r, owned: owned, x: &x, touched: map[string]bool{}, post: map[string][]byte{}}
	pb.memDir, _ = filepath.EvalSymlinks(discover.MemoryDir(l.discoverOptions(nil)))
	for i, a := range p.Actions {
		view, err := pb.action(i, a)
		if err != nil {
			return res, err
		}
		res.Actions = append(res.Actions, view)
	}
	touched, post := pb.touched, pb.post
	// Every other owned file is context: a fact of a deleted file may already live there.
	var ctx []string
	for real := range owned {
		if !touched[real] {
			if _, ok := r.content[real]; ok {
				ctx = append(ctx, real)
			}
		}
	}
	sort.Strings(ctx)
	for _, real := range ctx {
		c := r.content[real]
		x.Gate = append(x.Gate, gate.Change{Path: real, Kind: gate.Rewrite, Orig: c, Result: c})
		post[real] = c
	}
	if err := l.checkKeeps(append(keeps.Keeps, p.Keeps...), touched, post); err != nil {
		return res, err
	}
	x.Reason = fmt.Sprintf("plan by %s: %d action(s)", orUnnamed(p.Judge), len(p.Actions))
	if o.DryRun {
		for _, c := range x.Changes {
			if c.Kind != gate.Create {
				if err := l.pinCheck(c); err != nil {
					return res, err
				}
			}
		}
		// The dry run gates exactly as the apply does, and its receipt comes from the same
		// loads: what it says is what the apply will do.
		lc, err := l.gateRun(x)
		res.figures(l, r, lc)
		res.Receipt = ReceiptLine(res.Before, res.After, true)
		return res, err
	}
	out, err := l.execute(x)
	res.figures(l, r, out.Loads)
	if err != nil {
		return res, err
	}
	if out.Event != nil {
		res.Event = out.Event.ID
	}
	st := LoadState(stateDir)
	cfg := BandConfig(w)
	if after, err := l.measure(nil, true, false, nil); err == nil {
		v, next := gauge.Band(st.Band, after.rep.Measurement, cfg)
		record(&st, v, next, knownOf(after.rep), l.now().UTC(), "plan", cfg.RegaugeDeltaTokens)
		st.StoreBytes = after.storeBytes()
		st.Cache = nil
		res.Band = v.Band
	}
	res.Receipt = ReceiptLine(res.Before, res.After, false)
	st.Receipt = &Receipt{At: l.now().UTC(), Kind: "plan", Before: res.Before, After: res.After, Line: res.Receipt, Event: res.Event}
	st.UpdatedAt = l.now().UTC()
	if err := saveState(stateDir, st); err != nil {
		res.Warnings = append(res.Warnings, err.Error())
	}
	n, err := recordPlan(stateDir, keeps, p, res, l.now())
	res.Keeps = n
	if err != nil {
		res.Warnings = append(res.Warnings, "the plan was applied but keeps.json could not be updated: "+err.Error())
	}
	return res, nil
}

// planBuilder turns a plan's actions into the run's changes and gate changes, refusing a path
// named twice, a file the lane does not own and a file changed since the judge read it.
type planBuilder struct {
	l       *Lane
	r       *reading
	owned   map[string]bool
	x       *run
	memDir  string
	touched map[string]bool
	post    map[string][]byte // real path -> content after the plan (nil: deleted)
}

// take resolves a plan path and refuses one named twice.
func (b *planBuilder) take(path, why string) (string, error) {
	real, err := b.l.resolvePlanPath(path)
	if err != nil {
		return "", fmt.Errorf("plan: %s: %w", why, err)
	}
	if b.touched[real] {
		return "", fmt.Errorf("plan: %s: %s is named twice", why, b.l.rel(real))
	}
	b.touched[real] = true
	return real, nil
}

// readOwned returns an owned file's bytes as read, if they still hash to expect.
func (b *planBuilder) readOwned(real, expect, why string) ([]byte, error) {
	l := b.l
	if !b.owned[real] {
		if e, ok := b.r.entry[real]; ok && e.Inherited {
			return nil, &RefusedError{Path: l.rel(real), Reason: "inherited from above the project: never touched"}
		} else if ok {
			return nil, &RefusedError{Path: l.rel(real), Reason: measuredOnly}
		}
		return nil, &RefusedError{Path: l.rel(real), Reason: "not a memory file this project owns (not discovered)"}
	}
	want, err := parseExpect(expect)
	if err != nil {
		return nil, fmt.Errorf("plan: %s: %w", why, err)
	}
	cur, ok := b.r.content[real]
	if !ok {
		return nil, &RefusedError{Path: l.rel(real), Reason: "unreadable"}
	}
	if !want.matches(fsx.SHA256(cur)) {
		return nil, &ChangedError{Path: l.rel(real)}
	}
	return cur, nil
}

// remove records a file the plan deletes (a delete, or a merge source).
func (b *planBuilder) remove(real string, orig []byte, cut string) {
	b.x.Changes = append(b.x.Changes, change{Path: real, Kind: gate.Delete, Orig: orig, Cuts: []string{cut}, Tokens: gauge.Estimate(orig)})
	b.x.Gate = append(b.x.Gate, gate.Change{Path: real, Kind: gate.Delete, Orig: orig})
	b.post[real] = nil
}

// rewrite records a file the plan rewrites (srcs make it a merge target).
func (b *planBuilder) rewrite(real string, orig, result []byte, cut string, srcs []gate.Source) {
	b.x.Changes = append(b.x.Changes, change{Path: real, Kind: gate.Rewrite, Orig: orig, Result: result, Cuts: []string{cut},
		RemovedLines: removedLines(orig, result), Tokens: gauge.Estimate(orig) - gauge.Estimate(result)})
	b.x.Gate = append(b.x.Gate, gate.Change{Path: real, Kind: gate.Rewrite, Orig: orig, Sources: srcs, Result: result})
	b.post[real] = result
}

// action adds one action's changes and returns its view.
func (b *planBuilder) action(i int, a Action) (ActionView, error) {
	why := fmt.Sprintf("action %d", i+1)
	real, err := b.take(a.Path, why)
	if err != nil {
		return ActionView{}, err
	}
	view := ActionView{Type: a.Type, Path: b.l.rel(real), Reason: a.Reason}
	if a.Type == ActMerge {
		return b.merge(i, a, real, view)
	}
	orig, err := b.readOwned(real, a.Expect, why)
	if err != nil {
		return view, err
	}
	view.TokensBefore = gauge.Estimate(orig)
	if a.Type == ActDelete {
		b.remove(real, orig, ActDelete)
		return view, nil
	}
	b.rewrite(real, orig, a.content, a.Type, nil)
	view.TokensAfter = gauge.Estimate(a.content)
	return view, nil
}

// merge adds a merge: every source deleted, the target rewritten or created (only a .md file
// in the project or the memory directory), checked against the union of its sources.
func (b *planBuilder) merge(i int, a Action, real string, view ActionView) (ActionView, error) {
	l := b.l
	var srcs []gate.Source
	for j, s := range a.Sources {
		swhy := fmt.Sprintf("action %d source %d", i+1, j+1)
		sreal, err := b.take(s.Path, swhy)
		if err != nil {
			return view, err
		}
		sb, err := b.readOwned(sreal, s.Expect, swhy)
		if err != nil {
			return view, err
		}
		srcs = append(srcs, gate.Source{Path: sreal, Content: sb})
		b.remove(sreal, sb, "merged-away")
		view.TokensBefore += gauge.Estimate(sb)
	}
	view.TokensAfter = gauge.Estimate(a.content)
	if _, err := os.Lstat(real); !errors.Is(err, os.ErrNotExist) {
		orig, err := b.readOwned(real, a.Expect, fmt.Sprintf("action %d", i+1))
		if err != nil {
			return view, err
		}
		view.TokensBefore += gauge.Estimate(orig)
		b.rewrite(real, orig, a.content, ActMerge, srcs)
		return view, nil
	}
	if a.Expect != "" {
		return view, &ChangedError{Path: l.rel(real)}
	}
	if !strings.HasSuffix(real, ".md") || !(within(real, l.p.Root) || (b.memDir != "" && within(real, b.memDir))) {
		return view, &RefusedError{Path: l.rel(real), Reason: "a merge may only create a .md file in the project or the memory directory"}
	}
	view.Created = true
	b.x.Changes = append(b.x.Changes, change{Path: real, Kind: gate.Create, Result: a.content})
	b.x.Gate = append(b.x.Gate, gate.Change{Path: real, Kind: gate.Create, Sources: srcs, Result: a.content})
	b.post[real] = a.content
	return view, nil
}

// figures sets the plan's figures from the gate's loads (the dry run's and the apply's
// alike): the headline platform's load before and after, every platform's, the files no
// longer loaded, and the approvals the gate used.
func (res *PlanResult) figures(l *Lane, r *reading, lc *loadCheck) {
	res.Platform = r.rep.Measurement.Platform
	res.After = res.Before
	if lc == nil {
		return
	}
	res.Approved = lc.approved
	if lc.before == nil {
		return
	}
	res.Platforms, res.Unloaded = lc.deltas(), lc.unloaded(l)
	for _, p := range res.Platforms {
		if p.Platform == res.Platform {
			res.Before, res.After = p.Before, p.After
		}
	}
}

func orUnnamed(s string) string {
	if s == "" {
		return "an unnamed judge"
	}
	return s
}

// pinCheck refuses a change to a pinned or unverifiable file.
func (l *Lane) pinCheck(c change) error {
	if refused, why := pinned(c.Orig); refused {
		return &RefusedError{Path: l.rel(c.Path), Reason: why}
	}
	return nil
}

// MemoryPrefix starts a plan path inside the project's Claude Code memory directory
// ("memory:notes.md"), so a plan does not depend on where that directory is.
const MemoryPrefix = "memory:"

// resolvePlanPath resolves a plan path: "memory:" is the Claude memory directory, "~/" the
// home, a relative path is the project's. The result is real for an existing file, and
// real-parented for a file to create.
func (l *Lane) resolvePlanPath(p string) (string, error) {
	switch {
	case strings.HasPrefix(p, MemoryPrefix):
		rel := filepath.FromSlash(strings.TrimPrefix(p, MemoryPrefix))
		if !filepath.IsLocal(rel) {
			return "", fmt.Errorf("%s: must name a file inside the memory directory", p)
		}
		p = filepath.Join(discover.MemoryDir(l.discoverOptions(nil)), rel)
	case strings.HasPrefix(p, "~/"):
		p = filepath.Join(l.home, p[2:])
	case !filepath.IsAbs(p):
		p = filepath.Join(l.p.Root, filepath.FromSlash(p))
	}
	p = filepath.Clean(p)
	if real, err := filepath.EvalSymlinks(p); err == nil {
		return real, nil
	}
	dir, err := filepath.EvalSymlinks(filepath.Dir(p))
	if err != nil {
		return "", fmt.Errorf("%s: %w", p, errors.Unwrap(err))
	}
	return filepath.Join(dir, filepath.Base(p)), nil
}

// expectPrefix is the shortest expect a plan may give: the first 16 hex digits (64 bits) of
// the sha256, which the brief prints. It says the file is the one the judge read; a file
// changed since has another hash, and a collision by chance is out of reach.
const expectPrefix = 16

// expectation is an expect hash: the whole sha256 or its first hex digits.
type expectation string

// matches reports a file whose sha256 is the expected one.
func (e expectation) matches(h fsx.Hash) bool { return strings.HasPrefix(h.String(), string(e)) }

// parseExpect reads an expect hash ("sha256:" prefix optional): the whole sha256 or at least
// its first 16 hex digits; it is required.
func parseExpect(s string) (expectation, error) {
	s = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(s), "sha256:"))
	if s == "" {
		return "", errors.New("no expect hash: the plan must name the sha256 of every file it changes as the judge read it")
	}
	if len(s) < expectPrefix || len(s) > 64 || strings.Trim(s, "0123456789abcdef") != "" {
		return "", fmt.Errorf("expect %q is not a sha256 or its first %d hex digits", s, expectPrefix)
	}
	return expectation(s), nil
}

// keepsFile is keeps.json: the adjudicated keeps and a record of applied plans.
type keepsFile struct {
	V       int       `json:"v"`
	Keeps   []Keep    `json:"keeps"`
	Applied []Applied `json:"applied,omitempty"`
}

// Keep is an adjudicated "this stays": a flag rejected with a concrete reason. With Anchor and
// AnchorFile it binds: a plan touching AnchorFile must leave Anchor in some file.
type Keep struct {
	Target     string `json:"target"`
	Reason     string `json:"reason"`
	Date       string `json:"date,omitempty"`
	Anchor     string `json:"anchor,omitempty"`
	AnchorFile string `json:"anchorFile,omitempty"`
}

// Applied records one applied plan (no content).
type Applied struct {
	At      time.Time    `json:"at"`
	Judge   string       `json:"judge"`
	Event   string       `json:"event,omitempty"`
	Receipt string       `json:"receipt"`
	Actions []ActionView `json:"actions"`
}

const keepsVersion = 1

func keepsPath(stateDir string) string { return filepath.Join(stateDir, "wash", "keeps.json") }

// loadKeeps reads keeps.json; a newer version refuses (writing it back would lose what this
// build cannot read).
func loadKeeps(stateDir string) (keepsFile, error) {
	k := keepsFile{V: keepsVersion}
	b, err := fsx.ReadRegular(keepsPath(stateDir), 0, false)
	if errors.Is(err, os.ErrNotExist) {
		return k, nil
	}
	if err != nil {
		return k, fmt.Errorf("keeps: %w", err)
	}
	if err := json.Unmarshal(b, &k); err != nil {
		return k, fmt.Errorf("keeps: %s is unreadable: %w", keepsPath(stateDir), err)
	}
	if k.V != keepsVersion {
		return k, fmt.Errorf("keeps: %s has version %d; this build writes %d and refuses to overwrite it", keepsPath(stateDir), k.V, keepsVersion)
	}
	return k, nil
}

// LoadKeeps returns the recorded keeps.
func LoadKeeps(stateDir string) ([]Keep, error) {
	k, err := loadKeeps(stateDir)
	return k.Keeps, err
}

// recordPlan upserts the plan's keeps (by target; a re-affirmed keep keeps its anchor) and
// appends the applied record.
func recordPlan(stateDir string, k keepsFile, p Plan, res PlanResult, now time.Time) (int, error) {
	date := now.UTC().Format("2006-01-02")
	for _, nk := range p.Keeps {
		if nk.Date == "" {
			nk.Date = date
		}
		found := false
		for i := range k.Keeps {
			if k.Keeps[i].Target == nk.Target {
				if nk.Anchor == "" {
					nk.Anchor, nk.AnchorFile = k.Keeps[i].Anchor, k.Keeps[i].AnchorFile
				}
				k.Keeps[i], found = nk, true
			}
		}
		if !found {
			k.Keeps = append(k.Keeps, nk)
		}
	}
	k.Applied = append(k.Applied, Applied{At: now.UTC(), Judge: p.Judge, Event: res.Event, Receipt: res.Receipt, Actions: res.Actions})
	b, err := json.MarshalIndent(k, "", "  ")
	if err != nil {
		return 0, err
	}
	if err := writePrivate(keepsPath(stateDir), b); err != nil {
		return 0, err
	}
	return len(p.Keeps), nil
}

// keptLines answers judge.Options.Kept from keeps.json: the lines a judge kept with the line
// itself as the anchor are settled, and stay out of the candidates until they change.
func keptLines(stateDir string) func(string) bool {
	ks, err := LoadKeeps(stateDir)
	if err != nil || len(ks) == 0 {
		return nil
	}
	set := map[string]bool{}
	for _, k := range ks {
		if k.Anchor != "" {
			set[judge.LineHash([]byte(k.Anchor))] = true
		}
	}
	return func(h string) bool { return set[h] }
}

// checkKeeps refuses a plan that touches an anchored keep's file and leaves its anchor in no
// file (whitespace-normalised substring over every file's post-plan content).
func (l *Lane) checkKeeps(keeps []Keep, touched map[string]bool, post map[string][]byte) error {
	for _, k := range keeps {
		if k.Anchor == "" {
			continue
		}
		af, err := l.resolvePlanPath(k.AnchorFile)
		if err != nil || !touched[af] {
			continue
		}
		want := normSpace(k.Anchor)
		ok := false
		for _, c := range post {
			if c != nil && strings.Contains(normSpace(string(c)), want) {
				ok = true
				break
			}
		}
		if !ok {
			return &RefusedError{Path: l.rel(af), Reason: fmt.Sprintf("keep %q (%s) would not survive the plan", k.Target, k.Reason)}
		}
	}
	return nil
}

func normSpace(s string) string { return strings.Join(strings.Fields(s), " ") }
