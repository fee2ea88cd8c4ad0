package region

import (
	"errors"
	"strings"
	"testing"
)

func TestHTMLComments(t *testing.T) {
	cases := []struct {
		comment string
		kind    Kind
		why     string
	}{
		{"<!-- plain narrative -->", Prose, "comment"},
		{"<!---->", Prose, "comment"},
		{"<!-->", Prose, "comment"},
		{"<!--->", Prose, "comment"},
		{"<!-- a -- b -->", Prose, "comment"},
		{"<!-- ends with bang --!>", Prose, "comment"},
		{"<!-- dashes --->", Prose, "comment"},
		{"<!-- nested <!-- start -->", Prose, "comment"},
		{"<!-- hello\u200bworld -->", Prose, "comment"},
		{"<!-- caf\u00e9 \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645 -->", Prose, "comment"},
		{"<!-- #123 is an issue -->", Prose, "comment"},
		{"<!-- end of header -->", Prose, "comment"},
		{"<!-- more info below -->", Directive, "directive: excerpt separator"},
		{"<!--[if IE]><p>old</p><![endif]-->", Directive, "directive: conditional comment"},
		{"<!--[if !IE]><!-->", Directive, "directive: conditional comment"},
		{"<!--<![endif]-->", Directive, "directive: conditional comment"},
		{"<!-- prettier-ignore -->", Directive, "directive: prettier-ignore"},
		{"<!-- prettier-ignore-start -->", Directive, "directive: prettier-ignore"},
		{"<!-- htmlhint attr-lowercase:false -->", Directive, "directive: htmlhint"},
		{"<!-- build:js scripts/app.js -->", Directive, "directive: build marker"},
		{"<!-- endbuild -->", Directive, "directive: build marker"},
		{"<!-- inject:css -->", Directive, "directive: build marker"},
		{"<!-- endinject -->", Directive, "directive: build marker"},
		{"<!--#include virtual=\"/footer.html\" -->", Directive, "directive: #word"},
		{"<!-- #include file=\"x\" -->", Directive, "directive: #word"},
		{"<!-- ko foreach: items -->", Directive, "directive: knockout"},
		{"<!-- /ko -->", Directive, "directive: knockout"},
		{"<!-- @format -->", Directive, "directive: @word"},
		{"<!-- @if NODE_ENV='production' -->", Directive, "directive: @word"},
		{"<!-- eslint-disable -->", Directive, "directive: eslint-disable"},
		{"<!-- wp:paragraph -->", Directive, "directive: WordPress block"},
		{"<!-- /wp:paragraph -->", Directive, "directive: WordPress block"},
		{"<!--more-->", Directive, "directive: excerpt separator"},
		{"<!-- saved from url=(0014)about:internet -->", Directive, "directive: mark of the web"},
		{"<!-- TODO: later -->", Prose, "comment (TODO:)"},
		{"<!-- Status: later -->", Directive, "directive: word:"},
		{"<!-- https://example.com -->", Directive, "directive: word:"},
		{"<!-- TemplateBeginEditable name=\"doctitle\" -->", Directive, "directive: Dreamweaver template"},
		// Carriers that hide a directive.
		{"<!-- pretti\u200ber-ignore -->", Directive, "directive: prettier-ignore"},
		{"<!--\u200b[if IE]>x<![endif]-->", Directive, "directive: conditional comment"},
		{"<!-- TO\u2060DO: x -->", Prose, "comment"}, // the engine keeps the carrier: a label would appear
		{"<!-- Sta\u2060tus: x -->", Directive, "directive: word:"},
		{"<!-- \x1b[1mbuild:js x -->", Directive, "directive: build marker"},
		// Carriers whose removal would close the comment early.
		{"<!-- a -\u200b-> b -->", Prose, "comment"},
		{"<!-- a --\u200b!> b -->", Prose, "comment"},
		{"<!--\u200b> b -->", Prose, "comment"},
		{"<!---\u200b> b -->", Prose, "comment"},
		{"<!-- a -\x1b[0m-> b -->", Prose, "comment"},
	}
	for _, c := range cases {
		src := "<!DOCTYPE html>\n<p>x</p> " + c.comment + "\n<p>y</p>\n"
		r := kindAt(t, "t.html", src, c.comment)
		if r.Kind != c.kind || r.Why != c.why {
			t.Errorf("%q: got %s %q, want %s %q", c.comment, r.Kind, r.Why, c.kind, c.why)
		}
		if start := strings.Index(src, c.comment); r.Start != start || r.End != start+len(c.comment) {
			t.Errorf("%q: region %d-%d, want %d-%d", c.comment, r.Start, r.End, start, start+len(c.comment))
		}
	}
}

// TestHTMLRuntime checks what is never prose: rendered text, attributes,
// raw text, doctypes, bogus comments, CDATA, and what a second reading
// (foreign content, scripting off) may see as markup.
func TestHTMLRuntime(t *testing.T) {
	cases := []struct {
		src, needle string
		kind        Kind
		why         string
	}{
		{"<p>text <!-- c --></p>", "text", Runtime, "markup or text"},
		{"<p title='<!-- no -->'>x</p>", "<!-- no", Runtime, "markup or text"},
		{"<p title=<!--no>x</p><!-- c -->", "<!-- c", Prose, "comment"},
		{"<title>a <!-- no --></title><!-- c -->", "<!-- no", Runtime, "markup or text"},
		{"<textarea><!-- no --></textarea>", "<!-- no", Runtime, "markup or text"},
		{"<TEXTAREA><!-- no --></textarea ><!-- c -->", "<!-- c", Prose, "comment"},
		{"<xmp><!-- no --></xmp>", "<!-- no", Runtime, "markup or text"},
		{"<iframe><!-- no --></iframe>", "<!-- no", Runtime, "markup or text"},
		{"<plaintext><!-- no --></plaintext><!-- no2 -->", "<!-- no2", Runtime, "markup or text"},
		{"<!DOCTYPE html><!-- c -->", "<!DOCTYPE", Runtime, "markup or text"},
		{"<?xml version='1.0'?><!-- c -->", "<!-- c", Prose, "comment"},
		{"<?xml <!-- no --> ?>", "<!-- no", Runtime, "markup or text"},
		{"<!x <!-- no -->", "<!-- no", Runtime, "markup or text"},
		{"</ x <!-- no -->", "<!-- no", Runtime, "markup or text"},
		{"<![CDATA[ x > <!-- y --> ]]>", "<!-- y", Runtime, "CDATA section (read differently inside svg and math)"},
		{"<![CDATA[ > <!-- ]]> x --> <!-- z -->", "<!-- z", Prose, "comment"},
		{"<script type='text/template'><!-- x --></script>", "<!-- x", Runtime, "script data block (not JavaScript)"},
		{"<script type='application/ld+json'>{}</script>", "{}", Runtime, "script data block (not JavaScript)"},
		{"<script type='text/javascript; charset=utf-8'>x</script>", "x</", Runtime, "script data block (not JavaScript)"},
		{"<script>// c\nx()</script>", "// c", Prose, "js comment"},
		{"<script type=module>// c</script>", "// c", Prose, "js comment"},
		{"<script language=JavaScript>// c</script>", "// c", Prose, "js comment"},
		{"<script>x = '// no'; /* c */</script>", "// no", Runtime, "js string literal"},
		{"<script>// <\u200b/script>\n</script>", "// <", Runtime, "js comment that could end the element"},
		{"<script>// <\u200b!-- x\n</script>", "// <", Runtime, "js comment that could end the element"},
		{"<script>x = `never</script><!-- c -->", "x =", Runtime, "script the JavaScript classifier refuses"},
		{"<script>x = `never</script><!-- c -->", "<!-- c", Prose, "comment"},
		{"<script language=vbscript>' c</script>", "' c", Runtime, "script data block (not JavaScript)"},
		// Script data escape states: "</script>" inside "<!-- <script>" does not end the script.
		{"<script><!-- <script> </script> <!-- x --> --></script><!-- c -->", "<!-- x", Runtime, "js HTML-like comment"},
		{"<script><!-- <script> </script> --></script><!-- c -->", "<!-- c", Prose, "comment"},
		{"<script><!-- </script><!-- c -->", "<!-- c", Prose, "comment"},
		{"<style>/* c */</style>", "/* c", Prose, "css comment"},
		{"<style type=text/css>/* c */</style>", "/* c", Prose, "css comment"},
		{"<style type=text/less>/* c */</style>", "/* c", Runtime, "style that is not CSS"},
		{"<style>a { content: '/* no */' }</style>", "/* no", Runtime, "css string literal"},
		{"<style>/* c */ a > b {}</style><!-- d -->", "/* c", Prose, "css comment"},
		{"<style>/* open </style><!-- d -->", "/* open", Runtime, "style the CSS classifier refuses"},
		{"<style>/* <\u200b/style> */</style>", "/* <", Runtime, "css comment that could end the element"},
		// Inside svg, style is not raw text: markup in it is read as markup.
		{"<svg><style><!-- </style> <!-- x --> --></style></svg>", "<!-- x", Runtime, "style content (markup when not raw text)"},
		{"<svg><style>/* c */</style></svg>", "/* c", Prose, "css comment"},
		{"<svg><title>a</title></svg><style>/* c &amp; */</style>", "/* c", Runtime, "style content (markup when not raw text)"},
		{"<svg><style><![CDATA[ </style> <!-- x --> ]]></style></svg>", "<!-- x", Runtime, "style content (markup when not raw text)"},
		{"<svg><title><![CDATA[ </title> <!-- x --> ]]></title></svg>", "<!-- x", Runtime, "title content (markup when not raw text)"},
		// With scripting off, noscript content is markup.
		{"<noscript><a title=\"</noscript><!-- x -->\">y</a></noscript>", "<!-- x", Runtime, "noscript content (markup when not raw text)"},
		{"<noscript><p>y</p></noscript><!-- c -->", "<!-- c", Prose, "comment"},
		// Uppercase and end tags with attributes.
		{"<STYLE>/* c */</STYLE>", "/* c", Prose, "css comment"},
		{"<style>/* c */</style x='>'><!-- d -->", "<!-- d", Prose, "comment"},
		{"<style>/* c */</stylex></style><!-- d -->", "</stylex", Runtime, "css code"},
	}
	for _, c := range cases {
		r := kindAt(t, "t.html", c.src, c.needle)
		if r.Kind != c.kind || r.Why != c.why {
			t.Errorf("%q at %q: got %s %q, want %s %q", c.src, c.needle, r.Kind, r.Why, c.kind, c.why)
		}
	}
}

func TestHTMLErrors(t *testing.T) {
	cases := []struct{ src, want string }{
		{"<p>x</p>\n<!-- never closed", "t.html:2:1: comment never closes (no \"-->\")"},
		{"<p>\r\n\r\n  <!-- x -- >", "t.html:3:3: comment never closes (no \"-->\")"},
		{"<p>\u00e9<!--", "t.html:1:5: comment never closes (no \"-->\")"},
	}
	for _, c := range cases {
		_, err := Classify("t.html", []byte(c.src))
		var se *RefusedError
		if !errors.As(err, &se) || err.Error() != c.want+"; refused" {
			t.Errorf("%q: error %v, want %q", c.src, err, c.want)
		}
	}
	// Unterminated markup that hides no prose is not an error: the rest is runtime.
	for _, src := range []string{"<p title='x", "<!DOCTYPE", "<script>x", "<![CDATA[ x", "<?x", "<title>x"} {
		m, err := Classify("t.html", []byte(src))
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		if len(m.Spans(Prose)) > 0 {
			t.Errorf("%q: has prose %v", src, m.Spans(Prose))
		}
	}
}

func TestHTMLScriptKinds(t *testing.T) {
	cases := []struct {
		tag  string
		kind string
		ok   bool
	}{
		{"<script>", "", true},
		{"<script type>", "", true},
		{"<script type=''>", "", true},
		{"<script type=' text/javascript '>", "", true},
		{"<script type=TEXT/JAVASCRIPT>", "", true},
		{"<script type=application/ecmascript>", "", true},
		{"<script type=module>", "module", true},
		{"<script type='Module' type=x>", "module", true},
		{"<script type=x type=module>", "", false},
		{"<script type=importmap>", "", false},
		{"<script type=speculationrules>", "", false},
		{"<script type=text/babel>", "", false},
		{"<script type='text/javascript;x=y'>", "", false},
		{"<script type=\"text&#47;javascript\">", "", false},
		{"<script language=''>", "", true},
		{"<script language=javascript1.5>", "", true},
		{"<script language=tcl>", "", false},
		{"<script src='a.js' async defer>", "", true},
	}
	for _, c := range cases {
		kind, ok := htmlScriptKind([]byte(c.tag))
		if kind != c.kind || ok != c.ok {
			t.Errorf("%s: got %q %v, want %q %v", c.tag, kind, ok, c.kind, c.ok)
		}
	}
}

func TestHTMLCarriageReturns(t *testing.T) {
	src := "<p>\r\n<!-- a\rb\r\nc -->\r\n"
	m, err := Classify("t.html", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(src); i++ {
		if (src[i] == '\r' || src[i] == '\n') && m.At(i).Kind != Runtime {
			t.Errorf("line break at %d is %s", i, m.At(i).Kind)
		}
	}
	for _, needle := range []string{"<!-- a", "b", "c -->"} {
		if r := m.At(strings.Index(src, needle)); r.Kind != Prose {
			t.Errorf("%q is %s", needle, r.Kind)
		}
	}
}

func TestHTMLScriptEnd(t *testing.T) {
	cases := []struct{ body, want string }{
		{"x</script>", "x"},
		{"x</SCRIPT >", "x"},
		{"x</script/>", "x"},
		{"x</scripts></script>", "x</scripts>"},
		{"<!-- x </script>", "<!-- x "},
		{"<!-- <script> </script> --></script>", "<!-- <script> </script> -->"},
		{"<!-- <script> --> </script>", "<!-- <script> --> "},
		{"<!-- <script> </script> </script>", "<!-- <script> </script> "},
		{"<!--><script></script>", "<!--><script>"},
		{"<!-- <scripts> </script>", "<!-- <scripts> "},
		{"<!-- <script>--></script>x", "<!-- <script>-->"},
		{"never", "never"},
	}
	for _, c := range cases {
		src := []byte(c.body)
		if got := string(src[:htmlScriptEnd(src, 0)]); got != c.want {
			t.Errorf("%q: body %q, want %q", c.body, got, c.want)
		}
	}
}
