package region

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
)

var jsFuzzNames = [...]string{"f.js", "f.ts", "f.tsx", "f.jsx", "f.mjs"}

// addNamedFixtureSeeds seeds a fuzzer taking (src, which) with the golden
// fixtures whose names end in ext.
func addNamedFixtureSeeds(f *testing.F, ext string, which uint8) {
	f.Helper()
	for _, src := range fixtureSources(f, ext) {
		f.Add(src, which)
	}
}

// classifyJSChecked classifies src as path and checks what must hold for
// any input: a map satisfying the partition invariant, or a RefusedError
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
		var re *RefusedError
		if !errors.As(err, &re) {
			t.Fatalf("error is no RefusedError: %v", err)
		}
		var line, col int
		if _, perr := fmt.Sscanf(re.Pos, "%d:%d", &line, &col); perr != nil {
			t.Fatalf("error position %q: %v", re.Pos, perr)
		}
		lines := 1 + bytes.Count(src, []byte{'\n'}) + bytes.Count(src, []byte{'\r'})
		if line < 1 || line > lines || col < 1 {
			t.Fatalf("error position %s outside the file: %v", re.Pos, err)
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
	checkRemovalStableWith(t, path, src, m, classifyJSChecked)
}

func FuzzClassifyJS(f *testing.F) {
	for i, name := range jsFuzzNames {
		addNamedFixtureSeeds(f, filepath.Ext(name), uint8(i))
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
	addNamedFixtureSeeds(f, ".json", 1) // as tsconfig.json: comments are prose
	addNamedFixtureSeeds(f, ".jsonc", 1)
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
