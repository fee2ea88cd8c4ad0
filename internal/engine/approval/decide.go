package approval

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"

	"github.com/prosewash/prosewash/internal/engine/clean"
	"github.com/prosewash/prosewash/internal/engine/config"
	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/engine/provider"
	"github.com/prosewash/prosewash/internal/engine/state"
)

// ProjectSubject plans a project's configured pipeline for mode, as the
// end of an agent's turn would run it, and covers what that plan runs.
// self is the prosewash binary (for ${prosewash}); version is prosewash's
// version, which shipped providers share, so an upgrade lapses an
// approval.
func ProjectSubject(p *project.Project, self, version, mode string) (Subject, error) {
	cfg, _, err := p.Config()
	if err != nil {
		return Subject{}, err
	}
	// Approved modes only ever run over a session's files, unattended or
	// at the agent's request: plan them as such, so a pipeline that could
	// never run that way is refused here, before anyone approves it.
	plan, err := clean.Prepare(clean.Request{Project: p, Pipeline: cfg.Clean.Pipeline, Mode: mode, Automatic: mode == Automatic, Self: self, Version: version})
	if err != nil {
		return Subject{}, err
	}
	s := Subject{Plan: plan}
	dirs, problems := providerDirs(p, plan)
	files, more := coverTrees(p.Root, dirs)
	s.Files, s.Problems = files, append(problems, more...)
	return s, nil
}

// providerDirs are the directories whose files a project provider's code
// may read: the project's provider directory, and its script's directory.
func providerDirs(p *project.Project, plan *clean.Plan) ([]string, []string) {
	var dirs, problems []string
	seen := map[string]bool{}
	for _, st := range plan.Pipeline.Stages {
		if st.Def == nil || st.Def.Shipped || seen[st.Def.ID] {
			continue
		}
		seen[st.Def.ID] = true
		b := plan.Bindings[st.Def.ID]
		dirs = append(dirs, p.CustomDir(project.CustomProviders))
		if b.Kind != provider.BoundScript {
			continue
		}
		dir := filepath.Dir(b.File)
		if fsx.Inside(dir, p.Root) {
			problems = append(problems, fmt.Sprintf("%s: its program %s sits at the top of the project (or above it), so the files next to it cannot all be covered: move it to a directory of its own, such as %s", st.Def.ID, b.Path, project.CustomProviders))
			continue
		}
		dirs = append(dirs, dir)
	}
	return dirs, problems
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
				// Python's byte-code cache is left out: providers run
				// with it moved to a private directory and never
				// written (provider.Run), so Python neither reads nor
				// writes the one next to the code, and an approved
				// provider that imports a module keeps its approval.
				if d.Name() == ".git" || d.Name() == "__pycache__" {
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
	// Plan is the plan the approval covers, set when the verdict is
	// automatic or confirm: the end of the turn executes this very value.
	Plan *clean.Plan
}

// Decide reads the configured mode and, unless it is manual, plans the
// run and checks the stored approval against that plan's fingerprint. A
// configuration that cannot be read means manual; the error says why.
// Manual costs no definition loading at all.
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
	s, err := ProjectSubject(p, self, version, d.Configured)
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
	case rec != nil && rec.Version != recordVersion:
		d.Verdict = Verdict{Mode: Manual, Lapsed: true, Why: fmt.Sprintf("the stored approval was given by an older prosewash: run 'prosewash approve --mode %s' in a terminal of your own", d.Configured)}
	case d.Verdict.Mode != Manual && !Matches(rec, p.Root, d.Lines, d.Sum):
		// The fingerprint matches, the record does not: its lines were
		// edited, or it is another project's.
		d.Verdict = Verdict{Mode: Manual, Lapsed: true, Why: fmt.Sprintf("the stored approval does not hold what 'prosewash approve' showed for this project: run 'prosewash approve --mode %s' in a terminal of your own", d.Configured)}
	}
	if d.Verdict.Mode != Manual {
		d.Plan = s.Plan
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
