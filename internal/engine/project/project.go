package project

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/prosewash/prosewash/internal/engine/config"
	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/gitstate"
	"github.com/prosewash/prosewash/internal/engine/pipeline"
	"github.com/prosewash/prosewash/internal/engine/provider"
	"github.com/prosewash/prosewash/internal/engine/state"
)

// Dirs a project may hold its own definitions in.
const (
	CustomProviders = ".prosewash/providers"
	CustomPipelines = ".prosewash/pipelines"
	ConfigFile      = ".prosewash.toml"
)

// Options say where to look and what ships with the binary.
type Options struct {
	Dir    string              // where the command runs (or the hook's cwd)
	Root   string              // an explicit project root (e.g. CLAUDE_PROJECT_DIR); overrides the search
	Getenv func(string) string // environment
	Home   string              // the user's home, for the user config file

	ShippedProviders fs.FS
	ShippedPipelines fs.FS
}

// Project is one project. Everything beyond Root is loaded on first use, so
// a hook that only records a path pays only for what it reads.
type Project struct {
	Root string // real path
	opts Options

	cfg      *config.Config
	warnings []config.Warning
	cfgErr   error
	cfgDone  bool

	stateDir string
	repo     *gitstate.Repo

	providers *provider.Set
	pipelines *pipeline.Set
}

// Find locates the project root: opts.Root when given, else the nearest
// ancestor of opts.Dir holding .git or .prosewash.toml, else opts.Dir. No
// repository is opened: finding a root must stay cheap for hooks.
func Find(opts Options) (*Project, error) {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	start := opts.Root
	if start == "" {
		dir, err := filepath.Abs(opts.Dir)
		if err != nil {
			return nil, fmt.Errorf("find project: %w", err)
		}
		start = dir
		if wt := opts.Getenv("GIT_WORK_TREE"); wt != "" {
			start = wt
		} else if root, ok := search(dir); ok {
			start = root
		}
	}
	real, err := filepath.EvalSymlinks(start)
	if err != nil {
		return nil, fmt.Errorf("find project root %s: %w", start, fsx.Cause(err))
	}
	fi, err := os.Stat(real)
	if err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("project root %s is not a directory", start)
	}
	return &Project{Root: real, opts: opts}, nil
}

func search(dir string) (string, bool) {
	for d := dir; ; {
		for _, marker := range []string{".git", ConfigFile} {
			if _, err := os.Lstat(filepath.Join(d, marker)); err == nil {
				return d, true
			}
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false
		}
		d = parent
	}
}

// Config loads the user and project configuration once. The warnings name
// unknown keys and ignored values; a nil config with an error means the
// configuration is invalid and nothing may run.
func (p *Project) Config() (*config.Config, []config.Warning, error) {
	if !p.cfgDone {
		p.cfg, p.warnings, p.cfgErr = config.Load(p.Root, p.opts.Getenv, p.opts.Home)
		p.cfgDone = true
	}
	return p.cfg, p.warnings, p.cfgErr
}

// StateDir is the private per-project state directory, created on first use.
func (p *Project) StateDir() (string, error) {
	if p.stateDir == "" {
		d, err := state.Dir(p.Root, p.opts.Getenv)
		if err != nil {
			return "", err
		}
		p.stateDir = d
	}
	return p.stateDir, nil
}

// StatePath is where the state directory is, without creating it: for
// commands that promise to write nothing.
func (p *Project) StatePath() (string, error) {
	base, err := state.Base(p.opts.Getenv)
	if err != nil {
		return "", err
	}
	return filepath.Join(base, state.RepoKey(p.Root)), nil
}

// Repo opens the repository the project is in (once per process).
func (p *Project) Repo() (*gitstate.Repo, error) {
	if p.repo == nil {
		dir := p.opts.Dir
		if dir == "" {
			dir = p.Root
		}
		r, err := gitstate.Open(dir, p.opts.Getenv)
		if err != nil {
			return nil, err
		}
		p.repo = r
	}
	return p.repo, nil
}

// Providers loads the shipped and custom provider definitions.
func (p *Project) Providers() (*provider.Set, error) {
	if p.providers == nil {
		s, err := provider.LoadSet(p.opts.ShippedProviders, p.customFS(CustomProviders), CustomProviders)
		if err != nil {
			return nil, err
		}
		p.providers = s
	}
	return p.providers, nil
}

// Pipelines loads the shipped and custom pipeline definitions.
func (p *Project) Pipelines() (*pipeline.Set, error) {
	if p.pipelines == nil {
		s, err := pipeline.LoadSet(p.opts.ShippedPipelines, p.customFS(CustomPipelines), CustomPipelines)
		if err != nil {
			return nil, err
		}
		p.pipelines = s
	}
	return p.pipelines, nil
}

// Shipped loads only the definitions that ship with the binary, whatever
// the project defines (check plans with the shipped safe pipeline, and a
// project's broken definition must not stop it).
func (p *Project) Shipped() (*provider.Set, *pipeline.Set, error) {
	provs, err := provider.LoadSet(p.opts.ShippedProviders, nil, "")
	if err != nil {
		return nil, nil, err
	}
	pipes, err := pipeline.LoadSet(p.opts.ShippedPipelines, nil, "")
	if err != nil {
		return nil, nil, err
	}
	return provs, pipes, nil
}

// CustomDir is the absolute path of a project definitions directory.
func (p *Project) CustomDir(rel string) string { return filepath.Join(p.Root, filepath.FromSlash(rel)) }

func (p *Project) customFS(rel string) fs.FS {
	dir := p.CustomDir(rel)
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		return nil
	}
	return os.DirFS(dir)
}

// Rel renders an absolute path relative to the root when it is inside.
func (p *Project) Rel(abs string) string {
	rel, err := filepath.Rel(p.Root, abs)
	if err != nil || rel == ".." || len(rel) > 2 && rel[:3] == ".."+string(filepath.Separator) {
		return abs
	}
	return filepath.ToSlash(rel)
}
