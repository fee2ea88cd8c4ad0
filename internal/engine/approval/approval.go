package approval

import (
	"crypto/hmac"
	"crypto/rand"
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

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/pipeline"
	"github.com/prosewash/prosewash/internal/engine/provider"
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
	// Runs are, per stage of a project provider, what it executes: the
	// command and the operation's arguments before expansion, the options
	// it is sent, its I/O and timeout.
	Runs []string
	// Files are every file of the directories a project provider's code
	// lives in (its definition's directory, its script's directory): a
	// module the script imports is as much what runs as the script.
	Files []TreeFile
	// Vars are the configuration keys whose values feed a variable some
	// stage uses (${model}, ${endpoint}), as "key = value".
	Vars []string
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
	lines = append(lines, s.Runs...)
	for _, v := range s.Vars {
		lines = append(lines, "config "+v)
	}
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

// Unbound lists the providers of a subject that cannot be bound: such a
// pipeline can never be approved for automatic or confirm mode.
func Unbound(s Subject) []string {
	var out []string
	for id, b := range s.Bindings {
		if !b.Bindable() {
			out = append(out, fmt.Sprintf("%s: %s", id, b.Why))
		}
	}
	out = append(out, s.Problems...)
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
	// Root is the project the approval is for.
	Root string `json:"root"`
	// Seal is an HMAC of everything above under a key that 'prosewash
	// approve' keeps in the state directory and never prints: a record
	// written from what approve shows, or copied from another project,
	// does not carry it.
	Seal string `json:"seal"`
	// LapseReported is set once a lapse has been told to the user, so the
	// Stop hook says it once, not every turn.
	LapseReported string `json:"lapse_reported,omitempty"`
}

// recordVersion 2 added Root and Seal; a version 1 record lapses.
const recordVersion = 2

func file(stateDir string) string { return filepath.Join(stateDir, "approval.json") }

func keyFile(stateDir string) string { return filepath.Join(stateDir, "approval.key") }

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
	if err := json.Unmarshal(b, r); err != nil || (r.Version != 1 && r.Version != recordVersion) || !ValidMode(r.Mode) {
		return nil, fmt.Errorf("approval %s is unreadable; treated as manual", file(stateDir))
	}
	return r, nil
}

// Save stores a record as it is, privately and atomically. It never seals:
// only Grant makes a record that an unattended run honours.
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

// Grant stores the approval a person gave for mode: the fingerprint lines
// and their sum, for the project at root, sealed. It refuses (an
// *AgentError) when the caller shows any sign of an agent CLI, whatever
// the command line calling it checked before.
func Grant(stateDir string, c Caller, root, mode string, lines []string, sum string) (*Record, error) {
	if err := c.CheckPerson(); err != nil {
		return nil, err
	}
	key, err := sealKey(stateDir, true)
	if err != nil {
		return nil, err
	}
	r := &Record{Version: recordVersion, Mode: mode, Fingerprint: sum, Lines: lines, ApprovedAt: time.Now().UTC().Round(time.Second), Root: root}
	r.Seal = seal(key, r)
	return r, Save(stateDir, r)
}

// Sealed reports whether r was made by Grant with this state dir's key for
// the project at root.
func Sealed(stateDir, root string, r *Record) bool {
	if r == nil || r.Version != recordVersion || r.Root != root || r.Seal == "" {
		return false
	}
	key, err := sealKey(stateDir, false)
	if err != nil {
		return false
	}
	return hmac.Equal([]byte(seal(key, r)), []byte(r.Seal))
}

// seal is the HMAC-SHA256 of a record's approved content.
func seal(key []byte, r *Record) string {
	m := hmac.New(sha256.New, key)
	fmt.Fprintf(m, "prosewash approval %d\x00%s\x00%s\x00%s\x00%s", r.Version, r.Mode, r.Root, r.Fingerprint, r.ApprovedAt.UTC().Format(time.RFC3339Nano))
	for _, l := range r.Lines {
		fmt.Fprintf(m, "\x00%s", l)
	}
	return hex.EncodeToString(m.Sum(nil))
}

// sealKey reads the state dir's approval key, creating it (32 random
// bytes, mode 0600) when create is set and it does not exist.
func sealKey(stateDir string, create bool) ([]byte, error) {
	p := keyFile(stateDir)
	b, err := fsx.ReadRegular(p, 64, false)
	if errors.Is(err, fs.ErrNotExist) && create {
		k := make([]byte, 32)
		if _, err := rand.Read(k); err != nil {
			return nil, err
		}
		if err := os.MkdirAll(stateDir, 0o700); err != nil {
			return nil, fmt.Errorf("create state dir: %w", err)
		}
		if err := fsx.WriteNew(p, k); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("approval key: %w", err)
		}
		b, err = fsx.ReadRegular(p, 64, false)
	}
	if err != nil {
		return nil, fmt.Errorf("approval key: %w", err)
	}
	if len(b) != 32 {
		return nil, fmt.Errorf("approval key %s is damaged", p)
	}
	return b, nil
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
