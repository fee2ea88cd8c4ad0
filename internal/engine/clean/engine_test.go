package clean_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/carrier"
	"github.com/prosewash/prosewash/internal/engine/clean"
	"github.com/prosewash/prosewash/internal/engine/pipeline"
	"github.com/prosewash/prosewash/internal/engine/provider"
	"github.com/prosewash/prosewash/internal/providers/ucarrier"
	"github.com/prosewash/prosewash/internal/testkit/safeplan"
)

// safeEngine is the safe pipeline with the real unicode provider, called
// in-process over the same requests and replies, or through run.
func safeEngine(tb testing.TB, run clean.Runner) *clean.Engine {
	tb.Helper()
	e := safeplan.Engine(tb, carrier.Standard, nil)
	if run != nil {
		// Specials speaks for the real provider only.
		e.Run, e.Specials = run, nil
	}
	return e
}

func runOne(t *testing.T, e *clean.Engine, path, src string) *clean.File {
	t.Helper()
	f := clean.NewFile(path, path, []byte(src))
	if !f.Alive() {
		t.Fatalf("%s: %s", path, f.Reason)
	}
	e.RunStages(context.Background(), []*clean.File{f})
	return f
}

// One risky carrier does not block the rest: the no-break space whose
// removal would make a Markdown hard line break stays and is reported with
// what would change; the stray zero width space goes. This fails if the
// structure proof always passes (the space goes and the break appears) and
// if it always fails (nothing is cleaned).
func TestRiskyCarrierKeptOthersCleaned(t *testing.T) {
	src := "Stray\u200b space.\n\nTotal: \u00a0 \nnext\n"
	f := runOne(t, safeEngine(t, nil), "notes.md", src)
	if f.Status != clean.Changed {
		t.Fatalf("status %s (%s), want changed", f.Status, f.Reason)
	}
	if want := "Stray space.\n\nTotal: \u00a0 \nnext\n"; string(f.Cur) != want {
		t.Fatalf("got %q, want %q", f.Cur, want)
	}
	if len(f.Reported) != 1 || f.Reported[0].Code != "U+00A0" || !strings.Contains(f.Reported[0].Reason, "3:7 would be runtime (markup) instead of prose (text)") {
		t.Fatalf("reported %+v, want the no-break space with what would change", f.Reported)
	}
	var actions []string
	for _, c := range f.Carriers {
		actions = append(actions, c.Finding.Code()+" "+c.Action)
	}
	if got := strings.Join(actions, ", "); got != "U+200B remove, U+00A0 report" {
		t.Fatalf("carriers: %s", got)
	}
}

// Two carriers that are harmless alone but change the structure together
// (a setext underline needs both gone): one stays, the other goes.
func TestCulpritsTogether(t *testing.T) {
	f := runOne(t, safeEngine(t, nil), "t.md", "Title\n=\u200b=\u200b=\n")
	if want := "Title\n=\u200b==\n"; string(f.Cur) != want {
		t.Fatalf("got %q (%s), want %q", f.Cur, f.Status, want)
	}
}

// The engine asks the provider again, naming the carrier to keep; a
// provider that ignores the keep offsets is refused.
func TestKeepOffsetsSentAndEnforced(t *testing.T) {
	var keeps [][]int
	spy := func(ctx context.Context, c provider.Call, req *provider.Request) (*provider.Reply, error) {
		if c.Op.Name == "clean" {
			for _, f := range req.Files {
				for _, r := range f.Regions {
					if len(r.Keep) > 0 {
						keeps = append(keeps, r.Keep)
					}
				}
			}
		}
		return ucarrier.InProcess(ctx, c, req)
	}
	src := "Total: \u00a0 \nnext\n"
	f := runOne(t, safeEngine(t, spy), "n.md", src)
	if f.Status != clean.Unchanged || len(keeps) != 1 || len(keeps[0]) != 1 || keeps[0][0] != len("Total: ") {
		t.Fatalf("status %s, keeps %v: want the space kept on a second call", f.Status, keeps)
	}
	deaf := func(ctx context.Context, c provider.Call, req *provider.Request) (*provider.Reply, error) {
		for i := range req.Files {
			for j := range req.Files[i].Regions {
				req.Files[i].Regions[j].Keep = nil
			}
		}
		return ucarrier.InProcess(ctx, c, req)
	}
	f = runOne(t, safeEngine(t, deaf), "n.md", src)
	if f.Status != clean.Refused || !strings.Contains(f.Reason, "told to keep") || string(f.Cur) != src {
		t.Fatalf("status %s (%s): a provider that ignores keep must be refused", f.Status, f.Reason)
	}
}

// rewriter is a transform that does not say what it did (like a rewrite
// model): its change cannot be explained carrier by carrier.
func rewriter(change func(string) string) clean.Runner {
	return func(ctx context.Context, c provider.Call, req *provider.Request) (*provider.Reply, error) {
		reply := &provider.Reply{Protocol: provider.Protocol}
		for _, f := range req.Files {
			fr := provider.FileReply{ID: f.ID}
			for _, r := range f.Regions {
				rr := provider.RegionReply{ID: r.ID}
				if c.Op.Role == pipeline.RoleTransform {
					s := r.Text
					if r.Kind == "prose" {
						s = change(s)
					}
					rr.Text = &s
				}
				fr.Regions = append(fr.Regions, rr)
			}
			reply.Files = append(reply.Files, fr)
		}
		return reply, nil
	}
}

// A change no finding explains is proven at region level: honest text
// passes, text that turns into markup refuses the file.
func TestStructureProofUnexplainedChange(t *testing.T) {
	src := "Some words here, caf\u00e9.\n\nMore words, na\u00efve.\n"
	f := runOne(t, safeEngine(t, rewriter(func(s string) string { return strings.ReplaceAll(s, "words", "terms") })), "a.md", src)
	if f.Status != clean.Changed || string(f.Cur) != "Some terms here, caf\u00e9.\n\nMore terms, na\u00efve.\n" {
		t.Fatalf("honest rewrite: %s (%s) %q", f.Status, f.Reason, f.Cur)
	}
	f = runOne(t, safeEngine(t, rewriter(func(s string) string { return strings.ReplaceAll(s, "words", "`code`") })), "a.md", src)
	if f.Status != clean.Refused || !strings.Contains(f.Reason, "structure") || string(f.Cur) != src {
		t.Fatalf("a rewrite that makes a code span: %s (%s)", f.Status, f.Reason)
	}
}

// The engine's own NewFile reads a file's NUL bytes and invalid UTF-8 off
// the provider's Specials instead of scanning for them: it must refuse
// what NewFile refuses, with the same reason, and decide the rest the
// same way, the fallback for a text with too many specials included.
func TestEngineNewFileAsNewFile(t *testing.T) {
	e := safeEngine(t, nil)
	plain := safeEngine(t, nil)
	plain.Specials = nil
	many := strings.Repeat("a\u00a0", 300)
	for _, c := range []struct{ path, src string }{
		{"a.md", "plain text\n"},
		{"a.md", "a\u200bb\n"},
		{"a.md", "x\x00y\u200b\n"},
		{"a.md", "caf\xc3 au lait\u200b\n"},
		{"a.md", "ok \u200b then \xe4\xb8 cut\n"},
		{"a.md", "\xff\x00\n"},
		{"a.md", "bad \xed\xa0\x80 surrogate\n"},
		{"a.md", "replacement \ufffd is valid\u00a0\n"},
		{"a.go", "package p\n\n// Doc\u200b.\nvar s = \"\u200b\"\n"},
		{"a.md", many + "\n\ntail\u200b\n"},
		{"a.bin", "no classifier\u200b\n"},
	} {
		got, want := e.NewFile(c.path, c.path, []byte(c.src)), clean.NewFile(c.path, c.path, []byte(c.src))
		if got.Status != want.Status || got.Reason != want.Reason || got.Lang != want.Lang {
			t.Fatalf("%+q: engine's NewFile %s (%s), NewFile %s (%s)", c.src, got.Status, got.Reason, want.Status, want.Reason)
		}
		if !got.Alive() {
			continue
		}
		e.RunStages(context.Background(), []*clean.File{got})
		plain.RunStages(context.Background(), []*clean.File{want})
		if !bytes.Equal(got.Cur, want.Cur) || fmt.Sprint(got.Carriers) != fmt.Sprint(want.Carriers) {
			t.Fatalf("%+q: with Specials %+q %v, without %+q %v", c.src, got.Cur, got.Carriers, want.Cur, want.Carriers)
		}
	}
	if _, ok := e.Specials([]byte(many)); ok {
		t.Fatalf("Specials kept a list for a text of %d no-break spaces", strings.Count(many, "\u00a0"))
	}
}
