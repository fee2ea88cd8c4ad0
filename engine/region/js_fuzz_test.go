package region

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
)

var jsFuzzNames = [...]string{"f.js", "f.ts", "f.tsx", "f.jsx", "f.mjs"}

// classifyJSChecked classifies src as path and checks what must hold for
// any input: a map satisfying the partition invariant, or a SyntaxError
// with a position inside the file; the same answer twice; no CR, U+2028 or
// U+2029 outside runtime (U+2028/U+2029 end lines for JavaScript), no LF in
// a prose region that does not sit in a block comment.
func classifyJSChecked(t *testing.T, path string, src []byte) *Map {
	t.Helper()
	m, err := Classify(path, src)
	m2, err2 := Classify(path, src)
	if (err == nil) != (err2 == nil) || (err != nil && err.Error() != err2.Error()) || !reflect.DeepEqual(m, m2) {
		t.Fatalf("not deterministic: %v / %v", err, err2)
	}
	if err != nil {
		var se *SyntaxError
		if !errors.As(err, &se) {
			t.Fatalf("error is no SyntaxError: %v", err)
		}
		lines := 1 + bytes.Count(src, []byte{'\n'}) + bytes.Count(src, []byte{'\r'})
		if se.Line < 1 || se.Line > lines || se.Col < 1 {
			t.Fatalf("error position %d:%d outside the file: %v", se.Line, se.Col, err)
		}
		return nil
	}
	if err := m.Check(); err != nil {
		t.Fatal(err)
	}
	for _, r := range m.Regions {
		if r.Kind == Runtime {
			continue
		}
		text := src[r.Start:r.End]
		if bytes.IndexByte(text, '\r') >= 0 || bytes.Contains(text, []byte("\u2028")) || bytes.Contains(text, []byte("\u2029")) {
			t.Fatalf("%s region %d-%d %q holds a line break", r.Kind, r.Start, r.End, text)
		}
	}
	return m
}

// checkJSRemovalStable: removing U+200B from prose changes no other byte's
// classification, and the cleaned file still classifies.
func checkJSRemovalStable(t *testing.T, path string, src []byte, m *Map) {
	t.Helper()
	cleaned, newOff := removeFromProse(src, m)
	if len(cleaned) == len(src) {
		return
	}
	m2 := classifyJSChecked(t, path, cleaned)
	if m2 == nil {
		t.Fatalf("removing U+200B from prose made the file unclassifiable\nbefore: %q\nafter:  %q", src, cleaned)
	}
	for i, n := range newOff {
		if n < 0 {
			continue
		}
		a, b := m.At(i), m2.At(n)
		if a.Kind != b.Kind || a.Why != b.Why {
			t.Fatalf("byte %d was %s %q, after removing U+200B from prose it is %s %q\nbefore: %q\nafter:  %q",
				i, a.Kind, a.Why, b.Kind, b.Why, src, cleaned)
		}
	}
}

func FuzzClassifyJS(f *testing.F) {
	for _, ext := range []string{".js", ".ts", ".tsx", ".jsx", ".mjs"} {
		addFixtureSeeds(f, ext)
	}
	for _, s := range []string{
		"", "/", "/*", "//", "`", "`${", "'", "<", "<a>", "#!", "}/", "x = 1 // a\u200b\u2028y\n",
		"/* a *\u200b/ */", "/** @param {T} x \u200bdesc */", "x = <div>{/* \u200b */}</div>",
		"type T = {}\n/ 2 // \u200bc\n", "a <!-- b\n", "-->x\n", "<T,>(x) => x // \u200b",
		"yield /a/g // \u200b", "if (a) {} /re/ // \u200b", "x = {}\n/`/ + 1 // c\n` + `\n",
	} {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, src []byte, which uint8) {
		path := jsFuzzNames[int(which)%len(jsFuzzNames)]
		m := classifyJSChecked(t, path, src)
		if m == nil {
			return
		}
		checkJSRemovalStable(t, path, src, m)
	})
}

// FuzzJSAmbiguity checks the both-readings rule directly: reading every
// ambiguous token one way only (all regexes, or all divisions; all JSX or
// all comparisons) gives a plausible reading of the file whenever it lexes,
// and a byte the classifier calls prose or a directive is never runtime in
// such a reading.
func FuzzJSAmbiguity(f *testing.F) {
	for _, s := range []string{
		"type T = {}\n/ 2 // c\n", "let x: T\n/ 2 /* c */ / 3\n", "o = {}\n/a/g.test(s) // c\n",
		"function* g() { yield /a/ // c\n}", "x = a <!-- b\n// c\n", "x = (a)\n<b>// t</b> // c\n",
		"export {a}\n/[/]/.test(x) // c\n", "a = b\n/ c / d // e\n", "f(x) >\n/ 2 // c\n",
		"x = {}\n/`/ + 1 // c\n` + `\n", "x = {} /* a */ / 'b // c' / d\n",
	} {
		f.Add([]byte(s), uint8(1))
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, src []byte, which uint8) {
		path := jsFuzzNames[int(which)%len(jsFuzzNames)]
		m := classifyJSChecked(t, path, src)
		if m == nil {
			return
		}
		d := jsDialectOf(path)
		for policy := uint8(1); policy <= 2; policy++ {
			one, err := lexJSPolicy(src, d, "x", policy)
			if err != nil {
				continue // that reading does not lex: implausible
			}
			for _, r := range m.Regions {
				if r.Kind == Runtime {
					continue
				}
				for k := r.Start; k < r.End; k++ {
					if one.At(k).Kind == Runtime {
						t.Fatalf("byte %d is %s %q, but reading %d calls it %q\n%q", k, r.Kind, r.Why, policy, one.At(k).Why, src)
					}
				}
			}
		}
	})
}

func FuzzClassifyJSON(f *testing.F) {
	addFixtureSeeds(f, ".json")
	addFixtureSeeds(f, ".jsonc")
	for _, s := range []string{"", "{", "\"", "/*", "//", "{\"a\": 1 // c\u200b\n}", "// a\u2028 1", "'x'"} {
		f.Add([]byte(s), uint8(0))
		f.Add([]byte(s), uint8(1))
	}
	names := [...]string{"f.json", "tsconfig.json", "f.json5"}
	f.Fuzz(func(t *testing.T, src []byte, which uint8) {
		path := names[int(which)%len(names)]
		m := classifyJSChecked(t, path, src)
		if m == nil {
			return
		}
		if path == "f.json" && len(m.Spans(Prose))+len(m.Spans(Directive)) > 0 {
			t.Fatalf("a .json file has prose: %s", m)
		}
		checkJSRemovalStable(t, path, src, m)
	})
}
