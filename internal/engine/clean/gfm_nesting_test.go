package clean_test

import (
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/clean"
)

// A line nesting more list items than goldmark reads in linear time keeps
// every carrier of its file, each reported with why, and nothing is
// written; at the bound the file is cleaned as before. A rewrite of such a
// file is refused. This fails if the bound is dropped (the carrier goes,
// after time quadratic in the depth) and if it is applied below the
// depth (the carrier at depth 64 stays).
func TestDeepNestingKeptUnproved(t *testing.T) {
	deep := strings.Repeat("- ", 65) + "x\u200by\n\nStray\u200b space.\n"
	f := runOne(t, safeEngine(t, nil), "deep.md", deep)
	if string(f.Cur) != deep || f.Status == clean.Refused {
		t.Fatalf("status %s (%s), %q: want the file untouched, not refused", f.Status, f.Reason, f.Cur)
	}
	if len(f.Reported) != 2 {
		t.Fatalf("reported %+v, want both carriers", f.Reported)
	}
	for _, r := range f.Reported {
		if !strings.Contains(r.Reason, "line 1 opens 65 block quotes and list items, more than the 64") {
			t.Fatalf("reason %q does not say why", r.Reason)
		}
	}
	at := strings.Repeat("- ", 64) + "x\u200by\n"
	if f := runOne(t, safeEngine(t, nil), "at.md", at); string(f.Cur) != strings.Repeat("- ", 64)+"xy\n" {
		t.Fatalf("at the bound: %s (%s) %q", f.Status, f.Reason, f.Cur)
	}
	f = runOne(t, safeEngine(t, rewriter(func(s string) string { return strings.ReplaceAll(s, "\u200b", "") })), "deep.md", deep+"na\u00efve\n")
	if f.Status != clean.Refused || !strings.Contains(f.Reason, "not proved") {
		t.Fatalf("a rewrite of a file too deep to prove: %s (%s)", f.Status, f.Reason)
	}
}
