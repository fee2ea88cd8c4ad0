package provider

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/config"
	"github.com/prosewash/prosewash/internal/engine/loopback"
	"github.com/prosewash/prosewash/internal/engine/tomlx"
)

// DefinitionSchema is the schema line every provider definition carries.
const DefinitionSchema = "prosewash-provider/1"

// Roles an operation may have.
const (
	RoleInspect   = "inspect"
	RoleTransform = "transform"
	RoleValidate  = "validate"
)

// Region scopes an operation or stage may ask for.
const (
	ScopeProse   = "prose"
	ScopeRuntime = "runtime"
	ScopeAny     = "any"
)

// Capabilities prosewash knows. A definition naming another capability is
// refused, so a typo cannot silently disable a stage.
func knownCapabilities() []string {
	return []string{"c2pa", "metadata-attribution", "statistical-rewrite", "syntax", "unicode"}
}

// RestrictedCapabilities may never appear in a shipped pipeline or in
// automation over a glob: they touch provenance.
func RestrictedCapability(c string) bool { return c == "metadata-attribution" || c == "c2pa" }

// Definition is one provider: a program and the operations it offers.
type Definition struct {
	Schema      string                `toml:"schema"`
	ID          string                `toml:"id"`
	Version     string                `toml:"version"`
	License     string                `toml:"license"`
	Description string                `toml:"description"`
	Locality    string                `toml:"locality"`
	Command     []string              `toml:"command"`
	IO          string                `toml:"io"`      // "stdio" (default) or "files"
	Timeout     int                   `toml:"timeout"` // seconds, default 120
	Probe       []string              `toml:"version_probe"`
	Endpoint    string                `toml:"endpoint"` // for network providers: must be loopback
	Operations  map[string]*Operation `toml:"operations"`

	// Source is "shipped" or the path of the definition file.
	Source string `toml:"-"`
	// Shipped is true for definitions embedded in the binary.
	Shipped bool `toml:"-"`
}

// Operation is one thing a provider can do.
type Operation struct {
	Name          string   `toml:"-"`
	Role          string   `toml:"role"`
	Capability    string   `toml:"capability"`
	Regions       string   `toml:"regions"`
	Deterministic bool     `toml:"deterministic"`
	Args          []string `toml:"args"`
	// Options names the variables the engine passes in the request's
	// "options" object (e.g. ["profile"]); nothing else is sent.
	Options []string `toml:"options"`
	// SkipPlainASCII declares that the operation never changes a file whose
	// bytes are all printable ASCII, tab, CR or LF, so the engine may skip
	// such files without classifying them (the fast path).
	SkipPlainASCII bool `toml:"skip_plain_ascii"`
}

// Ref names an operation as "id:operation".
func (d *Definition) Ref(op *Operation) string { return d.ID + ":" + op.Name }

// DefinitionError is a problem with one definition file.
type DefinitionError struct {
	File  string
	Field string
	Msg   string
}

func (e *DefinitionError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("%s: %s", e.File, e.Msg)
	}
	return fmt.Sprintf("%s: %s: %s", e.File, e.Field, e.Msg)
}

// knownVars are the variables an argv element may reference.
func knownVars() []string {
	return []string{
		"endpoint",     // the provider's loopback endpoint
		"input",        // request file (io = "files")
		"model",        // [clean] rewrite_model
		"output",       // reply file (io = "files")
		"profile",      // carrier profile: standard or strict
		"prosewash",    // the running prosewash binary
		"provider_dir", // directory of the definition file
		"workspace",    // project root
	}
}

// ParseDefinition decodes and validates one provider definition. shipped
// says whether it comes from the binary (ids without a namespace) or from a
// project (ids must be "custom/<id>").
func ParseDefinition(file string, data []byte, shipped bool) (*Definition, error) {
	d := &Definition{}
	if err := tomlx.DecodeStrict(file, data, d); err != nil {
		return nil, err
	}
	d.Source, d.Shipped = file, shipped
	if shipped {
		d.Source = "shipped"
	}
	bad := func(field, format string, args ...any) error {
		return &DefinitionError{File: file, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	if err := d.checkIdentity(bad); err != nil {
		return nil, err
	}
	if err := d.checkRunning(bad); err != nil {
		return nil, err
	}
	if len(d.Operations) == 0 {
		return nil, bad("operations", "a provider needs at least one operation")
	}
	for name, op := range d.Operations {
		op.Name = name
		if err := op.check(bad); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// badField makes a *DefinitionError naming the field.
type badField func(field, format string, args ...any) error

// checkIdentity checks the schema, the id (namespaced for a project's
// provider) and that there is a version.
func (d *Definition) checkIdentity(bad badField) error {
	if d.Schema != DefinitionSchema {
		return bad("schema", "must be %q, got %q", DefinitionSchema, d.Schema)
	}
	if d.Shipped {
		if !validID(d.ID) {
			return bad("id", "invalid id %q", d.ID)
		}
	} else {
		name, ok := strings.CutPrefix(d.ID, "custom/")
		if !ok || !validID(name) {
			return bad("id", "a project provider id must be custom/<name> (lowercase letters, digits, . _ -), got %q", d.ID)
		}
	}
	if d.Version == "" {
		return bad("version", "missing")
	}
	return nil
}

// checkRunning checks, and defaults, how the provider runs: locally, over
// stdio or files, within its timeout, as an argv without a shell, talking
// to loopback only.
func (d *Definition) checkRunning(bad badField) error {
	switch d.Locality {
	case "", "local":
		d.Locality = "local"
	default:
		return bad("locality", "only local providers are allowed, got %q", d.Locality)
	}
	switch d.IO {
	case "":
		d.IO = "stdio"
	case "stdio", "files":
	default:
		return bad("io", "must be stdio or files, got %q", d.IO)
	}
	if d.Timeout == 0 {
		d.Timeout = 120
	}
	if d.Timeout < 0 || d.Timeout > 3600 {
		return bad("timeout", "must be 1..3600 seconds, got %d", d.Timeout)
	}
	if err := checkArgv(d.Command, "command", bad); err != nil {
		return err
	}
	if len(d.Probe) > 0 {
		if err := checkArgv(d.Probe, "version_probe", bad); err != nil {
			return err
		}
	}
	if d.Endpoint != "" {
		if err := CheckLoopbackURL(d.Endpoint); err != nil {
			return bad("endpoint", "%v", err)
		}
	}
	return nil
}

// check checks one operation: its name, role, capability, region scope,
// arguments and options.
func (op *Operation) check(bad badField) error {
	field := "operations." + op.Name
	if !validID(op.Name) {
		return bad(field, "invalid operation name")
	}
	switch op.Role {
	case RoleInspect, RoleTransform, RoleValidate:
	default:
		return bad(field+".role", "must be inspect, transform or validate, got %q", op.Role)
	}
	if !slices.Contains(knownCapabilities(), op.Capability) {
		return bad(field+".capability", "unknown capability %q (known: %s)", op.Capability, strings.Join(knownCapabilities(), ", "))
	}
	switch op.Regions {
	case ScopeProse, ScopeRuntime, ScopeAny:
	case "":
		return bad(field+".regions", "missing (prose, runtime or any)")
	default:
		return bad(field+".regions", "must be prose, runtime or any, got %q", op.Regions)
	}
	if err := checkArgv(op.Args, field+".args", bad); err != nil {
		return err
	}
	for _, o := range op.Options {
		if !slices.Contains(knownVars(), o) || o == "input" || o == "output" {
			return bad(field+".options", "unknown option %q (known: endpoint, model, profile, workspace)", o)
		}
	}
	return nil
}

func checkArgv(argv []string, field string, bad badField) error {
	if field == "command" && len(argv) == 0 {
		return bad(field, "missing: an argv array such as [\"python3\", \"${provider_dir}/clean.py\"]")
	}
	if len(argv) > 0 {
		// Shared with [commands] in the configuration: one definition of
		// what only a shell would understand.
		if err := config.CheckArgv(argv); err != nil {
			return bad(field, "%v", err)
		}
	}
	for i, a := range argv {
		if strings.Contains(a, "$(") || strings.Contains(a, "`") {
			return bad(field, "element %d %q is a shell command substitution; commands run without a shell: wrap it in a script your project owns", i, a)
		}
		if a == "--allow-remote" || strings.HasPrefix(a, "--allow-remote=") {
			return bad(field, "element %d: --allow-remote is refused: providers are local only", i)
		}
		for _, v := range varNames(a) {
			if !slices.Contains(knownVars(), v) {
				return bad(field, "element %d uses unknown variable ${%s} (known: %s)", i, v, strings.Join(knownVars(), ", "))
			}
		}
		for _, u := range urls(a) {
			if err := CheckLoopbackURL(u); err != nil {
				return bad(field, "element %d: %v", i, err)
			}
		}
	}
	return nil
}

// CheckLoopbackURL refuses any URL that is not http(s) to loopback.
func CheckLoopbackURL(raw string) error { return loopback.CheckURL(raw) }

// Set is every provider available to a project: shipped first, then custom.
type Set struct {
	Defs []*Definition
	byID map[string]*Definition
}

// Lookup finds a provider by id.
func (s *Set) Lookup(id string) (*Definition, bool) {
	d, ok := s.byID[id]
	return d, ok
}

// LoadSet reads the shipped definitions (every *.toml in shipped) and the
// project's custom ones (every *.toml in custom, which may be nil). A custom
// id that collides with a shipped one is refused, never resolved.
func LoadSet(shipped fs.FS, custom fs.FS, customDir string) (*Set, error) {
	defs, byID, err := tomlx.LoadDefinitions("provider", shipped, "providers", custom, customDir, ParseDefinition,
		func(d *Definition) string { return d.ID }, func(d *Definition) string { return d.Source })
	if err != nil {
		return nil, err
	}
	return &Set{Defs: defs, byID: byID}, nil
}
