package pipeline

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/provider"
	"github.com/prosewash/prosewash/internal/engine/tomlx"
)

// Schema is the schema line every pipeline definition carries.
const Schema = "prosewash-pipeline/1"

// Stage roles, in the only order a pipeline may use them. "rewrite" is not
// written by users: it is a transform stage bound to a non-deterministic
// operation, and the engine places it by what it resolves to.
const (
	RoleInspect   = "inspect"
	RoleTransform = "transform"
	RoleFormat    = "format"
	RoleValidate  = "validate"
)

// Built-in stages need no provider.
const (
	BuiltinSyntax  = "syntax"
	BuiltinFormat  = "format"
	BuiltinProject = "project"
	BuiltinTests   = "tests"
)

// Pipeline is an ordered list of stages.
type Pipeline struct {
	Schema      string  `toml:"schema"`
	ID          string  `toml:"id"`
	Version     string  `toml:"version"`
	Description string  `toml:"description"`
	Stages      []Stage `toml:"stages"`

	Source  string `toml:"-"`
	Shipped bool   `toml:"-"`
}

// Stage asks for a capability (or pins a provider) over a region scope.
type Stage struct {
	Name       string `toml:"name"`
	Role       string `toml:"role"`
	Capability string `toml:"capability"`
	Provider   string `toml:"provider"` // pin: "unicode", "custom/x", optionally "id:operation"
	Regions    string `toml:"regions"`
	Builtin    string `toml:"builtin"`
}

// Error is a problem with one pipeline definition.
type Error struct {
	File  string
	Field string
	Msg   string
}

func (e *Error) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s: %s: %s", e.File, e.Field, e.Msg)
}

// Parse decodes and checks the shape of one pipeline definition; Resolve
// checks it against the providers.
func Parse(file string, data []byte, shipped bool) (*Pipeline, error) {
	p := &Pipeline{}
	if err := tomlx.DecodeStrict(file, data, p); err != nil {
		return nil, err
	}
	p.Source, p.Shipped = file, shipped
	if shipped {
		p.Source = "shipped"
	}
	bad := func(field, format string, args ...any) error {
		return &Error{File: file, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	if err := p.checkIdentity(bad); err != nil {
		return nil, err
	}
	if len(p.Stages) == 0 {
		return nil, bad("stages", "a pipeline needs at least one stage")
	}
	for i := range p.Stages {
		if err := p.Stages[i].check(i, shipped, bad); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// badField makes an *Error naming the field.
type badField func(field, format string, args ...any) error

// checkIdentity checks the schema, the id (namespaced for a project's
// pipeline) and that there is a version.
func (p *Pipeline) checkIdentity(bad badField) error {
	if p.Schema != Schema {
		return bad("schema", "must be %q, got %q", Schema, p.Schema)
	}
	if p.Shipped {
		if p.ID == "" || strings.Contains(p.ID, "/") {
			return bad("id", "invalid shipped id %q", p.ID)
		}
	} else if name, ok := strings.CutPrefix(p.ID, "custom/"); !ok || name == "" || strings.ContainsAny(name, "/ ") {
		return bad("id", "a project pipeline id must be custom/<name>, got %q", p.ID)
	}
	if p.Version == "" {
		return bad("version", "missing")
	}
	return nil
}

// check checks, and defaults, stage i: its name, role and regions, then
// either a builtin that fits the role or a capability or provider pin,
// never a provenance capability in a shipped pipeline.
func (s *Stage) check(i int, shipped bool, bad badField) error {
	field := fmt.Sprintf("stages[%d]", i)
	if s.Name == "" {
		s.Name = fmt.Sprintf("stage %d", i+1)
	}
	switch s.Role {
	case RoleInspect, RoleTransform, RoleFormat, RoleValidate:
	default:
		return bad(field+".role", "must be inspect, transform, format or validate, got %q", s.Role)
	}
	if s.Regions == "" {
		s.Regions = provider.ScopeProse
	}
	switch s.Regions {
	case provider.ScopeProse, provider.ScopeRuntime, provider.ScopeAny:
	default:
		return bad(field+".regions", "must be prose, runtime or any, got %q", s.Regions)
	}
	if s.Builtin != "" {
		if s.Capability != "" || s.Provider != "" {
			return bad(field, "a builtin stage takes no capability or provider")
		}
		ok := (s.Role == RoleValidate && (s.Builtin == BuiltinSyntax || s.Builtin == BuiltinFormat || s.Builtin == BuiltinProject || s.Builtin == BuiltinTests)) ||
			(s.Role == RoleFormat && s.Builtin == BuiltinFormat)
		if !ok {
			return bad(field+".builtin", "%q is not a builtin %s stage", s.Builtin, s.Role)
		}
		return nil
	}
	if s.Capability == "" && s.Provider == "" {
		return bad(field, "needs a capability, a provider pin or a builtin")
	}
	if shipped && provider.RestrictedCapability(s.Capability) {
		return bad(field+".capability", "%s touches provenance and is never in a shipped pipeline", s.Capability)
	}
	return nil
}

// Set is every pipeline available to a project.
type Set struct {
	Pipelines []*Pipeline
	byID      map[string]*Pipeline
}

// Lookup finds a pipeline by id.
func (s *Set) Lookup(id string) (*Pipeline, bool) {
	p, ok := s.byID[id]
	return p, ok
}

// LoadSet reads shipped pipelines and the project's custom ones.
func LoadSet(shipped fs.FS, custom fs.FS, customDir string) (*Set, error) {
	ps, byID, err := tomlx.LoadDefinitions("pipeline", shipped, "pipelines", custom, customDir, Parse,
		func(p *Pipeline) string { return p.ID }, func(p *Pipeline) string { return p.Source })
	if err != nil {
		return nil, err
	}
	return &Set{Pipelines: ps, byID: byID}, nil
}
