package clean

import (
	"bytes"
	"sort"

	"github.com/prosewash/prosewash/internal/engine/carrier"
	"github.com/prosewash/prosewash/internal/engine/region"
)

// One risky carrier must not block the rest of a file. When a transform's
// candidate fails the structure proof and the provider's findings explain
// its edits carrier by carrier, the engine finds which carriers cause the
// change by trying removals in memory (it never keeps the result: the
// provider is asked again, told which carriers to keep, and its new answer
// is proven again). check runs the same code, so it predicts what clean
// does carrier by carrier.

// maxTrials bounds the classifications one search may run; carriers it
// cannot try are kept.
const maxTrials = 256

// move is one carrier a provider acted on: input span [start, end) becomes
// text ("" or " ").
type move = splice

// explain turns a region's findings into the edits they describe, or
// reports false when applying them does not give the provider's text
// exactly (a rewrite, or a provider that does not say what it did).
func explain(base int, old, newText []byte, fs []carrier.Finding) ([]move, bool) {
	var ms []move
	var out []byte
	pos := 0
	for _, f := range fs {
		var repl []byte
		switch f.Action {
		case carrier.Remove:
		case carrier.Replace:
			repl = []byte{' '}
		default:
			continue
		}
		if f.Offset < pos || f.Len <= 0 || f.Offset+f.Len > len(old) {
			return nil, false
		}
		out = append(out, old[pos:f.Offset]...)
		out = append(out, repl...)
		pos = f.Offset + f.Len
		ms = append(ms, move{start: base + f.Offset, end: base + f.Offset + f.Len, text: repl})
	}
	out = append(out, old[pos:]...)
	if !bytes.Equal(out, newText) {
		return nil, false
	}
	return ms, true
}

// trial is a search's memory: the input, its map and the classifier.
type trial struct {
	path string
	in   []byte
	m    *region.Map
	runs int
}

// try applies ms to the input, classifies the result and compares its
// structure; nil means the structure holds.
func (t *trial) try(ms []move) *structDiff {
	t.runs++
	return proveStructure(t.path, t.in, t.m, applySplices(t.in, ms), ms, true)
}

// without returns ms minus the moves whose index is in skip.
func without(ms []move, skip map[int]bool) []move {
	out := make([]move, 0, len(ms))
	for i, m := range ms {
		if !skip[i] {
			out = append(out, m)
		}
	}
	return out
}

// culprits returns, for moves whose sum changes the structure of t.in,
// which of them to keep (by index) and why, such that the other moves
// together keep the structure. It first keeps, one at a time, the move
// nearest before each difference found (a carrier changes what follows it
// far more often than what precedes it), then gives back every kept move
// whose removal turns out to be harmless once the others are kept. What it
// cannot decide within maxTrials it keeps.
func (t *trial) culprits(ms []move, first *structDiff) map[int]string {
	keep := map[int]string{}
	d := first
	for d != nil {
		if t.runs >= maxTrials {
			for i := range ms {
				if _, ok := keep[i]; !ok {
					keep[i] = "not tried: too many carriers here change the file's structure"
				}
			}
			return keep
		}
		i := nearest(ms, keep, d.in)
		if i < 0 {
			// Every move is kept and the structure still differs: the
			// input is judged against itself, which cannot happen.
			return keep
		}
		keep[i] = "removing it changes the file's structure: " + d.describe(t.in)
		d = t.try(without(ms, asSet(keep)))
	}
	// Give back what is harmless, in order; the kept set always passes.
	idx := make([]int, 0, len(keep))
	for i := range keep {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	for _, i := range idx {
		if t.runs >= maxTrials {
			break
		}
		trialKeep := asSet(keep)
		delete(trialKeep, i)
		if d := t.try(without(ms, trialKeep)); d == nil {
			delete(keep, i)
		} else {
			keep[i] = "removing it changes the file's structure: " + d.describe(t.in)
		}
	}
	return keep
}

func asSet(m map[int]string) map[int]bool {
	s := make(map[int]bool, len(m))
	for k := range m {
		s[k] = true
	}
	return s
}

// nearest returns the index of the move not yet kept that starts last at
// or before off, else the first one after it, else -1.
func nearest(ms []move, keep map[int]string, off int) int {
	best := -1
	for i, m := range ms {
		if _, ok := keep[i]; ok {
			continue
		}
		if m.start <= off {
			best = i
			continue
		}
		if best < 0 {
			return i
		}
		break
	}
	return best
}
