package gauge

import (
	"fmt"
	"math"
)

// Level is a band.
type Level string

// Bands, from silent to most urgent.
const (
	Lean  Level = "LEAN"
	Obese Level = "OBESE"
	Full  Level = "FULL"
)

// Reasons a band was chosen.
const (
	ReasonLean        = "lean"
	ReasonFatArmed    = "fat-armed"
	ReasonEconomic    = "economic"
	ReasonWallWash    = "wall-wash-first"
	ReasonExternalize = "wall-externalize"
	// ReasonJudge: little mechanical fat, but a judgement pass could win enough (superseded
	// facts, stale entries, a load over the platform's budget) to arm the band.
	ReasonJudge = "judge-armed"
)

// Config holds the band thresholds. Every number is a documented placeholder until the
// 60-session benchmark calibrates it; none of them is a time.
type Config struct {
	// FatArmTokens arms OBESE when provable fat reaches it; FatDisarmTokens disarms it only
	// when fat falls below, so a store hovering near one line does not flap.
	FatArmTokens    int
	FatDisarmTokens int
	// HorizonSessions is how many future sessions the carried fat is counted over when
	// deciding whether one full (semantic) pass pays for itself.
	HorizonSessions int
	// RunCostMultiplier prices one full pass as this many reads of the whole store (the judge
	// reads it, writes a plan, the adjudication re-reads the flagged parts).
	RunCostMultiplier float64
	// CapacityTokens is the platform's context window and WallPercent the share of it the
	// always-loaded set may take before the capacity wall is hit.
	CapacityTokens int
	WallPercent    float64
	// IndexMaxBytes and IndexMaxLines are the memory index load caps (Claude Code stops
	// loading MEMORY.md after 200 lines or 25 KiB).
	IndexMaxBytes int
	IndexMaxLines int
	// RegaugeDeltaTokens is the stat-only drift (bytes/4) that calls for a full re-gauge.
	RegaugeDeltaTokens int
	// BudgetTokens is what one platform's always-loaded memory should stay under; 0 means
	// the platform's own (see Budget).
	BudgetTokens int
}

// Budget is the always-loaded footprint a platform's memory should stay under, in tokens: the
// configured BudgetTokens, else the platform's own limit. Claude Code warns that a memory file
// over 40,000 characters "will impact performance" (about 10,000 tokens); Codex stops reading
// the AGENTS.md chain at 32 KiB (project_doc_max_bytes, about 8,000 tokens); other platforms
// get Claude Code's figure, 5% of a 200k window.
func Budget(platform string, cfg Config) int {
	if cfg.BudgetTokens > 0 {
		return cfg.BudgetTokens
	}
	if platform == "codex" {
		return 32 << 10 / 4
	}
	return 10_000
}

// DefaultConfig returns the placeholder thresholds.
func DefaultConfig() Config {
	return Config{
		FatArmTokens:       500,
		FatDisarmTokens:    200,
		HorizonSessions:    30,
		RunCostMultiplier:  3,
		CapacityTokens:     200_000,
		WallPercent:        10,
		IndexMaxBytes:      25 << 10,
		IndexMaxLines:      200,
		RegaugeDeltaTokens: 500,
	}
}

// FileStat is a path and its size, all a stat-only recheck needs.
type FileStat struct {
	Path string `json:"path"`
	Size int64  `json:"size"`
}

// PlatformLoad is what one platform loads every session: the figures an agent of that
// platform pays, never summed with another platform's.
type PlatformLoad struct {
	Platform string `json:"platform"`
	// Footprint is the always-loaded tokens outside the inherited files; Fat what the Quick
	// pass removes from them; Inherited the always-loaded tokens above the project root.
	Footprint int `json:"footprint"`
	Fat       int `json:"fat"`
	Inherited int `json:"inherited"`
	Files     int `json:"files"`
	// NeverLoaded is the tokens written for this platform that never reach its model (past a
	// truncation or a byte budget, shadowed, unreachable rules), outside inherited files.
	NeverLoaded int `json:"never_loaded,omitempty"`
}

// Measurement is one gauge reading of a project's memory.
type Measurement struct {
	// Platform is the platform whose load the headline figures describe: the session's own
	// platform when known, else the one with the most fat (then the largest footprint).
	Platform string `json:"platform,omitempty"`
	// Platforms is every platform's own load; the headline figures are one of them.
	Platforms []PlatformLoad `json:"platforms,omitempty"`
	// Footprint is the estimated tokens of the always-loaded files (outside the inherited
	// ones) that Platform loads.
	Footprint int `json:"footprint"`
	// Inherited is the always-loaded tokens above the project root: shown, never counted.
	Inherited int `json:"inherited"`
	// Fat is what the Quick cutter would remove, in tokens.
	Fat int `json:"fat"`
	// StoreTokens is the whole store (always-loaded and recall-only), the run-cost base.
	StoreTokens int `json:"store_tokens"`
	// IndexBytes and IndexLines describe the memory index, if any.
	IndexBytes int `json:"index_bytes"`
	IndexLines int `json:"index_lines"`
	// Files are the always-loaded files' stats, kept for the stat-only recheck.
	Files []FileStat `json:"files,omitempty"`
	// Oversize names always-loaded files too large to read whole: priced by a streamed
	// reading, never planned, always a capacity wall.
	Oversize []string `json:"oversize,omitempty"`
	// Superseded and Stale are what only a judgement pass can cut from the headline load, in
	// tokens (internal/engine/wash/judge): older values of facts stated twice, and entries older than
	// the staleness horizon.
	Superseded int `json:"superseded,omitempty"`
	Stale      int `json:"stale,omitempty"`
	// BriefTokens is what the full pass's own brief costs to read: part of the run's cost.
	BriefTokens int `json:"brief_tokens,omitempty"`
}

// Verdict is the band with every number behind it.
type Verdict struct {
	Band   Level  `json:"band"`
	Reason string `json:"reason"`
	// Advice is a one-line, number-bearing explanation (no file content).
	Advice string `json:"advice"`
	// Platform is the platform the figures describe (see Measurement.Platform).
	Platform  string `json:"platform,omitempty"`
	Footprint int    `json:"footprint"`
	Inherited int    `json:"inherited"`
	Fat       int    `json:"fat"`
	Muscle    int    `json:"muscle"`
	Armed     bool   `json:"armed"`
	ArmAt     int    `json:"arm_at"`
	DisarmAt  int    `json:"disarm_at"`
	// CarryPerSession is what the fat costs every session it stays; RunCost what one full pass
	// costs; BreakEvenSessions how many sessions of carry pay for one run.
	CarryPerSession   int     `json:"carry_per_session"`
	RunCost           int     `json:"run_cost"`
	BreakEvenSessions float64 `json:"break_even_sessions"`
	HorizonSessions   int     `json:"horizon_sessions"`
	Economical        bool    `json:"economical"`
	Latched           bool    `json:"latched"`
	// Walls lists the capacity walls reached.
	Walls []string `json:"walls,omitempty"`
	// Budget is the platform's budget for the footprint and OverBudget the footprint above
	// it; Superseded and Stale are the judgement candidates. Potential is what a judgement
	// pass could win: the larger of the candidates and the excess over the budget.
	// JudgeArmed is its hysteresis on the same lines as the fat's.
	Budget     int  `json:"budget"`
	OverBudget int  `json:"over_budget,omitempty"`
	Superseded int  `json:"superseded,omitempty"`
	Stale      int  `json:"stale,omitempty"`
	Potential  int  `json:"potential,omitempty"`
	JudgeArmed bool `json:"judge_armed,omitempty"`
}

// Snapshot is what the last verdict remembers for the stat-only recheck.
type Snapshot struct {
	Band       Level      `json:"band"`
	Footprint  int        `json:"footprint"`
	Fat        int        `json:"fat"`
	Files      []FileStat `json:"files,omitempty"`
	TotalBytes int64      `json:"total_bytes"`
}

// StateSchema is the version of the persisted State.
const StateSchema = 1

// State is the band's memory between sessions, persisted as JSON in the state directory.
type State struct {
	Schema int `json:"schema"`
	// Armed is the fat hysteresis; EconLatched holds an economic FULL through dips of the
	// fresh proof until the store is lean again.
	Armed       bool `json:"armed"`
	EconLatched bool `json:"econ_latched"`
	// JudgeArmed is the hysteresis of the judgement potential.
	JudgeArmed bool `json:"judge_armed,omitempty"`
	// Sessions counts gauge readings (SessionStart runs); it is a count, never a clock.
	Sessions int       `json:"sessions"`
	Last     *Snapshot `json:"last,omitempty"`
}

// Band decides the band for a measurement given the previous state. It is pure: the same
// inputs always give the same verdict, and nothing depends on time.
func Band(prev State, m Measurement, cfg Config) (Verdict, State) {
	if prev.Schema != StateSchema {
		prev = State{Schema: StateSchema} // an unknown or missing state starts un-armed
	}
	v := Verdict{
		Platform:        m.Platform,
		Footprint:       m.Footprint,
		Inherited:       m.Inherited,
		Fat:             m.Fat,
		Muscle:          max(0, m.Footprint-m.Fat),
		ArmAt:           cfg.FatArmTokens,
		DisarmAt:        cfg.FatDisarmTokens,
		CarryPerSession: m.Fat,
		HorizonSessions: cfg.HorizonSessions,
	}
	if prev.Armed {
		v.Armed = m.Fat > cfg.FatDisarmTokens
	} else {
		v.Armed = m.Fat >= cfg.FatArmTokens
	}
	v.Budget = Budget(m.Platform, cfg)
	v.OverBudget = max(0, m.Footprint-v.Budget)
	v.Superseded, v.Stale = m.Superseded, m.Stale
	v.Potential = max(m.Superseded+m.Stale, v.OverBudget)
	if prev.JudgeArmed {
		v.JudgeArmed = v.Potential > cfg.FatDisarmTokens
	} else {
		v.JudgeArmed = v.Potential >= cfg.FatArmTokens
	}
	// What one full pass could win every session: the fat, plus the judgement potential once
	// it is armed (an unarmed potential is too small to count on).
	win := m.Fat
	if v.JudgeArmed {
		win += v.Potential
		v.CarryPerSession = win
	}
	v.RunCost = int(math.Round(float64(max(m.StoreTokens, m.Footprint))*cfg.RunCostMultiplier)) + m.BriefTokens
	if win > 0 {
		v.BreakEvenSessions = math.Round(100*float64(v.RunCost)/float64(win)) / 100
	}
	v.Economical = win > 0 && win*cfg.HorizonSessions > v.RunCost
	wall := int(math.Round(float64(cfg.CapacityTokens) * cfg.WallPercent / 100))
	if m.Footprint >= wall {
		v.Walls = append(v.Walls, fmt.Sprintf("footprint %d >= %d tokens (%.0f%% of %d)", m.Footprint, wall, cfg.WallPercent, cfg.CapacityTokens))
	}
	if cfg.IndexMaxBytes > 0 && m.IndexBytes >= cfg.IndexMaxBytes {
		v.Walls = append(v.Walls, fmt.Sprintf("index %d >= %d bytes", m.IndexBytes, cfg.IndexMaxBytes))
	}
	if cfg.IndexMaxLines > 0 && m.IndexLines >= cfg.IndexMaxLines {
		v.Walls = append(v.Walls, fmt.Sprintf("index %d >= %d lines", m.IndexLines, cfg.IndexMaxLines))
	}
	for _, p := range m.Oversize {
		v.Walls = append(v.Walls, fmt.Sprintf("%s is too large to read whole", p))
	}
	next := State{Schema: StateSchema, Armed: v.Armed, JudgeArmed: v.JudgeArmed, Sessions: prev.Sessions + 1}
	judge := fmt.Sprintf("~%d tok a judgement pass could win (%d superseded, %d stale, footprint %d against a budget of %d)", v.Potential, v.Superseded, v.Stale, m.Footprint, v.Budget)
	switch {
	case len(m.Oversize) > 0:
		// Quick never reads such a file whole, so no wash can shrink it.
		v.Band, v.Reason = Full, ReasonExternalize
		v.Advice = fmt.Sprintf("%s: ~%d tok by a streamed reading; split or externalize it, quick never rewrites a file that size", v.Walls[len(v.Walls)-len(m.Oversize)], m.Footprint)
		next.EconLatched = prev.EconLatched
	case len(v.Walls) > 0 && v.Armed:
		v.Band, v.Reason = Full, ReasonWallWash
		v.Advice = fmt.Sprintf("capacity wall reached (%s) with ~%d tok of provable fat: wash first", v.Walls[0], m.Fat)
		next.EconLatched = prev.EconLatched || v.Economical
	case len(v.Walls) > 0:
		v.Band, v.Reason = Full, ReasonExternalize
		v.Advice = fmt.Sprintf("capacity wall reached (%s) with only ~%d tok of provable fat: split or externalize, washing harder will not help", v.Walls[0], m.Fat)
	case (v.Armed || v.JudgeArmed) && (v.Economical || prev.EconLatched):
		v.Band, v.Reason = Full, ReasonEconomic
		v.Latched = !v.Economical
		next.EconLatched = true
		v.Advice = fmt.Sprintf("~%d tok of fat carried every session; one full pass costs ~%d tok and pays back in %.1f sessions (horizon %d)", m.Fat, v.RunCost, v.BreakEvenSessions, cfg.HorizonSessions)
		if v.JudgeArmed {
			v.Advice += "; " + judge
		}
	case v.Armed:
		v.Band, v.Reason = Obese, ReasonFatArmed
		next.EconLatched = false
		v.Advice = fmt.Sprintf("~%d tok of provable fat (armed at %d, disarms below %d): run the quick pass; a full pass (~%d tok) would need %.1f sessions to pay back", m.Fat, cfg.FatArmTokens, cfg.FatDisarmTokens, v.RunCost, v.BreakEvenSessions)
	case v.JudgeArmed:
		v.Band, v.Reason = Obese, ReasonJudge
		next.EconLatched = false
		v.Advice = fmt.Sprintf("only ~%d tok of provable fat, but %s: a judgement pass (prosewash wash full) is the way to shrink it, with your consent", m.Fat, judge)
	default:
		v.Band, v.Reason = Lean, ReasonLean
		v.Advice = fmt.Sprintf("~%d tok of provable fat, below the %d arm line", m.Fat, cfg.FatArmTokens)
		if v.Potential > 0 {
			v.Advice += "; " + judge
		}
	}
	if v.Band == Lean {
		next.EconLatched = false
	}
	var total int64
	for _, f := range m.Files {
		total += f.Size
	}
	next.Last = &Snapshot{Band: v.Band, Footprint: m.Footprint, Fat: m.Fat, Files: m.Files, TotalBytes: total}
	return v, next
}

// FileDrift is one file's change since the last gauge.
type FileDrift struct {
	Path    string `json:"path"`
	Was     int64  `json:"was"`
	Now     int64  `json:"now"`
	Missing bool   `json:"missing,omitempty"`
}

// Drift is the result of a stat-only recheck.
type Drift struct {
	Changed    []FileDrift `json:"changed,omitempty"`
	DeltaBytes int64       `json:"delta_bytes"`
	// DeltaTokens is DeltaBytes/4: without reading content, bytes are all there is.
	DeltaTokens int `json:"delta_tokens"`
	// Regauge is true when the drift is large enough, or a file vanished, to call for a full
	// measurement (directory walk and content read) before trusting the last band.
	Regauge bool `json:"regauge"`
}

// Recheck compares the last verdict's files with their current sizes, using stat only: no
// directory walk, no content read. stat returns a file's size or an error (missing counts).
func Recheck(last *Snapshot, stat func(path string) (int64, error), cfg Config) Drift {
	var d Drift
	if last == nil {
		d.Regauge = true
		return d
	}
	for _, f := range last.Files {
		size, err := stat(f.Path)
		if err != nil {
			d.Changed = append(d.Changed, FileDrift{Path: f.Path, Was: f.Size, Missing: true})
			d.DeltaBytes -= f.Size
			d.Regauge = true
			continue
		}
		if size != f.Size {
			d.Changed = append(d.Changed, FileDrift{Path: f.Path, Was: f.Size, Now: size})
			d.DeltaBytes += size - f.Size
		}
	}
	abs := d.DeltaBytes
	if abs < 0 {
		abs = -abs
	}
	d.DeltaTokens = int(d.DeltaBytes / 4)
	if int(abs/4) >= cfg.RegaugeDeltaTokens {
		d.Regauge = true
	}
	return d
}
