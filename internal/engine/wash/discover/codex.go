package discover

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/pelletier/go-toml/v2"

	"github.com/prosewash/prosewash/internal/engine/fsx"
)

// Codex's defaults (codex-rs/core/src/agents_md.rs): a 32 KiB budget over the project chain,
// ".git" as the project root marker, no fallback names.
const codexDefaultMaxBytes = 32 << 10

// codexConfig is what Codex's config.toml says about AGENTS.md discovery.
type codexConfig struct {
	MaxBytes  int64
	Fallbacks []string
	Markers   []string
	// From names the config files that set any of these, for the entries' Why.
	From []string
}

type codexTOML struct {
	ProjectDocMaxBytes          *int64    `toml:"project_doc_max_bytes"`
	ProjectDocFallbackFilenames *[]string `toml:"project_doc_fallback_filenames"`
	ProjectRootMarkers          *[]string `toml:"project_root_markers"`
}

// readCodexConfig reads the Codex home's config.toml and the project's .codex/config.toml
// (Codex layers the project's over the user's, except project_root_markers, which it takes
// from the user layers only). A file that cannot be parsed is reported and ignored, as Codex
// would refuse it and use no setting of it.
func (r *run) readCodexConfig(home string) codexConfig {
	c := codexConfig{MaxBytes: codexDefaultMaxBytes, Markers: []string{".git"}}
	apply := func(path string, project bool) {
		b, err := fsx.ReadRegular(path, 1<<20, true)
		if err != nil {
			return
		}
		var t codexTOML
		if err := toml.Unmarshal(bytes.TrimPrefix(b, []byte{0xEF, 0xBB, 0xBF}), &t); err != nil {
			r.problem(path, Codex, "unreadable config.toml (its AGENTS.md settings are ignored): "+err.Error())
			return
		}
		set := false
		if t.ProjectDocMaxBytes != nil {
			c.MaxBytes, set = max(0, *t.ProjectDocMaxBytes), true
		}
		if t.ProjectDocFallbackFilenames != nil {
			c.Fallbacks, set = *t.ProjectDocFallbackFilenames, true
		}
		if t.ProjectRootMarkers != nil && !project {
			c.Markers, set = *t.ProjectRootMarkers, true
		}
		if set {
			c.From = append(c.From, path)
		}
	}
	apply(filepath.Join(home, "config.toml"), false)
	root := markerRoot(r.start, c.Markers)
	if root == "" {
		root = r.start
	}
	for _, d := range chainFrom(root, r.start) {
		apply(filepath.Join(d, ".codex", "config.toml"), true)
	}
	return c
}

// codexNames are the file names Codex tries in each directory, in order.
func (c codexConfig) names() []string {
	names := []string{"AGENTS.override.md", "AGENTS.md"}
	for _, f := range c.Fallbacks {
		if f != "" && !slices.Contains(names, f) {
			names = append(names, f)
		}
	}
	return names
}

// codex discovers what Codex loads: the first non-empty of the Codex home's AGENTS.override.md
// and AGENTS.md, then, in every directory from the project root (the nearest ancestor holding
// a project_root_markers entry, .git by default; the start directory alone when there is
// none) down to the session's start directory, the first existing file of AGENTS.override.md,
// AGENTS.md and the project_doc_fallback_filenames; concatenated root first and cut off once
// project_doc_max_bytes (32 KiB) of them are read. Directories above the project root are
// inherited. Shadowed files and text past the budget are never loaded.
func (r *run) codex() {
	home := r.opts.Getenv("CODEX_HOME")
	if !filepath.IsAbs(home) {
		home = filepath.Join(r.opts.Home, ".codex")
	}
	homeReal := r.realRoot(home)
	cfg := r.readCodexConfig(home)
	r.codexGlobal(home, homeReal)
	top := markerRoot(r.start, cfg.Markers)
	dirs := []string{r.start}
	if top != "" {
		dirs = chainFrom(top, r.start)
	}
	remaining := cfg.MaxBytes
	for _, d := range dirs {
		e := Entry{Platform: Codex, Kind: Governance, Scope: ScopeProject, AlwaysLoaded: true, Why: "AGENTS.md chain (Codex and other agents)"}
		roots := []string{r.project}
		if r.above(d) {
			roots = []string{r.realRoot(d)}
			e.Scope, e.Inherited = ScopeAbove, true
			e.Why = "AGENTS.md above the project root, below the project root marker: loaded, never counted or touched"
		}
		chosen := ""
		for _, name := range cfg.names() {
			p := filepath.Join(d, name)
			if chosen != "" {
				if real, _, ok := r.check(p, Codex, roots); ok {
					r.unloadedFile(p, real, Codex, fmt.Sprintf("%s in the same directory wins: Codex reads one file per directory", filepath.Base(chosen)))
				}
				continue
			}
			got, ok := r.file(p, e, roots)
			if !ok {
				continue
			}
			chosen = p
			remaining = r.codexBudget(got, remaining, cfg.MaxBytes)
		}
	}
}

// codexGlobal adds the first non-empty of AGENTS.override.md and AGENTS.md in the Codex home.
func (r *run) codexGlobal(home, homeReal string) {
	var used string
	for _, name := range []string{"AGENTS.override.md", "AGENTS.md"} {
		p := filepath.Join(home, name)
		if used != "" {
			if real, _, ok := r.check(p, Codex, []string{homeReal}); ok {
				r.unloadedFile(p, real, Codex, used+" in the Codex home wins")
			}
			continue
		}
		real, _, ok := r.check(p, Codex, []string{homeReal})
		if !ok {
			continue
		}
		if c, err := r.content(real); err != nil || blank(c) {
			continue // an empty file is skipped, the next one is read
		}
		if _, ok := r.file(p, Entry{Platform: Codex, Kind: Governance, Scope: ScopeUser, AlwaysLoaded: true, Why: "Codex global instructions"}, []string{homeReal}); ok {
			used = name
		}
	}
}

// codexBudget applies the byte budget to one file of the chain and returns what is left:
// a file past the budget loads nothing, one that crosses it loads its first remaining bytes,
// and an empty (whitespace-only) file uses none of it.
func (r *run) codexBudget(e Entry, remaining, total int64) int64 {
	c, err := r.content(e.Real)
	if err != nil {
		return remaining
	}
	why := fmt.Sprintf("project_doc_max_bytes (%d bytes over the whole chain) is spent", total)
	n := min(int64(len(c)), remaining)
	if n == 0 || blank(c[:n]) {
		if !blank(c) {
			r.setLoad(e, 0, why)
			r.unloaded(e.Path, Codex, c, 0, len(c), why)
		} else {
			r.setLoad(e, 0, "empty: Codex skips it")
		}
		return remaining
	}
	if n < int64(len(c)) {
		r.truncate(e, c, n, why)
	}
	return remaining - n
}

// setLoad records that n bytes of an added entry load; with n == 0 the entry is not loaded at
// all.
func (r *run) setLoad(e Entry, n int64, why string) {
	for i := len(r.res.Entries) - 1; i >= 0; i-- {
		x := &r.res.Entries[i]
		if x.Platform == e.Platform && x.Real == e.Real {
			x.Loaded, x.LoadNote = n, why
			if n == 0 {
				x.AlwaysLoaded = false
				x.Why += "; never loaded: " + why
			}
			return
		}
	}
}
