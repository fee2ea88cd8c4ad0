package approval

import (
	"fmt"

	"github.com/prosewash/prosewash/engine/config"
	"github.com/prosewash/prosewash/engine/pipeline"
	"github.com/prosewash/prosewash/engine/project"
	"github.com/prosewash/prosewash/engine/provider"
	"github.com/prosewash/prosewash/engine/state"
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
	vars := map[string]string{"provider_dir": p.CustomDir(project.CustomProviders), "workspace": p.Root, "prosewash": self}
	b := map[string]provider.Binding{}
	for _, st := range res.Stages {
		if st.Def != nil {
			if _, done := b[st.Def.ID]; !done {
				b[st.Def.ID] = provider.Bind(st.Def, vars, p.Root, version)
			}
		}
	}
	return Subject{
		Pipeline:         res,
		Bindings:         b,
		MaxRewriteStages: cfg.Clean.MaxRewriteStages,
		Validation:       cfg.Clean.Validation,
		Commands:         cfg.Commands,
		Profile:          string(cfg.Clean.Profile),
	}, nil
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
	if lerr != nil {
		d.Verdict = Verdict{Mode: Manual, Lapsed: true, Why: lerr.Error()}
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
