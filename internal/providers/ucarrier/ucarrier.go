package ucarrier

import (
	"context"
	"sort"
	"unicode/utf8"

	"github.com/prosewash/prosewash/internal/engine/carrier"
	"github.com/prosewash/prosewash/internal/engine/provider"
)

// Options selects the profile and the context of one text.
type Options struct {
	// Profile is carrier.Standard (keep the legitimate uses) or
	// carrier.Strict (remove every carrier whatever its context). The zero
	// value is Standard.
	Profile carrier.Profile
	// Lang is the classifier's language name: "python", "go", "markdown",
	// "text", "javascript", "yaml", ... It decides which code points end a
	// line, what a paragraph is for the right-to-left rule, and whether the
	// Markdown leading-whitespace rule applies. Unknown names behave as
	// "text" for paragraphs and as a language that ends lines at LF and CR.
	Lang string
	// FileStart says that text starts at byte 0 of the file, where a U+FEFF
	// is a byte order mark and is kept.
	FileStart bool
	// Kind is the region kind of text ("prose", "directive", "runtime"), or
	// empty when unknown (a whole file). It only decides severities; an
	// unknown kind is judged like code.
	Kind string
	// Keep lists offsets in text of carriers to leave in place: a finding
	// that starts at one of them is reported (Report), never acted on.
	Keep []int
}

func isPlain(c byte) bool {
	return c-0x20 < 0x5F || c == '\n' || c == '\t' || c == '\r'
}

// plainLen returns the length of the plain prefix of b (see carrier.IndexSpecial).
func plainLen(b []byte) int {
	if i := carrier.IndexSpecial(b); i >= 0 {
		return i
	}
	return len(b)
}

// Scan reports every carrier in text that a clean would act on (Remove or
// Replace) and every carrier that is only reported (private use; everything,
// when text is not valid UTF-8). Legitimate uses are not findings. before and
// after are read-only neighbouring bytes of text (rune aligned, possibly
// empty) used for context decisions. Offsets are relative to text; findings
// are sorted by offset.
func Scan(before, text, after []byte, opt Options) []carrier.Finding {
	_, fs := run(before, text, after, opt)
	return fs
}

// Clean returns text with its carriers removed or replaced by U+0020, and the
// findings it acted on (the same findings as Scan, including the Report
// ones it left in place). When no finding asks for a change, the returned
// slice is text itself. Clean is idempotent for the same before, after and
// options, never adds a line break, and leaves text that is not valid UTF-8
// untouched (its findings are all Report).
func Clean(before, text, after []byte, opt Options) ([]byte, []carrier.Finding) {
	return run(before, text, after, opt)
}

// run applies the policy until nothing changes. A carrier is judged by its
// neighbours, and removing one carrier can change another's neighbours (two
// single right-to-left marks separated by a removed zero width space become a
// run of two); judging again what the first pass kept, in the text it
// produced, makes the result a fixed point, which is what idempotence needs.
// Later passes only ever see carriers an earlier pass kept, so this ends.
func run(before, text, after []byte, opt Options) ([]byte, []carrier.Finding) {
	start := plainLen(text)
	if start == len(text) {
		return text, nil
	}
	p := newPolicy(before, text, after, opt)
	all, invalid := p.pass(text, start)
	if invalid {
		for i := range all {
			all[i].a = carrier.Report
		}
		return text, p.findings(all)
	}
	for i := range all {
		if p.kept(all[i].off) {
			all[i].a = carrier.Report
		}
	}
	if !changes(all) {
		return text, p.findings(all)
	}
	out, m := apply(text, all)
	for {
		next, _ := p.pass(out, 0)
		var added []hit
		grown := false
		for _, h := range next {
			if h.a == carrier.Report {
				continue // reported by the first pass already
			}
			end := m.orig(h.off+h.n-1) + 1
			h.off = m.orig(h.off)
			if p.kept(h.off) {
				// Kept, and reported, by the first pass. If it now reaches
				// over carriers removed beside it (a kept ESC that would
				// start a longer sequence), they are kept too: removing
				// them would make the kept carrier a different one, which a
				// later clean, knowing nothing of the keep, would remove.
				for i := range all {
					if all[i].off > h.off && all[i].off < end && all[i].a != carrier.Report {
						all[i].a, grown = carrier.Report, true
						p.keep[all[i].off] = true // and never judged again
					}
				}
				continue
			}
			added = append(added, h)
		}
		if len(added) == 0 && !grown {
			return out, p.findings(all)
		}
		all = merge(all, added)
		out, m = apply(text, all)
	}
}

func (p *policy) findings(hs []hit) []carrier.Finding {
	if len(hs) == 0 {
		return nil
	}
	fs := make([]carrier.Finding, len(hs))
	for i, h := range hs {
		fs[i] = h.finding()
		fs[i].Severity = p.severity(h)
	}
	return fs
}

func changes(hs []hit) bool {
	for _, h := range hs {
		if h.a == carrier.Remove || h.a == carrier.Replace {
			return true
		}
	}
	return false
}

// merge merges two lists of hits sorted by offset; offsets never collide,
// because a later pass only sees carriers an earlier one left alone.
func merge(a, b []hit) []hit {
	out := make([]hit, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if a[0].off < b[0].off {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	out = append(out, a...)
	return append(out, b...)
}

// offsetMap maps offsets of a cleaned text back to the original: seg[i] says
// that output bytes from out onwards were copied from orig onwards.
type offsetMap []struct{ out, orig int }

func (m offsetMap) orig(off int) int {
	i := sort.Search(len(m), func(i int) bool { return m[i].out > off }) - 1
	return m[i].orig + off - m[i].out
}

// apply builds the cleaned text from the original and its sorted hits.
func apply(text []byte, hs []hit) ([]byte, offsetMap) {
	out := make([]byte, 0, len(text))
	m := offsetMap{{0, 0}}
	last := 0
	for _, h := range hs {
		switch h.a {
		case carrier.Remove:
			out = append(out, text[last:h.off]...)
		case carrier.Replace:
			out = append(out, text[last:h.off]...)
			out = append(out, ' ')
		default:
			continue
		}
		last = h.off + h.n
		m = append(m, struct{ out, orig int }{len(out), last})
	}
	out = append(out, text[last:]...)
	return out, m
}

// Any reports whether text holds a carrier at all, whatever its context
// (a byte order mark at byte 0 excepted): every carrier any profile could
// act on or report. Text that is not valid UTF-8 counts as holding one.
// It is the prefilter of "prosewash check", which decides only such files.
func Any(text []byte) bool {
	i := 0
	if len(text) >= 3 && text[0] == 0xEF && text[1] == 0xBB && text[2] == 0xBF {
		i = 3
	}
	return nextSpecial(text, i) < len(text)
}

// Specials returns, in order, the offsets of text at which a carrier may
// start. A region between two character starts (or len(text)) that holds
// none holds no character that could start a carrier in any context or
// profile (a byte order mark included): the inspect and clean operations
// report nothing in it and return it as it is, whatever its kind, offset
// and surroundings (TestSilentMeansNothing, TestSpecialsAgreeWithSilent).
// The engine running this provider in-process finds them once per file
// and skips every region that holds none (clean.Engine.Specials): most
// runtime regions of a file with one carrier. A text with more than one
// such offset in eight bytes (a file of NULs, of no-break spaces) gets
// ok false and no list: the list would outweigh the text, and the engine
// then sends every region.
func Specials(text []byte) (offsets []int, ok bool) {
	most := len(text)/8 + 64
	for i := nextSpecial(text, 0); i < len(text); i = nextSpecial(text, i+unitLen(text[i:])) {
		if len(offsets) == most {
			return nil, false
		}
		offsets = append(offsets, i)
	}
	return offsets, true
}

// unitLen is the length of what nextSpecial steps over at the start of b:
// one character, or one byte that is not valid UTF-8.
func unitLen(b []byte) int {
	if b[0] < utf8.RuneSelf {
		return 1
	}
	_, n := utf8.DecodeRune(b)
	return n
}

// InProcess runs the policy as a provider without a subprocess: the
// engine's runner for "prosewash check" and for tests, with the same
// requests and replies as "prosewash provider unicode".
func InProcess(_ context.Context, c provider.Call, req *provider.Request) (*provider.Reply, error) {
	req.Protocol, req.Operation = provider.Protocol, c.Op.Name
	reply, err := Handle(req)
	if err != nil {
		return nil, &provider.RunError{Provider: c.Def.Ref(c.Op), Kind: provider.FailExit, Msg: err.Error()}
	}
	return reply, nil
}
