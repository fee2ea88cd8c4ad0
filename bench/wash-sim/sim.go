package main

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/engine/wash/bins"
	"github.com/prosewash/prosewash/internal/engine/wash/discover"
	"github.com/prosewash/prosewash/internal/engine/wash/gate"
	"github.com/prosewash/prosewash/internal/engine/wash/gauge"
	"github.com/prosewash/prosewash/internal/engine/wash/lane"
)

// Config is one simulation.
type Config struct {
	Sessions int
	Seed     int64
	// Every is the time between sessions (the sim clock; bins age by it).
	Every time.Duration
	// ArmTokens and DisarmTokens override [wash] fat_arm_tokens / fat_disarm_tokens (0: default).
	ArmTokens, DisarmTokens int
	// Verbose makes the growth mostly semantic: rules restated at length, settings whose
	// value changes (the old line stays), dated point-in-time entries. Judge lets arm A run
	// the full pass (a simulated judge writing adjudicated plans) when the Stop hook asks for
	// it; StaleDays is the staleness horizon both arms use (0: the default, 180).
	Verbose   bool
	Judge     bool
	StaleDays int
	// BudgetTokens is [wash] budget_tokens for both arms (0: the platform's own, 10000).
	BudgetTokens int
	// JudgeMistakes is the share of judge passes that also cut a live rule by mistake,
	// without approving its tokens (the gate must refuse it).
	JudgeMistakes float64
}

// op is one change the feed makes to memory; both arms get the same ops.
type op struct {
	kind string // note, dup-index, dup-rule, rule, blanks, move, delete
	note *note
	line string
}

// setting is a fact whose value changes: only its latest value is live.
type setting struct {
	name  string
	value int
}

type note struct {
	id      int
	file    string // relative to the memory dir
	title   string
	facts   []string // lines of the note file
	summary string   // the index entry's text after the link
	moved   bool
	deleted bool
}

// feed generates the seeded sequence of memory changes.
type feed struct {
	r        *rand.Rand
	notes    []*note
	rules    []string
	settings []*setting
	n        int
	verbose  bool
	clock    *time.Time
}

func (st *setting) line() string {
	return fmt.Sprintf("- The staging database for %s runs on port %d.", st.name, st.value)
}

var services = [...]string{"billing", "search", "ingest", "auth", "reports", "export", "notifier", "scheduler", "gateway", "ledger", "catalog", "media"}

func (f *feed) uniq() int { f.n++; return f.n }

func (f *feed) date() string {
	return fmt.Sprintf("2029-%02d-%02d", 1+f.r.Intn(12), 1+f.r.Intn(28))
}

func (f *feed) newNote() *note {
	id := f.uniq()
	svc := services[f.r.Intn(len(services))]
	n := &note{id: id, file: fmt.Sprintf("%s-%d.md", svc, id), title: fmt.Sprintf("%s notes %d", svc, id)}
	port := 20000 + id*7
	n.facts = append(n.facts,
		fmt.Sprintf("- The %s service %d listens on port %d since %s.", svc, id, port, f.date()),
		fmt.Sprintf("- Deploy it with `make deploy-%s-%d`; the pinned client is v%d.%d.%d.", svc, id, 1+id%5, id%10, 100+id),
		fmt.Sprintf("- On-call runbook: https://runbooks.example.com/%s/%d (timeout %dms).", svc, id, 250+id*3),
	)
	if f.r.Intn(2) == 0 {
		n.facts = append(n.facts, fmt.Sprintf("- The %s team said \"freeze window %d starts on %s\".", svc, id, f.date()))
	}
	n.summary = fmt.Sprintf("%s service %d on port %d, reviewed %s", svc, id, port, f.date())
	f.notes = append(f.notes, n)
	return n
}

func (f *feed) live() []*note {
	var out []*note
	for _, n := range f.notes {
		if !n.deleted {
			out = append(out, n)
		}
	}
	return out
}

// session returns the ops of one session.
func (f *feed) session() []op {
	var ops []op
	for i := 0; i < 1+f.r.Intn(2); i++ {
		ops = append(ops, op{kind: "note", note: f.newNote()})
	}
	live := f.live()
	if len(live) > 1 && f.r.Intn(100) < 60 {
		// The agent saves a memory it already has: an exact duplicate index entry.
		ops = append(ops, op{kind: "dup-index", note: live[f.r.Intn(len(live))]})
	}
	if f.r.Intn(100) < 35 {
		if len(f.rules) > 0 && f.r.Intn(2) == 0 {
			ops = append(ops, op{kind: "dup-rule", line: f.rules[f.r.Intn(len(f.rules))]})
		} else {
			id := f.uniq()
			rule := fmt.Sprintf("- Rule %d: run `make check-%d` before pushing; builds time out after %d minutes.", id, id, 10+id%50)
			f.rules = append(f.rules, rule)
			ops = append(ops, op{kind: "rule", line: rule})
		}
	}
	if f.r.Intn(100) < 30 {
		ops = append(ops, op{kind: "blanks"})
	}
	if len(live) > 3 && f.r.Intn(100) < 15 {
		n := live[f.r.Intn(len(live))]
		if !n.moved {
			n.moved = true
			ops = append(ops, op{kind: "move", note: n})
		}
	}
	if len(live) > 4 && f.r.Intn(100) < 10 {
		n := live[f.r.Intn(len(live))]
		n.deleted = true
		ops = append(ops, op{kind: "delete", note: n})
	}
	if f.verbose {
		ops = append(ops, f.verboseOps()...)
	}
	return ops
}

// verboseOps is the semantic growth a judge, not Quick, can cut: a rule restated at length
// (the same command and number, many more words), a setting whose value changes (the agent
// appends the new value and leaves the old line), and a dated entry about something done.
func (f *feed) verboseOps() []op {
	var ops []op
	if len(f.rules) > 0 && f.r.Intn(100) < 50 {
		rule := f.rules[f.r.Intn(len(f.rules))]
		var id, minutes int
		if _, err := fmt.Sscanf(rule, "- Rule %d: run `make check-%d` before pushing; builds time out after %d minutes.", &id, &id, &minutes); err == nil {
			ops = append(ops, op{kind: "verbose", line: fmt.Sprintf("- Remember, and this matters a lot for everyone on the team: before you push anything at all, always run `make check-%d` first and wait for it, because the builds really do time out after %d minutes and a red build blocks every other change.", id, minutes)})
		}
	}
	if f.r.Intn(100) < 30 {
		if len(f.settings) > 0 && f.r.Intn(3) > 0 {
			st := f.settings[f.r.Intn(len(f.settings))]
			st.value = 30000 + f.uniq()*11
			ops = append(ops, op{kind: "setting", line: st.line()})
		} else {
			st := &setting{name: fmt.Sprintf("%s-%d", services[f.r.Intn(len(services))], f.uniq()), value: 30000 + f.uniq()*11}
			f.settings = append(f.settings, st)
			ops = append(ops, op{kind: "setting", line: st.line()})
		}
	}
	if f.r.Intn(100) < 40 {
		ops = append(ops, op{kind: "event", line: fmt.Sprintf("- %s: finished the %s migration %d; nothing is left to do there.",
			f.clock.Format("2006-01-02"), services[f.r.Intn(len(services))], f.uniq())})
	}
	return ops
}

// arm is one copy of the world.
type arm struct {
	name                   string
	root, home, state, mem string
	env                    map[string]string
	lane                   *lane.Lane
	wash                   bool
	carried, overhead      int
	bandCounts             map[gauge.Level]int
	clock                  *time.Time
}

func newArm(base, name string, wash bool, cfg Config, clock *time.Time) (*arm, error) {
	a := &arm{name: name, root: filepath.Join(base, name, "proj"), home: filepath.Join(base, name, "home"), state: filepath.Join(base, name, "state"),
		wash: wash, bandCounts: map[gauge.Level]int{}, clock: clock}
	for _, d := range []string{filepath.Join(a.root, ".git"), a.home, a.state} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	real, err := filepath.EvalSymlinks(a.root)
	if err != nil {
		return nil, err
	}
	a.root = real
	a.mem = discover.MemoryDir(discover.Options{Home: a.home, ProjectRoot: a.root})
	if err := os.MkdirAll(filepath.Join(a.mem, "archive"), 0o700); err != nil {
		return nil, err
	}
	a.env = map[string]string{"PROSEWASH_STATE_DIR": a.state, "HOME": a.home, "XDG_CONFIG_HOME": filepath.Join(a.home, ".xdg")}
	var toml strings.Builder
	toml.WriteString("[wash]\n")
	if cfg.ArmTokens > 0 {
		fmt.Fprintf(&toml, "fat_arm_tokens = %d\nfat_disarm_tokens = %d\n", cfg.ArmTokens, cfg.DisarmTokens)
	}
	if cfg.StaleDays > 0 {
		fmt.Fprintf(&toml, "stale_days = %d\n", cfg.StaleDays)
	}
	if cfg.BudgetTokens > 0 {
		fmt.Fprintf(&toml, "budget_tokens = %d\n", cfg.BudgetTokens)
	}
	if err := os.WriteFile(filepath.Join(a.root, ".prosewash.toml"), []byte(toml.String()), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(a.root, "CLAUDE.md"), []byte("# Project rules\n\n- Use `go test ./...` before every commit.\n"), 0o644); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(a.mem, "MEMORY.md"), []byte("# Memory\n\n"), 0o644); err != nil {
		return nil, err
	}
	getenv := func(k string) string { return a.env[k] }
	p, err := project.Find(project.Options{Root: a.root, Dir: a.root, Getenv: getenv, Home: a.home})
	if err != nil {
		return nil, err
	}
	a.lane = lane.New(p, lane.Options{Home: a.home, Getenv: getenv, Now: func() time.Time { return *a.clock }})
	return a, nil
}

func appendFile(p, s string) error {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(s); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func (a *arm) indexLine(n *note) string {
	return fmt.Sprintf("- [%s](%s): %s\n", n.title, n.file, n.summary)
}

// apply makes one op's change in this arm, on the simulation's clock: a file written now
// is modified now (its lines are first seen by the age ledger no earlier than that).
func (a *arm) apply(o op, r *rand.Rand) error {
	if err := a.applyOp(o, r); err != nil {
		return err
	}
	for _, p := range []string{filepath.Join(a.root, "CLAUDE.md"), filepath.Join(a.mem, "MEMORY.md"), filepath.Join(a.mem, o.note.fileOr())} {
		_ = os.Chtimes(p, *a.clock, *a.clock) // a missing file (no note) is no error here
	}
	return nil
}

func (n *note) fileOr() string {
	if n == nil {
		return "-"
	}
	return n.file
}

func (a *arm) applyOp(o op, r *rand.Rand) error {
	idx := filepath.Join(a.mem, "MEMORY.md")
	switch o.kind {
	case "note":
		body := "# " + o.note.title + "\n\n" + strings.Join(o.note.facts, "\n") + "\n"
		if err := os.WriteFile(filepath.Join(a.mem, o.note.file), []byte(body), 0o644); err != nil {
			return err
		}
		trail := ""
		if r.Intn(4) == 0 {
			trail = "   " // trailing spaces an editor left
		}
		return appendFile(idx, strings.TrimSuffix(a.indexLine(o.note), "\n")+trail+"\n")
	case "dup-index":
		return appendFile(idx, a.indexLine(o.note))
	case "rule", "dup-rule", "verbose", "setting":
		return appendFile(filepath.Join(a.root, "CLAUDE.md"), o.line+"\n")
	case "event":
		return appendFile(idx, o.line+"\n")
	case "blanks":
		return appendFile(idx, strings.Repeat("\n", 2+r.Intn(3)))
	case "move":
		return os.Rename(filepath.Join(a.mem, o.note.file), filepath.Join(a.mem, "archive", o.note.file))
	case "delete":
		for _, p := range []string{filepath.Join(a.mem, o.note.file), filepath.Join(a.mem, "archive", o.note.file)} {
			if err := os.Remove(p); err == nil {
				return nil
			}
		}
	}
	return nil
}

// tokensOf is the set of structured tokens in the memory files and the banked originals.
func (a *arm) tokens(withBins bool) (map[string]bool, error) {
	set := map[string]bool{}
	add := func(b []byte) {
		for _, tc := range gate.Inventory(b).Tokens() {
			set[tc.Key()] = true
		}
	}
	for _, dir := range []string{a.root, a.mem} {
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
				return nil
			}
			b, err := os.ReadFile(p)
			if err == nil {
				add(b)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	if withBins {
		sd, err := a.lane.Project().StateDir()
		if err != nil {
			return nil, err
		}
		store := bins.OpenReadOnly(sd)
		for _, b := range bins.Names() {
			ms, _ := store.List(b)
			for _, m := range ms {
				for i := range m.Items {
					if data, err := store.Read(m, i); err == nil {
						add(data)
					}
				}
			}
		}
	}
	return set, nil
}

// checkFacts counts live facts (notes the user did not delete, their index summaries, the
// rules) with a structured token missing from memory ∪ bins, and those found only in bins.
func (a *arm) checkFacts(f *feed) (lost, binsOnly int, err error) {
	mem, err := a.tokens(false)
	if err != nil {
		return 0, 0, err
	}
	all, err := a.tokens(true)
	if err != nil {
		return 0, 0, err
	}
	var facts []string
	for _, n := range f.notes {
		if n.deleted {
			continue
		}
		facts = append(facts, n.facts...)
		facts = append(facts, n.summary)
	}
	facts = append(facts, f.rules...)
	for _, st := range f.settings {
		facts = append(facts, st.line()) // only the latest value is live
	}
	for _, fact := range facts {
		inMem, inAll := true, true
		for _, tc := range gate.Inventory([]byte(fact + "\n")).Tokens() {
			if !mem[tc.Key()] {
				inMem = false
			}
			if !all[tc.Key()] {
				inAll = false
			}
		}
		if !inAll {
			lost++
		} else if !inMem {
			binsOnly++
		}
	}
	return lost, binsOnly, nil
}

// Result is a simulation's figures.
type Result struct {
	Sessions        int            `json:"sessions"`
	Seed            int64          `json:"seed"`
	ArmTokens       int            `json:"fat_arm_tokens"`
	CarriedWash     int            `json:"carried_tokens_with_washing"`
	OverheadWash    int            `json:"wash_overhead_tokens"`
	CarriedNoWash   int            `json:"carried_tokens_without_washing"`
	SavingTokens    int            `json:"saving_tokens"`
	SavingPercent   float64        `json:"saving_percent"`
	Washes          int            `json:"quick_runs"`
	Judged          int            `json:"judge_runs"`
	JudgeRefused    int            `json:"judge_plans_refused_by_the_gate"`
	JudgeCut        int            `json:"tokens_cut_by_the_judge"`
	GateRefused     int            `json:"gate_refused_flags"` // a planner plan the gate refused (should be 0)
	Blocks          int            `json:"stop_blocks"`
	CutTokens       int            `json:"tokens_cut"`
	FactsChecked    int            `json:"facts_checked"`
	FactsLost       int            `json:"facts_lost"`
	FactsLostNoWash int            `json:"facts_lost_without_washing"`
	FactsInBinsOnly int            `json:"facts_only_in_bins"`
	Bands           map[string]int `json:"bands_with_washing"`
	LastFootprint   [2]int         `json:"last_session_footprint"` // with, without
	BinEvents       int            `json:"bin_events"`
	Destroyed       int            `json:"bin_events_destroyed"`
	PerSession      [][2]int       `json:"per_session"`
	// LostPerSession is the live facts missing from memory and bins after each session.
	LostPerSession []int `json:"facts_lost_per_session"`
}

// Run runs one simulation in a fresh temporary directory.
func Run(cfg Config) (Result, error) {
	res := Result{Sessions: cfg.Sessions, Seed: cfg.Seed, ArmTokens: cfg.ArmTokens, Bands: map[string]int{}}
	base, err := os.MkdirTemp("", "wash-sim-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(base)
	clock := time.Date(2030, 1, 1, 9, 0, 0, 0, time.UTC)
	withW, err := newArm(base, "wash", true, cfg, &clock)
	if err != nil {
		return res, err
	}
	without, err := newArm(base, "nowash", false, cfg, &clock)
	if err != nil {
		return res, err
	}
	f := &feed{r: rand.New(rand.NewSource(cfg.Seed)), verbose: cfg.Verbose, clock: &clock}
	jr := rand.New(rand.NewSource(cfg.Seed + 7))
	for s := 1; s <= cfg.Sessions; s++ {
		ops := f.session()
		// The same feed, byte for byte: one random source per arm, seeded per session.
		for _, a := range []*arm{withW, without} {
			r := rand.New(rand.NewSource(cfg.Seed*1000 + int64(s)))
			for _, o := range ops {
				if err := a.apply(o, r); err != nil {
					return res, fmt.Errorf("session %d: %s: %w", s, a.name, err)
				}
			}
		}
		session := fmt.Sprintf("session-%03d", s)
		// Arm A: the real hooks. SessionStart gauges; the session carries that footprint; at
		// Stop the hook blocks once per crossing and the agent runs the quick pass.
		r, err := withW.lane.Measure(session)
		if err != nil {
			return res, err
		}
		withW.carried += r.Verdict.Footprint
		res.Bands[string(r.Band)]++
		reason, err := withW.lane.Recheck(session)
		if err != nil {
			return res, err
		}
		footA := r.Verdict.Footprint
		if reason != "" {
			res.Blocks++
			q, err := withW.lane.Quick(lane.QuickOptions{})
			if err != nil {
				return res, fmt.Errorf("session %d: quick: %w", s, err)
			}
			res.Washes++
			for _, fl := range q.Flags {
				if fl.Kind == "gate-refused" {
					res.GateRefused++
				}
			}
			res.CutTokens += q.Before - q.After
			// What the washing costs the session: the block reason the agent reads, the
			// command it runs and the one-line receipt it reads back.
			over := gauge.Estimate([]byte(reason)) + gauge.Estimate([]byte("prosewash wash quick\nprosewash: "+q.Receipt+"\n")) + 20
			withW.overhead += over
		}
		// The Stop hook asks for consent to a judgement pass: the user says yes, and the
		// judge works from the brief.
		if cfg.Judge && strings.Contains(reason, "judgement pass") {
			jres, err := withW.judge(jr, cfg.JudgeMistakes)
			if err != nil {
				return res, fmt.Errorf("session %d: judge: %w", s, err)
			}
			res.Judged++
			res.JudgeRefused += jres.refused
			res.JudgeCut += jres.cut
			withW.overhead += jres.cost
		}
		// Arm B: measured the same way, never washed.
		g, err := without.lane.Gauge(lane.GaugeOptions{Source: "session-start", Session: session})
		if err != nil {
			return res, err
		}
		without.carried += g.Verdict.Footprint
		res.PerSession = append(res.PerSession, [2]int{footA, g.Verdict.Footprint})
		res.LastFootprint = [2]int{footA, g.Verdict.Footprint}
		// Facts: every live fact's tokens in memory ∪ bins, after every session.
		lost, binsOnly, err := withW.checkFacts(f)
		if err != nil {
			return res, err
		}
		res.FactsLost += lost
		res.LostPerSession = append(res.LostPerSession, lost)
		res.FactsInBinsOnly = binsOnly
		lostB, _, err := without.checkFacts(f)
		if err != nil {
			return res, err
		}
		res.FactsLostNoWash += lostB
		clock = clock.Add(cfg.Every)
	}
	for _, n := range f.notes {
		if !n.deleted {
			res.FactsChecked += len(n.facts) + 1
		}
	}
	res.FactsChecked += len(f.rules) + len(f.settings)
	res.CarriedWash, res.OverheadWash, res.CarriedNoWash = withW.carried, withW.overhead, without.carried
	res.SavingTokens = res.CarriedNoWash - (res.CarriedWash + res.OverheadWash)
	if res.CarriedNoWash > 0 {
		res.SavingPercent = 100 * float64(res.SavingTokens) / float64(res.CarriedNoWash)
	}
	evs, _ := withW.lane.Bins()
	res.BinEvents = len(evs)
	if sd, err := withW.lane.Project().StateDir(); err == nil {
		lines, _ := bins.OpenReadOnly(sd).ReadDeathLog()
		for _, l := range lines {
			if strings.Contains(l, " destroyed ") {
				res.Destroyed++
			}
		}
	}
	return res, nil
}

// sortedBands renders the band counts in order.
func sortedBands(m map[string]int) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	var parts []string
	for _, k := range ks {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return strings.Join(parts, ", ")
}
