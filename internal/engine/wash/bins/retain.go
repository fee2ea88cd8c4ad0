package bins

import (
	"sort"
	"time"
)

// Bin names.
const (
	Quick = "quick" // mechanical Quick cuts
	Plan  = "plan"  // semantic plan cuts (full pass)
	Guard = "guard" // write-guard snapshots taken before an agent's first write
)

// Names lists every bin.
func Names() []string { return []string{Quick, Plan, Guard} }

// Retention ladder rungs and defaults.
const (
	Day  = 24 * time.Hour
	Week = 7 * Day
	// KeepAllFor is the floor nothing can break: not thinning, not the size cap.
	KeepAllFor = 48 * time.Hour
	// DailyUntil ends the one-per-day rung; from there to the horizon one per week stays.
	DailyUntil = 14 * Day
	// QuickHorizon and PlanHorizon are the bins' horizons: sized to a monthly cadence of
	// looking back, and twice that for semantic cuts, which are the ones a human may miss.
	QuickHorizon = 30 * Day
	PlanHorizon  = 60 * Day
	// BudgetMultiple sizes the cap: each bin may hold this many times the store's bytes.
	BudgetMultiple = 2
)

// Destruction rules, as written to the death log.
const (
	RuleHorizon = "horizon"
	RuleDensity = "density"
	RuleSizeCap = "size-cap"
)

// Policy is one bin's retention.
type Policy struct {
	Horizon    time.Duration
	KeepAll    time.Duration
	DailyUntil time.Duration
	// Budget caps the bin's bytes; 0 means no cap (horizon and thinning only).
	Budget int64
}

// DefaultPolicy returns the policy of a bin given the measured store's bytes (0: no cap).
func DefaultPolicy(bin string, storeBytes int64) Policy {
	p := Policy{Horizon: QuickHorizon, KeepAll: KeepAllFor, DailyUntil: DailyUntil}
	if bin == Plan {
		p.Horizon = PlanHorizon
	}
	if storeBytes > 0 {
		p.Budget = BudgetMultiple * storeBytes
	}
	return p
}

// Event is what retention needs to know about one banked run.
type Event struct {
	ID    string
	At    time.Time
	Bytes int64
}

// Death is a decision to destroy one event.
type Death struct {
	ID    string
	Rule  string
	Age   time.Duration
	Bytes int64
}

// Conflict says the cap cannot be met without breaking a protection.
type Conflict struct {
	Budget int64
	Kept   int64
}

// Decision is what Retain decided.
type Decision struct {
	Keep    []string
	Destroy []Death
	// Conflict is set when the protected events alone exceed the budget.
	Conflict *Conflict
}

// Retain decides which events a bin keeps at now. It is pure: the same events, time and
// policy give the same decision. An event with a zero time or a time after now is kept
// (doubt keeps); events are never split, so a run's files live or die together.
func Retain(events []Event, now time.Time, p Policy) Decision {
	if p.KeepAll <= 0 {
		p.KeepAll = KeepAllFor
	}
	if p.DailyUntil < p.KeepAll {
		p.DailyUntil = p.KeepAll
	}
	evs := append([]Event(nil), events...)
	// Newest first, ties by id so the decision does not depend on input order.
	sort.SliceStable(evs, func(i, j int) bool {
		if !evs[i].At.Equal(evs[j].At) {
			return evs[i].At.After(evs[j].At)
		}
		return evs[i].ID > evs[j].ID
	})
	var d Decision
	kept := map[string]bool{}
	dayTaken, weekTaken := map[int64]bool{}, map[int64]bool{}
	doubt := func(e Event) bool { return e.At.IsZero() || e.At.After(now) }
	for _, e := range evs {
		age := now.Sub(e.At)
		switch {
		case doubt(e), age <= p.KeepAll:
			kept[e.ID] = true
		case p.Horizon > 0 && age > p.Horizon:
			d.Destroy = append(d.Destroy, Death{ID: e.ID, Rule: RuleHorizon, Age: age, Bytes: e.Bytes})
		case age <= p.DailyUntil:
			day := e.At.Unix() / int64(Day/time.Second)
			if dayTaken[day] {
				d.Destroy = append(d.Destroy, Death{ID: e.ID, Rule: RuleDensity, Age: age, Bytes: e.Bytes})
			} else {
				dayTaken[day] = true
				kept[e.ID] = true
			}
		default:
			wk := week(e.At)
			if weekTaken[wk] {
				d.Destroy = append(d.Destroy, Death{ID: e.ID, Rule: RuleDensity, Age: age, Bytes: e.Bytes})
			} else {
				weekTaken[wk] = true
				kept[e.ID] = true
			}
		}
	}
	if p.Budget > 0 {
		d.Destroy = append(d.Destroy, capEvict(evs, kept, now, p, &d)...)
	}
	for _, e := range evs {
		if kept[e.ID] {
			d.Keep = append(d.Keep, e.ID)
		}
	}
	return d
}

// capEvict evicts kept events, oldest first, until the bin fits its budget. Events younger
// than KeepAll, the newest event and doubtful ones are never candidates; in the first phase
// the last kept event of a week is spared too.
func capEvict(newestFirst []Event, kept map[string]bool, now time.Time, p Policy, d *Decision) []Death {
	var total int64
	for _, e := range newestFirst {
		if kept[e.ID] {
			total += e.Bytes
		}
	}
	if total <= p.Budget {
		return nil
	}
	var cands []Event                            // oldest first
	for i := len(newestFirst) - 1; i >= 1; i-- { // index 0 is the newest: never evicted
		e := newestFirst[i]
		if kept[e.ID] && !e.At.IsZero() && !e.At.After(now) && now.Sub(e.At) > p.KeepAll {
			cands = append(cands, e)
		}
	}
	perWeek := map[int64]int{}
	for _, e := range newestFirst {
		if kept[e.ID] {
			perWeek[week(e.At)]++
		}
	}
	var out []Death
	evict := func(e Event) {
		kept[e.ID] = false
		total -= e.Bytes
		perWeek[week(e.At)]--
		out = append(out, Death{ID: e.ID, Rule: RuleSizeCap, Age: now.Sub(e.At), Bytes: e.Bytes})
	}
	for phase := 1; phase <= 2 && total > p.Budget; phase++ {
		for _, e := range cands {
			if total <= p.Budget {
				break
			}
			if !kept[e.ID] || (phase == 1 && perWeek[week(e.At)] <= 1) {
				continue
			}
			evict(e)
		}
	}
	if total > p.Budget {
		d.Conflict = &Conflict{Budget: p.Budget, Kept: total}
	}
	return out
}

// week numbers weeks since the Unix epoch.
func week(t time.Time) int64 { return t.Unix() / int64(Week/time.Second) }
