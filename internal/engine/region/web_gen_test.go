package region

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// Generated documents for the oracle tests: random sequences of fragments
// chosen to sit at the edges of the tokenizers (comment closings, raw text
// ends, script escapes, foreign content, CDATA, url tokens, strings with
// escapes, interpolation), with carriers and line breaks sprinkled in.

var genCarriers = []string{"\u200b", "\u2060", "\u00a0", "\u202e", "\U000E0041", "\u2028", "\ufe0f", "\u200d"}

func genPick(r *rand.Rand, xs []string) string { return xs[r.IntN(len(xs))] }

var htmlFragments = []string{
	"text ", "a &amp; b ", "<p>", "</p>", "<br/>", "<div class=\"a\">", "</div>", "\n", "\r\n",
	"<!-- comment -->", "<!---->", "<!-->", "<!--->", "<!-- a -- b -->", "<!-- x --!>", "<!-- <!-- -->",
	"<!-- prettier-ignore -->", "<!--[if IE]><p>x</p><![endif]-->", "<!-- TODO: y -->", "<!-- ko if: z -->",
	"<a title=\"-->\" href='<!--'>", "<a b=<!--c>", "<!DOCTYPE html>", "<?xml x?>", "<!bogus>", "</ x>", "</>",
	"<![CDATA[ a > <!-- b --> ]]>", "<svg>", "</svg>", "<math>", "</math>", "<foreignObject>", "</foreignObject>",
	"<title>", "</title>", "<textarea>", "</textarea>", "<noscript>", "</noscript>", "<xmp>", "</xmp>",
	"<style>", "</style>", "<STYLE type=text/css>", "</style >", "<script>", "</script>", "<script type=module>",
	"<script type=text/template>", "</SCRIPT>", "/* css */", "a { b: c }", "content: '/*'", "<!--", "-->",
	"<script>", "// js", "</stylex>", "&lt;", "&#47;", "\t", " ",
}

// genDoc strings up to most fragments, one in six with a carrier inside.
func genDoc(r *rand.Rand, frags []string, most int) []byte {
	var sb strings.Builder
	for k := r.IntN(most) + 1; k > 0; k-- {
		f := genPick(r, frags)
		if r.IntN(6) == 0 {
			cut := r.IntN(len(f) + 1)
			for cut > 0 && cut < len(f) && f[cut]&0xc0 == 0x80 {
				cut--
			}
			f = f[:cut] + genPick(r, genCarriers) + f[cut:]
		}
		sb.WriteString(f)
	}
	return []byte(sb.String())
}

func generatedHTML(n int) []namedSource {
	r := rand.New(rand.NewPCG(13, 7))
	out := make([]namedSource, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, namedSource{fmt.Sprintf("generated html %d", i), genDoc(r, htmlFragments, 30)})
	}
	return out
}

var cssFragments = []string{
	"a { color: red; }", ".b > c:hover {", "}", "\n", "\r\n", " ", "/* comment */", "/*! license */", "/**/",
	"/* stylelint-disable */", "/* a *\u200b/ */", "content: \"/* no */\";", "content: '\\'';", "content: \"a\\\nb\";",
	"background: url(/* x */a.png);", "background: url( 'q.png' );", "background: url(http://x.com//y);",
	"u\\72l(/* e */)", "--x: a /* in */ b;", "--y: { c: d };", "@media (min-width: 1px) {", "#url(/* h */)",
	"@import url(x.css);", "a/**/b", "1url(/* n */)", "\\2f*", "<!--", "-->", "@charset \"x\";", "a[title='x\"y']", "\"\\\"\"",
}

var scssFragments = []string{
	"// line\n", "$v: 1; // tail\n", "a//glued\n", "#{$x}", "#{ \"}\" }", "content: \"#{\"/* i */\"}\";",
	"/* loud #{$y} */", "url(#{$z}/a.png)", "url(a(b)//c)\n", "/// @param {x} $y\n", "@mixin m($a) {",
	"@include m(1);", "&:hover {", "%p {", "@if $a == 1 {", "} @else {", "#{ a // }\n}", "\f",
}

var lessFragments = []string{
	"// line\n", "@v: 1; // tail\n", "a//glued\n", "@{x}", "~\"esc // no\"", "`js // no`", ".m() {",
	".m();", "@r: { a: b };", "e(\"x\")", "// a\rb\n", "when (@a = 1) {", "@import (css) url(//x);",
}

func generatedCSS(n int, d cssDialect) []namedSource {
	r := rand.New(rand.NewPCG(uint64(d)+31, 5))
	frags := cssFragments
	switch d {
	case cssSCSS:
		frags = append(append([]string(nil), cssFragments...), scssFragments...)
	case cssLess:
		frags = append(append([]string(nil), cssFragments...), lessFragments...)
	}
	out := make([]namedSource, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, namedSource{fmt.Sprintf("generated %s %d", d.lang(), i), genDoc(r, frags, 25)})
	}
	return out
}
