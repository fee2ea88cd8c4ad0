package region

import (
	"fmt"
	"strings"
	"testing"
)

// The benchmark inputs are realistic files built from templates: a Python
// module, a Go file and a README, each about 256 KiB, once with ASCII-only
// prose and once with prose and literals full of accents, Persian with ZWNJ,
// CJK, emoji ZWJ sequences, NBSP and zero-width characters.

const benchSize = 256 << 10

type benchText struct {
	comment, doc, str string
}

var (
	asciiText = benchText{
		comment: "Keep the cache small: the loader reads it on every start",
		doc:     "Return the parsed configuration, falling back to defaults.",
		str:     "configuration file not found",
	}
	intlText = benchText{
		comment: "Garder le cache\u00a0petit\u202f: \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645 \u8bfb\u53d6\u914d\u7f6e \U0001F468\u200d\U0001F469\u200d\U0001F467 na\u00efve\u200b",
		doc:     "\u8fd4\u56de\u89e3\u6790\u540e\u7684\u914d\u7f6e \u2014 caf\u00e9 cr\u00e8me \u0928\u092e\u0938\u094d\u200d\u0924\u0947 \u2764\ufe0f",
		str:     "\u0641\u0627\u06cc\u0644 \u067e\u06cc\u062f\u0627 \u0646\u0634\u062f \u2014 \u8a2d\u5b9a\u30d5\u30a1\u30a4\u30eb\u00a0\u2205",
	}
)

func repeatTo(header string, chunk func(i int) string) []byte {
	var sb strings.Builder
	sb.WriteString(header)
	for i := 0; sb.Len() < benchSize; i++ {
		sb.WriteString(chunk(i))
	}
	return []byte(sb.String())
}

func benchPython(t benchText) []byte {
	return repeatTo("#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\n\"\"\""+t.doc+"\"\"\"\n\nimport os  # noqa: F401\n\n", func(i int) string {
		return fmt.Sprintf(`class Loader%[1]d(Base):  # type: ignore[misc]
    """%[2]s

    Longer explanation of the loader, spanning
    several lines of the docstring.
    """

    # %[3]s
    retries = 3  # %[3]s

    def load(self, path: str, *, strict: bool = False) -> dict:
        '''%[2]s'''
        # TODO: %[3]s
        if not os.path.exists(path):
            raise FileNotFoundError(f"{path!r}: %[4]s ({self.retries:>{4}})")
        with open(path, "rb") as fh:  # pragma: no cover
            data = fh.read()
        return {"path": path, "size": len(data), "msg": '%[4]s', "raw": rb'\x00'}

`, i, t.doc, t.comment, t.str)
	})
}

func benchGo(t benchText) []byte {
	return repeatTo("//go:build linux\n\n// Package loader: "+t.doc+"\npackage loader\n\nimport (\n\t\"errors\"\n\t\"os\"\n)\n\n", func(i int) string {
		return fmt.Sprintf(`// Loader%[1]d reads configuration files.
//
// %[2]s
type Loader%[1]d struct {
	retries int // %[3]s
	path    string
}

// Load returns the parsed configuration. %[3]s
//
// Deprecated: use LoadContext.
func (l *Loader%[1]d) Load() (map[string]any, error) {
	/* %[3]s */
	data, err := os.ReadFile(l.path) //nolint:gosec // %[3]s
	if err != nil {
		return nil, errors.New("%[4]s")
	}
	return map[string]any{"size": len(data), "raw": `+"`%[4]s`"+`, "r": '\''}, nil
}

`, i, t.doc, t.comment, t.str)
	})
}

func benchMarkdown(t benchText) []byte {
	return repeatTo("---\ntitle: Loader\ntags: [config]\n---\n\n# Loader\n\n", func(i int) string {
		return fmt.Sprintf(`## Section %[1]d

%[2]s %[3]s, see the [guide](https://example.com/guide/%[1]d "Guide") and
<https://example.com/ref>. Use *emphasis*, **strong** and `+"`inline code`"+` freely.

- %[3]s
- %[2]s
  1. nested %[4]s

> %[3]s
> <!-- %[2]s -->

| Option | Meaning |
|--------|---------|
| `+"`retries`"+` | %[4]s |

`+"```go"+`
loader.Load() // %[3]s
`+"```"+`

    indented code %[1]d

`, i, t.doc, t.comment, t.str)
	})
}

func benchClassify(b *testing.B, path string, src []byte) {
	if m, err := Classify(path, src); err != nil || m.Check() != nil || len(m.Spans(Prose)) == 0 {
		b.Fatalf("benchmark input does not classify cleanly: %v", err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	cpu0 := processCPU()
	n := 0
	for b.Loop() {
		if _, err := Classify(path, src); err != nil {
			b.Fatal(err)
		}
		n++
	}
	// cpu-MB/s divides by CPU time (GC included) instead of wall time, so it
	// holds still on a shared machine. Run with GOMAXPROCS=1 for the
	// single-core figure.
	if cpu1 := processCPU(); cpu0 >= 0 && cpu1 > cpu0 {
		b.ReportMetric(float64(n)*float64(len(src))/(float64(cpu1-cpu0)/1e9)/1e6, "cpu-MB/s")
	}
}

func BenchmarkClassifyPython(b *testing.B) {
	b.Run("ascii", func(b *testing.B) { benchClassify(b, "bench.py", benchPython(asciiText)) })
	b.Run("nonascii", func(b *testing.B) { benchClassify(b, "bench.py", benchPython(intlText)) })
}

func BenchmarkClassifyGo(b *testing.B) {
	b.Run("ascii", func(b *testing.B) { benchClassify(b, "bench.go", benchGo(asciiText)) })
	b.Run("nonascii", func(b *testing.B) { benchClassify(b, "bench.go", benchGo(intlText)) })
}

func BenchmarkClassifyMarkdown(b *testing.B) {
	b.Run("ascii", func(b *testing.B) { benchClassify(b, "bench.md", benchMarkdown(asciiText)) })
	b.Run("nonascii", func(b *testing.B) { benchClassify(b, "bench.md", benchMarkdown(intlText)) })
}

// TestBenchInputs keeps the benchmark inputs honest: they parse where a
// parser exists and hold each kind of region.
func TestBenchInputs(t *testing.T) {
	for _, c := range []struct {
		path string
		src  []byte
	}{
		{"b.py", benchPython(asciiText)}, {"b.py", benchPython(intlText)},
		{"b.go", benchGo(asciiText)}, {"b.go", benchGo(intlText)},
		{"b.md", benchMarkdown(asciiText)}, {"b.md", benchMarkdown(intlText)},
		{"b.yaml", benchYAML(asciiText)}, {"b.yaml", benchYAML(intlText)},
		{"b.rs", benchRust(asciiText)}, {"b.rs", benchRust(intlText)},
	} {
		m, err := Classify(c.path, c.src)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []Kind{Prose, Directive, Runtime} {
			if k == Directive && c.path == "b.md" {
				continue
			}
			if len(m.Spans(k)) < 10 {
				t.Errorf("%s (%d bytes): only %d %s spans", c.path, len(c.src), len(m.Spans(k)), k)
			}
		}
	}
}

// BenchmarkClassifyMarkdownAdversarial feeds the Markdown scanner inputs
// built to make a naive CommonMark scanner quadratic (unclosed titles,
// quotes, comments and labels, nested containers on one line, long runs of
// link definitions); MB/s should not fall as the input grows.
func BenchmarkClassifyMarkdownAdversarial(b *testing.B) {
	for _, c := range []struct{ name, unit string }{
		{"title", "[a](b \""}, {"ticks", "` `` "}, {"attr", "<a b='"}, {"attr-lines", "<a b='\n"},
		{"comment", "x <!-- "}, {"brackets", "["}, {"label", "[a][b "}, {"refs", "[a]: b\n"},
		{"quotes", "> "}, {"lists", "- "}, {"parens", "[a](b (c "},
	} {
		for _, n := range []int{32 << 10, 256 << 10} {
			src := []byte(strings.Repeat(c.unit, n/len(c.unit)))
			b.Run(fmt.Sprintf("%s-%dk", c.name, n>>10), func(b *testing.B) {
				b.SetBytes(int64(len(src)))
				for b.Loop() {
					if _, err := classifyMarkdown(src); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

func benchHTML(t benchText) []byte {
	return repeatTo("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>Loader</title>\n<!--[if lt IE 9]><script src=\"shiv.js\"></script><![endif]-->\n</head>\n<body>\n", func(i int) string {
		return fmt.Sprintf(`<!-- Section %[1]d: %[3]s -->
<section id="s%[1]d" class="card card--wide" data-title="%[4]s">
  <h2>%[2]s</h2>
  <!-- prettier-ignore -->
  <p title="%[4]s">%[2]s <a href="https://example.com/%[1]d">%[3]s</a> &amp; more.</p>
  <style>
    /* %[3]s */
    #s%[1]d .card { margin: 0 auto; content: "%[4]s"; background: url(img/%[1]d.png); }
  </style>
  <script>
    // %[3]s
    window.cards.push({ id: %[1]d, title: "%[4]s" });
  </script>
  <!--
    %[2]s
    %[3]s
  -->
</section>
`, i, t.doc, t.comment, t.str)
	})
}

func benchCSS(t benchText) []byte {
	return repeatTo("/*! theme v1 | MIT License */\n@charset \"UTF-8\";\n", func(i int) string {
		return fmt.Sprintf(`/* Card %[1]d: %[3]s */
.card-%[1]d > .title:hover,
.card-%[1]d::after { /* %[2]s */
  content: "%[4]s";
  background: url(data:image/svg+xml;base64,PHN2Zz4=) no-repeat, url("img/%[1]d.png");
  --shadow: 0 0 1px rgba(0, 0, 0, .5) /* kept */;
  margin: calc(1rem + 2px) 0; /* stylelint-disable-line */
}
@media (min-width: 768px) { .card-%[1]d { width: 50%%; } }

`, i, t.doc, t.comment, t.str)
	})
}

func benchSCSS(t benchText) []byte {
	return repeatTo("// Theme\n@use \"sass:math\";\n$gap: 4px !default;\n", func(i int) string {
		return fmt.Sprintf(`/// %[2]s
/// @param {Number} $n - steps
@function size-%[1]d($n) { @return $n * $gap; } // %[3]s

.card-%[1]d {
  // %[3]s
  margin: size-%[1]d(2);
  content: "#{$gap} %[4]s";
  &:hover { background: url(http://example.com/%[1]d.png); } /* %[2]s */
}

`, i, t.doc, t.comment, t.str)
	})
}

func BenchmarkClassifyHTML(b *testing.B) {
	b.Run("ascii", func(b *testing.B) { benchClassify(b, "bench.html", benchHTML(asciiText)) })
	b.Run("nonascii", func(b *testing.B) { benchClassify(b, "bench.html", benchHTML(intlText)) })
}

func BenchmarkClassifyCSS(b *testing.B) {
	b.Run("ascii", func(b *testing.B) { benchClassify(b, "bench.css", benchCSS(asciiText)) })
	b.Run("nonascii", func(b *testing.B) { benchClassify(b, "bench.css", benchCSS(intlText)) })
}

func BenchmarkClassifySCSS(b *testing.B) {
	b.Run("ascii", func(b *testing.B) { benchClassify(b, "bench.scss", benchSCSS(asciiText)) })
	b.Run("nonascii", func(b *testing.B) { benchClassify(b, "bench.scss", benchSCSS(intlText)) })
}

// TestWebBenchInputs keeps the web benchmark inputs honest: they classify
// and hold each kind of region.
func TestWebBenchInputs(t *testing.T) {
	for _, c := range []struct {
		path string
		src  []byte
	}{
		{"b.html", benchHTML(asciiText)}, {"b.html", benchHTML(intlText)},
		{"b.css", benchCSS(asciiText)}, {"b.css", benchCSS(intlText)},
		{"b.scss", benchSCSS(asciiText)}, {"b.scss", benchSCSS(intlText)},
	} {
		checkBenchInput(t, c.path, c.src)
	}
}

// checkBenchInput fails unless src classifies with at least ten spans of
// each kind.
func checkBenchInput(t *testing.T, path string, src []byte) {
	t.Helper()
	m, err := Classify(path, src)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []Kind{Prose, Directive, Runtime} {
		if len(m.Spans(k)) < 10 {
			t.Errorf("%s (%d bytes): only %d %s spans", path, len(src), len(m.Spans(k)), k)
		}
	}
}
