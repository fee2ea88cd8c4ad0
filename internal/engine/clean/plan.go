package clean

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/prosewash/prosewash/internal/engine/carrier"
	"github.com/prosewash/prosewash/internal/engine/config"
	"github.com/prosewash/prosewash/internal/engine/pipeline"
	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/engine/provider"
	"github.com/prosewash/prosewash/internal/engine/scope"
	"github.com/prosewash/prosewash/internal/engine/validate"
)

// Plan is what a run will do, decided once before any file is read: the
// resolved pipeline, each provider bound to the program it runs, the
// variables its commands and options are given, what decides which files a
// run takes and which carriers it keeps, and the validation it demands.
// An approval fingerprints a Plan and Execute runs that same value:
// nothing is resolved or bound again in between.
type Plan struct {
	Project *project.Project
	Command string // "clean", or "test" (install, validate, always restore)
	Mode    string // the mode the run is planned for (automatic, confirm, manual)
	// Unattended is set for the end of an agent's turn: nothing is asked,
	// everything that needs an answer is refused.
	Unattended bool

	PipelineID string
	Pipeline   *pipeline.Resolved
	// Bindings are, by provider id, what every provider stage runs: for a
	// project provider the program and script by path and hash, and the
	// interpreter; for a shipped one this binary's version.
	Bindings map[string]provider.Binding
	// Vars are the values of ${name} in the providers' commands and of the
	// options they are sent, the carrier profile among them.
	Vars             map[string]string
	MaxRewriteStages int

	// Allow is [clean] allow: carriers people mean to keep.
	Allow []carrier.Allow
	// Filter is [clean] include and exclude: which recorded files a
	// session's run takes.
	Filter      scope.Filter
	MaxFileSize int64
	Validation  Validation

	// Runner runs a provider call: provider.Run unless the caller handed
	// in another (check answers in-process). Specials is Engine.Specials.
	Runner   Runner
	Specials func(text []byte) ([]int, bool)
}

// Validation is what a run's validation will be made of; the level rises
// to tests when a run changes anything but prose.
type Validation struct {
	Level    validate.Level // [clean] validation
	Demand   validate.Level // what the pipeline itself demands
	Commands validate.Commands
	Timeout  time.Duration
	// StripGitEnv runs the validation commands without git's variables
	// (GIT_DIR, GIT_INDEX_FILE, ...): set inside a git hook, where they
	// would point the project's own git calls at the hook's repository.
	StripGitEnv bool
}

// heading is what a run announces before it plans: the command, the
// pipeline and the mode.
type heading struct {
	cfg        *config.Config
	command    string
	pipelineID string
	mode       string
}

func headingOf(req Request) (heading, error) {
	cfg, _, err := req.Project.Config()
	if err != nil {
		return heading{}, err
	}
	h := heading{cfg: cfg, command: "clean", pipelineID: req.Pipeline, mode: cfg.CleanMode()}
	if req.Test {
		h.command = "test"
	}
	if h.pipelineID == "" {
		h.pipelineID = cfg.Clean.Pipeline
	}
	switch {
	case req.Mode != "":
		h.mode = req.Mode
	case req.Automatic:
		h.mode = config.ModeAutomatic
	case req.Explicit || req.Test:
		h.mode = config.ModeManual
	}
	return h, nil
}

// Prepare decides what a run will do: it reads the configuration, resolves
// the pipeline, binds every provider to what it runs and checks that every
// value a stage needs is set, asking the person (req.Ask) before running a
// provider that cannot be bound. It reads no target and runs nothing.
func Prepare(req Request) (*Plan, error) {
	h, err := headingOf(req)
	if err != nil {
		return nil, err
	}
	return makePlan(req, h)
}

func makePlan(req Request, h heading) (*Plan, error) {
	cfg, p := h.cfg, req.Project
	profile := cfg.Clean.Profile
	if req.Profile != "" {
		var err error
		if profile, err = carrier.ParseProfile(req.Profile); err != nil {
			return nil, err
		}
	}
	plan := &Plan{
		Project: p, Command: h.command, Mode: h.mode, PipelineID: h.pipelineID,
		Unattended:       req.Automatic || h.mode == config.ModeAutomatic,
		MaxRewriteStages: cfg.Clean.MaxRewriteStages,
		Allow:            cfg.AllowRules(), Filter: filterOf(cfg), MaxFileSize: cfg.Clean.MaxFileSize,
		Validation: Validation{Level: cfg.Clean.Validation, Commands: cfg.Commands, Timeout: cfg.Clean.ValidationTimeout, StripGitEnv: req.StripGitEnv},
		Runner:     req.Runner, Specials: req.Specials,
		Vars: map[string]string{
			"prosewash": req.Self, "workspace": p.Root, "profile": string(profile),
			"model": cfg.Clean.RewriteModel, "endpoint": cfg.Clean.RewriteEndpoint,
			"provider_dir": p.CustomDir(project.CustomProviders),
		},
	}
	res, err := resolve(p, plan.PipelineID, cfg, req, plan.Unattended)
	if err != nil {
		return nil, err
	}
	plan.Pipeline, plan.Validation.Demand = res, res.Demand
	if err := plan.checkVars(); err != nil {
		return nil, err
	}
	plan.Bindings = bind(res, plan.Vars, p.Root, req.Version)
	if err := plan.checkBindings(req.Ask); err != nil {
		return nil, err
	}
	// A rewrite never runs without its tests: refuse before any text is
	// sent to a model rather than after.
	if res.Rewrites > 0 {
		if _, err := validate.NewPlan(cfg.Clean.Validation, res.Demand, cfg.Commands); err != nil {
			return nil, &RefusedError{Msg: err.Error()}
		}
	}
	return plan, nil
}

func filterOf(cfg *config.Config) scope.Filter {
	return scope.Filter{Include: cfg.Clean.Include, Exclude: cfg.Clean.Exclude}
}

func resolve(p *project.Project, id string, cfg *config.Config, req Request, automatic bool) (*pipeline.Resolved, error) {
	provs, pipes, err := definitions(p, req.ShippedOnly)
	if err != nil {
		return nil, err
	}
	pl, ok := pipes.Lookup(id)
	if !ok {
		return nil, refusef("unknown pipeline %q (see prosewash pipelines)", id)
	}
	return pipeline.Resolve(pl, provs, pipeline.Options{
		MaxRewriteStages: cfg.Clean.MaxRewriteStages,
		ExplicitTarget:   req.Explicit,
		Automatic:        automatic,
	})
}

// definitions are the provider and pipeline definitions a plan resolves
// against: the project's (shipped and custom), or the shipped ones only.
func definitions(p *project.Project, shippedOnly bool) (*provider.Set, *pipeline.Set, error) {
	if shippedOnly {
		return p.Shipped()
	}
	pipes, err := p.Pipelines()
	if err != nil {
		return nil, nil, err
	}
	provs, err := p.Providers()
	if err != nil {
		return nil, nil, err
	}
	return provs, pipes, nil
}

// checkVars refuses a stage that needs a variable nobody set.
func (plan *Plan) checkVars() error {
	for _, st := range plan.Pipeline.Stages {
		if st.Def == nil {
			continue
		}
		for _, name := range plan.StageVars(st) {
			if key, ok := varKeys()[name]; ok && plan.Vars[name] == "" {
				return refusef("stage %q (%s) needs %s, which is not set", st.Name, st.Def.Ref(st.Op), key)
			}
		}
	}
	return nil
}

// StageVars lists the variables a stage's command, arguments and options
// use, in that order, each once.
func (plan *Plan) StageVars(st pipeline.ResolvedStage) []string {
	var out []string
	seen := map[string]bool{}
	add := func(name string) {
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	for _, o := range st.Op.Options {
		add(o)
	}
	names := make([]string, 0, len(plan.Vars))
	for k := range plan.Vars {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, a := range append(append([]string{}, st.Def.Command...), st.Op.Args...) {
		for _, k := range names {
			if strings.Contains(a, "${"+k+"}") {
				add(k)
			}
		}
	}
	return out
}

// bind binds every provider stage's definition once.
func bind(res *pipeline.Resolved, vars map[string]string, root, version string) map[string]provider.Binding {
	out := map[string]provider.Binding{}
	for _, st := range res.Stages {
		if st.Def == nil {
			continue
		}
		if _, done := out[st.Def.ID]; !done {
			out[st.Def.ID] = provider.Bind(st.Def, vars, root, version)
		}
	}
	return out
}

// checkBindings refuses providers that cannot be bound (a bare
// interpreter) in unattended runs, and asks before running them otherwise.
func (plan *Plan) checkBindings(ask func(string) bool) error {
	for _, st := range plan.Pipeline.Stages {
		if st.Def == nil || st.Def.Shipped {
			continue
		}
		b := plan.Bindings[st.Def.ID]
		if b.Bindable() {
			continue
		}
		if plan.Unattended {
			return refusef("provider %s cannot be bound (%s): it never runs automatically", st.Def.ID, b.Why)
		}
		q := fmt.Sprintf("provider %s cannot be bound to what it runs (%s); run it this once?", st.Def.ID, b.Why)
		if ask == nil || !ask(q) {
			return refusef("provider %s cannot be bound (%s) and needs confirmation on a terminal for every run", st.Def.ID, b.Why)
		}
	}
	return nil
}

// Profile is the carrier profile the plan's providers are given.
func (plan *Plan) Profile() carrier.Profile { return carrier.Profile(plan.Vars["profile"]) }

// Engine is the engine that runs the plan's provider stages.
func (plan *Plan) Engine() *Engine {
	run := plan.Runner
	if run == nil {
		run = provider.Run
	}
	return &Engine{
		Pipeline: plan.Pipeline, Bindings: plan.Bindings, Run: run, Specials: plan.Specials, Allow: plan.Allow,
		Call: provider.Call{Vars: plan.Vars, Dir: plan.Project.Root},
	}
}
