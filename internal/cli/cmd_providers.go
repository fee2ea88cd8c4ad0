package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sort"
	"strings"
	"time"

	"github.com/prosewash/prosewash/internal/engine/pipeline"
	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/engine/provider"
)

const providersHelp = `Lists every provider (shipped ones first, then the project's .prosewash/providers/),
its operations (role, capability, region scope, deterministic or not), what it is
bound to, and whether it is available: its version probe is run with a 5 second
timeout. Writes nothing.`

type providerView struct {
	ID         string   `json:"id"`
	Version    string   `json:"version"`
	Source     string   `json:"source"`
	Operations []string `json:"operations"`
	Binding    string   `json:"binding"`
	Available  bool     `json:"available"`
	Probe      string   `json:"probe"`
}

func runProviders(e *env, args []string) error {
	asJSON, err := jsonFlagOnly("providers", args)
	if err != nil {
		return err
	}
	p, err := openProject(e)
	if err != nil {
		return err
	}
	if err := loadConfig(e, p); err != nil {
		return err
	}
	set, err := p.Providers()
	if err != nil {
		return err
	}
	cfg, _, _ := p.Config()
	vars := map[string]string{
		"prosewash": self(), "workspace": p.Root, "provider_dir": p.CustomDir(project.CustomProviders),
		"model": cfg.Clean.RewriteModel, "endpoint": cfg.Clean.RewriteEndpoint, "profile": string(cfg.Clean.Profile),
	}
	var views []providerView
	for _, d := range set.Defs {
		v := providerView{ID: d.ID, Version: d.Version, Source: d.Source}
		if d.Shipped && d.Version == "builtin" {
			v.Version = "builtin (" + Version() + ")"
		}
		var names []string
		for name := range d.Operations {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, n := range names {
			op := d.Operations[n]
			det := "deterministic"
			if !op.Deterministic {
				det = "non-deterministic"
			}
			v.Operations = append(v.Operations, fmt.Sprintf("%s: %s %s over %s, %s", n, op.Role, op.Capability, op.Regions, det))
		}
		v.Binding = provider.Bind(d, vars, p.Root, Version()).String()
		v.Available, v.Probe = probe(e.ctx, d, vars)
		views = append(views, v)
	}
	if asJSON {
		return writeJSON(e, views)
	}
	for _, v := range views {
		state := e.ui.green.Sprint("available")
		if !v.Available {
			state = e.ui.yellow.Sprint("unavailable")
		}
		e.ui.infof("%s %s (%s): %s: %s", e.ui.bold.Sprint(v.ID), v.Version, v.Source, state, v.Probe)
		for _, o := range v.Operations {
			e.ui.infof("  %s", o)
		}
		e.ui.infof("  bound to %s", v.Binding)
	}
	return nil
}

// probe runs a definition's version probe (or checks its program exists)
// and returns the first line it printed.
func probe(ctx context.Context, d *provider.Definition, vars map[string]string) (bool, string) {
	argv := d.Probe
	if len(argv) == 0 {
		cmd, err := provider.Expand(d.Command[:1], vars)
		if err != nil {
			return false, err.Error()
		}
		path, err := exec.LookPath(cmd[0])
		if err != nil {
			return false, fmt.Sprintf("program %q not found", cmd[0])
		}
		return true, "program " + path
	}
	argv, err := provider.Expand(argv, vars)
	if err != nil {
		return false, err.Error()
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	if argv[0] == vars["prosewash"] {
		cmd.Args[0] = provider.ShippedArgv0
	}
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err = cmd.Run()
	line := strings.TrimSpace(out.String())
	line = strings.TrimPrefix(line, "prosewash: error: ")
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	if err != nil {
		if line == "" {
			line = err.Error()
		}
		return false, line
	}
	return true, line
}

const pipelinesHelp = `Lists the pipelines (shipped safe and full, and the project's
.prosewash/pipelines/) with their stages, each resolved to the provider operation
that would run it, or the reason it cannot be resolved. Writes nothing.`

func runPipelines(e *env, args []string) error {
	asJSON, err := jsonFlagOnly("pipelines", args)
	if err != nil {
		return err
	}
	p, err := openProject(e)
	if err != nil {
		return err
	}
	if err := loadConfig(e, p); err != nil {
		return err
	}
	cfg, _, _ := p.Config()
	pipes, err := p.Pipelines()
	if err != nil {
		return err
	}
	provs, err := p.Providers()
	if err != nil {
		return err
	}
	type view struct {
		ID          string   `json:"id"`
		Version     string   `json:"version"`
		Source      string   `json:"source"`
		Description string   `json:"description"`
		Stages      []string `json:"stages"`
		Demands     string   `json:"demands,omitempty"`
		Note        string   `json:"note,omitempty"`
	}
	var views []view
	for _, pl := range pipes.Pipelines {
		v := view{ID: pl.ID, Version: pl.Version, Source: pl.Source, Description: pl.Description}
		// Resolve as an explicit run so rewrite pipelines show their stages.
		r, err := pipeline.Resolve(pl, provs, pipeline.Options{MaxRewriteStages: cfg.Clean.MaxRewriteStages, ExplicitTarget: true})
		if err != nil {
			v.Note = err.Error()
			for _, st := range pl.Stages {
				v.Stages = append(v.Stages, fmt.Sprintf("%s: %s %s%s over %s", st.Name, st.Role, st.Capability, st.Builtin, st.Regions))
			}
		} else {
			for _, st := range r.Stages {
				tag := ""
				if st.Rewrite {
					tag = " (rewrite: named files only, never automatic, demands tests)"
				}
				v.Stages = append(v.Stages, fmt.Sprintf("%s: %s %s%s", st.Name, st.Role, st.Label(), tag))
			}
			v.Demands = r.Demand.String()
		}
		views = append(views, v)
	}
	if asJSON {
		return writeJSON(e, views)
	}
	for _, v := range views {
		e.ui.infof("%s %s (%s): %s", e.ui.bold.Sprint(v.ID), v.Version, v.Source, v.Description)
		for i, s := range v.Stages {
			e.ui.infof("  %d. %s", i+1, s)
		}
		if v.Demands != "" {
			e.ui.infof("  validation demanded: %s", v.Demands)
		}
		if v.Note != "" {
			e.ui.warnf("  %s", v.Note)
		}
	}
	return nil
}

const validatePipelineHelp = `Checks one pipeline: a shipped or project id (safe, full, custom/x) or a definition
file. The definition is parsed strictly, resolved against the providers, and the
stage order, rewrite limit and provenance rules are checked. Exit 0 when valid, 2
with the file, field and problem otherwise. --explicit-target checks it as for a
run over named files (rewrite stages need it).`

func runValidatePipeline(e *env, args []string) error {
	fs := newFlags("validate-pipeline")
	explicit := fs.Bool("explicit-target", false, "")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usagef("validate-pipeline takes one pipeline id or FILE")
	}
	p, err := openProject(e)
	if err != nil {
		return err
	}
	if err := loadConfig(e, p); err != nil {
		return err
	}
	cfg, _, _ := p.Config()
	provs, err := p.Providers()
	if err != nil {
		return err
	}
	var pl *pipeline.Pipeline
	arg := rest[0]
	if data, rerr := readInput(arg); rerr == nil {
		pl, err = pipeline.Parse(arg, data, false)
		if err != nil {
			return err
		}
	} else if !errors.Is(rerr, os.ErrNotExist) {
		return rerr
	} else {
		pipes, err := p.Pipelines()
		if err != nil {
			return err
		}
		var ok bool
		if pl, ok = pipes.Lookup(arg); !ok {
			return usagef("%s is neither a pipeline id nor a file", arg)
		}
	}
	r, err := pipeline.Resolve(pl, provs, pipeline.Options{MaxRewriteStages: cfg.Clean.MaxRewriteStages, ExplicitTarget: *explicit})
	if err != nil {
		return err
	}
	e.ui.infof("pipeline %s is valid: %d stages, %d rewrite, demands validation %s", pl.ID, len(r.Stages), r.Rewrites, r.Demand)
	for i, st := range r.Stages {
		e.ui.infof("  %d. %s: %s %s", i+1, st.Name, st.Role, st.Label())
	}
	return nil
}
