package lane

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/wash/discover"
	"github.com/prosewash/prosewash/internal/engine/wash/gate"
	"github.com/prosewash/prosewash/internal/engine/wash/gauge"
)

// part is one file of a platform's load: the bytes of it that reach the model.
type part struct {
	real      string
	text      []byte
	inherited bool
}

// loadSet is every platform's load, in load order.
type loadSet map[string][]part

// loadsOf derives each platform's load from a discovery and the files' contents (content
// returns a file's bytes as the state in question has them).
func loadsOf(res discover.Result, content func(real string) ([]byte, bool)) loadSet {
	out := loadSet{}
	for _, e := range res.Entries {
		if !e.AlwaysLoaded || e.Loaded <= 0 {
			continue
		}
		c, ok := content(e.Real)
		if !ok {
			continue
		}
		out[e.Platform] = append(out[e.Platform], part{real: e.Real, text: c[:min(int64(len(c)), e.Loaded)], inherited: e.Inherited})
	}
	return out
}

// tokens is a platform's footprint: its load outside the inherited files.
func (s loadSet) tokens(platform string) int {
	n := 0
	for _, p := range s[platform] {
		if !p.inherited {
			n += gauge.Estimate(p.text)
		}
	}
	return n
}

// platforms lists the platforms of both sets, in report order.
func platformsOf(sets ...loadSet) []string {
	var out []string
	for _, p := range discover.AllPlatforms() {
		for _, s := range sets {
			if len(s[p]) > 0 {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// simulate discovers what every platform loads once the changes are made, without writing
// anything: the same derivation as before the run (never a session's report), with the
// results overlaid, so an import removed, a file deleted or a head that moves is seen.
func (l *Lane) simulate(changes []change) (before, after discover.Result, overlay map[string][]byte, err error) {
	overlay = map[string][]byte{}
	for _, c := range changes {
		if c.Kind == gate.Delete {
			overlay[c.Path] = nil
		} else {
			overlay[c.Path] = c.Result
		}
	}
	if before, err = discover.Discover(l.discoverOptions(nil)); err != nil {
		return
	}
	o := l.discoverOptions(nil)
	o.Overlay = overlay
	after, err = discover.Discover(o)
	return
}

// loadCheck is the fidelity gate on what the platforms load: for each platform, its load
// before and after the run, file by file (a file it no longer loads is a delete: all of its
// tokens must reappear in that platform's load, or be approved), through the one gate entry
// point. The drops are merged across platforms (one per place), each naming the platforms
// that would lose it.
type loadCheck struct {
	before, after loadSet
	drops         []gate.Drop
	// approved are the place keys of the drops an approval let through.
	approved []string
}

// checkLoads gates every platform's load before and after the changes; approved says which
// drops a person (or the planner, for its own cuts) let go, by place.
func (l *Lane) checkLoads(r *reading, changes []change, approved approvals) (*loadCheck, error) {
	before, after, overlay, err := l.simulate(changes)
	if err != nil {
		return nil, err
	}
	disk := func(real string) ([]byte, bool) {
		if c, ok := r.content[real]; ok {
			return c, true
		}
		c, err := read(real)
		return c, err == nil
	}
	lc := &loadCheck{before: loadsOf(before, disk)}
	lc.after = loadsOf(after, func(real string) ([]byte, bool) {
		if c, ok := overlay[real]; ok {
			return c, c != nil
		}
		return disk(real)
	})
	byPlace := map[string]int{}
	for _, p := range platformsOf(lc.before, lc.after) {
		changes := l.loadChanges(lc.before[p], lc.after[p])
		blocking, ok := approved.settle(changes, gate.CheckSet(changes, nil).Blocking())
		lc.approved = append(lc.approved, ok...)
		for _, d := range blocking {
			k := placeKey(d)
			if i, ok := byPlace[k]; ok {
				lc.drops[i].Note = addPlatform(lc.drops[i].Note, p)
				continue
			}
			d.Note = addPlatform(d.Note, p)
			byPlace[k] = len(lc.drops)
			lc.drops = append(lc.drops, d)
		}
	}
	return lc, nil
}

// loadChanges is one platform's load before and after as gate changes, file by file, named
// as plans name files.
func (l *Lane) loadChanges(before, after []part) []gate.Change {
	post := map[string][]byte{}
	for _, p := range after {
		post[p.real] = p.text
	}
	var out []gate.Change
	seen := map[string]bool{}
	for _, p := range before {
		seen[p.real] = true
		if a, ok := post[p.real]; ok {
			out = append(out, gate.Change{Path: l.planPath(p.real), Kind: gate.Rewrite, Orig: p.text, Result: a})
		} else {
			out = append(out, gate.Change{Path: l.planPath(p.real), Kind: gate.Delete, Orig: p.text})
		}
	}
	for _, p := range after {
		if !seen[p.real] {
			out = append(out, gate.Change{Path: l.planPath(p.real), Kind: gate.Create, Result: p.text})
		}
	}
	return out
}

// addPlatform appends a platform to a drop's note ("lost for claude-code, copilot").
func addPlatform(note, p string) string {
	const lead = "lost for "
	if i := strings.Index(note, lead); i >= 0 {
		return note + ", " + p
	}
	if note != "" {
		note += "; "
	}
	return note + lead + p
}

// withLoss adds to a drop's note the platforms another note says would lose it ("lost for
// claude-code, copilot"), once.
func withLoss(note, other string) string {
	const lead = "lost for "
	i := strings.Index(other, lead)
	if i < 0 || strings.Contains(note, lead) {
		return note
	}
	if note != "" {
		note += "; "
	}
	return note + other[i:]
}

// placeKey names a drop at its place: "type:value@FILE:LINE", the only form an approval
// takes (an approval names a token at one place, never a value across the plan).
func placeKey(d gate.Drop) string {
	return d.Key() + "@" + d.Source + ":" + strconv.Itoa(d.Line)
}

// PlaceKey is the approval key of a drop (see placeKey), for the messages that tell a
// person what to approve.
func PlaceKey(d gate.Drop) string { return placeKey(d) }

// parsePlaceKey splits "type:value@FILE:LINE".
func parsePlaceKey(k string) (key, file string, line int, ok bool) {
	at := strings.LastIndex(k, "@")
	if at <= 0 {
		return "", "", 0, false
	}
	key, where := k[:at], k[at+1:]
	colon := strings.LastIndex(where, ":")
	if colon <= 0 {
		return "", "", 0, false
	}
	n, err := strconv.Atoi(where[colon+1:])
	if err != nil || n <= 0 {
		return "", "", 0, false
	}
	t, v, found := strings.Cut(key, ":")
	if !found || t == "" || v == "" {
		return "", "", 0, false
	}
	return key, where[:colon], n, true
}

// approvals are the drops a run may make: a person's, each at one place (placeKey), and the
// planner's own, scoped to one file ("type:value" the cut of that file removes on purpose).
type approvals struct {
	place map[string]bool
	file  map[string]map[string]bool // plan path -> "type:value"
}

// settle applies the approvals to the drops the gate found in a change set: a drop is let
// through only when every line that loses its token is approved at its place (the gate names
// one line per token; the same value lost from a second line is a second loss, which the first
// approval does not cover). A drop that still blocks is moved to its first unapproved line.
func (a approvals) settle(changes []gate.Change, drops []gate.Drop) (blocking []gate.Drop, approved []string) {
	byPath := map[string]gate.Change{}
	for _, c := range changes {
		byPath[c.Path] = c
	}
	for _, d := range drops {
		if a.file[d.Source][d.Key()] {
			approved = append(approved, placeKey(d))
			continue
		}
		lines := losingLines(byPath[d.Source], d)
		if len(lines) == 0 {
			lines = []int{d.Line}
		}
		open := -1
		for _, n := range lines {
			x := d
			x.Line = n
			if !a.place[placeKey(x)] {
				open = n
				break
			}
		}
		if open < 0 {
			for _, n := range lines {
				x := d
				x.Line = n
				approved = append(approved, placeKey(x))
			}
			continue
		}
		d.Line = open
		blocking = append(blocking, d)
	}
	return blocking, approved
}

// losingLines returns the lines of a change's original that carry the drop's token and whose
// text the result no longer has: where the token was lost.
func losingLines(c gate.Change, d gate.Drop) []int {
	if c.Orig == nil {
		return nil
	}
	kept := map[string]int{}
	for _, ln := range strings.Split(string(c.Result), "\n") {
		kept[strings.TrimRight(ln, " \t\r")]++
	}
	var out []int
	for i, ln := range strings.Split(string(c.Orig), "\n") {
		k := strings.TrimRight(ln, " \t\r")
		if kept[k] > 0 {
			kept[k]--
			continue
		}
		if gate.Inventory([]byte(ln)).Count(d.Token) > 0 {
			out = append(out, i+1)
		}
	}
	return out
}

// fileApproved adds the planner's approvals of one file.
func (a *approvals) fileApproved(path string, keys map[string]bool) {
	if len(keys) == 0 {
		return
	}
	if a.file == nil {
		a.file = map[string]map[string]bool{}
	}
	m := a.file[path]
	if m == nil {
		m = map[string]bool{}
		a.file[path] = m
	}
	for k := range keys {
		m[k] = true
	}
}

// deltas is every platform's footprint before and after, from the loads themselves.
func (lc *loadCheck) deltas() []PlatformDelta {
	var out []PlatformDelta
	for _, p := range platformsOf(lc.before, lc.after) {
		out = append(out, PlatformDelta{Platform: p, Before: lc.before.tokens(p), After: lc.after.tokens(p)})
	}
	return out
}

// unloaded lists, for each platform, the files it loads before and no longer after (an
// import removed, a file deleted): what a receipt must say plainly.
func (lc *loadCheck) unloaded(l *Lane) []string {
	var out []string
	for _, p := range platformsOf(lc.before) {
		after := map[string]bool{}
		for _, x := range lc.after[p] {
			after[x.real] = true
		}
		for _, x := range lc.before[p] {
			if !after[x.real] && !x.inherited {
				name := x.real
				if l != nil {
					name = l.rel(x.real)
				}
				out = append(out, fmt.Sprintf("%s no longer loads %s", p, name))
			}
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}
