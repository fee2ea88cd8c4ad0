package region

import (
	"fmt"
	"testing"
)

// Benchmark inputs for the languages the other benchmark files leave out,
// built the same way (about 256 KiB, ASCII and non-ASCII): Less, plain
// text, JavaScript without JSX or types (a CommonJS module as npm ships
// it) and plain JSON (a translation catalogue: all strings, no comments).

func benchLess(t benchText) []byte {
	return repeatTo("// Theme\n@import (reference) \"mixins.less\";\n@gap: 4px;\n", func(i int) string {
		return fmt.Sprintf(`// %[2]s
.card-%[1]d {
  // %[3]s
  .rounded(@gap * 2);
  margin: ~"calc(100%% - @{gap})";
  content: "%[4]s"; /* %[3]s */
  &:hover when (@mode = dark) { color: darken(@fg, 10%%); }
  @media (min-width: 768px) { width: percentage((1 / 3)); } // stylelint-disable-line
}

`, i, t.doc, t.comment, t.str)
	})
}

func benchPlainText(t benchText) []byte {
	return repeatTo("NOTICES AND INFORMATION\n\n", func(i int) string {
		return fmt.Sprintf(`%[1]d. Component %[1]d

%[2]s %[3]s
Copyright (c) 2019-2026 The Authors. %[4]s

Permission is hereby granted, free of charge, to any person obtaining a
copy of this software (the "Software"), to deal in the Software without
restriction: %[3]s

    indented example %[1]d

`, i, t.doc, t.comment, t.str)
	})
}

func benchJSPlain(t benchText) []byte {
	return repeatTo("#!/usr/bin/env node\n'use strict';\n/* eslint-disable no-var */\n", func(i int) string {
		return fmt.Sprintf(`/**
 * %[2]s
 * @param {string} path %[3]s
 */
function load%[1]d(path, cb) {
  // %[3]s
  var re = /\s+$/g, half = path.length / 2; /* %[3]s */
  if (!path) return cb(new Error('%[4]s'));
  return cb(null, { path: path.replace(re, ''), half: half, msg: "%[4]s", tpl: `+"`${path}: %[4]s`"+` });
}
module.exports.load%[1]d = load%[1]d; // istanbul ignore next

`, i, t.doc, t.comment, t.str)
	})
}

func benchJSONPlain(t benchText) []byte {
	return repeatTo("{\n", func(i int) string {
		return fmt.Sprintf(`  "message_%[1]d": "%[2]s",
  "hint_%[1]d": "%[4]s \"{0}\" \\n %[3]s",
  "meta_%[1]d": {"code": %[1]d, "tags": ["a", "b"], "ok": true, "ratio": 0.5e-3, "none": null},
`, i, t.doc, t.comment, t.str)
	}) // unterminated object: the classifier does not parse JSON
}

func BenchmarkClassifyLess(b *testing.B) {
	b.Run("ascii", func(b *testing.B) { benchClassify(b, "bench.less", benchLess(asciiText)) })
	b.Run("nonascii", func(b *testing.B) { benchClassify(b, "bench.less", benchLess(intlText)) })
}

func BenchmarkClassifyText(b *testing.B) {
	b.Run("ascii", func(b *testing.B) { benchClassify(b, "NOTICE.txt", benchPlainText(asciiText)) })
	b.Run("nonascii", func(b *testing.B) { benchClassify(b, "NOTICE.txt", benchPlainText(intlText)) })
}

func BenchmarkClassifyJSPlain(b *testing.B) {
	b.Run("ascii", func(b *testing.B) { benchClassify(b, "bench.js", benchJSPlain(asciiText)) })
	b.Run("nonascii", func(b *testing.B) { benchClassify(b, "bench.js", benchJSPlain(intlText)) })
}

// BenchmarkClassifyJSONPlain has no prose to find; benchClassify wants
// some, so it is timed here directly.
func BenchmarkClassifyJSONPlain(b *testing.B) {
	for _, c := range []struct {
		name string
		t    benchText
	}{{"ascii", asciiText}, {"nonascii", intlText}} {
		b.Run(c.name, func(b *testing.B) {
			src := benchJSONPlain(c.t)
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			cpu0 := processCPU()
			n := 0
			for b.Loop() {
				if _, err := Classify("messages.json", src); err != nil {
					b.Fatal(err)
				}
				n++
			}
			if cpu1 := processCPU(); cpu0 >= 0 && cpu1 > cpu0 {
				b.ReportMetric(float64(n)*float64(len(src))/(float64(cpu1-cpu0)/1e9)/1e6, "cpu-MB/s")
			}
		})
	}
}

// TestMoreBenchInputs keeps these inputs honest: they classify, and hold
// the kinds of region their language has.
func TestMoreBenchInputs(t *testing.T) {
	for _, c := range []struct {
		path  string
		src   []byte
		kinds []Kind
	}{
		{"b.less", benchLess(asciiText), []Kind{Prose, Directive, Runtime}},
		{"b.less", benchLess(intlText), []Kind{Prose, Directive, Runtime}},
		{"b.js", benchJSPlain(asciiText), []Kind{Prose, Directive, Runtime}},
		{"b.js", benchJSPlain(intlText), []Kind{Prose, Directive, Runtime}},
		{"NOTICE.txt", benchPlainText(asciiText), []Kind{Prose, Runtime}},
		{"NOTICE.txt", benchPlainText(intlText), []Kind{Prose, Runtime}},
		{"messages.json", benchJSONPlain(asciiText), []Kind{Runtime}},
		{"messages.json", benchJSONPlain(intlText), []Kind{Runtime}},
	} {
		m, err := Classify(c.path, c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if len(m.Regions) < 10 {
			t.Errorf("%s (%d bytes): only %d regions", c.path, len(c.src), len(m.Regions))
		}
		for _, k := range c.kinds {
			if len(c.kinds) > 1 && len(m.Spans(k)) < 10 {
				t.Errorf("%s (%d bytes): only %d %s spans", c.path, len(c.src), len(m.Spans(k)), k)
			}
		}
	}
}
