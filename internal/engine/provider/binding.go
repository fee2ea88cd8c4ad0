package provider

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/prosewash/prosewash/internal/engine/fsx"
)

// Binding is what a provider definition is bound to: the exact program an
// approval covers. Changing the bound script or binary changes the binding,
// which lapses any approval that included it.
type Binding struct {
	Kind    string `json:"kind"` // shipped, script, binary, unbound
	Path    string `json:"path,omitempty"`
	Version string `json:"version,omitempty"`
	Hash    string `json:"sha256,omitempty"`
	Why     string `json:"why,omitempty"` // for unbound: why it cannot be bound
	// File is the absolute resolved path of the bound script or binary:
	// what Run opens, checks against Hash and runs.
	File string `json:"file,omitempty"`
	// ScriptArg is, for a script an interpreter runs, the position in the
	// expanded command of the argument naming it.
	ScriptArg int `json:"script_arg,omitempty"`
	// Interpreter is, for a script, the program that runs it: its resolved
	// path, version line and content hash. Replacing the interpreter runs
	// other code as surely as editing the script does.
	Interpreter *Program `json:"interpreter,omitempty"`
}

// Program is an executable pinned by path, version and content.
type Program struct {
	Path    string `json:"path"`
	Version string `json:"version"`
	Hash    string `json:"sha256"`
}

// Binding kinds.
const (
	BoundShipped = "shipped"
	BoundScript  = "script"
	BoundBinary  = "binary"
	Unbound      = "unbound"
)

// Bindable reports whether the binding pins what runs; an unbound provider
// needs confirmation on every run and is never eligible for automatic mode.
func (b Binding) Bindable() bool { return b.Kind != Unbound }

func (b Binding) String() string {
	switch b.Kind {
	case BoundShipped:
		return "shipped@" + b.Version
	case BoundScript:
		if i := b.Interpreter; i != nil {
			return fmt.Sprintf("script %s sha256:%s run by %s (%s) sha256:%s", b.Path, short(b.Hash), i.Path, i.Version, short(i.Hash))
		}
		return fmt.Sprintf("script %s sha256:%s", b.Path, short(b.Hash))
	case BoundBinary:
		return fmt.Sprintf("binary %s %s sha256:%s", b.Path, b.Version, short(b.Hash))
	}
	return "unbound (" + b.Why + ")"
}

func short(h string) string {
	if len(h) > 16 {
		return h[:16]
	}
	return h
}

// Bind resolves what a definition runs. vars must hold the variables its
// command uses (provider_dir, prosewash, ...); root is the project root;
// version is prosewash's own version, which shipped providers share.
func Bind(def *Definition, vars map[string]string, root, version string) Binding {
	if def.Shipped {
		return Binding{Kind: BoundShipped, Version: version}
	}
	argv, err := Expand(def.Command, withPlaceholders(vars))
	if err != nil || len(argv) == 0 {
		return Binding{Kind: Unbound, Why: "its command cannot be expanded"}
	}
	// A relative program path runs from the project root (the provider's
	// working directory), whatever directory prosewash was started in.
	name := argv[0]
	if strings.ContainsAny(name, `/\`) && !filepath.IsAbs(name) {
		name = filepath.Join(root, name)
	}
	prog, err := exec.LookPath(name)
	if err != nil {
		return Binding{Kind: Unbound, Why: fmt.Sprintf("program %q not found", argv[0])}
	}
	if isInterpreter(prog) {
		return bindScript(prog, argv, root)
	}
	if inside(root, prog) {
		return bindFile(BoundScript, prog, root, "")
	}
	return bindFile(BoundBinary, prog, root, probeVersion(def, prog))
}

// bindScript binds an interpreter's script and pins the interpreter too.
// An interpreter inside the project is refused (an agent could rewrite it),
// and so is env, which chooses the interpreter from PATH when it runs.
func bindScript(prog string, argv []string, root string) Binding {
	real, err := realPath(prog)
	if err != nil {
		return Binding{Kind: Unbound, Why: fmt.Sprintf("cannot resolve %s", prog)}
	}
	if inside(root, prog) || inside(root, real) {
		return Binding{Kind: Unbound, Why: fmt.Sprintf("interpreter %s is inside the project, where an agent could change what it runs", prog)}
	}
	if strings.TrimSuffix(filepath.Base(real), ".exe") == "env" {
		return Binding{Kind: Unbound, Why: "env picks the interpreter from PATH when it runs: name the interpreter itself"}
	}
	for i, a := range argv[1:] {
		if strings.HasPrefix(a, "-") {
			continue
		}
		// A relative script path is read from the project root, the
		// provider's working directory.
		if !filepath.IsAbs(a) {
			a = filepath.Join(root, a)
		}
		if fi, err := os.Stat(a); err == nil && fi.Mode().IsRegular() {
			b := bindFile(BoundScript, a, root, "")
			if !b.Bindable() {
				return b
			}
			b.ScriptArg = i + 1
			h, err := hashFile(real)
			if err != nil {
				return Binding{Kind: Unbound, Why: fmt.Sprintf("cannot read %s", real)}
			}
			ver, err := ProbeOutput([]string{real, "--version"})
			if err != nil {
				ver = "version unknown"
			}
			b.Interpreter = &Program{Path: real, Version: ver, Hash: h}
			return b
		}
		break
	}
	return Binding{Kind: Unbound, Why: fmt.Sprintf("bare interpreter %s with no script file to bind", filepath.Base(prog))}
}

func bindFile(kind, path, root, version string) Binding {
	real, err := realPath(path)
	if err != nil {
		return Binding{Kind: Unbound, Why: fmt.Sprintf("cannot resolve %s", path)}
	}
	h, err := hashFile(real)
	if err != nil {
		return Binding{Kind: Unbound, Why: fmt.Sprintf("cannot read %s", path)}
	}
	shown := real
	if rr, err := filepath.EvalSymlinks(root); err == nil && inside(rr, real) {
		shown, _ = filepath.Rel(rr, real)
		shown = filepath.ToSlash(shown)
	}
	return Binding{Kind: kind, Path: shown, Version: version, Hash: h, File: real}
}

// realPath is the absolute path p resolves to, links followed.
func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

func inside(root, p string) bool {
	return fsx.Inside(fsx.ResolveExisting(root), fsx.ResolveExisting(p))
}

func hashFile(p string) (string, error) {
	h, ok, err := fsx.HashFile(p)
	if err == nil && !ok {
		err = fs.ErrNotExist
	}
	return h.String(), err
}

// probeVersion runs the definition's version probe (or PROGRAM --version)
// and keeps its first line.
func probeVersion(def *Definition, prog string) string {
	argv := []string{prog, "--version"}
	if len(def.Probe) > 0 {
		if a, err := Expand(def.Probe, map[string]string{}); err == nil {
			argv = a
		}
	}
	out, err := ProbeOutput(argv)
	if err != nil {
		return "version unknown"
	}
	return out
}

// ProbeOutput runs argv briefly and returns the first line of its output.
func ProbeOutput(argv []string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stdin = nil
	setProcessGroup(cmd)
	cmd.WaitDelay = time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", err
	}
	line, _, _ := strings.Cut(strings.TrimSpace(out.String()), "\n")
	if len(line) > 120 {
		line = line[:120]
	}
	return line, nil
}

// withPlaceholders fills variables that only exist at run time (input and
// output files) so a command can be expanded for binding.
func withPlaceholders(vars map[string]string) map[string]string {
	m := map[string]string{"input": "", "output": "", "model": "", "profile": "", "endpoint": ""}
	for k, v := range vars {
		m[k] = v
	}
	return m
}
