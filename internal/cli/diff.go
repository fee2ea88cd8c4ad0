package cli

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/prosewash/prosewash/internal/engine/report"
)

// diffContext is how many unchanged lines surround a change, as in git diff.
const diffContext = 3

// writeDiff writes a unified diff of one file (a/ and b/ prefixes, as git
// prints them). Carriers are invisible, so every character a reader would
// not see is shown as <U+XXXX> on both sides: the diff says what goes.
// The names are quoted as git quotes them, since a file name may hold a
// newline (a forged header or hunk) or a terminal escape.
func writeDiff(w io.Writer, rel string, before, after []byte) {
	a, b := linesOf(before), linesOf(after)
	ops := diffLines(a, b)
	fmt.Fprintf(w, "--- %s\n+++ %s\n", report.Quote("a/"+rel), report.Quote("b/"+rel))
	for _, h := range hunks(ops) {
		fmt.Fprintf(w, "@@ -%s +%s @@\n", hunkRange(h.aStart, h.aLen), hunkRange(h.bStart, h.bLen))
		for _, op := range ops[h.from:h.to] {
			switch op.kind {
			case ' ':
				fmt.Fprintf(w, " %s\n", visibleLine(a[op.a]))
			case '-':
				fmt.Fprintf(w, "-%s\n", visibleLine(a[op.a]))
			case '+':
				fmt.Fprintf(w, "+%s\n", visibleLine(b[op.b]))
			}
		}
	}
}

// linesOf splits after each LF; a final line without one is a line too.
func linesOf(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			out = append(out, b)
			break
		}
		out = append(out, b[:i+1])
		b = b[i+1:]
	}
	return out
}

type diffOp struct {
	kind byte // ' ', '-' or '+'
	a, b int  // line indexes in the old and new file
}

// diffLines pairs the lines of two versions. A clean changes lines in
// place (it never adds or removes a line break), so equal line counts pair
// line by line; otherwise a longest common subsequence decides, or, past a
// size where that would be slow, the whole file is one change.
func diffLines(a, b [][]byte) []diffOp {
	var ops []diffOp
	if len(a) == len(b) {
		for i := range a {
			if bytes.Equal(a[i], b[i]) {
				ops = append(ops, diffOp{' ', i, i})
			} else {
				ops = append(ops, diffOp{'-', i, i}, diffOp{'+', i, i})
			}
		}
		return ops
	}
	if len(a)*len(b) > 4<<20 {
		for i := range a {
			ops = append(ops, diffOp{'-', i, 0})
		}
		for j := range b {
			ops = append(ops, diffOp{'+', len(a), j})
		}
		return ops
	}
	return lcsOps(a, b)
}

func lcsOps(a, b [][]byte) []diffOp {
	n, m := len(a), len(b)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if bytes.Equal(a[i], b[j]) {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var ops []diffOp
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && bytes.Equal(a[i], b[j]):
			ops = append(ops, diffOp{' ', i, j})
			i, j = i+1, j+1
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			ops = append(ops, diffOp{'+', i, j})
			j++
		default:
			ops = append(ops, diffOp{'-', i, j})
			i++
		}
	}
	return ops
}

type hunk struct {
	from, to     int // ops[from:to]
	aStart, aLen int
	bStart, bLen int
}

// hunks groups changed lines with diffContext lines of context around
// them, merging changes whose contexts touch.
func hunks(ops []diffOp) []hunk {
	var out []hunk
	for i := 0; i < len(ops); {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		from := max(0, i-diffContext)
		end := i
		for j := i; j < len(ops); j++ {
			if ops[j].kind != ' ' {
				end = j
			} else if j-end > 2*diffContext {
				break
			}
		}
		to := min(len(ops), end+1+diffContext)
		out = append(out, makeHunk(ops, from, to))
		i = to
	}
	return out
}

func makeHunk(ops []diffOp, from, to int) hunk {
	h := hunk{from: from, to: to, aStart: ops[from].a + 1, bStart: ops[from].b + 1}
	for _, op := range ops[from:to] {
		if op.kind != '+' {
			h.aLen++
		}
		if op.kind != '-' {
			h.bLen++
		}
	}
	return h
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start-1)
	}
	if n == 1 {
		return fmt.Sprint(start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}

// visibleLine is a line without its line end, every character a reader
// would not see written as <U+XXXX>: format and control characters,
// spaces other than U+0020, variation selectors and tag characters.
func visibleLine(l []byte) string {
	l = bytes.TrimSuffix(bytes.TrimSuffix(l, []byte("\n")), []byte("\r"))
	var b strings.Builder
	for len(l) > 0 {
		r, n := utf8.DecodeRune(l)
		if r == utf8.RuneError && n == 1 {
			fmt.Fprintf(&b, "<0x%02X>", l[0])
		} else if invisible(r) {
			fmt.Fprintf(&b, "<U+%04X>", r)
		} else {
			b.WriteRune(r)
		}
		l = l[n:]
	}
	return b.String()
}

func invisible(r rune) bool {
	switch {
	case r == '\t' || r == ' ':
		return false
	case r >= 0xFE00 && r <= 0xFE0F, r >= 0xE0100 && r <= 0xE01EF: // variation selectors
		return true
	}
	return unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Zs, r) || unicode.IsControl(r) ||
		unicode.Is(unicode.Zl, r) || unicode.Is(unicode.Zp, r) || !unicode.IsGraphic(r)
}
