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
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/prosewash/prosewash/engine/fsx"
	"github.com/prosewash/prosewash/engine/pipeline"
	"github.com/prosewash/prosewash/engine/provider"
	"github.com/prosewash/prosewash/engine/validate"
)

// Modes a project can run in.
const (
	Automatic = "automatic" // the Stop hook runs the pipeline over the session's files
	Confirm   = "confirm"   // the Stop hook asks the agent to ask the user
	Manual    = "manual"    // only explicit runs
)

// ValidMode reports whether m is a mode.
func ValidMode(m string) bool { return m == Automatic || m == Confirm || m == Manual }

// Subject is everything an approval covers.
type Subject struct {
	Pipeline         *pipeline.Resolved
	Bindings         map[string]provider.Binding // by provider id
	MaxRewriteStages int
	Validation       validate.Level // configured level
	// Commands are the validation commands an unattended run executes; a
	// project edit that changes them must lapse the approval too.
	Commands validate.Commands
	// Profile is the carrier profile (standard or strict): switching it
	// changes what an unattended run removes.
	Profile string
}

// Fingerprint renders the subject as lines a human can read and hashes
// them. Any change to any line lapses an approval.
func Fingerprint(s Subject) (lines []string, sum string) {
	p := s.Pipeline.Pipeline
	src := "shipped"
	if !p.Shipped {
		src = p.Source
	}
	lines = append(lines, fmt.Sprintf("pipeline %s@%s (%s)", p.ID, p.Version, src))
	for _, st := range s.Pipeline.Stages {
		if st.Def == nil {
			lines = append(lines, fmt.Sprintf("stage %d: %s builtin %s", st.Index+1, st.Role, st.Builtin))
			continue
		}
		b := s.Bindings[st.Def.ID]
		lines = append(lines, fmt.Sprintf("stage %d: %s %s over %s -> %s@%s:%s [%s]",
			st.Index+1, st.Role, st.Op.Capability, st.Scope, st.Def.ID, st.Def.Version, st.Op.Name, b))
	}
	lines = append(lines,
		fmt.Sprintf("profile %s", orDefault(s.Profile, "standard")),
		fmt.Sprintf("max_rewrite_stages %d", s.MaxRewriteStages),
		fmt.Sprintf("validation %s", validate.Max(s.Validation, s.Pipeline.Demand)))
	for _, c := range []struct {
		name string
		argv []string
	}{{"format", s.Commands.Format}, {"build", s.Commands.Build}, {"test", s.Commands.Test}} {
		if len(c.argv) > 0 {
			q := make([]string, len(c.argv))
			for i, a := range c.argv {
				q[i] = strconv.Quote(a)
			}
			lines = append(lines, fmt.Sprintf("command %s [%s]", c.name, strings.Join(q, " ")))
		}
	}
	h := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return lines, hex.EncodeToString(h[:])
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// Unbound lists the providers of a subject that cannot be bound: such a
// pipeline can never be approved for automatic or confirm mode.
func Unbound(s Subject) []string {
	var out []string
	for id, b := range s.Bindings {
		if !b.Bindable() {
			out = append(out, fmt.Sprintf("%s: %s", id, b.Why))
		}
	}
	sort.Strings(out)
	return out
}

// Record is the stored approval.
type Record struct {
	Version     int       `json:"version"`
	Mode        string    `json:"mode"`
	Fingerprint string    `json:"fingerprint"`
	Lines       []string  `json:"lines"`
	ApprovedAt  time.Time `json:"approved_at"`
	// LapseReported is set once a lapse has been told to the user, so the
	// Stop hook says it once, not every turn.
	LapseReported string `json:"lapse_reported,omitempty"`
}

func file(stateDir string) string { return filepath.Join(stateDir, "approval.json") }

// Load reads the stored approval; a missing or unreadable one is absent
// (which means manual).
func Load(stateDir string) (*Record, error) {
	b, err := os.ReadFile(file(stateDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read approval: %w", err)
	}
	r := &Record{}
	if err := json.Unmarshal(b, r); err != nil || r.Version != 1 || !ValidMode(r.Mode) {
		return nil, fmt.Errorf("approval %s is unreadable; treated as manual", file(stateDir))
	}
	return r, nil
}

// Save stores an approval privately and atomically.
func Save(stateDir string, r *Record) error {
	r.Version = 1
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
