package approval

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/prosewash/prosewash/internal/engine/clean"
	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/validate"
)

// Modes a project can run in.
const (
	Automatic = "automatic" // the Stop hook runs the pipeline over the session's files
	Confirm   = "confirm"   // the Stop hook asks the agent to ask the user
	Manual    = "manual"    // only explicit runs
)

// ValidMode reports whether m is a mode.
func ValidMode(m string) bool { return m == Automatic || m == Confirm || m == Manual }

// Subject is everything an approval covers: the plan an unattended run
// executes, and every file of the directories a project provider's code
// lives in (its definition's directory, its script's directory): a module
// the script imports is as much what runs as the script.
type Subject struct {
	Plan  *clean.Plan
	Files []TreeFile
	// Problems make the subject unapprovable: something an unattended run
	// would execute that an approval cannot cover.
	Problems []string
}

// TreeFile is one file of a provider's directory tree.
type TreeFile struct {
	Path   string // relative to the project root when inside it
	Hash   string
	Target string // for a symbolic link: where it points
}

// Fingerprint renders the subject as lines a person can read and hashes
// them. The lines hold every field of the plan that decides what a run
// does, the mode it is approved for and the project it is for: any change
// to any of them, or to a line, lapses an approval.
func Fingerprint(s Subject) (lines []string, sum string) {
	pl := s.Plan
	p := pl.Pipeline.Pipeline
	src := "shipped"
	if !p.Shipped {
		src = p.Source
	}
	lines = append(lines,
		fmt.Sprintf("mode %s", pl.Mode),
		fmt.Sprintf("project %s", pl.Project.Root),
		fmt.Sprintf("pipeline %s@%s (%s)", p.ID, p.Version, src))
	lines = append(lines, stageLines(pl)...)
	v := pl.Validation
	lines = append(lines,
		fmt.Sprintf("profile %s", orDefault(string(pl.Profile()), "standard")),
		fmt.Sprintf("max_rewrite_stages %d", pl.MaxRewriteStages),
		fmt.Sprintf("validation %s", validate.Max(v.Level, v.Demand)),
		fmt.Sprintf("validation_timeout %s", v.Timeout))
	for _, c := range []struct {
		name string
		argv []string
	}{{"format", v.Commands.Format}, {"build", v.Commands.Build}, {"test", v.Commands.Test}} {
		if len(c.argv) > 0 {
			lines = append(lines, fmt.Sprintf("command %s %s", c.name, quoteAll(c.argv)))
		}
	}
	if v.StripGitEnv {
		lines = append(lines, "validation without git's variables")
	}
	lines = append(lines, runLines(pl)...)
	lines = append(lines, scopeLines(pl)...)
	for _, f := range s.Files {
		if f.Target != "" {
			lines = append(lines, fmt.Sprintf("file %s -> %s sha256:%s", f.Path, f.Target, shortHash(f.Hash)))
			continue
		}
		lines = append(lines, fmt.Sprintf("file %s sha256:%s", f.Path, shortHash(f.Hash)))
	}
	h := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return lines, hex.EncodeToString(h[:])
}

// stageLines are the stages, each with its region scope and what its
// provider is bound to.
func stageLines(pl *clean.Plan) []string {
	var lines []string
	for _, st := range pl.Pipeline.Stages {
		if st.Def == nil {
			lines = append(lines, fmt.Sprintf("stage %d: %s builtin %s", st.Index+1, st.Role, st.Builtin))
			continue
		}
		lines = append(lines, fmt.Sprintf("stage %d: %s %s over %s -> %s@%s:%s [%s]",
			st.Index+1, st.Role, st.Op.Capability, st.Scope, st.Def.ID, st.Def.Version, st.Op.Name, pl.Bindings[st.Def.ID]))
	}
	return lines
}

// runLines are, per stage of a project provider, what it executes (the
// command and the operation's arguments before expansion, the options it
// is sent, its I/O and timeout), then the value of every variable a stage
// uses: the configuration values that feed one, and for a project
// provider the paths it is given. (The profile has a line of its own; a
// shipped provider is this binary, pinned by its version.)
func runLines(pl *clean.Plan) []string {
	var lines []string
	used := map[string]bool{}
	for _, st := range pl.Pipeline.Stages {
		if st.Def == nil {
			continue
		}
		for _, name := range pl.StageVars(st) {
			used[name] = used[name] || !st.Def.Shipped || name == "model" || name == "endpoint"
		}
		if st.Def.Shipped {
			continue
		}
		lines = append(lines, fmt.Sprintf("stage %d runs %s args %s options [%s] io %s timeout %ds",
			st.Index+1, quoteAll(st.Def.Command), quoteAll(st.Op.Args), strings.Join(st.Op.Options, " "), st.Def.IO, st.Def.Timeout))
	}
	for _, v := range []struct{ name, line string }{
		{"model", "config clean.rewrite_model = %q"}, {"endpoint", "config clean.rewrite_endpoint = %q"},
		{"prosewash", "var prosewash = %q"}, {"provider_dir", "var provider_dir = %q"}, {"workspace", "var workspace = %q"},
	} {
		if used[v.name] {
			lines = append(lines, fmt.Sprintf(v.line, pl.Vars[v.name]))
		}
	}
	return lines
}

// scopeLines are what decides which files a run takes and which carriers
// it keeps.
func scopeLines(pl *clean.Plan) []string {
	var lines []string
	for _, a := range pl.Allow {
		lines = append(lines, "allow "+a.String())
	}
	for _, g := range pl.Filter.Include {
		lines = append(lines, "include "+g)
	}
	for _, g := range pl.Filter.Exclude {
		lines = append(lines, "exclude "+g)
	}
	return append(lines, fmt.Sprintf("max_file_size %d", pl.MaxFileSize))
}

func quoteAll(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = strconv.Quote(a)
	}
	return "[" + strings.Join(q, " ") + "]"
}

func shortHash(h string) string {
	if len(h) > 16 {
		return h[:16]
	}
	return h
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Unbound lists the providers of a subject that cannot be bound, and every
// other problem: such a pipeline can never be approved for automatic or
// confirm mode.
func Unbound(s Subject) []string {
	var out []string
	for id, b := range s.Plan.Bindings {
		if !b.Bindable() {
			out = append(out, fmt.Sprintf("%s: %s", id, b.Why))
		}
	}
	out = append(out, s.Problems...)
	sort.Strings(out)
	return out
}

// Record is the stored approval. It holds no secret: the agent runs as the
// person, so any key the end of a turn could check, the agent could read.
// What makes a record an approval is that its lines are what the project
// plans now, for the configured mode, and hash to its fingerprint.
type Record struct {
	Version     int       `json:"version"`
	Mode        string    `json:"mode"`
	Fingerprint string    `json:"fingerprint"`
	Lines       []string  `json:"lines"`
	ApprovedAt  time.Time `json:"approved_at"`
	// Root is the project the approval is for.
	Root string `json:"root"`
	// LapseReported is set once a lapse has been told to the user, so the
	// Stop hook says it once, not every turn.
	LapseReported string `json:"lapse_reported,omitempty"`
}

// recordVersion 3 put the mode and the project into the fingerprinted
// lines and dropped the seal (version 2), whose key sat where the agent
// could read it; an older record lapses.
const recordVersion = 3

func file(stateDir string) string { return filepath.Join(stateDir, "approval.json") }

// oldKeyFile is where version 2 kept the seal's key; Grant removes it.
func oldKeyFile(stateDir string) string { return filepath.Join(stateDir, "approval.key") }

// Load reads the stored approval; a missing or unreadable one is absent
// (which means manual).
func Load(stateDir string) (*Record, error) {
	b, err := fsx.ReadRegular(file(stateDir), 1<<20, false)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read approval: %w", err)
	}
	r := &Record{}
	if err := json.Unmarshal(b, r); err != nil || r.Version < 1 || r.Version > recordVersion || !ValidMode(r.Mode) {
		return nil, fmt.Errorf("approval %s is unreadable; treated as manual", file(stateDir))
	}
	return r, nil
}

// Save stores a record as it is, privately and atomically.
func Save(stateDir string, r *Record) error {
	if r.Version == 0 {
		r.Version = recordVersion
	}
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return fmt.Errorf("create state dir: %w", err)
	}
	if err := fsx.WriteFileAtomic(file(stateDir), append(b, '\n'), 0o600); err != nil {
		return fmt.Errorf("write approval: %w", err)
	}
	return nil
}

// Grant stores the approval a person gave for the subject's plan: its
// mode, its fingerprint lines and their sum, for its project. It refuses
// (an *AgentError) when the caller shows any sign of an agent CLI,
// whatever the command line calling it checked before.
func Grant(stateDir string, c Caller, s Subject) (*Record, error) {
	if err := c.CheckPerson(); err != nil {
		return nil, err
	}
	if u := Unbound(s); len(u) > 0 {
		return nil, fmt.Errorf("cannot approve: %s", u[0])
	}
	lines, sum := Fingerprint(s)
	r := &Record{Version: recordVersion, Mode: s.Plan.Mode, Fingerprint: sum, Lines: lines, ApprovedAt: time.Now().UTC().Round(time.Second), Root: s.Plan.Project.Root}
	if err := Save(stateDir, r); err != nil {
		return nil, err
	}
	// The old seal's key protected nothing an agent could not read.
	_ = os.Remove(oldKeyFile(stateDir))
	return r, nil
}

// Matches reports whether r approves exactly the lines given for the
// project at root: its version is current, its lines are these lines and
// hash to its fingerprint.
func Matches(r *Record, root string, lines []string, sum string) bool {
	if r == nil || r.Version != recordVersion || r.Root != root || r.Fingerprint != sum || !slices.Equal(r.Lines, lines) {
		return false
	}
	h := sha256.Sum256([]byte(strings.Join(r.Lines, "\n")))
	return hex.EncodeToString(h[:]) == r.Fingerprint
}

// Revoke removes the stored approval.
func Revoke(stateDir string) error {
	err := os.Remove(file(stateDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

// Verdict is the effective mode after checking an approval.
type Verdict struct {
	Mode   string // the mode that applies
	Lapsed bool   // an approval existed for a different fingerprint or mode
	Why    string
}

// Effective decides the mode that applies: the configured mode only when a
// stored approval for that mode matches the current fingerprint; otherwise
// manual. Manual needs no approval. A lapse drops to manual, never to a
// prompt (the prompt would be seen by the agent whose output is cleaned).
func Effective(configured string, rec *Record, fingerprint string) Verdict {
	if configured == "" || configured == Manual || !ValidMode(configured) {
		return Verdict{Mode: Manual}
	}
	switch {
	case rec == nil:
		return Verdict{Mode: Manual, Why: fmt.Sprintf("mode %s is configured but was never approved: run 'prosewash approve --mode %s' in a terminal", configured, configured)}
	case rec.Mode != configured:
		return Verdict{Mode: Manual, Lapsed: true, Why: fmt.Sprintf("the approval is for mode %s, the configuration says %s: run 'prosewash approve --mode %s'", rec.Mode, configured, configured)}
	case rec.Fingerprint != fingerprint:
		return Verdict{Mode: Manual, Lapsed: true, Why: "the pipeline, its providers or the validation changed since the approval: run 'prosewash approve' to review and approve again"}
	}
	return Verdict{Mode: configured}
}
