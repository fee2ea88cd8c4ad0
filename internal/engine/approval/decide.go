package approval

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/config"
	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/pipeline"
	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/engine/provider"
	"github.com/prosewash/prosewash/internal/engine/state"
)

// ProjectSubject builds what an approval covers for a project's configured
// pipeline: the resolved stages, the provider each is bound to, the
// rewrite limit, the validation level and its commands. self is the
// prosewash binary (for ${prosewash}); version is prosewash's version,
// which shipped providers share, so an upgrade lapses an approval.
func ProjectSubject(p *project.Project, self, version string) (Subject, error) {
	cfg, _, err := p.Config()
	if err != nil {
		return Subject{}, err
	}
	pipes, err := p.Pipelines()
	if err != nil {
		return Subject{}, err
	}
	provs, err := p.Providers()
	if err != nil {
		return Subject{}, err
	}
	pl, ok := pipes.Lookup(cfg.Clean.Pipeline)
	if !ok {
		return Subject{}, fmt.Errorf("unknown pipeline %q ([clean] pipeline)", cfg.Clean.Pipeline)
	}
	// Approved modes only ever run over a session's files, unattended or
	// at the agent's request: resolve as such, so a pipeline that could
	// never run that way is refused here, before anyone approves it.
	res, err := pipeline.Resolve(pl, provs, pipeline.Options{MaxRewriteStages: cfg.Clean.MaxRewriteStages, Automatic: true})
	if err != nil {
		return Subject{}, err
	}
	providerDir := p.CustomDir(project.CustomProviders)
	vars := map[string]string{"provider_dir": providerDir, "workspace": p.Root, "prosewash": self}
	s := Subject{
		Pipeline:         res,
		Bindings:         map[string]provider.Binding{},
		MaxRewriteStages: cfg.Clean.MaxRewriteStages,
		Validation:       cfg.Clean.Validation,
		Commands:         cfg.Commands,
		Profile:          string(cfg.Clean.Profile),
	}
	used := map[string]bool{}
	var dirs []string
	for _, st := range res.Stages {
		if st.Def == nil {
			continue
		}
		for _, a := range append(append([]string{}, st.Def.Command...), st.Op.Args...) {
			for _, v := range []string{"model", "endpoint"} {
				if strings.Contains(a, "${"+v+"}") {
					used[v] = true
				}
			}
		}
		for _, o := range st.Op.Options {
			used[o] = true
		}
		if st.Def.Shipped {
			// Shipped providers are this binary: its version pins them.
			if _, done := s.Bindings[st.Def.ID]; !done {
				s.Bindings[st.Def.ID] = provider.Bind(st.Def, vars, p.Root, version)
			}
			continue
		}
		s.Runs = append(s.Runs, fmt.Sprintf("stage %d runs %s args %s options [%s] io %s timeout %ds",
			st.Index+1, quoteAll(st.Def.Command), quoteAll(st.Op.Args), strings.Join(st.Op.Options, " "), st.Def.IO, st.Def.Timeout))
		if _, done := s.Bindings[st.Def.ID]; done {
			continue
		}
		b := provider.Bind(st.Def, vars, p.Root, version)
		s.Bindings[st.Def.ID] = b
		dirs = append(dirs, providerDir)
		if b.Kind == provider.BoundScript {
			script := filepath.FromSlash(b.Path)
			if !filepath.IsAbs(script) {
				script = filepath.Join(p.Root, script)
			}
			dir := filepath.Dir(script)
			if fsx.Inside(dir, p.Root) {
				s.Problems = append(s.Problems, fmt.Sprintf("%s: its program %s sits at the top of the project (or above it), so the files next to it cannot all be covered: move it to a directory of its own, such as %s", st.Def.ID, b.Path, project.CustomProviders))
				continue
			}
			dirs = append(dirs, dir)
		}
	}
	if used["model"] {
		s.Vars = append(s.Vars, fmt.Sprintf("clean.rewrite_model = %q", cfg.Clean.RewriteModel))
	}
	if used["endpoint"] {
		s.Vars = append(s.Vars, fmt.Sprintf("clean.rewrite_endpoint = %q", cfg.Clean.RewriteEndpoint))
	}
	files, problems := coverTrees(p.Root, dirs)
	s.Files, s.Problems = files, append(s.Problems, problems...)
	return s, nil
}

func quoteAll(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = strconv.Quote(a)
	}
	return "[" + strings.Join(q, " ") + "]"
}

// Bounds of what an approval covers of the provider directories.
const (
	maxTreeFiles = 2000
	maxTreeBytes = 64 << 20
)

// coverTrees hashes every file below dirs (each once, nested ones merged),
// skipping .git. A symbolic link to a file is followed and hashed; a link
// to a directory, a tree too large, or a file that cannot be read is a
// problem: an approval cannot cover it.
func coverTrees(root string, dirs []string) ([]TreeFile, []string) {
	rroot := fsx.ResolveExisting(root)
	var tops []string
	for _, d := range dirs {
		d = fsx.ResolveExisting(d)
		if !slices.Contains(tops, d) {
			tops = append(tops, d)
		}
	}
	seen := map[string]bool{}
	var files []TreeFile
	var problems []string
	var total int64
	show := func(p string) string {
		if fsx.Below(rroot, p) {
			rel, _ := filepath.Rel(rroot, p)
			return filepath.ToSlash(rel)
		}
		return p
	}
	for _, top := range tops {
		if fi, err := os.Stat(top); err != nil || !fi.IsDir() {
			continue
		}
		err := filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s: cannot be read, so an approval cannot cover it", show(p)))
				return nil
			}
			if d.IsDir() {
				if d.Name() == ".git" {
					return filepath.SkipDir
				}
				return nil
			}
			if seen[p] {
				return nil
			}
			seen[p] = true
			if len(files) >= maxTreeFiles {
				problems = append(problems, fmt.Sprintf("%s: more than %d files next to a provider's code; keep a provider in a directory of its own", show(top), maxTreeFiles))
				return filepath.SkipAll
			}
			f := TreeFile{Path: show(p)}
			target := p
			if d.Type()&fs.ModeSymlink != 0 {
				f.Target, _ = os.Readlink(p)
				fi, err := os.Stat(p)
				if err == nil && fi.IsDir() {
					problems = append(problems, fmt.Sprintf("%s: a link to a directory next to a provider's code cannot be covered", show(p)))
					return nil
				}
				if err != nil {
					f.Hash = "dangling"
					files = append(files, f)
					return nil
				}
			}
			fi, err := os.Stat(target)
			if err != nil || !fi.Mode().IsRegular() {
				problems = append(problems, fmt.Sprintf("%s: not a regular file next to a provider's code", show(p)))
				return nil
			}
			if total += fi.Size(); total > maxTreeBytes {
				problems = append(problems, fmt.Sprintf("%s: more than %d MiB next to a provider's code; keep a provider in a directory of its own", show(top), maxTreeBytes>>20))
				return filepath.SkipAll
			}
			h, ok, err := fsx.HashFile(target)
			if f.Target != "" {
				real, rerr := filepath.EvalSymlinks(p)
				if rerr == nil {
					h, ok, err = fsx.HashFile(real)
				}
			}
			if err != nil || !ok {
				problems = append(problems, fmt.Sprintf("%s: cannot be read, so an approval cannot cover it", show(p)))
				return nil
			}
			f.Hash = h.String()
			files = append(files, f)
			return nil
		})
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", show(top), err))
		}
	}
	sort.Slice(files, func(a, b int) bool { return files[a].Path < files[b].Path })
	return files, problems
}

// Decision is the mode that applies now and why.
type Decision struct {
	Configured string   // [clean] mode; manual when the configuration cannot be read
	Verdict    Verdict  // the mode that applies
	Lines      []string // the fingerprint, when one was computed
	Sum        string
	Record     *Record // the stored approval, if any
}

// Decide reads the configured mode and, unless it is manual, checks the
// stored approval against the current fingerprint. A configuration that
// cannot be read means manual; the error says why. Manual costs no
// definition loading at all.
func Decide(p *project.Project, stateDir, self, version string) (Decision, error) {
	cfg, _, err := p.Config()
	d := Decision{Configured: cfg.CleanMode(), Verdict: Verdict{Mode: Manual}}
	if err != nil {
		d.Configured = config.ModeManual
		return d, err
	}
	if d.Configured == config.ModeManual {
		return d, nil
	}
	s, err := ProjectSubject(p, self, version)
	if err != nil {
		d.Verdict.Why = fmt.Sprintf("mode %s is configured but its pipeline cannot be approved: %v", d.Configured, err)
		return d, nil
	}
	if u := Unbound(s); len(u) > 0 {
		d.Verdict.Why = fmt.Sprintf("mode %s is configured but a provider cannot be bound (%s); it never runs unattended", d.Configured, u[0])
		return d, nil
	}
	d.Lines, d.Sum = Fingerprint(s)
	rec, lerr := Load(stateDir)
	d.Record = rec
	d.Verdict = Effective(d.Configured, rec, d.Sum)
	switch {
	case lerr != nil:
		d.Verdict = Verdict{Mode: Manual, Lapsed: true, Why: lerr.Error()}
	case d.Verdict.Mode != Manual && (!slices.Equal(rec.Lines, d.Lines) || !Sealed(stateDir, p.Root, rec)):
		// The fingerprint matches, the seal does not: the record was
		// written by something other than 'prosewash approve' on a
		// terminal (or for another project, or by an older prosewash).
		d.Verdict = Verdict{Mode: Manual, Lapsed: true, Why: fmt.Sprintf("the stored approval does not carry the seal 'prosewash approve' gives it: run 'prosewash approve --mode %s' in a terminal of your own", d.Configured)}
	}
	return d, nil
}

// NoteOnce tells whether the verdict's reason has not been reported yet,
// and remembers that it now has been: a lapsed approval is said once, not
// at the end of every turn. A lapse is remembered in the approval record
// (per fingerprint); anything else by a marker file in the state dir.
func (d Decision) NoteOnce(stateDir string) bool {
	if d.Verdict.Why == "" || d.Verdict.Mode != Manual {
		return false
	}
	if d.Verdict.Lapsed && d.Record != nil {
		key := d.Configured + ":" + d.Sum
		if d.Record.LapseReported == key || !state.Once(stateDir, "lapse:"+key) {
			return false
		}
		d.Record.LapseReported = key
		// Saving only adds the note; a failure leaves the marker, which
		// already keeps the message from repeating.
		_ = Save(stateDir, d.Record)
		return true
	}
	return state.Once(stateDir, "mode:"+d.Configured+":"+d.Sum+":"+d.Verdict.Why)
}
