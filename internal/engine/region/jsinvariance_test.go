package region

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/evanw/esbuild/pkg/api"
)

// The invariance oracle: prose must not matter to the program. esbuild
// (github.com/evanw/esbuild/pkg/api, a test-only dependency) minifies the
// whitespace of a file before and after every prose byte is overwritten
// (each character replaced by "x", keeping "/", "*" and line breaks so no
// comment can open or close), and after a U+200B is inserted into every
// prose region; the outputs must be identical. Minified output keeps
// strings, template text, regexes, JSX text, pure annotations and the line
// breaks that automatic semicolon insertion reads ("return;42"), so prose
// that strayed into any of them shows.

func esbuildLoader(path string) api.Loader {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".ts", ".mts", ".cts":
		return api.LoaderTS
	case ".tsx":
		return api.LoaderTSX
	}
	return api.LoaderJSX
}

func esbuildMin(path string, src []byte) (string, bool) {
	r := api.Transform(string(src), api.TransformOptions{
		Loader:           esbuildLoader(path),
		MinifyWhitespace: true,
		LegalComments:    api.LegalCommentsNone,
		JSX:              api.JSXPreserve,
		Sourcefile:       filepath.Base(path),
		LogLevel:         api.LogLevelSilent,
	})
	if len(r.Errors) > 0 {
		return "", false
	}
	return string(r.Code), true
}

// overwriteProse returns src with every character of its prose regions
// replaced by "x", except "/", "*" and line breaks.
func overwriteProse(src []byte, m *Map) []byte {
	out := make([]byte, 0, len(src))
	for _, r := range m.Regions {
		if r.Kind != Prose {
			out = append(out, src[r.Start:r.End]...)
			continue
		}
		for i := r.Start; i < r.End; {
			c := src[i]
			_, size := utf8.DecodeRune(src[i:])
			switch c {
			case '/', '*', '\n':
				out = append(out, c)
			default:
				out = append(out, 'x')
			}
			i += size
		}
	}
	return out
}

// insertIntoProse inserts U+200B near the middle of every prose region,
// never between the two characters of a comment marker ("//", "/*", "*/"):
// a carrier an agent puts there is no carrier of prose but part of code.
func insertIntoProse(src []byte, m *Map) []byte {
	out := make([]byte, 0, len(src)+len(m.Regions)*3)
	marker := func(c byte) bool { return c == '/' || c == '*' }
	for _, r := range m.Regions {
		if r.Kind != Prose {
			out = append(out, src[r.Start:r.End]...)
			continue
		}
		ok := func(p int) bool { return utf8.RuneStart(src[p]) && !(marker(src[p-1]) && marker(src[p])) }
		mid := -1
		for p := r.Start + r.Len()/2; p > r.Start; p-- {
			if ok(p) {
				mid = p
				break
			}
		}
		for p := r.Start + r.Len()/2 + 1; mid < 0 && p < r.End; p++ {
			if ok(p) {
				mid = p
			}
		}
		if mid < 0 {
			out = append(out, src[r.Start:r.End]...)
			continue
		}
		out = append(out, src[r.Start:mid]...)
		out = append(out, "\u200b"...)
		out = append(out, src[mid:r.End]...)
	}
	return out
}

// checkInvariance runs both mutations of one file through esbuild; it
// returns false when esbuild rejects the original or the file is refused.
func checkInvariance(t *testing.T, path string, src []byte) bool {
	t.Helper()
	m, err := Classify(path, src)
	if err != nil {
		if re := (*RefusedError)(nil); !errors.As(err, &re) {
			t.Fatalf("%s: %v", path, err)
		}
		return false
	}
	want, ok := esbuildMin(path, src)
	if !ok {
		return false
	}
	for _, mut := range []struct {
		name string
		src  []byte
	}{{"overwritten", overwriteProse(src, m)}, {"with U+200B inserted", insertIntoProse(src, m)}} {
		got, ok := esbuildMin(path, mut.src)
		if !ok {
			t.Errorf("%s: esbuild rejects the file with its prose %s", path, mut.name)
			continue
		}
		if got != want {
			i := 0
			for i < len(got) && i < len(want) && got[i] == want[i] {
				i++
			}
			t.Errorf("%s: esbuild output changes with the prose %s, at output byte %d:\n got %q\nwant %q",
				path, mut.name, i, got[max(0, i-40):min(len(got), i+40)], want[max(0, i-40):min(len(want), i+40)])
		}
	}
	return true
}

func TestJSInvarianceFixtures(t *testing.T) {
	files := jsFixtures(t)
	if len(files) < 5 {
		t.Fatalf("only %d JS/TS fixtures", len(files))
	}
	compared := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if checkInvariance(t, f, src) {
			compared++
		}
	}
	// Files written to make the ambiguities and line separators bite.
	for _, c := range []struct{ path, src string }{
		{"a.js", "function f() { return /* \u2028 */ 42 } // note\n"},
		{"a.js", "x = 1 // a\u2028y = 2 /* b */\n"},
		{"a.ts", "type T = {}\n/ 2 // c\nlet z = 1 // d\n"},
		{"a.js", "x = 1 <!-- y\nz() // c\n"},
		{"a.tsx", "const f = <T,>(x: T) => <div>{/* c */}// text</div> // d\n"},
		{"a.js", "a = b\n/c/g.exec(d) // e\n"},
		{"a.js", "x = /*#__PURE__*/ f() /* plain */\n"},
	} {
		if !checkInvariance(t, c.path, []byte(c.src)) {
			t.Errorf("%s %q: not compared", c.path, c.src)
		}
		compared++
	}
	t.Logf("esbuild %s: %d files invariant", esbuildVersion(), compared)
}

func TestJSInvarianceCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus run skipped in -short mode")
	}
	nm := jsNodeModules(t)
	files := jsCorpus(t, nm, 700)
	compared, proseRegions := 0, 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if checkInvariance(t, f, src) {
			compared++
			m, _ := Classify(f, src)
			proseRegions += len(m.Spans(Prose))
		}
	}
	t.Logf("esbuild %s: %d of %d corpus files invariant (%d prose spans overwritten)", esbuildVersion(), compared, len(files), proseRegions)
	if compared < len(files)*9/10 {
		t.Fatalf("esbuild compared only %d of %d files", compared, len(files))
	}
}

func esbuildVersion() string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Version}}", "github.com/evanw/esbuild").Output()
	if err != nil {
		return "(version unknown)"
	}
	return strings.TrimSpace(string(out))
}
