package pipeline

import (
	"fmt"
	"sort"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/provider"
	"github.com/prosewash/prosewash/internal/engine/validate"
)

// Resolved is a pipeline bound to concrete provider operations.
type Resolved struct {
	Pipeline *Pipeline
	Stages   []ResolvedStage
	Rewrites int
	// Demand is the validation level the pipeline itself demands:
	// tests when a stage may touch anything but prose or rewrites.
	Demand validate.Level
}

// ResolvedStage is a stage and what runs it.
type ResolvedStage struct {
	Stage
	Index   int
	Def     *provider.Definition // nil for builtin stages
	Op      *provider.Operation  // nil for builtin stages
	Scope   string               // effective region scope: the narrower of stage and operation
	Rewrite bool                 // a transform bound to a non-deterministic operation
}

// Label is a short human name for reports: "unicode:clean over prose".
func (s ResolvedStage) Label() string {
	if s.Def == nil {
		return "builtin " + s.Builtin
	}
	return fmt.Sprintf("%s over %s", s.Def.Ref(s.Op), s.Scope)
}

// Options constrain resolution.
type Options struct {
	MaxRewriteStages int
	// ExplicitTarget is true when the user named the files: rewrite and
	// provenance stages are refused over a session's files or a glob.
	ExplicitTarget bool
	// Automatic is true for unattended runs (the Stop hook): rewrite
	// stages are never automatic.
	Automatic bool
}

// ResolveError names the pipeline, the stage and what is wrong.
type ResolveError struct {
	Pipeline string
	Stage    string
	Msg      string
}

func (e *ResolveError) Error() string {
	if e.Stage == "" {
		return fmt.Sprintf("pipeline %s: %s", e.Pipeline, e.Msg)
	}
	return fmt.Sprintf("pipeline %s: %s: %s", e.Pipeline, e.Stage, e.Msg)
}

func scopeRank(s string) int {
	switch s {
	case provider.ScopeProse:
		return 0
	case provider.ScopeRuntime:
		return 1
	}
	return 2
}

// narrower returns the narrower of two scopes.
func narrower(a, b string) string {
	if scopeRank(a) <= scopeRank(b) {
		return a
	}
	return b
}

func orderRank(s ResolvedStage) int {
	switch {
	case s.Role == RoleInspect:
		return 0
	case s.Role == RoleTransform && !s.Rewrite:
		return 1
	case s.Rewrite:
		return 2
	case s.Role == RoleFormat:
		return 3
	}
	return 4
}

func orderName(rank int) string {
	return [...]string{"inspect", "transform", "rewrite", "format", "validate"}[rank]
}

// Resolve binds every stage to a provider operation and checks the order
// rule, the rewrite limit and the target rules.
func Resolve(p *Pipeline, providers *provider.Set, opt Options) (*Resolved, error) {
	r := &Resolved{Pipeline: p, Demand: validate.Syntax}
	fail := func(stage, format string, args ...any) error {
		return &ResolveError{Pipeline: p.ID, Stage: stage, Msg: fmt.Sprintf(format, args...)}
	}
	for i, st := range p.Stages {
		rs := ResolvedStage{Stage: st, Index: i, Scope: st.Regions}
		if st.Builtin != "" {
			if st.Role == RoleValidate || st.Role == RoleFormat {
				if l, err := validate.ParseLevel(st.Builtin); err == nil {
					r.Demand = validate.Max(r.Demand, l)
				}
			}
			r.Stages = append(r.Stages, rs)
			continue
		}
		def, op, err := pick(p, st, providers)
		if err != nil {
			return nil, fail(st.Name, "%v", err)
		}
		rs.Def, rs.Op = def, op
		rs.Scope = narrower(st.Regions, op.Regions)
		rs.Rewrite = st.Role == RoleTransform && (!op.Deterministic || op.Capability == "statistical-rewrite")
		if rs.Rewrite {
			r.Rewrites++
			r.Demand = validate.Tests
			if opt.Automatic {
				return nil, fail(st.Name, "a rewrite stage (%s) never runs automatically", def.Ref(op))
			}
			if !opt.ExplicitTarget {
				return nil, fail(st.Name, "a rewrite stage (%s) needs explicitly named files", def.Ref(op))
			}
		}
		if provider.RestrictedCapability(op.Capability) && (!opt.ExplicitTarget || opt.Automatic) {
			return nil, fail(st.Name, "%s touches provenance and needs explicitly named files, never automation", op.Capability)
		}
		if st.Role == RoleTransform && rs.Scope != provider.ScopeProse {
			r.Demand = validate.Tests
		}
		r.Stages = append(r.Stages, rs)
	}
	for i := 1; i < len(r.Stages); i++ {
		a, b := orderRank(r.Stages[i-1]), orderRank(r.Stages[i])
		if b < a {
			return nil, fail(r.Stages[i].Name, "%s %s stage cannot follow a %s stage (order: inspect -> transform... -> rewrite -> format -> validate)", article(orderName(b)), orderName(b), orderName(a))
		}
	}
	max := opt.MaxRewriteStages
	if max <= 0 {
		max = 1
	}
	if r.Rewrites > max {
		return nil, fail("", "%d rewrite stages, more than max_rewrite_stages = %d", r.Rewrites, max)
	}
	return r, nil
}

// pick finds the operation for a stage: a pinned provider, or the single
// provider offering the capability for that role. A shipped pipeline only
// ever resolves to shipped providers, so a project file cannot change what
// an approved shipped pipeline runs.
func pick(p *Pipeline, st Stage, providers *provider.Set) (*provider.Definition, *provider.Operation, error) {
	opRole := st.Role
	if opRole == RoleFormat {
		opRole = provider.RoleTransform
	}
	if st.Provider != "" {
		id, opName, _ := strings.Cut(st.Provider, ":")
		def, ok := providers.Lookup(id)
		if !ok {
			return nil, nil, fmt.Errorf("provider %q is not defined", id)
		}
		if p.Shipped && !def.Shipped {
			return nil, nil, fmt.Errorf("a shipped pipeline cannot pin the project provider %q", id)
		}
		var found []*provider.Operation
		for _, op := range def.Operations {
			if (opName == "" || op.Name == opName) && op.Role == opRole && (st.Capability == "" || op.Capability == st.Capability) {
				found = append(found, op)
			}
		}
		switch len(found) {
		case 0:
			return nil, nil, fmt.Errorf("provider %q has no %s operation%s", st.Provider, opRole, forCap(st.Capability))
		case 1:
			return def, found[0], nil
		}
		return nil, nil, fmt.Errorf("provider %q has several %s operations%s; pin one as \"%s:<operation>\"", id, opRole, forCap(st.Capability), id)
	}
	type cand struct {
		def *provider.Definition
		op  *provider.Operation
	}
	var cands []cand
	for _, def := range providers.Defs {
		if p.Shipped && !def.Shipped {
			continue
		}
		for _, op := range def.Operations {
			if op.Capability == st.Capability && op.Role == opRole {
				cands = append(cands, cand{def, op})
			}
		}
	}
	switch len(cands) {
	case 0:
		return nil, nil, fmt.Errorf("no provider offers %s for role %s", st.Capability, opRole)
	case 1:
		return cands[0].def, cands[0].op, nil
	}
	names := make([]string, len(cands))
	for i, c := range cands {
		names[i] = c.def.Ref(c.op)
	}
	sort.Strings(names)
	return nil, nil, fmt.Errorf("several providers offer %s (%s); pin one with provider = \"...\"", st.Capability, strings.Join(names, ", "))
}

func article(w string) string {
	if strings.IndexByte("aeiou", w[0]) >= 0 {
		return "an"
	}
	return "a"
}

func forCap(c string) string {
	if c == "" {
		return ""
	}
	return " for " + c
}
