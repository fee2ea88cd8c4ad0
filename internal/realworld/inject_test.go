package realworld

import (
	"math/rand/v2"
	"sort"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/region"
)

// The carriers injected, as an agent or an attacker would leave them. The
// joiners go between two ASCII letters only, where no policy rule keeps
// them (their legitimate uses are in emoji and in Arabic-script and Indic
// words).
var carriers = []string{
	"\u200b",                         // ZERO WIDTH SPACE
	"\u200d",                         // ZERO WIDTH JOINER
	"\u202e",                         // RIGHT-TO-LEFT OVERRIDE
	"\U000E0068\U000E0069\U000E0021", // tag characters spelling "hi!"
	"\u00a0",                         // NO-BREAK SPACE
	escapeSequence,                   // an ANSI escape sequence (CSI SGR), removed whole
}

const escapeSequence = "\x1b[31m"

// Where an injection was made, judged on the original file's regions.
const (
	inProse     = "prose"
	inLiteral   = "literal"
	inCode      = "code"
	inDirective = "directive"
	inAnywhere  = "anywhere"
)

// injection is one carrier placed in a variant: at byte offset off of the
// injected file.
type injection struct {
	off   int
	text  string
	where string
	why   string // the original region's reason
}

func asciiLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// letterGaps returns the offsets p in [lo, hi) between two ASCII letters
// whose word (letters, digits and '_') is not preceded by a backslash, so
// no escape such as \uabcd, \U0000dc00 or \N{...} is split.
func letterGaps(src []byte, lo, hi int) []int {
	var out []int
	escaped := false // the current word follows a backslash
	for p := max(lo, 1); p < hi; p++ {
		if !wordByte(src[p-1]) {
			continue
		}
		if p == max(lo, 1) || !wordByte(src[p-2]) {
			k := p - 1
			for k > 0 && wordByte(src[k-1]) {
				k--
			}
			escaped = k > 0 && src[k-1] == '\\'
		}
		if !escaped && asciiLetter(src[p-1]) && asciiLetter(src[p]) {
			out = append(out, p)
		}
	}
	return out
}

func wordByte(c byte) bool { return asciiLetter(c) || c >= '0' && c <= '9' || c == '_' }

// spread picks up to n of the sorted candidates, evenly over the list from
// a random start, so injections cover the whole file.
func spread(rng *rand.Rand, cands []int, n int) []int {
	if len(cands) <= n {
		return cands
	}
	out := make([]int, 0, n)
	step := len(cands) / n
	start := rng.IntN(step)
	for i := range n {
		out = append(out, cands[start+i*step])
	}
	return out
}

// literalWhy reports runtime regions that hold a literal: strings of every
// kind, here-documents, template and JSX text, Markdown code.
func literalWhy(why string) bool {
	// Interpolations ({x} in f-strings, ${x} in templates) are code inside
	// the literal: a carrier there would break the program, not test it.
	// A carrier splits a bare URL into text and is judged as text.
	return why != "code" && why != "f-string" && why != "template literal" && why != "bare url" &&
		!strings.HasPrefix(why, "ambiguous") && !strings.Contains(why, "parser failed")
}

type placed struct {
	pos        int
	where, why string
}

// positions chooses where to inject in src, classified as m: variant "c"
// holds carriers in prose and literals only (the program must not change
// when clean runs); variant "x" also puts them into code, directives and
// anywhere between two letters.
func positions(rng *rand.Rand, src []byte, m *region.Map, variant string) []placed {
	gaps := map[string][]int{}
	why := map[int]string{}
	if m != nil {
		for _, r := range m.Regions {
			var w string
			switch {
			case r.Kind == region.Prose:
				w = inProse
			case r.Kind == region.Directive:
				w = inDirective
			case r.Why == "code":
				w = inCode
			case literalWhy(r.Why):
				w = inLiteral
			default:
				continue
			}
			for _, g := range letterGaps(src, r.Start, r.End) {
				gaps[w] = append(gaps[w], g)
				why[g] = r.Why
			}
		}
	}
	var out []placed
	add := func(w string, n int) {
		for _, p := range spread(rng, gaps[w], n) {
			out = append(out, placed{p, w, why[p]})
		}
	}
	if variant == "c" {
		add(inProse, 8)
		add(inLiteral, 4)
	} else {
		add(inProse, 2)
		add(inCode, 3)
		add(inDirective, 2)
		add(inLiteral, 2)
		for _, p := range spread(rng, letterGaps(src, 0, len(src)), 3) {
			out = append(out, placed{p, inAnywhere, why[p]})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].pos < out[j].pos })
	// One carrier per gap.
	dedup := out[:0]
	for i, p := range out {
		if i == 0 || p.pos != out[i-1].pos {
			dedup = append(dedup, p)
		}
	}
	return dedup
}

// inject inserts a carrier at each placed position (sorted) and returns
// the new text and where each carrier landed.
func inject(rng *rand.Rand, src []byte, at []placed) ([]byte, []injection) {
	out := make([]byte, 0, len(src)+len(at)*12)
	var inj []injection
	prev := 0
	for _, a := range at {
		out = append(out, src[prev:a.pos]...)
		c := carriers[rng.IntN(len(carriers))]
		if c == escapeSequence && a.where != inProse {
			// JSON, TOML and YAML forbid a raw control character in a
			// literal: there it would make the "c" variant invalid.
			c = carriers[0]
		}
		inj = append(inj, injection{off: len(out), text: c, where: a.where, why: a.why})
		out = append(out, c...)
		prev = a.pos
	}
	return append(out, src[prev:]...), inj
}

// without drops the positions of one kind.
func without(at []placed, where string) []placed {
	var out []placed
	for _, a := range at {
		if a.where != where {
			out = append(out, a)
		}
	}
	return out
}

// dissolves reports literals a carrier can turn into text: Markdown's
// markup (a tag, an autolink, a link label stops being one) and the markup
// of Rust doc comments (an intra-doc link). Removing such a carrier is
// wrong only where it brings the literal back; the oracle judges the rest.
func dissolves(lang, why string) bool {
	return lang == "markdown" || strings.HasPrefix(why, "doc comment markup")
}
