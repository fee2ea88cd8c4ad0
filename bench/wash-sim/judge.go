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

	bb, _ := json.Marshal(b)
	out.cost += gauge.Estimate(bb) // the judge reads the whole brief
	for _, f := range b.Files {
		if f.AlwaysLoaded {
			out.cost += f.Tokens // and every always-loaded file it judges
		}
	}
	plan := lane.Plan{Version: lane.PlanVersion, Judge: "agent:wash-sim", MadeAt: time.Now().UTC().Format(time.RFC3339)}
	mistake := r.Float64() < mistakes
	anchored := map[string]bool{} // lines a recorded keep binds: a judge honours them
	for _, k := range b.Keeps {
		anchored[strings.TrimSpace(k.Anchor)] = true
	}
	type fileCut struct {
		path     string
		orig     []byte
		intended map[int]bool
		mistaken map[int]bool
		keep     map[int]bool
	}
	var files []fileCut
	for _, f := range b.Files {
		if !f.Owned || !f.AlwaysLoaded || f.Pinned != "" {
			continue
		}
		orig, err := os.ReadFile(f.Real)
		if err != nil {
			return out, err
		}
		doc := mdline.Parse(orig)
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
		for i, l := range doc.Lines {
			if strings.HasPrefix(string(l.Text(orig)), "- Remember, and this matters a lot") {
				fc.intended[i+1] = true
			}
		}
		// Every other candidate still guides work: kept, with the line as the anchor, so
		// the next pass does not ask again.
		for _, fd := range f.Findings {
			if fd.MeasuredOnly || fd.Line > len(lines) || fc.intended[fd.Line] {
				continue
			}
			fc.keep[fd.Line] = true
			plan.Keeps = append(plan.Keeps, lane.Keep{Target: fmt.Sprintf("%s:%d", f.Path, fd.Line), Reason: "still guides work",
				Anchor: strings.TrimSpace(string(lines[fd.Line-1].Text(orig))), AnchorFile: f.Path})
		}
		if len(fc.intended) > 0 || strings.HasSuffix(f.Path, "CLAUDE.md") {
			files = append(files, fc)
		}
	}
	// An approval is a "type:value" key for the whole plan: the mistake is a rule none of
	// whose tokens the intended cuts approve, so only the gate stands between it and a loss.
	intendedApproved := map[string]bool{}
	for _, fc := range files {
		doc := mdline.Parse(fc.orig)
		var kept bytes.Buffer
		for i, l := range doc.Lines {
			if !fc.intended[i+1] {
				kept.Write(fc.orig[l.Start : l.End+l.TermLen])
			}
		}
		for _, d := range gate.Check(fc.orig, kept.Bytes()) {
			intendedApproved[d.Key()] = true
		}
	}
	for k := range files {
		fc := &files[k]
		if !mistake || !strings.HasSuffix(fc.path, "CLAUDE.md") {
			continue
		}
		doc := mdline.Parse(fc.orig)
		for i, l := range doc.Lines {
			text := l.Text(fc.orig)
			if !strings.HasPrefix(string(text), "- Rule ") || fc.intended[i+1] || fc.keep[i+1] || anchored[strings.TrimSpace(string(text))] {
				continue
			}
			// A line stated once whose command no intended cut approves: cutting it loses a fact.
			free := bytes.Count(fc.orig, append(append([]byte{}, text...), '\n')) == 1
			for _, tc := range gate.Inventory(text).Tokens() {
				if tc.Type == gate.TypeCode {
					free = free && !intendedApproved[tc.Key()]
				}
			}
			if free {
				fc.mistaken[i+1] = true
				mistake = false
				break
			}
		}
	}
	n := 0
	for _, fc := range files {
		n += len(fc.intended) + len(fc.mistaken)
	}
	if n == 0 {
		return out, nil
	}
	build := func() (lane.Plan, error) {
		p := plan
		p.Actions, p.ApprovedDrops = nil, nil
		approved := map[string]bool{}
		for _, fc := range files {
			if len(fc.intended)+len(fc.mistaken) == 0 {
				continue
			}
			doc := mdline.Parse(fc.orig)
			var intendedOnly, all bytes.Buffer
			for i, l := range doc.Lines {
				ln := fc.orig[l.Start : l.End+l.TermLen]
				if !fc.intended[i+1] {
					intendedOnly.Write(ln)
				}
				if !fc.intended[i+1] && !fc.mistaken[i+1] {
					all.Write(ln)
				}
			}
			// Approve what the intended cuts drop, at each intended line that carried it, never
			// what the mistake drops: an approval names one place.
			for _, d := range gate.Check(fc.orig, intendedOnly.Bytes()) {
				if fc.intended[d.Line] {
					approved[fmt.Sprintf("%s@%s:%d", d.Key(), fc.path, d.Line)] = true
				}
				for i, l := range doc.Lines {
					if fc.intended[i+1] && gate.Inventory(fc.orig[l.Start:l.End]).Count(d.Token) > 0 {
						approved[fmt.Sprintf("%s@%s:%d", d.Key(), fc.path, i+1)] = true
					}
				}
			}
			content := all.String()
			p.Actions = append(p.Actions, lane.Action{Type: lane.ActShrink, Path: fc.path, Expect: sha(fc.orig), Content: &content,
				Reason: "superseded values, finished point-in-time entries and rules restated at length"})
			out.cost += gauge.Estimate([]byte(content)) // the judge writes the new text
		}
		for k := range approved {
			p.ApprovedDrops = append(p.ApprovedDrops, k)
		}
		pb, _ := json.Marshal(p)
		return lane.ParsePlan(pb, "")
	}
	for range 3 {
		p, err := build()
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

func sha(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
