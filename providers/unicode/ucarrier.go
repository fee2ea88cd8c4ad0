package ucarrier

import (
	"sort"

	"github.com/prosewash/prosewash/engine/carrier"
)

// Options selects the profile and the context of one text.
type Options struct {
	// Profile is carrier.Standard (keep the legitimate uses) or
	// carrier.Strict (remove every carrier whatever its context). The zero
	// value is Standard.
	Profile carrier.Profile
	// Lang is the classifier's language name: "python", "go", "markdown",
	// "text". It decides which code points end a line and whether the
	// Markdown leading-whitespace rule applies. Unknown names behave as "text".
	Lang string
	// FileStart says that text starts at byte 0 of the file, where a U+FEFF
	// is a byte order mark and is kept.
	FileStart bool
}

// Plain reports whether b cannot contain any carrier: every byte is
// 0x20..0x7E, TAB, LF or CR. It is the fast path: a plain text needs no scan.
func Plain(b []byte) bool {
	for _, c := range b {
		if c-0x20 >= 0x5F && c != '\n' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
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
	if Plain(text) {
		return text, nil
	}
	p := newPolicy(before, text, after, opt)
	all, invalid := p.pass(text)
	if invalid {
		for i := range all {
			all[i].Action = carrier.Report
		}
		return text, all
	}
	if !changes(all) {
		return text, all
	}
	out, m := apply(text, all)
	for {
		next, _ := p.pass(out)
		added := false
		for _, f := range next {
			if f.Action == carrier.Report {
				continue // reported by the first pass already
			}
			f.Offset = m.orig(f.Offset)
			all = append(all, f)
			added = true
		}
		if !added {
			return out, all
		}
		sort.Slice(all, func(i, j int) bool { return all[i].Offset < all[j].Offset })
		out, m = apply(text, all)
	}
}

func changes(fs []carrier.Finding) bool {
	for _, f := range fs {
		if f.Action == carrier.Remove || f.Action == carrier.Replace {
			return true
		}
	}
	return false
}

// offsetMap maps offsets of a cleaned text back to the original: seg[i] says
// that output bytes from out onwards were copied from orig onwards.
type offsetMap []struct{ out, orig int }

func (m offsetMap) orig(off int) int {
	i := sort.Search(len(m), func(i int) bool { return m[i].out > off }) - 1
	return m[i].orig + off - m[i].out
}

// apply builds the cleaned text from the original and its sorted findings.
func apply(text []byte, fs []carrier.Finding) ([]byte, offsetMap) {
	out := make([]byte, 0, len(text))
	m := offsetMap{{0, 0}}
	last := 0
	for _, f := range fs {
		switch f.Action {
		case carrier.Remove:
			out = append(out, text[last:f.Offset]...)
		case carrier.Replace:
			out = append(out, text[last:f.Offset]...)
			out = append(out, ' ')
		default:
			continue
		}
		last = f.Offset + f.Len
		m = append(m, struct{ out, orig int }{len(out), last})
	}
	out = append(out, text[last:]...)
	return out, m
}
