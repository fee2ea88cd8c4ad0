package wash

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"time"

	"github.com/prosewash/prosewash/internal/engine/wash/discover"
	"github.com/prosewash/prosewash/internal/engine/wash/gauge"
	"github.com/prosewash/prosewash/internal/engine/wash/judge"
	"github.com/prosewash/prosewash/internal/engine/wash/quick"
)

// FileReport is one discovered file with its measured cost.
type FileReport struct {
	discover.Entry
	// Platforms are the platforms that load the file every session (several when, say,
	// CLAUDE.md imports AGENTS.md).
	Platforms []string `json:"platforms,omitempty"`
	Tokens    int      `json:"tokens"`
	// Loads are the bytes of the file each platform that always loads it reads (its whole
	// size unless a truncation or a byte budget stops short); LoadTokens their tokens.
	Loads      map[string]int64 `json:"loads,omitempty"`
	LoadTokens map[string]int   `json:"load_tokens,omitempty"`
	// Fat is what the Quick plan removes from this file, in tokens (never negative).
	Fat int `json:"fat"`
	// Streamed marks a file too large to read whole: its tokens come from a streamed reading,
	// it is never planned, and it is a capacity wall.
	Streamed bool `json:"streamed,omitempty"`
}

// Report is a full gauge reading: per-file figures, the measurement the band is computed from,
// and the Quick plan whose savings define the fat.
type Report struct {
	Files       []FileReport      `json:"files"`
	Measurement gauge.Measurement `json:"measurement"`
	Plan        quick.Plan        `json:"-"`
	// Judge holds the judgement candidates of the headline platform's always-loaded files
	// (owned files count toward Measurement.Superseded and Stale; the others are listed).
	Judge judge.Signals `json:"-"`
	// Errors are per-file read failures: the file is listed with zero tokens, never guessed.
	Errors []error `json:"-"`
	// NeverLoaded is the text written for a platform that never reaches its model.
	NeverLoaded []NeverLoaded `json:"never_loaded,omitempty"`
}

// NeverLoaded is one discover.Unloaded finding with what it costs the user to believe it is
// loaded: its tokens.
type NeverLoaded struct {
	discover.Unloaded
	Tokens    int  `json:"tokens"`
	Inherited bool `json:"inherited,omitempty"`
}

// Config says how to read the files and whose load the headline figures describe.
type Config struct {
	// Read returns a file's bytes.
	Read func(path string) ([]byte, error)
	// Limit is the largest file Read is asked for; a larger one is priced by Count (a
	// streamed reading) and never planned. 0 means no limit.
	Limit int64
	// Count returns a streamed token estimate of a file (required with Limit).
	Count func(path string) (int, error)
	// Platform is the session's own platform when known ("" chooses, see
	// gauge.Measurement.Platform).
	Platform string
	// Quick configures the planner (its Tree enables link and index checks).
	Quick quick.Options
	// Light prices recall-only notes without planning them, and plans without the self-gate
	// (quick.Options.PriceOnly): the session-start form, whose plan must never be applied.
	// Recall-only cuts never change the per-session bill and a recall-only file never holds a
	// first copy of an always-loaded line, so the Measurement is Measure's at a fraction of the
	// cost.
	Light bool
	// Now, StaleAfter and FirstSeen date the entries for the judgement candidates (see
	// internal/engine/wash/judge); a zero Now finds superseded facts only.
	Now        time.Time
	StaleAfter time.Duration
	FirstSeen  func(hash string) (time.Time, bool)
	// Kept reports lines a judge decided to keep (judge.Options.Kept).
	Kept func(hash string) bool
}

// Measure reads the discovered files once each (a file several platforms load is read once),
// plans the Quick pass over the ones the lane owns (the others are measured, shown and only
// serve to report cross-file copies), and returns the figures the band needs: each platform's
// own load, never summed across platforms, and the headline platform's. Inherited files are
// measured and reported apart; recall-only notes count toward the store (the cost base of a
// full pass) but not the footprint.
func Measure(res discover.Result, c Config) Report {
	var rep Report
	opts := c.Quick
	if opts.Estimate == nil {
		opts.Estimate = gauge.Estimate
	}
	if c.Light {
		opts.PriceOnly = true
	}
	seen := map[string]int{} // real path -> index in rep.Files
	for _, e := range res.Entries {
		if i, ok := seen[e.Real]; ok {
			// Loaded by another platform too: the stricter flags win (always loaded, not
			// inherited), and the lane owns it only if every platform's rules say so.
			f := &rep.Files[i]
			f.AlwaysLoaded = f.AlwaysLoaded || e.AlwaysLoaded
			f.Inherited = f.Inherited && e.Inherited
			f.Owned = f.Owned && e.Owned
			if e.AlwaysLoaded && !slices.Contains(f.Platforms, e.Platform) {
				f.Platforms = append(f.Platforms, e.Platform)
				f.Loads[e.Platform] = e.Loaded
			}
			continue
		}
		fr := FileReport{Entry: e, Loads: map[string]int64{}}
		if e.AlwaysLoaded {
			fr.Platforms = []string{e.Platform}
			fr.Loads[e.Platform] = e.Loaded
		}
		seen[e.Real] = len(rep.Files)
		rep.Files = append(rep.Files, fr)
	}
	var files []quick.File
	var planIdx []int // rep.Files index of each planned file
	contents := map[string][]byte{}
	imports := importsOf(res)
	for i := range rep.Files {
		f := &rep.Files[i]
		if c.Limit > 0 && f.Size > c.Limit && c.Count != nil {
			n, err := c.Count(f.Real)
			if err != nil {
				rep.Errors = append(rep.Errors, fmt.Errorf("read %s: %w", f.Path, err))
				continue
			}
			f.Tokens, f.Streamed = n, true
			continue
		}
		content, err := c.Read(f.Real)
		if err != nil {
			rep.Errors = append(rep.Errors, fmt.Errorf("read %s: %w", f.Path, err))
			continue
		}
		f.Size = int64(len(content))
		f.Tokens = opts.Estimate(content)
		f.LoadTokens = loadTokens(f.Loads, content, f.Tokens, opts.Estimate)
		contents[f.Real] = content
		if c.Light && !f.AlwaysLoaded {
			continue
		}
		files = append(files, quick.File{Path: f.Path, Real: f.Real, Content: content, Platform: f.Platform, Scope: f.Scope, Kind: string(f.Kind),
			AlwaysLoaded: f.AlwaysLoaded, Inherited: f.Inherited, ReadOnly: !f.Owned, Loads: f.Loads, Imports: imports[f.Real]})
		planIdx = append(planIdx, i)
		if f.Kind == discover.MemoryIndex && !f.Inherited {
			rep.Measurement.IndexBytes += len(content)
			rep.Measurement.IndexLines += bytes.Count(content, []byte("\n"))
			if len(content) > 0 && content[len(content)-1] != '\n' {
				rep.Measurement.IndexLines++
			}
		}
	}
	rep.Plan = quick.PlanQuick(files, opts)
	for _, f := range rep.Files {
		if f.Streamed {
			rep.Plan.Flags = append(rep.Plan.Flags, quick.Flag{Path: f.Path, Kind: quick.Oversize,
				Reason: fmt.Sprintf("%d bytes, over the %d-byte read cap: ~%d tok by a streamed reading; never rewritten: split or externalize it", f.Size, c.Limit, f.Tokens)})
		}
	}
	for k, fp := range rep.Plan.Files {
		rep.Files[planIdx[k]].Fat = max(0, fp.TokensBefore-fp.TokensAfter)
	}
	rep.NeverLoaded = neverLoaded(res, rep.Files, contents, opts.Estimate)
	rep.Measurement = Tally(rep.Files, c.Platform, rep.Measurement.IndexBytes, rep.Measurement.IndexLines)
	addNeverLoaded(&rep.Measurement, rep.NeverLoaded)
	rep.Judge = judgeLoad(rep.Files, files, planIdx, rep.Measurement.Platform, c)
	for _, f := range rep.Judge.Findings {
		if f.MeasuredOnly {
			continue
		}
		if f.Kind == judge.Superseded {
			rep.Measurement.Superseded += f.Tokens
		} else {
			rep.Measurement.Stale += f.Tokens
		}
	}
	return rep
}

// importsOf maps each importing file's real path to the real paths it imports.
func importsOf(res discover.Result) map[string][]string {
	real := map[string]string{}
	for _, e := range res.Entries {
		real[e.Path] = e.Real
	}
	out := map[string][]string{}
	for _, e := range res.Entries {
		if e.ImportedBy == "" {
			continue
		}
		from := real[e.ImportedBy]
		if !slices.Contains(out[from], e.Real) {
			out[from] = append(out[from], e.Real)
		}
	}
	return out
}

// loadTokens prices what each platform loads of a file: the whole file's tokens, or those of
// the loaded head.
func loadTokens(loads map[string]int64, content []byte, whole int, estimate func([]byte) int) map[string]int {
	out := map[string]int{}
	for p, n := range loads {
		if n >= int64(len(content)) {
			out[p] = whole
		} else {
			out[p] = estimate(content[:max(0, n)])
		}
	}
	return out
}

// neverLoaded prices discovery's never-loaded findings from the files' contents.
func neverLoaded(res discover.Result, files []FileReport, contents map[string][]byte, estimate func([]byte) int) []NeverLoaded {
	inherited := map[string]bool{}
	real := map[string]string{}
	for _, f := range files {
		inherited[f.Path], real[f.Path] = f.Inherited, f.Real
	}
	var out []NeverLoaded
	for _, u := range res.NeverLoaded {
		n := NeverLoaded{Unloaded: u, Inherited: inherited[u.Path]}
		c, ok := contents[real[u.Path]]
		if !ok {
			c, ok = contents[u.Path]
		}
		if ok {
			n.Tokens = estimate(lineRange(c, u.Line, max(1, u.Lines)))
		}
		out = append(out, n)
	}
	return out
}

// lineRange returns lines [from, from+n) of c (1-based).
func lineRange(c []byte, from, n int) []byte {
	start := 0
	for i := 1; i < from && start < len(c); i++ {
		j := bytes.IndexByte(c[start:], '\n')
		if j < 0 {
			return nil
		}
		start += j + 1
	}
	end := start
	for i := 0; i < n && end < len(c); i++ {
		j := bytes.IndexByte(c[end:], '\n')
		if j < 0 {
			end = len(c)
			break
		}
		end += j + 1
	}
	return c[start:end]
}

// addNeverLoaded adds each platform's never-loaded tokens to its load (inherited files apart).
func addNeverLoaded(m *gauge.Measurement, nl []NeverLoaded) {
	for i := range m.Platforms {
		for _, u := range nl {
			if u.Platform == m.Platforms[i].Platform && !u.Inherited {
				m.Platforms[i].NeverLoaded += u.Tokens
			}
		}
	}
}

// judgeLoad scans the always-loaded, non-inherited files the platform loads, in load order,
// for what only a judgement pass can cut.
func judgeLoad(reports []FileReport, files []quick.File, planIdx []int, platform string, c Config) judge.Signals {
	var jf []judge.File
	for k, f := range files {
		fr := reports[planIdx[k]]
		if !fr.AlwaysLoaded || fr.Inherited || platform == "" || !slices.Contains(fr.Platforms, platform) {
			continue
		}
		jf = append(jf, judge.File{Path: f.Path, Content: f.Content, FirstSeen: c.FirstSeen, MeasuredOnly: !fr.Owned})
	}
	return judge.Scan(jf, judge.Options{Now: c.Now, StaleAfter: c.StaleAfter, Kept: c.Kept})
}

// Tally sums the files' figures per platform and picks the headline platform: platform when
// it is given, else the platform with the most fat, then the largest footprint, then the first
// in discovery order. A file counts once per platform that loads it, and no figure is summed
// across platforms, except the store, the distinct owned and read-only files a full pass would
// read. The memory index figures count only when the headline platform loads the index.
func Tally(files []FileReport, platform string, indexBytes, indexLines int) gauge.Measurement {
	var m gauge.Measurement
	loads := map[string]*gauge.PlatformLoad{}
	var order []string
	for _, p := range discover.AllPlatforms() {
		loads[p] = &gauge.PlatformLoad{Platform: p}
	}
	index := map[string]bool{} // platforms that load a memory index
	for _, f := range files {
		if !f.Inherited {
			m.StoreTokens += f.Tokens
		}
		if !f.AlwaysLoaded {
			continue
		}
		if !f.Inherited {
			m.Files = append(m.Files, gauge.FileStat{Path: f.Real, Size: f.Size})
			if f.Streamed {
				m.Oversize = append(m.Oversize, f.Path)
			}
		}
		for _, p := range f.Platforms {
			l := loads[p]
			if l == nil {
				l = &gauge.PlatformLoad{Platform: p}
				loads[p] = l
			}
			if !slices.Contains(order, p) {
				order = append(order, p)
			}
			if f.Inherited {
				if tok, ok := f.LoadTokens[p]; ok {
					l.Inherited += tok
				} else {
					l.Inherited += f.Tokens
				}
				continue
			}
			l.Files++
			tok, ok := f.LoadTokens[p]
			if !ok {
				tok = f.Tokens
			}
			l.Footprint += tok
			if tok == f.Tokens {
				// A truncated load stays at its cap when lines are cut: no saving there.
				l.Fat += f.Fat
			}
			if f.Kind == discover.MemoryIndex {
				index[p] = true
			}
		}
	}
	for _, p := range order {
		m.Platforms = append(m.Platforms, *loads[p])
	}
	sort.SliceStable(m.Platforms, func(i, j int) bool {
		return platformRank(m.Platforms[i].Platform) < platformRank(m.Platforms[j].Platform)
	})
	head := gauge.PlatformLoad{Platform: platform}
	if l, ok := loads[platform]; ok && platform != "" {
		head = *l
	} else if platform == "" {
		for i, l := range m.Platforms {
			if i == 0 || l.Fat > head.Fat || l.Fat == head.Fat && l.Footprint > head.Footprint {
				head = l
			}
		}
	}
	m.Platform, m.Footprint, m.Fat, m.Inherited = head.Platform, head.Footprint, head.Fat, head.Inherited
	if index[head.Platform] {
		m.IndexBytes, m.IndexLines = indexBytes, indexLines
	}
	return m
}

// platformRank orders platforms as discovery reports them.
func platformRank(p string) int {
	for i, q := range discover.AllPlatforms() {
		if q == p {
			return i
		}
	}
	return len(discover.AllPlatforms())
}
