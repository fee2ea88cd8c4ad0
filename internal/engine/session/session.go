package session

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/prosewash/prosewash/internal/engine/clean"
	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/engine/report"
	"github.com/prosewash/prosewash/internal/engine/wash/lane"
)

// Env is what one process was given to serve sessions: its environment,
// home, the prosewash binary and the shipped definitions.
type Env struct {
	Getenv  func(string) string
	Home    string
	Self    string // the prosewash binary, for ${prosewash} and built-in providers
	Version string

	ShippedProviders fs.FS
	ShippedPipelines fs.FS

	Now func() time.Time
	// Clean executes the plan the approval covers; nil means clean.Execute.
	Clean func(context.Context, *clean.Plan, clean.Batch) (*report.Run, error)
}

// Var reads the environment (os.Getenv unless injected).
func (e *Env) Var(k string) string {
	if e.Getenv == nil {
		return os.Getenv(k)
	}
	return e.Getenv(k)
}

func (e *Env) now() time.Time {
	if e.Now == nil {
		return time.Now()
	}
	return e.Now()
}

// Session is one agent session in one project.
type Session struct {
	env      *Env
	Project  *project.Project
	ID       string // the platform's own session id
	Platform string // the memory lane's platform id (claude-code, codex, ...)
	Cwd      string // where the session's hooks run
}

// Open finds the project of a session: cwd's, else fallback's (the
// platform's project directory or workspace root). When the agent has cd'd
// out of the project the session started in (fallback lies outside cwd's
// project), the files it writes still belong to fallback's.
func (e *Env) Open(platform, id, cwd, fallback string) (*Session, error) {
	if id == "" {
		return nil, errors.New("hook input has no session id")
	}
	dir := cwd
	if dir == "" {
		dir = fallback
	}
	if dir == "" {
		return nil, errors.New("hook input has no cwd and no project directory is known")
	}
	if !filepath.IsAbs(dir) {
		return nil, fmt.Errorf("hook cwd %q is not an absolute path", dir)
	}
	opts := project.Options{Dir: dir, Getenv: e.Var, Home: e.Home, ShippedProviders: e.ShippedProviders, ShippedPipelines: e.ShippedPipelines}
	p, err := project.Find(opts)
	if err != nil {
		return nil, err
	}
	if fallback != "" && cwd != "" && filepath.IsAbs(fallback) {
		if real, err := filepath.EvalSymlinks(fallback); err == nil && !fsx.Inside(real, p.Root) {
			opts.Dir = fallback
			if p, err = project.Find(opts); err != nil {
				return nil, err
			}
		}
	}
	return &Session{env: e, Project: p, ID: id, Platform: platform, Cwd: cwd}, nil
}

// Lane is the memory lane of the session's project, with this process's
// environment. It is the one place the lane is built for a session.
func (s *Session) Lane() *lane.Lane {
	return lane.New(s.Project, lane.Options{Home: s.env.Home, Getenv: s.env.Var, Now: s.env.Now, Start: s.Cwd, Platform: s.Platform})
}
