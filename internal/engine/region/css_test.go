package region

import (
	"errors"
	"strings"
	"testing"
)

func TestCSSComments(t *testing.T) {
	cases := []struct {
		path, src, needle string
		kind              Kind
		why               string
	}{
		{"a.css", "a { b: c } /* plain */", "/* plain", Prose, "comment"},
		{"a.css", "/*! license */", "/*!", Directive, "directive: /*! (kept by minifiers)"},
		{"a.css", "/* stylelint-disable-next-line */", "/*", Directive, "directive: stylelint"},
		{"a.css", "/* prettier-ignore */", "/*", Directive, "directive: prettier-ignore"},
		{"a.css", "/*# sourceMappingURL=a.css.map */", "/*", Directive, "directive: sourceMappingURL"},
		{"a.css", "/* @noflip */ a { left: 0 }", "/*", Directive, "directive: @word"},
		{"a.css", "/*rtl:ignore*/", "/*", Directive, "directive: rtl:"},
		{"a.css", "/* autoprefixer: off */", "/*", Directive, "directive: autoprefixer:"},
		{"a.css", "/* purgecss start ignore */", "/*", Directive, "directive: purgecss"},
		{"a.css", "/* TODO: later */", "/*", Prose, "comment (TODO:)"},
		{"a.css", "/* Status: later */", "/*", Directive, "directive: word:"},
		{"a.css", "/*\u200b! license */", "/*", Directive, "directive: /*! (kept by minifiers)"},
		{"a.css", "/* style\u200blint-disable */", "/*", Directive, "directive: stylelint"},
		{"a.css", "/* a *\u200b/ b */", "/*", Prose, "comment"},
		{"a.css", "/* a *\x1b[0m/ b */", "/*", Prose, "comment"},
		{"a.css", "a { content: \"/* no */\" }", "/* no", Runtime, "string literal"},
		{"a.css", "a { content: '\\'/* no */' }", "/* no", Runtime, "string literal"},
		{"a.css", "a { content: \"a\\\nb /* no */\" }", "/* no", Runtime, "string literal"},
		{"a.css", "a { b: url(/* no */x.png) }", "/* no", Runtime, "url"},
		{"a.css", "a { b: URL( x/* no */ ) }", "/* no", Runtime, "url"},
		{"a.css", "a { b: u\\72l(/* no */) }", "/* no", Runtime, "url"},
		{"a.css", "a { b: url( '/* no */' ) /* c */ }", "/* c", Prose, "comment"},
		{"a.css", "a { b: xurl(/* c */) }", "/* c", Prose, "comment"},
		{"a.css", "a { b: 1url(/* c */) }", "/* c", Prose, "comment"},
		{"a.css", "#url(/* c */) {}", "/* c", Prose, "comment"},
		{"a.css", "a { --x: a /* no */ b; c: d /* e */ }", "/* no", Runtime, "custom property value"},
		{"a.css", "a { --x: a /* no */ b; c: d /* e */ }", "/* e", Prose, "comment"},
		{"a.css", "@container style(--x: 1 /* no */) { /* c */ }", "/* c", Prose, "comment"},
		{"a.css", "a { b: c } // not a comment /* c */", "// not", Runtime, "code"},
		// SCSS
		{"a.scss", "// line comment\n$a: 1;", "// line", Prose, "comment"},
		{"a.scss", "$a: 1; // stylelint-disable-line\n", "//", Directive, "directive: stylelint"},
		{"a.scss", "/// @param {Number} $x\n", "///", Directive, "directive: @word"},
		{"a.scss", "/// Describes the mixin\n", "///", Prose, "comment"},
		{"a.scss", "a { b: url(http://x.com/a.png) } // c", "//x.com", Runtime, "url"},
		{"a.scss", "a { b: url(http://x.com/a.png) } // c", "// c", Prose, "comment"},
		{"a.scss", "a { b: url($x // no\n) }", "// no", Runtime, "url"},
		{"a.scss", "a { b: #{$x // no\n} } // c", "// no", Runtime, "interpolation"},
		{"a.scss", "a { content: \"#{\"/* no */\"}\" } /* c */", "/* no", Runtime, "string literal"},
		{"a.scss", "a { content: \"#{\"/* no */\"}\" } /* c */", "/* c", Prose, "comment"},
		{"a.scss", "/* loud #{$x} */", "/* loud", Runtime, "comment with interpolation"},
		{"a.scss", "/* #\u200b{$x} */", "/*", Prose, "comment"},
		{"a.scss", "a { --x: a // no; b: c }", "// no", Runtime, "custom property value"},
		{"a.scss", "a { b: c//glued\n}", "//glued", Runtime, "\"//\" glued to a word (not a comment for postcss)"},
		{"a.scss", "a { b: c;// fresh\n}", "// fresh", Prose, "comment"},
		{"a.scss", "// a\fb: c;", "b: c", Runtime, "code"},
		// Less
		{"a.less", "// line comment\n@a: 1;", "// line", Prose, "comment"},
		{"a.less", "@a: ~\"// no\"; // c", "// no", Runtime, "string literal"},
		{"a.less", "@a: `1 // no`; // c", "// no", Runtime, "string literal"},
		{"a.less", "@a: `1 // no`; // c", "// c", Prose, "comment"},
		{"a.less", "// a\rb\n", "b", Runtime, "line comment read on by Less"},
		{"a.less", "a { b: url(//x/a.png) } // c", "//x", Runtime, "url"},
		{"a.less", "a { --x: a // no; }", "// no", Runtime, "custom property value"},
	}
	for _, c := range cases {
		r := kindAt(t, c.path, c.src, c.needle)
		if r.Kind != c.kind || r.Why != c.why {
			t.Errorf("%s %q at %q: got %s %q, want %s %q", c.path, c.src, c.needle, r.Kind, r.Why, c.kind, c.why)
		}
	}
}

func TestCSSCommentExtents(t *testing.T) {
	src := "a {}\r\n/* one\r\ntwo */ b {}\n"
	m, err := Classify("a.css", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(src); i++ {
		if (src[i] == '\r' || src[i] == '\n') && m.At(i).Kind != Runtime {
			t.Errorf("line break at %d is %s", i, m.At(i).Kind)
		}
	}
	for _, needle := range []string{"/* one", "two */"} {
		r := m.At(strings.Index(src, needle))
		if r.Kind != Prose || src[r.Start:r.End] != needle {
			t.Errorf("%q: region %q is %s", needle, src[r.Start:r.End], r.Kind)
		}
	}
}

func TestCSSErrors(t *testing.T) {
	cases := []struct{ path, src, want string }{
		{"a.css", "a {}\n/* open", "a.css:2:1: comment never closes (no \"*/\")"},
		{"a.css", "a { content: \"x\n}", "a.css:1:14: string never closes on its line"},
		{"a.css", "a { content: 'x\f}", "a.css:1:14: string never closes on its line"},
		{"a.css", "a { content: 'x", "a.css:1:14: string never closes"},
		{"a.scss", "a { b: #{$x ", "a.scss:1:8: interpolation never closes (no \"}\")"},
		{"a.scss", "a { b: \"#{\"x\n\"}\" }", "a.scss:1:11: string never closes on its line"},
		{"a.less", "@a: `never", "a.less:1:5: JavaScript evaluation never closes (no \"`\")"},
		{"a.css", "a {}\r\n\r\n  \u00e9 \"", "a.css:3:5: string never closes"},
	}
	for _, c := range cases {
		_, err := Classify(c.path, []byte(c.src))
		var se *RefusedError
		if !errors.As(err, &se) || err.Error() != c.want+"; refused" {
			t.Errorf("%q: error %v, want %q", c.src, err, c.want)
		}
	}
	deep := strings.Repeat("#{\"", 200)
	if _, err := Classify("a.scss", []byte("a { b: "+deep+" }")); err == nil || !strings.Contains(err.Error(), "nested too deep") {
		t.Errorf("deep interpolation: %v", err)
	}
}

// TestWebLinear feeds the classifiers single-line inputs built to make a
// naive scanner quadratic; they must finish (the benchmarks measure the
// rate).
func TestWebLinear(t *testing.T) {
	const n = 1 << 20
	for _, c := range []struct{ path, unit string }{
		{"a.html", "<!-- - -"}, {"a.html", "<a b='"}, {"a.html", "<script><!--<script>"}, {"a.html", "<svg><style><"},
		{"a.html", "<![CDATA["}, {"a.html", "<noscript><a title='</noscript>"}, {"a.css", "url("}, {"a.css", "/* * "},
		{"a.scss", "#{a "}, {"a.scss", "url(a "}, {"a.less", "// a\r"}, {"a.css", "--x:("},
	} {
		src := []byte(strings.Repeat(c.unit, n/len(c.unit)))
		_, err := Classify(c.path, src)
		var se *RefusedError
		if err != nil && !errors.As(err, &se) {
			t.Errorf("%s %q: %v", c.path, c.unit, err)
		}
	}
}
