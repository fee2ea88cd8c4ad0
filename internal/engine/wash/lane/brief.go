package lane

import (
	"fmt"
	"sort"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/wash/gate"
	"github.com/prosewash/prosewash/internal/engine/wash/gauge"
)

// checks counts the gate's tokens of a file per class ("link": 12, "date": 3): the inventory
// by class. The gate itself names every token a plan would lose, at its place, so the judge
// needs to know what is checked, not every value.
func checks(content []byte) map[string]int {
	out := map[string]int{}
	for _, tc := range gate.Inventory(content).Tokens() {
		out[tc.Type]++
	}
	return out
}

// checksLine renders per-class counts in a stable order.
func checksLine(c map[string]int) string {
	var ks []string
	for k := range c {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	var parts []string
	for _, k := range ks {
		parts = append(parts, fmt.Sprintf("%d %s", c[k], k))
	}
	return strings.Join(parts, ", ")
}

// planSchema is the plan in one paragraph; the full schema is internal/engine/wash/PLAN.md.
const planSchema = `{"version":1,"judge":"agent:NAME","approvedDrops":["number:5432@CLAUDE.md:7"],"actions":[{"type":"shrink","path":"CLAUDE.md","expect":"EXPECT","content":"...","reason":"..."}],"keeps":[{"target":"CLAUDE.md:12","reason":"..."}]}; types shrink, rewrite, delete, merge (with "sources":[{"path","expect"}]); "contentFile" instead of "content" is read beside the plan.`

// Markdown renders the brief for an agent: compact, so the pass that should pay for itself
// does not spend what it could save on being briefed (the rules in one paragraph, a file on
// two lines with a short expect hash, a candidate on one, the gate's inventory a count per
// class, the schema by reference).
func (b Brief) Markdown() string {
	var s strings.Builder
	v := b.Verdict
	fmt.Fprintf(&s, "# prosewash brief (v%d)\n\n%s for %s: ~%d tok loaded every session, ~%d tok provable fat, ~%d tok a judgement pass could win.", b.Version, v.Band, orNone(b.Platform), v.Footprint, v.Fat, v.Potential)
	if v.Fat > 0 {
		s.WriteString(" Run `prosewash wash quick` first, then ask for a new brief.")
	}
	s.WriteString("\n\n" + strings.Join(b.Rules, " ") + "\n")
	for _, f := range b.Files {
		fmt.Fprintf(&s, "\n%s (%s, ~%d tok, expect %s)", f.Path, fileState(f), f.Tokens, shortExpect(f.SHA256))
		if c := checksLine(f.Checks); c != "" {
			fmt.Fprintf(&s, "; gate checks %s", c)
		}
		s.WriteString("\n")
		for _, fl := range f.Flags {
			fmt.Fprintf(&s, "- %d %s\n", fl.Line, fl.Kind)
		}
		for _, fd := range f.Findings {
			other := ""
			if fd.Other != "" {
				other = " vs " + fd.Other
			}
			not := ""
			if fd.MeasuredOnly {
				not = " (not yours)"
			}
			fmt.Fprintf(&s, "- %d %s ~%d%s%s\n", fd.Line, fd.Kind, fd.Tokens, other, not)
		}
	}
	if len(b.Recall) > 0 {
		s.WriteString("\nOn demand only (sha256 one before a plan names it):")
		for _, r := range b.Recall {
			fmt.Fprintf(&s, " %s", r.Path)
		}
		s.WriteString("\n")
	}
	if len(b.Keeps) > 0 {
		s.WriteString("\nKept before:")
		for _, k := range b.Keeps {
			fmt.Fprintf(&s, " %s (%s);", k.Target, k.Reason)
		}
		s.WriteString("\n")
	}
	fmt.Fprintf(&s, "\nPlan (%s): %s Check it with `%s --dry-run`, then `%s`.\n", b.Plan, planSchema, b.Apply, b.Apply)
	return s.String()
}

// shortExpect is the expect hash a brief prints: the first 16 hex digits of the sha256, which
// a plan may give in place of the whole (a check that the file is the one the judge read).
func shortExpect(h string) string {
	if len(h) > expectPrefix {
		return h[:expectPrefix]
	}
	return h
}

func fileState(f BriefFile) string {
	state := ""
	switch {
	case f.Pinned != "":
		state = "PINNED, "
	case !f.Owned:
		state = "owned: false, "
	}
	if !f.AlwaysLoaded {
		return state + "on demand"
	}
	return state + strings.Join(f.Platforms, ",")
}

func orNone(s string) string {
	if s == "" {
		return "no platform"
	}
	return s
}

// briefCost prices the brief a full pass starts from, for the band's break-even: the pass
// pays for its own brief. checksTokens stands for each file's per-class line, which the cost
// estimate does not inventory.
func briefCost(b Brief) int {
	const checksTokens = 15
	return gauge.Estimate([]byte(b.Markdown())) + checksTokens*len(b.Files)
}
