package region

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// The JavaScript/TypeScript benchmark input is a TSX module built from a
// template (JSDoc, regexes, divisions, templates with holes, JSX with
// comments), about 256 KiB, once with ASCII prose and once with the mixed
// scripts, emoji sequences and carriers of intlText.
func benchTSX(t benchText) []byte {
	return repeatTo("// @ts-check\nimport React from \"react\"; // "+t.comment+"\n\n", func(i int) string {
		return fmt.Sprintf(`/**
 * %[2]s
 * @param {string} path - %[3]s
 * @returns {Promise<Config>} the config
 */
export function load%[1]d(path: string, opts: { strict: boolean }): Promise<Config> {
  // %[3]s
  const re = /^[a-z]+\/(\d+)$/i; // %[3]s
  const ratio = path.length / 2 / 3;
  if (opts.strict) { throw new Error("%[4]s") }
  const tpl = `+"`${path}: %[4]s ${ratio /* inline */}`"+`;
  return fetch(tpl).then((r) => r.json()) as Promise<Config>; /* %[3]s */
}

export const View%[1]d = ({ title }: { title: string }) => (
  <div className="view" title='%[4]s'>
    {/* %[3]s */}
    <h1>{title}</h1> %[4]s
  </div>
); // eslint-disable-line react/display-name

`, i, t.doc, t.comment, t.str)
	})
}

func benchJSONC(t benchText) []byte {
	return repeatTo("{\n  // "+t.comment+"\n  \"compilerOptions\": {\n", func(i int) string {
		return fmt.Sprintf(`    // %[2]s
    "option%[1]d": "%[4]s", /* %[3]s */
    "paths%[1]d": { "@/*": ["./src/*"], "n": [1, 2.5e3, true, null] },
`, i, t.doc, t.comment, t.str)
	}) // unterminated object: the classifier does not parse JSON
}

// benchMinified returns size bytes of minified-style JavaScript on one
// line: no line break anywhere, regexes after return and "(", divisions,
// object literals, templates, shifts.
func benchMinified(size int) []byte {
	var sb strings.Builder
	for i := 0; sb.Len() < size; i++ {
		fmt.Fprintf(&sb, "function f%d(a,b){if(!a)return/x\\/y[/]/g.test(b)?{k:\"s%d\",v:a/2/b}:[b,'q',`t${a/2}`];for(var i=0;i<a.length;i++)b+=a[i]<<2;return b}var o%d={a:1,b:function(){return this.a/2},c:/*#__PURE__*/g(/re/)/* keep */};", i, i, i)
	}
	return []byte(sb.String())
}

func BenchmarkClassifyJS(b *testing.B) {
	b.Run("ascii", func(b *testing.B) { benchClassify(b, "bench.tsx", benchTSX(asciiText)) })
	b.Run("nonascii", func(b *testing.B) { benchClassify(b, "bench.tsx", benchTSX(intlText)) })
}

func BenchmarkClassifyJSON(b *testing.B) {
	b.Run("ascii", func(b *testing.B) { benchClassify(b, "tsconfig.json", benchJSONC(asciiText)) })
	b.Run("nonascii", func(b *testing.B) { benchClassify(b, "tsconfig.json", benchJSONC(intlText)) })
}

// BenchmarkClassifyJSMinified classifies a 5 MB single-line bundle.
func BenchmarkClassifyJSMinified(b *testing.B) {
	benchClassify(b, "bundle.min.js", benchMinified(5<<20))
}

func TestJSBenchInputs(t *testing.T) {
	for _, c := range []struct {
		path string
		src  []byte
	}{
		{"b.tsx", benchTSX(asciiText)}, {"b.tsx", benchTSX(intlText)},
		{"tsconfig.json", benchJSONC(asciiText)}, {"tsconfig.json", benchJSONC(intlText)},
		{"b.js", benchMinified(1 << 20)},
	} {
		m, err := Classify(c.path, c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		for _, k := range []Kind{Prose, Directive, Runtime} {
			if len(m.Spans(k)) < 10 && !(c.path == "b.js" && k == Prose) && !(c.path == "tsconfig.json" && k == Directive) {
				t.Errorf("%s (%d bytes): only %d %s spans", c.path, len(c.src), len(m.Spans(k)), k)
			}
		}
	}
}

// TestJSLinearTime feeds inputs built to make a naive lexer superlinear
// (forks on every line or thousands of forks on one line, deep nesting,
// long lines of quotes and slashes, JSX) at two sizes and compares the time
// per byte: it must not grow with the input (quadratic time would multiply
// it by 8; the bound is 4x to allow for noise). No absolute time is asserted.
func TestJSLinearTime(t *testing.T) {
	if testing.Short() {
		t.Skip("timing skipped in -short mode")
	}
	units := []struct{ name, path, unit string }{
		{"minified", "a.js", string(benchMinified(64 << 10))},
		{"ts-forks-per-line", "a.ts", "type T = {}\n/ 2 // c\n"},
		{"forks-one-line", "a.js", "a:{}/1/2;"},
		{"fork-dies-far", "a.js", "a:{}/'x'/1;"},
		{"nesting", "a.js", strings.Repeat("(", 1000) + "x" + strings.Repeat(")", 1000) + ";"},
		{"jsx", "a.jsx", "x = <a b=\"c\">{d /* e */}<f/>text</a>;"},
		{"tsx-ambiguous", "a.tsx", "x = (a)\n<b>c</b>\n"},
		{"slashes-quotes", "a.js", "x = a / b / 'c' / \"d\" / `e` / f;"},
		{"html-comments", "a.js", "x = 1 <!-- y\n"},
		{"jsdoc", "a.js", "/** @param {{a: {b: c}}} x - y\n * @typedef {T} U\n */\n"},
		{"jsonc", "tsconfig.json", "{ // c\n \"a\": \"b\", /* d */ },\n"},
	}
	// Process CPU time, not wall time: other programs share the machine.
	perByte := func(src []byte, path string) float64 {
		best := time.Duration(1 << 62)
		for range 3 {
			start, cpu0 := time.Now(), processCPU()
			if _, err := Classify(path, src); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			took := time.Since(start)
			if cpu1 := processCPU(); cpu0 >= 0 && cpu1 > cpu0 {
				took = time.Duration(cpu1 - cpu0)
			}
			best = min(best, took)
		}
		return float64(best) / float64(len(src))
	}
	for _, u := range units {
		small := []byte(strings.Repeat(u.unit, (256<<10)/len(u.unit)+1))
		big := []byte(strings.Repeat(u.unit, (2<<20)/len(u.unit)+1))
		if u.name == "jsonc" {
			small, big = append([]byte("["), small...), append([]byte("["), big...)
		}
		a, b := perByte(small, u.path), perByte(big, u.path)
		t.Logf("%-18s %6.1f ns/byte at %4d KiB, %6.1f at %4d KiB (x%.2f)", u.name, a, len(small)>>10, b, len(big)>>10, b/a)
		if b > 4*a+1 { // quadratic time would be 8x; allow for GC and noise
			t.Errorf("%s: time per byte grows from %.1f ns to %.1f ns with 8x the input", u.name, a, b)
		}
	}
}
