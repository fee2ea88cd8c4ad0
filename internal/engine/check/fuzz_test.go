package check

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/engine/carrier"
	"github.com/prosewash/prosewash/internal/engine/clean"
	"github.com/prosewash/prosewash/internal/engine/region"
	"github.com/prosewash/prosewash/internal/providers/ucarrier"
)

// fuzzNames are the file names FuzzClean cleans as; which picks one.
var fuzzNames = [...]string{"f.md", "f.py", "f.go", "f.txt", "f.sh", "f.toml", "Dockerfile", "f.js", "f.ts", "f.tsx", "f.jsonc", "f.json", "f.yaml", "f.rs", "f.html", "f.css", "f.scss", "f.less"}

// nonProse returns, in order, the bytes of every region that is not prose.
func nonProse(m *region.Map, b []byte) []byte {
	var out []byte
	for _, r := range m.Regions {
		if r.Kind != region.Prose {
			out = append(out, b[r.Start:r.End]...)
		}
	}
	return out
}

// FuzzClean runs clean's engine with the real provider over arbitrary input
// in every classified language, and holds it to check's prediction: the
// carriers clean removes are exactly those check marks remove or replace
// (the result is the original with those applied, computed here without
// the engine's splicing); each is a carrier; a file without carriers comes
// back identical; a second clean changes nothing. The engine never refuses
// a file it could classify: refusing everything is not a way to pass.
// Check skips the regions the policy calls silent, clean sends them all.
//
// Where prose is on arbitrary input only the classifier under test can
// say, so that half checks the engine against its own classification
// (each removal in a prose region, code, literals and directives byte for
// byte). The independent oracle is the other half: the same fuzz bytes
// build a document of known pieces (truthDoc: comments, literals, code,
// comments that would become a tool's directive), each with a carrier at
// a spot the language's grammar makes prose or not, and the cleaned
// document must hold every piece that is not prose byte for byte and every
// prose piece as written or without its carrier (truthHolds).
func FuzzClean(f *testing.F) {
	md := uint8(0)
	seeds := []struct {
		s     string
		which uint8
	}{
		{"# Title\u200b\n\nText with\u00a0nbsp and `code\u200bspan`.\n", md},
		{"# comment\u200b\nx = 'lit\u200b'  # tail\u202e\n", 1},
		{"// Package p\u200b.\npackage p\n\nvar s = \"\u200b\" // c\u2060\n", 2},
		{"plain ascii\n", 3},
		{"\ufeffBOM then\u200b text\n", md},
		{"foo  \u200b\nbar\n", md},
		{"\u200b    indented?\n", md},
		{"<!-- \U000E0069\U000E0067 -->\n", md},
		{"Stray\u200b space.\n\nTotal: \u00a0 \nnext\n", md},
		{"Title\n=\u200b=\u200b=\n", md},
		{"A [foo]\u200b(bar) and <\u200bspan> www\u200b.x.y\n", md},
		{"\u05e9\n\nOne\u200e two\u200f three\n", md},
		{"# see \u009b31mred\u009b0m here\n# Note: a\u200bb\n", 1},
		{"package p\n\n// Deprecat\u200bed: x\n/* a *\u200b/ b */\n", 2},
		{"<!-- prosewash: keep U+00A0 -->\na\u00a0b\n", md},
		{"#!/bin/sh\n# comment\u200b\necho '\u200b' # tail\u202e\ncat <<EOF\n# body\u200b\nEOF\n", 4},
		{"# manifest\u200b\nname = \"x\u200b\" # trailing\u2060\n#\u200b:schema y\n", 5},
		{"# syntax=docker/dockerfile:1\nFROM x\n\u00a0# comment\u200b\nRUN <<EOF\n# body\u200b\nEOF\n", 6},
		{"// note\u200b\u2028x = '\u200b' /* b\u2060 */ // @ts-\u200bignore\n", 7},
		{"let s = `a ${b /* \u200b */}` // c\u00a0d\ntype T = {}\n/ 2 // e\u200b\n", 8},
		{"const a = <div title=\"\u200b\">{/* c\u200b */}\u200b</div>; /** @param {T\u200b} x d\u200be */\n", 9},
		{"{\n  // c\u200b\n  \"k\": \"v\u200b\", /* d\u202e */\n}\n", 10},
		{"{\"a\": \"\u200b\"}\n", 11},
		{"/** src/**\u200b/*.ts and x\u200by */\nreturn /*\u2028*/ 42\n", 7},
		{"# top\u200b\nrun: |\n  echo \u200b # shell\nkey: 'v\u200b' # tail\u2060\u2028b: 1\n", 12},
		{"// c\u200b\n/// doc\u202e\n/// ```\n/// x\u200b\n/// ```\nfn f() { let s = \"\u200b\"; /* b\u2066 */ }\n", 13},
		{"# Note: x\u0085y: 1\n", 12},
		{"<p title=\"\u200b\">x</p><!-- a\u200b -\u200b-> b --><style>/* c\u2060 */</style>\n", 14},
		{"<!-- TODO: x\u200b -->\n<script>// s\u200b\nx=1</script><style>/* k\u200b */</style>\n", 14},
		{"a { content: \"\u200b\"; } /* c\u200b *\u200b/ d */ /*\u200b! e */\n", 15},
		{"$a: 1; // c\u200b\f b: c;\n/* #\u200b{$a} */ a { b: url(x\u200b//y) }\n", 16},
		{"@a: `\u200b`; // c\u200b\r d\n", 17},
	}
	for _, s := range seeds {
		f.Add([]byte(s.s), s.which)
	}
	// check's engine skips regions the policy calls silent; clean's (the
	// provider as a subprocess) sends every region. The prediction must
	// hold across that difference.
	opt := options(testEngine(f))
	e := testEngine(f)
	e.Specials = nil
	for _, s := range truthSeeds {
		f.Add(s, uint8(0))
	}
	f.Fuzz(func(t *testing.T, data []byte, which uint8) {
		fuzzTruth(t, e, opt, data)
		name := fuzzNames[int(which)%len(fuzzNames)]
		// The fuzzer does not notice a hang; a watchdog turns one into a
		// crash that records the input.
		watchdog := time.AfterFunc(20*time.Second, func() { panic(fmt.Sprintf("clean of %s hangs on %q", name, data)) })
		defer watchdog.Stop()
		file := clean.NewFile(name, name, data)
		if !file.Alive() {
			return // not text (NUL, invalid UTF-8): refused before the engine, and check says so
		}
		orig := file.Map()
		e.RunStages(t.Context(), []*clean.File{file})
		if file.Status == clean.Refused {
			t.Fatalf("the engine refused %q: %s", data, file.Reason)
		}
		res := File(name, data, opt)
		var fs []Finding
		if res != nil {
			fs = res.Findings
		}
		if want := predicted(data, fs); !bytes.Equal(file.Cur, want) {
			t.Fatalf("clean is not what check predicted:\n in    %q\n clean %q\n check %q\n%+v", data, file.Cur, want, fs)
		}
		acted := 0
		for _, x := range fs {
			if x.Action != string(carrier.Remove) && x.Action != string(carrier.Replace) {
				continue
			}
			acted++
			if k := orig.At(x.Offset); k.Kind != region.Prose || orig.At(x.Offset+x.Len-1).Kind != region.Prose {
				t.Fatalf("%s at %d acted on outside prose (%s): %q", x.Code, x.Offset, k.Why, data)
			}
			if !ucarrier.Any(data[x.Offset : x.Offset+x.Len]) {
				t.Fatalf("%q at %d removed, which is no carrier: %q", data[x.Offset:x.Offset+x.Len], x.Offset, data)
			}
		}
		if (acted > 0) != (file.Status == clean.Changed) {
			t.Fatalf("status %s but check acts on %d carriers: %q", file.Status, acted, data)
		}
		if !ucarrier.Any(data) && !bytes.Equal(file.Cur, data) {
			t.Fatalf("a file without carriers was changed: %q", data)
		}
		if file.Status != clean.Changed {
			return
		}
		m, err := region.Classify(name, file.Cur)
		if err != nil {
			t.Fatalf("the cleaned file can no longer be classified: %v: %q", err, file.Cur)
		}
		if !bytes.Equal(nonProse(orig, data), nonProse(m, file.Cur)) {
			t.Fatalf("code, literals or directives changed:\n in  %q\n out %q", data, file.Cur)
		}
		again := clean.NewFile(name, name, file.Cur)
		e.RunStages(t.Context(), []*clean.File{again})
		if again.Status != clean.Unchanged {
			t.Fatalf("not idempotent: second run %s (%s):\n first %q\nsecond %q", again.Status, again.Reason, file.Cur, again.Cur)
		}
	})
}

// truthSeeds give every language of truthDoc each of its pieces with
// several carriers.
var truthSeeds = func() [][]byte {
	var out [][]byte
	for li, l := range truthLangs {
		seed := []byte{byte(li)}
		for pi := range l.pieces {
			for ci := range truthCarriers {
				// c%len(pieces) picks the piece, (c>>4)%len(carriers) the carrier.
				for c := 0; c < 256; c++ {
					if c%len(l.pieces) == pi && (c>>4)%len(truthCarriers) == ci {
						seed = append(seed, byte(c))
						break
					}
				}
			}
		}
		for len(seed) > 1 {
			n := min(len(seed)-1, 16)
			out = append(out, append([]byte{byte(li)}, seed[1:1+n]...))
			seed = append([]byte{byte(li)}, seed[1+n:]...)
		}
	}
	return out
}()

// fuzzTruth cleans the document truthDoc builds from data and holds the
// result to the pieces' known kinds, and to check's prediction.
func fuzzTruth(t *testing.T, e *clean.Engine, opt Options, data []byte) {
	path, src, parts, head := truthDoc(data)
	file := clean.NewFile(path, path, src)
	if !file.Alive() {
		t.Fatalf("a built document is refused: %s: %q", file.Reason, src)
	}
	e.RunStages(t.Context(), []*clean.File{file})
	if file.Status == clean.Refused {
		t.Fatalf("the engine refused a built document: %s: %q", file.Reason, src)
	}
	if err := truthHolds(file.Cur, head, parts); err != nil {
		t.Fatalf("%s: %v\n in  %q\n out %q", path, err, src, file.Cur)
	}
	var fs []Finding
	if res := File(path, src, opt); res != nil {
		fs = res.Findings
	}
	if want := predicted(src, fs); !bytes.Equal(file.Cur, want) {
		t.Fatalf("clean is not what check predicted on a built document:\n in    %q\n clean %q\n check %q", src, file.Cur, want)
	}
}
