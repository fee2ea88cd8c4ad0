package lane

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/prosewash/prosewash/internal/engine/config"
	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/wash/discover"
	"github.com/prosewash/prosewash/internal/engine/wash/gate"
	"github.com/prosewash/prosewash/internal/engine/wash/gauge"
	"github.com/prosewash/prosewash/internal/engine/wash/judge"
	"github.com/prosewash/prosewash/internal/engine/wash/mdline"
	"github.com/prosewash/prosewash/internal/engine/wash/quick"
)

// BriefVersion versions the judging brief.
const BriefVersion = 1

// AdjudicationRules are the rules of the full pass, as the original states them: flag, then
// adjudicate every flag, then keep or cut with a reason; pinned files are never touched and
// recorded keeps bind the next judge.
func AdjudicationRules() []string {
	return []string{
		"Flag superseded facts, done dated entries, cross-file duplicates and over-verbose passages (the candidates below are a start);",
		"cut or keep each with a one-line reason, keep when unsure, ask the user what only they know.",
		"Never touch a PINNED or owned: false file; do not flag a kept line again without new evidence, and put every keep in the plan.",
		"Keep every link, date, version, number, quote, code span and front-matter key verbatim, or approve it where it goes: type:value@FILE:LINE in approvedDrops.",
	}
}

// BriefFile is one file of the brief.
type BriefFile struct {
	// Path is the file as a plan names it ("memory:…", a project-relative path, "~/…").
	Path         string   `json:"path"`
	Real         string   `json:"real"`
	SHA256       string   `json:"sha256"`
	Tokens       int      `json:"tokens"`
	Fat          int      `json:"fat"`
	AlwaysLoaded bool     `json:"always_loaded"`
	Owned        bool     `json:"owned"`
	Pinned       string   `json:"pinned,omitempty"` // why the file may not be touched
	Platforms    []string `json:"platforms,omitempty"`
	Kind         string   `json:"kind"`
	Scope        string   `json:"scope"`
	// Flags are Quick's findings (never acted on by a judge: `prosewash wash quick` cuts the
	// mechanical fat); Findings the judgement candidates.
	Flags    []quick.Flag    `json:"flags,omitempty"`
	Findings []judge.Finding `json:"findings,omitempty"`
	// Checks counts the gate's tokens per class ("link": 12): what the gate holds the plan
	// to; a refusal names each lost one at its place.
	Checks map[string]int `json:"checks,omitempty"`
}

// RecallFile is an owned note loaded on demand only.
type RecallFile struct {
	Path   string `json:"path"`
	Real   string `json:"real"`
	Tokens int    `json:"tokens"`
}

// Brief is what an outside judge works from.
type Brief struct {
	Version   int           `json:"version"`
	Project   string        `json:"project"`
	Platform  string        `json:"platform"`
	Verdict   gauge.Verdict `json:"verdict"`
	Source    *LoadSource   `json:"source,omitempty"`
	LocalOnly bool          `json:"local_only"`
	Rules     []string      `json:"rules"`
	Files     []BriefFile   `json:"files"`
	// Recall are the owned memory notes that are not always loaded: a plan may delete or
	// merge them, and the judge reads one (and hashes it for its expect) before it does.
	Recall []RecallFile `json:"recall,omitempty"`
	Keeps  []Keep       `json:"keeps"`
	// Plan is where the plan schema is documented and Apply the command that checks it.
	Plan  string `json:"plan_schema"`
	Apply string `json:"apply"`
}

// planPath names a file the way a plan does.
func (l *Lane) planPath(real string) string {
	if md, err := filepath.EvalSymlinks(discover.MemoryDir(l.discoverOptions(nil))); err == nil && within(real, md) && real != md {
		if r, err := filepath.Rel(md, real); err == nil {
			return MemoryPrefix + filepath.ToSlash(r)
		}
	}
	return l.rel(real)
}

// Brief prepares the judging brief: the always-loaded set with hashes, fat, Quick's flags,
// the judgement candidates and the gate's inventory; the owned recall-only notes by name; the
// recorded keeps; the rules. It writes nothing but the first-seen ledger.
func (l *Lane) Brief() (Brief, error) {
	w, err := l.config()
	if err != nil {
		return Brief{}, err
	}
	stateDir, err := l.stateDir()
	if err != nil {
		return Brief{}, err
	}
	keeps, err := LoadKeeps(stateDir)
	if err != nil {
		return Brief{}, err
	}
	r, err := l.measure(nil, true, false, nil)
	if err != nil {
		return Brief{}, err
	}
	st := LoadState(stateDir)
	m := r.rep.Measurement
	m.BriefTokens = briefCost(l.briefOf(r, gauge.Verdict{}, keeps, w, false))
	v, _ := gauge.Band(st.Band, m, BandConfig(w))
	return l.briefOf(r, v, keeps, w, true), nil
}

// briefOf builds the brief of a reading; withChecks inventories each file for the per-class
// counts (the cost estimate does without).
func (l *Lane) briefOf(r *reading, v gauge.Verdict, keeps []Keep, w config.Wash, withChecks bool) Brief {
	b := Brief{Version: BriefVersion, Project: l.p.Root, Platform: r.rep.Measurement.Platform, Verdict: v, Source: r.src, LocalOnly: w.LocalOnly,
		Rules: AdjudicationRules(), Keeps: keeps, Plan: "internal/engine/wash/PLAN.md (version 1)", Apply: "prosewash wash apply PLAN.json"}
	if b.Keeps == nil {
		b.Keeps = []Keep{}
	}
	flags := map[string][]quick.Flag{}
	for _, f := range r.rep.Plan.Flags {
		flags[f.Path] = append(flags[f.Path], f)
	}
	finds := map[string][]judge.Finding{}
	for _, f := range r.rep.Judge.Findings {
		finds[f.Path] = append(finds[f.Path], f)
	}
	for _, f := range r.rep.Files {
		if f.Inherited || !(f.Owned || f.AlwaysLoaded) {
			continue
		}
		if !f.AlwaysLoaded {
			b.Recall = append(b.Recall, RecallFile{Path: l.planPath(f.Real), Real: f.Real, Tokens: f.Tokens})
			continue
		}
		content, ok := r.content[f.Real]
		if !ok {
			continue // unreadable or streamed: listed by the gauge, never judged here
		}
		bf := BriefFile{Path: l.planPath(f.Real), Real: f.Real, SHA256: fsx.SHA256(content).String(), Tokens: f.Tokens, Fat: f.Fat,
			AlwaysLoaded: f.AlwaysLoaded, Owned: f.Owned, Platforms: f.Platforms, Kind: string(f.Kind), Scope: f.Scope, Flags: flags[f.Path]}
		if refused, why := pinned(content); refused {
			bf.Pinned = why
		}
		for _, fd := range finds[f.Path] {
			fd.Path = bf.Path
			if fd.Other != "" {
				fd.Other = l.renamePos(fd.Other, r)
			}
			bf.Findings = append(bf.Findings, fd)
		}
		if withChecks {
			bf.Checks = checks(content)
		}
		b.Files = append(b.Files, bf)
	}
	return b
}

// renamePos rewrites "lexical-path:line" to the plan's name of the file.
func (l *Lane) renamePos(pos string, r *reading) string {
	i := strings.LastIndexByte(pos, ':')
	if i < 0 {
		return pos
	}
	if real, ok := r.real[pos[:i]]; ok {
		return l.planPath(real) + pos[i:]
	}
	return pos
}

// Chat sends one system prompt and one user prompt to the local model and returns its reply.
// The lane never knows which provider answers; the command line passes the shipped Ollama
// provider's loopback client.
type Chat func(ctx context.Context, system, prompt string) (string, error)

// maxJudgeBytes bounds a file sent to the local model: a small model's context.
const maxJudgeBytes = 64 << 10

// JudgedFile reports what the local judge did with one file.
type JudgedFile struct {
	Path     string          `json:"path"`
	Cuts     []judge.Verdict `json:"cuts,omitempty"`
	Keeps    []judge.Verdict `json:"keeps,omitempty"`
	Declined []Declined      `json:"declined,omitempty"`
	Skipped  string          `json:"skipped,omitempty"`
}

// Declined is a cut the judge asked for that prosewash did not put in the plan.
type Declined struct {
	Line   int    `json:"line"`
	Reason string `json:"reason"`
}

// JudgeResult is the local judge's proposal: a plan (nil when nothing is cut), what it
// decided per file, and the gate's answer to the plan.
type JudgeResult struct {
	Judge  string       `json:"judge"`
	Plan   *Plan        `json:"plan,omitempty"`
	Files  []JudgedFile `json:"files"`
	Check  *PlanResult  `json:"check,omitempty"`
	Errors []string     `json:"errors,omitempty"`
}

// JudgeLocal runs the full pass with the local model as the judge: every owned, unpinned,
// always-loaded file with judgement candidates is sent (with the adjudication rules and its
// candidate lines) to chat, which answers a verdict per line. prosewash turns the cuts into a
// shrink action per file: only prose lines are cut (never a heading, code or front matter), a
// token lost by cutting a superseded line whose newer value stays is approved by name, and any
// other cut that would lose a token is declined and listed for a person. The plan is then
// checked by ApplyPlan in dry-run, through the same gate and checks as any plan; nothing is
// written here.
func (l *Lane) JudgeLocal(ctx context.Context, chat Chat, name string) (JudgeResult, error) {
	res := JudgeResult{Judge: "local:" + name}
	b, err := l.Brief()
	if err != nil {
		return res, err
	}
	plan := Plan{Version: PlanVersion, Judge: res.Judge, MadeAt: l.now().UTC().Format(time.RFC3339)}
	approved := map[string]bool{}
	for _, f := range b.Files {
		if !f.Owned || !f.AlwaysLoaded {
			continue
		}
		jf, failure := l.judgeFile(ctx, chat, f, &plan, approved)
		if failure != "" {
			res.Errors = append(res.Errors, failure)
		}
		res.Files = append(res.Files, jf)
	}
	for d := range approved {
		plan.ApprovedDrops = append(plan.ApprovedDrops, d)
	}
	sort.Strings(plan.ApprovedDrops)
	if len(plan.Actions) == 0 {
		return res, nil
	}
	res.Plan = &plan
	check, err := l.ApplyPlan(plan, PlanOptions{DryRun: true})
	res.Check = &check
	return res, err
}

// judgeSkip returns why a file is not sent to the local judge ("" when it is): pinned, no
// candidates, unreadable, too large for a local model, or changed since the brief hashed it.
func judgeSkip(f BriefFile, content []byte, rerr error) string {
	switch {
	case f.Pinned != "":
		return "pinned: " + f.Pinned
	case len(f.Findings) == 0:
		return "no judgement candidates"
	case rerr != nil:
		return "unreadable: " + rerr.Error()
	case len(content) > maxJudgeBytes:
		return fmt.Sprintf("%d bytes, over the %d a local model is given", len(content), maxJudgeBytes)
	case fsx.SHA256(content).String() != f.SHA256:
		return "changed while being judged"
	}
	return ""
}

// judgeCandidates returns the lines of a file the judge is asked about (its findings, not the
// measured-only ones) and, for each superseded one, where its newer value is.
func judgeCandidates(f BriefFile) ([]int, map[int]string) {
	var cands []int
	supersededBy := map[int]string{}
	for _, fd := range f.Findings {
		if fd.MeasuredOnly {
			continue
		}
		cands = append(cands, fd.Line)
		if fd.Kind == judge.Superseded {
			supersededBy[fd.Line] = fd.Other
		}
	}
	return cands, supersededBy
}

// judgeFile asks the local judge about one file and adds its shrink action, keeps and
// approvals to the plan. It returns what was decided and, when the judge failed or answered
// unusably, the error for the result.
func (l *Lane) judgeFile(ctx context.Context, chat Chat, f BriefFile, plan *Plan, approved map[string]bool) (JudgedFile, string) {
	jf := JudgedFile{Path: f.Path}
	content, rerr := read(f.Real)
	if jf.Skipped = judgeSkip(f, content, rerr); jf.Skipped != "" {
		return jf, ""
	}
	cands, supersededBy := judgeCandidates(f)
	reply, err := chat(ctx, judge.LocalInstruction, judge.LocalPrompt(f.Path, content, cands))
	if err != nil {
		jf.Skipped = "the local judge failed"
		return jf, fmt.Sprintf("%s: the local judge failed: %v", f.Path, err)
	}
	doc := mdline.Parse(content)
	verdicts, err := judge.ParseLocalReply(reply, len(doc.Lines))
	if err != nil {
		jf.Skipped = "unusable answer"
		return jf, fmt.Sprintf("%s: %v", f.Path, err)
	}
	cut := proseCuts(doc, verdicts, &jf)
	newContent, drops := l.settleCuts(content, doc, cut, supersededBy, f.Path, &jf)
	for _, d := range drops {
		approved[d] = true
	}
	for _, v := range verdicts {
		if _, ok := cut[v.Line]; ok {
			jf.Cuts = append(jf.Cuts, v)
		}
	}
	for _, k := range jf.Keeps {
		// The kept line is the anchor: it binds later plans and is not a candidate again.
		anchor := strings.TrimSpace(string(doc.Lines[k.Line-1].Text(content)))
		plan.Keeps = append(plan.Keeps, Keep{Target: fmt.Sprintf("%s:%d", f.Path, k.Line), Reason: k.Reason, Anchor: anchor, AnchorFile: f.Path})
	}
	if len(jf.Cuts) > 0 {
		reasons := make([]string, 0, len(jf.Cuts))
		for _, c := range jf.Cuts {
			reasons = append(reasons, fmt.Sprintf("line %d: %s", c.Line, c.Reason))
		}
		c := string(newContent)
		plan.Actions = append(plan.Actions, Action{Type: ActShrink, Path: f.Path, Expect: f.SHA256, Content: &c, content: newContent,
			Reason: oneLineReason("local judge cut " + strings.Join(reasons, "; "))})
	}
	return jf, ""
}

// proseCuts sorts the judge's verdicts: keeps go to jf, a cut of anything but a prose line (a
// heading, code, front matter) is declined, and the prose cuts are returned by line.
func proseCuts(doc *mdline.Doc, verdicts []judge.Verdict, jf *JudgedFile) map[int]judge.Verdict {
	cut := map[int]judge.Verdict{}
	for _, v := range verdicts {
		if v.Verdict == judge.Keep {
			jf.Keeps = append(jf.Keeps, v)
			continue
		}
		if k := doc.Lines[v.Line-1].Kind; k != mdline.Text && k != mdline.TableRow {
			jf.Declined = append(jf.Declined, Declined{Line: v.Line, Reason: "not a prose line (" + k.String() + "): never cut by a judge"})
			continue
		}
		cut[v.Line] = v
	}
	return cut
}

// settleCuts removes the cut lines and settles every token the cuts would lose: a token on a
// superseded line whose newer value stays in the load is approved by name; any other loss
// puts the lines carrying that token back and declines their cuts. It returns the new content
// and the approvals.
func (l *Lane) settleCuts(content []byte, doc *mdline.Doc, cut map[int]judge.Verdict, supersededBy map[int]string, path string, jf *JudgedFile) ([]byte, []string) {
	// A superseded line's value may go only while the line holding the newer value stays.
	newerStays := func(n int) bool {
		other, ok := supersededBy[n]
		if !ok {
			return false
		}
		i := strings.LastIndexByte(other, ':')
		if i < 0 || other[:i] != path {
			return true // in another file, which this plan does not touch
		}
		var m int
		if _, err := fmt.Sscanf(other[i+1:], "%d", &m); err != nil {
			return false
		}
		_, gone := cut[m]
		return !gone
	}
	var approvals []string
	for range len(cut) + 1 {
		next := removeLines(content, doc, cut)
		drops := gate.Check(content, next)
		approve := map[string]bool{}
		for _, a := range approvals {
			approve[a] = true
		}
		var blocking []gate.Drop
		for _, d := range drops {
			if !approve[fmt.Sprintf("%s@%s:%d", d.Key(), path, d.Line)] {
				blocking = append(blocking, d)
			}
		}
		if len(blocking) == 0 {
			return next, approvals
		}
		changed := false
		for _, d := range blocking {
			carriers := linesCarrying(content, doc, cut, d.Token)
			ok := len(carriers) > 0
			for _, n := range carriers {
				if !newerStays(n) {
					ok = false
				}
			}
			if ok {
				approvals = append(approvals, fmt.Sprintf("%s@%s:%d", d.Key(), path, d.Line))
				changed = true
				continue
			}
			for _, n := range carriers {
				jf.Declined = append(jf.Declined, Declined{Line: n, Reason: "would lose " + d.Key() + ": not a superseded value, a person must approve it"})
				delete(cut, n)
				changed = true
			}
			if len(carriers) == 0 {
				// The loss is not on one line (a value trading places, a count): decline
				// everything rather than guess.
				for n := range cut {
					jf.Declined = append(jf.Declined, Declined{Line: n, Reason: "the cuts together would lose " + d.Key()})
					delete(cut, n)
				}
				changed = true
			}
		}
		if !changed {
			break
		}
	}
	return removeLines(content, doc, cut), approvals
}

// linesCarrying returns the cut lines whose own inventory holds t.
func linesCarrying(content []byte, doc *mdline.Doc, cut map[int]judge.Verdict, t gate.Token) []int {
	var out []int
	for n := range cut {
		line := doc.Lines[n-1].Text(content)
		if gate.Inventory(line).Count(t) > 0 {
			out = append(out, n)
		}
	}
	sort.Ints(out)
	return out
}

// removeLines drops the cut lines (with their terminators) from content.
func removeLines(content []byte, doc *mdline.Doc, cut map[int]judge.Verdict) []byte {
	var b bytes.Buffer
	for i, ln := range doc.Lines {
		if _, ok := cut[i+1]; ok {
			continue
		}
		b.Write(content[ln.Start : ln.End+ln.TermLen])
	}
	return b.Bytes()
}

// oneLineReason bounds an action's reason.
func oneLineReason(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 600 {
		s = s[:600] + "…"
	}
	return s
}
