package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"strings"
	"time"

	"github.com/prosewash/prosewash/internal/engine/wash/gate"
	"github.com/prosewash/prosewash/internal/engine/wash/gauge"
	"github.com/prosewash/prosewash/internal/engine/wash/judge"
	"github.com/prosewash/prosewash/internal/engine/wash/lane"
	"github.com/prosewash/prosewash/internal/engine/wash/mdline"
)

// judged is one simulated full pass.
type judged struct {
	cut, refused, cost int
}

// judge is the simulated outside judge of a full pass, adjudicating as the rules say: it reads
// the brief, cuts the older value of every superseded fact, every point-in-time entry the
// brief calls stale, and every rule restated at length (its command and number stay in the
// rule), approving by name each token it means to drop; every other candidate it keeps, with
// the line as the anchor of a recorded keep. It is realistic, not perfect: in a share of the
// passes (mistakes) it also cuts a live rule, without approving its tokens; the gate then
// refuses the plan naming them, and the judge puts the line back and applies again, as an
// agent would in the same turn.
func (a *arm) judge(r *rand.Rand, mistakes float64) (judged, error) {
	var out judged
	b, err := a.lane.Brief()
	if err != nil {
		return out, err
	}
	out.cost += readingCost(b)
	plan := lane.Plan{Version: lane.PlanVersion, Judge: "agent:wash-sim", MadeAt: time.Now().UTC().Format(time.RFC3339)}
	mistake := r.Float64() < mistakes
	files, keeps, err := intendedCuts(b)
	if err != nil {
		return out, err
	}
	plan.Keeps = append(plan.Keeps, keeps...)
	if mistake {
		mistakeOneRule(files, anchoredLines(b), approvedByIntended(files))
	}
	n := 0
	for _, fc := range files {
		n += len(fc.intended) + len(fc.mistaken)
	}
	if n == 0 {
		return out, nil
	}
	for range 3 {
		p, cost, err := buildPlan(plan, files)
		out.cost += cost
		if err != nil {
			return out, err
		}
		res, err := a.lane.ApplyPlan(p, lane.PlanOptions{})
		var blocked *lane.BlockedError
		if errors.As(err, &blocked) {
			// The refusal names the tokens: the judge puts back the lines that carried them.
			out.refused++
			out.cost += gauge.Estimate([]byte(err.Error()))
			for i := range files {
				files[i].mistaken = map[int]bool{}
			}
			continue
		}
		if err != nil {
			return out, err
		}
		out.cut += res.Before - res.After
		return out, nil
	}
	return out, errors.New("the judge could not get a plan through the gate")
}

// fileCut is what the judge does to one file, by line number.
type fileCut struct {
	path     string
	orig     []byte
	intended map[int]bool
	mistaken map[int]bool
	keep     map[int]bool
}

// readingCost is what the judge reads: the whole brief and every
// always-loaded file it judges.
func readingCost(b lane.Brief) int {
	bb, _ := json.Marshal(b)
	cost := gauge.Estimate(bb)
	for _, f := range b.Files {
		if f.AlwaysLoaded {
			cost += f.Tokens
		}
	}
	return cost
}

// anchoredLines are the lines a recorded keep binds: a judge honours them.
func anchoredLines(b lane.Brief) map[string]bool {
	anchored := map[string]bool{}
	for _, k := range b.Keeps {
		anchored[strings.TrimSpace(k.Anchor)] = true
	}
	return anchored
}

// intendedCuts reads every owned, always-loaded, unpinned file of the
// brief for the cuts the rules call for, and keeps every other candidate
// with its line as the anchor. A file is listed when it has a cut or is a
// CLAUDE.md (where a mistake may be made).
func intendedCuts(b lane.Brief) ([]fileCut, []lane.Keep, error) {
	var files []fileCut
	var keeps []lane.Keep
	for _, f := range b.Files {
		if !f.Owned || !f.AlwaysLoaded || f.Pinned != "" {
			continue
		}
		orig, err := os.ReadFile(f.Real)
		if err != nil {
			return nil, nil, err
		}
		fc, ks := judgeFile(f, orig)
		keeps = append(keeps, ks...)
		if len(fc.intended) > 0 || strings.HasSuffix(f.Path, "CLAUDE.md") {
			files = append(files, fc)
		}
	}
	return files, keeps, nil
}

// judgeFile cuts the older value of every superseded fact, every finished
// point-in-time entry and every rule restated at length in one file, and
// keeps every other candidate: it still guides work, and its anchor stops
// the next pass asking again.
func judgeFile(f lane.BriefFile, orig []byte) (fileCut, []lane.Keep) {
	fc := fileCut{path: f.Path, orig: orig, intended: map[int]bool{}, mistaken: map[int]bool{}, keep: map[int]bool{}}
	lines := mdline.Parse(orig).Lines
	for _, fd := range f.Findings {
		if fd.MeasuredOnly || fd.Line > len(lines) {
			continue
		}
		text := string(lines[fd.Line-1].Text(orig))
		switch {
		case fd.Kind == judge.Superseded:
			fc.intended[fd.Line] = true // the older value of a fact stated again
		case fd.Kind == judge.StaleDated && (strings.Contains(text, "finished") || strings.Contains(text, "nothing is left")):
			fc.intended[fd.Line] = true // a finished event
		}
	}
	for i, l := range lines {
		if strings.HasPrefix(string(l.Text(orig)), "- Remember, and this matters a lot") {
			fc.intended[i+1] = true
		}
	}
	var keeps []lane.Keep
	for _, fd := range f.Findings {
		if fd.MeasuredOnly || fd.Line > len(lines) || fc.intended[fd.Line] {
			continue
		}
		fc.keep[fd.Line] = true
		keeps = append(keeps, lane.Keep{Target: fmt.Sprintf("%s:%d", f.Path, fd.Line), Reason: "still guides work",
			Anchor: strings.TrimSpace(string(lines[fd.Line-1].Text(orig))), AnchorFile: f.Path})
	}
	return fc, keeps
}

// approvedByIntended is every "type:value" key the intended cuts drop. An
// approval is a key for the whole plan: the mistake is a rule none of whose
// tokens these approve, so only the gate stands between it and a loss.
func approvedByIntended(files []fileCut) map[string]bool {
	approved := map[string]bool{}
	for _, fc := range files {
		kept, _ := fc.texts()
		for _, d := range gate.Check(fc.orig, kept) {
			approved[d.Key()] = true
		}
	}
	return approved
}

// mistakeOneRule marks, in the first CLAUDE.md that has one, a live rule
// stated once whose commands no intended cut approves: cutting it loses a
// fact, which the gate must refuse.
func mistakeOneRule(files []fileCut, anchored, approved map[string]bool) {
	for k := range files {
		fc := &files[k]
		if !strings.HasSuffix(fc.path, "CLAUDE.md") {
			continue
		}
		for i, l := range mdline.Parse(fc.orig).Lines {
			text := l.Text(fc.orig)
			if !strings.HasPrefix(string(text), "- Rule ") || fc.intended[i+1] || fc.keep[i+1] || anchored[strings.TrimSpace(string(text))] {
				continue
			}
			free := bytes.Count(fc.orig, append(append([]byte{}, text...), '\n')) == 1
			for _, tc := range gate.Inventory(text).Tokens() {
				if tc.Type == gate.TypeCode {
					free = free && !approved[tc.Key()]
				}
			}
			if free {
				fc.mistaken[i+1] = true
				return
			}
		}
	}
}

// texts is the file without its intended cuts, and without its intended
// and mistaken cuts.
func (fc fileCut) texts() (intendedOnly, all []byte) {
	var io, a bytes.Buffer
	for i, l := range mdline.Parse(fc.orig).Lines {
		ln := fc.orig[l.Start : l.End+l.TermLen]
		if !fc.intended[i+1] {
			io.Write(ln)
		}
		if !fc.intended[i+1] && !fc.mistaken[i+1] {
			a.Write(ln)
		}
	}
	return io.Bytes(), a.Bytes()
}

// buildPlan is the plan shrinking every file with a cut, approving what
// the intended cuts drop at each intended line that carried it, never what
// the mistake drops: an approval names one place. cost is what the judge
// writes.
func buildPlan(base lane.Plan, files []fileCut) (p lane.Plan, cost int, err error) {
	p = base
	p.Actions, p.ApprovedDrops = nil, nil
	approved := map[string]bool{}
	for _, fc := range files {
		if len(fc.intended)+len(fc.mistaken) == 0 {
			continue
		}
		lines := mdline.Parse(fc.orig).Lines
		intendedOnly, all := fc.texts()
		for _, d := range gate.Check(fc.orig, intendedOnly) {
			if fc.intended[d.Line] {
				approved[fmt.Sprintf("%s@%s:%d", d.Key(), fc.path, d.Line)] = true
			}
			for i, l := range lines {
				if fc.intended[i+1] && gate.Inventory(fc.orig[l.Start:l.End]).Count(d.Token) > 0 {
					approved[fmt.Sprintf("%s@%s:%d", d.Key(), fc.path, i+1)] = true
				}
			}
		}
		content := string(all)
		p.Actions = append(p.Actions, lane.Action{Type: lane.ActShrink, Path: fc.path, Expect: sha(fc.orig), Content: &content,
			Reason: "superseded values, finished point-in-time entries and rules restated at length"})
		cost += gauge.Estimate([]byte(content))
	}
	for k := range approved {
		p.ApprovedDrops = append(p.ApprovedDrops, k)
	}
	pb, _ := json.Marshal(p)
	p, err = lane.ParsePlan(pb, "")
	return p, cost, err
}

func sha(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
