package region

import (
	"errors"
	"strings"
	"testing"
)

type jsCase struct {
	path, src, needle string
	kind              Kind
	why               string
}

func checkJSCases(t *testing.T, cases []jsCase) {
	t.Helper()
	for _, c := range cases {
		i := strings.Index(c.src, c.needle)
		if i < 0 {
			t.Fatalf("%q not in %q", c.needle, c.src)
		}
		m, err := Classify(c.path, []byte(c.src))
		if err != nil {
			t.Errorf("%s %q: %v", c.path, c.src, err)
			continue
		}
		if r := m.At(i); r.Kind != c.kind || (c.why != "" && r.Why != c.why) {
			t.Errorf("%s %q at %q: got %s %q, want %s %q\n%s", c.path, c.src, c.needle, r.Kind, r.Why, c.kind, c.why, m)
		}
	}
}

func TestJSComments(t *testing.T) {
	checkJSCases(t, []jsCase{
		{"a.js", "x = 1; // plain note\n", "// plain", Prose, "comment"},
		{"a.js", "x = 1; /* block\n note */ y()\n", "/* block", Prose, "comment"},
		{"a.js", "x = 1; /* block\n note */ y()\n", "note", Prose, "comment"},
		{"a.js", "x = 'a // b'; // real\n", "// b", Runtime, "string literal"},
		{"a.js", "x = 'a // b'; // real\n", "// real", Prose, "comment"},
		{"a.js", "x = \"it's /* */\" // c\n", "/* */", Runtime, "string literal"},
		{"a.js", "x = 'a\\\n// b' // c\n", "// b", Runtime, "string literal"},
		{"a.js", "x = 'a\\\r\n// b' // c\n", "// c", Prose, "comment"},
		{"a.js", "x = `a\n// b ${y} // c` // d\n", "// b", Runtime, "template literal"},
		{"a.js", "x = `a\n// b ${y} // c` // d\n", "// d", Prose, "comment"},
		{"a.js", "x = `${`in ${y /* c */}`}` // d\n", "/* c */", Prose, "comment"},
		{"a.js", "x = `${ {a: 1}.a }` // d\n", "// d", Prose, "comment"},
		{"a.js", "x = `\\${ // not a hole` // d\n", "// not", Runtime, "template literal"},
		{"a.js", "re = /[/*]\\/\"/g; // c\n", "/*]", Runtime, "regular expression"},
		{"a.js", "re = /[/*]\\/\"/g; // c\n", "// c", Prose, "comment"},
		{"a.js", "x = a / b / c // c\n", "// c", Prose, "comment"},
		{"a.js", "x = a / b /* c */ / d\n", "/* c */", Prose, "comment"},
		{"a.js", "if (x) /re\\/'/.test(y) // c\n", "/re", Runtime, "regular expression"},
		{"a.js", "if (x) /re\\/'/.test(y) // c\n", "// c", Prose, "comment"},
		{"a.js", "while (x) /'//.test(y) // c\n", "// c", Prose, "comment"},
		{"a.js", "y = (a) / 2 // c\n", "// c", Prose, "comment"},
		{"a.js", "y = x.return / 2 // c\n", "// c", Prose, "comment"},
		{"a.js", "return /'/ // c\n", "// c", Prose, "comment"},
		{"a.js", "x = typeof /'/ // c\n", "// c", Prose, "comment"},
		{"a.js", "x = a++ / 2 // c\n", "// c", Prose, "comment"},
		{"a.js", "x = [1] / 2 // c\n", "// c", Prose, "comment"},
		{"a.js", "function f() {}\n/'/.test(s) // c\n", "// c", Prose, "comment"},
		{"a.js", "x = function () {} / 2 // c\n", "// c", Prose, "comment"},
		{"a.js", "x = class {} / 2 // c\n", "// c", Prose, "comment"},
		{"a.js", "class A {}\n/'/.test(s) // c\n", "// c", Prose, "comment"},
		{"a.js", "if (a) { b() } /'/.test(s) // c\n", "// c", Prose, "comment"},
		{"a.js", "o = {}\n/ 2 // c\n", "// c", Prose, "comment"}, // JS: division continues the expression
		{"a.js", "for await (const x of y) /'/.test(x) // c\n", "// c", Prose, "comment"},
		{"a.js", "x = a\n++b // c\n", "// c", Prose, "comment"},
		{"a.js", "x = this.#p / 2 // c\n", "// c", Prose, "comment"},
		{"a.js", "x = .5 / 2 // c\n", "// c", Prose, "comment"},
		{"a.js", "x = a?.b / 2 // c\n", "// c", Prose, "comment"},
		{"a.js", "x = 1 << 2 // c\n", "// c", Prose, "comment"},
		{"a.ts", "let x = <any>/'/ // c\n", "// c", Prose, "comment"},
		{"a.ts", "let x = y! / 2 // c\n", "// c", Prose, "comment"},
		{"a.ts", "f<T>(x) // c\n", "// c", Prose, "comment"},
		{"a.ts", "x = module.exports // c\n", "// c", Prose, "comment"},
		{"a.ts", "interface I { a: string }\n/'/.test(s) // c\n", "// c", Prose, "comment"},
	})
}

func TestJSLineSeparators(t *testing.T) {
	src := "x = 1 // a\u2028y = 2 /* b\u2029c */ z // d\u2029\n"
	m, err := Classify("a.js", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(src); i++ {
		if isLineSep([]byte(src), i) {
			if r := m.At(i); r.Kind != Runtime || r.End-r.Start != 3 || !strings.HasPrefix(r.Why, "line separator") {
				t.Errorf("line separator at %d is %s %q (%d-%d)", i, r.Kind, r.Why, r.Start, r.End)
			}
		}
	}
	checkJSCases(t, []jsCase{
		{"a.js", src, "// a", Prose, "comment"},
		{"a.js", src, "y = 2", Runtime, "code"},
		{"a.js", src, "/* b", Prose, "comment"},
		{"a.js", src, "c */", Prose, "comment"},
		{"a.js", src, "// d", Prose, "comment"},
	})
	// A CR inside a block comment is runtime, the LF of a CRLF prose (as for Go).
	checkJSCases(t, []jsCase{{"a.ts", "/* a\r\nb */", "\r", Runtime, "carriage return"}})
}

func TestJSDirectives(t *testing.T) {
	for _, c := range []struct{ comment, why string }{
		{"// @ts-ignore", "directive: @ts-"},
		{"// @ts-expect-error: reason", "directive: @ts-"},
		{"// @TS-NOCHECK", "directive: @ts-"},
		{"/// <reference types=\"node\" />", "directive: /// <reference>"},
		{"/// <amd-module name=\"x\"/>", "directive: /// <reference>"},
		{"// eslint-disable-next-line no-console -- why", "directive: eslint-disable"},
		{"/* eslint-env node */", "directive: eslint-env"},
		{"/* eslint no-console: off */", "directive: eslint"},
		{"/* global foo, bar */", "directive: global"},
		{"/* globals foo */", "directive: globals"},
		{"/* exported f */", "directive: exported"},
		{"// prettier-ignore", "directive: prettier-ignore"},
		{"/* istanbul ignore next */", "directive: istanbul ignore"},
		{"/* c8 ignore start */", "directive: c8 ignore"},
		{"/* v8 ignore next */", "directive: v8 ignore"},
		{"// biome-ignore lint/style: reason", "directive: biome-ignore"},
		{"// oxlint-disable-next-line", "directive: oxlint-disable"},
		{"// deno-lint-ignore no-explicit-any", "directive: deno-lint-ignore"},
		{"/** @jsx h */", "directive: @jsx"},
		{"/** @jsxImportSource preact */", "directive: @jsx"},
		{"/* @jsxRuntime classic */", "directive: @jsx"},
		{"/*#__PURE__*/", "directive: #__"},
		{"/* @__PURE__ */", "directive: @__"},
		{"/*#__NO_SIDE_EFFECTS__*/", "directive: #__"},
		{"/* webpackChunkName: \"x\" */", "directive: webpackchunkname"},
		{"/* @vite-ignore */", "directive: @vite-ignore"},
		{"//# sourceMappingURL=a.js.map", "directive: sourcemappingurl="},
		{"//@ sourceURL=x.js", "directive: sourceurl="},
		{"// @flow strict", "directive: @flow"},
		{"/*! keep me */", "directive: legal comment"},
		{"/** @license MIT */", "directive: @license"},
		{"/* @preserve */", "directive: @preserve"},
		{"// Result: word-colon", "directive: word:"},
		{"// res\u200bult: hidden", "directive: word:"},
		{"// @ts\u200b-ignore", "directive: @ts-"},
		{"/** @inter\u200bnal */", "directive: @internal"},
		{"// #region helpers", "directive: #region"},
	} {
		src := "x = 1; " + c.comment + "\ny = 2\n"
		checkJSCases(t, []jsCase{{"a.js", src, c.comment, Directive, c.why}})
	}
	checkJSCases(t, []jsCase{
		{"a.js", "#!/usr/bin/env node\nx()\n", "#!", Directive, "directive: shebang"},
		{"a.js", "x = 1 // global state is kept here\n", "// global", Prose, "comment"},
		// Prose labels are prose, named in the reason; a label that only
		// appears once a carrier goes keeps that carrier (the engine sees
		// the reason change).
		{"a.js", "x = 1; // TODO: later\ny = 2\n", "// TODO: later", Prose, "comment (TODO:)"},
		{"a.ts", "/* Deprecated: use g */", "/* Deprecated", Prose, "comment (Deprecated:)"},
		{"a.js", "x = 1; // no\u200bte: hidden\ny = 2\n", "// no", Prose, "comment"},
		{"a.js", "/* a *\u200b/ b */ x()\n", "/* a", Prose, "comment"},
	})
}

func TestJSDoc(t *testing.T) {
	src := "/**\n * Adds numbers.\n * @param {number} a - the first\n * @param {string} [b=\"x\"] second\n * @returns {number} the sum\n * @type {import(\"x\").Y}\n * @typedef {{\n *   a: number\n * }} Foo\n * @template T\n * @example\n *   add(1, 2)\n * @see other\n */\nfunction add(a, b) {}\n"
	checkJSCases(t, []jsCase{
		{"a.js", src, "Adds numbers.", Prose, "comment"},
		{"a.js", src, "@param {number} a", Runtime, "JSDoc type"},
		{"a.js", src, "{number} a", Runtime, "JSDoc type"},
		{"a.js", src, " a - the first", Runtime, "JSDoc type"},
		{"a.js", src, "- the first", Prose, "comment"},
		{"a.js", src, "[b=", Runtime, "JSDoc type"},
		{"a.js", src, " second", Prose, "comment"},
		{"a.js", src, "the sum", Prose, "comment"},
		{"a.js", src, "import(", Runtime, "JSDoc tag"},
		{"a.js", src, "a: number", Runtime, "JSDoc tag"},
		{"a.js", src, "}} Foo", Runtime, "JSDoc tag"},
		{"a.js", src, "@template T", Runtime, "JSDoc tag"},
		{"a.js", src, "add(1, 2)", Runtime, "JSDoc tag"},
		{"a.js", src, "@see", Runtime, "JSDoc tag"},
		{"a.js", src, " other", Prose, "comment"},
		// A carrier hiding a tag's start is part of the runtime tag span.
		{"a.js", "/**\n * \u200b@private\n */\nx()\n", "\u200b@private", Runtime, "JSDoc tag"},
		{"a.js", "/** @type\u200b{X} */\nx()\n", "{X}", Runtime, "JSDoc tag"},
		{"a.js", "/*\u200b* @type {X} */\nx()\n", "\u200b", Runtime, "JSDoc tag"},
	})
}

func TestJSX(t *testing.T) {
	src := "const a = <div className=\"x // y\" data-z='q'>// text {/* jsx comment */}\n  <b>{a /* in expr */}</b><>frag</>\n  <C.D {...p} e={<i/>}/></div>; // after\n"
	for _, path := range []string{"a.jsx", "a.tsx", "a.js"} {
		checkJSCases(t, []jsCase{
			{path, src, "\"x // y\"", Runtime, "JSX attribute value"},
			{path, src, "'q'", Runtime, "JSX attribute value"},
			{path, src, "// text", Runtime, "JSX text"},
			{path, src, "/* jsx comment */", Prose, "comment"},
			{path, src, "/* in expr */", Prose, "comment"},
			{path, src, "frag", Runtime, "JSX text"},
			{path, src, "// after", Prose, "comment"},
		})
	}
	checkJSCases(t, []jsCase{
		{"a.tsx", "const f = <T,>(x: T) => x // c\n", "// c", Prose, "comment"},
		{"a.tsx", "const f = <T extends U>(x: T) => x // c\n", "// c", Prose, "comment"},
		{"a.tsx", "const f = <const T,>(x: T) => x // c\n", "// c", Prose, "comment"},
		{"a.tsx", "x = <Foo<string> a={1}>// t</Foo> // c\n", "// t", Runtime, "JSX text"},
		{"a.tsx", "x = <Foo<string> a={1}>// t</Foo> // c\n", "// c", Prose, "comment"},
		{"a.tsx", "x = a < b // c\n", "// c", Prose, "comment"},
		{"a.jsx", "x = a\n<b // c\n", "// c", Prose, "comment"}, // JS: "<" after an operand compares
		{"a.tsx", "x = <div\n  // a comment in a tag\n  a=\"1\"/>\n", "// a comment", Prose, "comment"},
	})
}

func TestJSAmbiguity(t *testing.T) {
	// "}" after a TypeScript type alias, then "/" on the next line: a regex
	// (the type ends the statement) or a division. Both readings lex, meet
	// at the end of the line, and disagree about "// c": runtime.
	checkJSCases(t, []jsCase{
		{"a.ts", "type T = {}\n/ 2 // c\n", "// c", Runtime, "ambiguous: regular expression or division"},
		{"a.ts", "type T = {}\n/ 2 // c\n// next\n", "// next", Prose, "comment"},
		// One reading fails (an unterminated regex): the other stands.
		{"a.ts", "let o = {}\n/ 2 /* c */\n", "/* c */", Prose, "comment"},
		{"a.ts", "let x: T\n/'/.test(s) // c\n", "// c", Prose, "comment"},
		// Inside brackets or an object literal no statement ends: division.
		{"a.ts", "f(total\n  / count, 2) // c\n", "// c", Prose, "comment"},
		{"a.ts", "o = { a: total\n  / count } // c\n", "// c", Prose, "comment"},
		{"a.ts", "\ufeff#!/usr/bin/env node\nx()\n", "#!", Directive, "directive: shebang"},
		// yield may be an identifier; both readings meet after the token.
		{"a.js", "function* g() { yield /'/g } // c\n", "// c", Prose, "comment"},
		// "<!--" in a classic script is a comment, in a module code.
		{"a.js", "x = 1 <!-- y\nz() // c\n", "<!--", Runtime, "ambiguous: HTML-like comment or code"},
		{"a.js", "x = 1 <!-- y\nz() // c\n", "// c", Prose, "comment"},
		{"a.js", "x = 1\n--> y 'z\nw() // c\n", "--> y", Runtime, "HTML-like comment"},
		{"a.mjs", "x = a <!--b // c\n", "// c", Prose, "comment"},
		{"a.ts", "x = a <!--b // c\n", "// c", Prose, "comment"},
	})
}

func TestJSRefused(t *testing.T) {
	for _, c := range []struct{ path, src, want string }{
		{"a.js", "x = 'open\n", "a.js:1:5: unterminated string literal"},
		{"a.js", "x = 1\ny = `open\n", "a.js:2:5: unterminated template literal"},
		{"a.js", "x = `a ${b\n", "a.js:1:5: unterminated template literal"},
		{"a.js", "/* open\n", "a.js:1:1: unterminated comment"},
		{"a.js", "x = /open\n", "a.js:1:5: unterminated regular expression"},
		{"a.js", "f(x))\n", "a.js:1:5: unexpected ')'"},
		{"a.js", "if (x) {\n", "a.js:1:8: '{' is never closed"},
		{"a.jsx", "x = <div>text\n", "a.jsx:1:5: JSX element <div> is never closed"},
		{"a.jsx", "x = <a></b>\n", "JSX closing tag </b> does not match <a>"},
		{"a.tsx", "const f = <T>(x: T) => x;\n", "JSX element <T> is never closed"},
		{"a.ts", "type T = {}\n/ 'x\n", "unterminated"},
		{"a.js", "x = 1 // a\u2028'open\n", "a.js:1:12: unterminated string literal"},
		{"a.ts", "x = {}\n/`/ + 1 // c\n` + `\n", "a.ts:2:1: '/' may start a regular expression or divide, and the two readings still differ at the end of the line"},
		{"a.js", "x = `\u00e9${`\n", "a.js:1:9: unterminated template literal"}, // columns count characters
	} {
		_, err := Classify(c.path, []byte(c.src))
		var re *RefusedError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), c.want) || !strings.HasSuffix(err.Error(), "; refused") {
			t.Errorf("%s %q: error %v, want one containing %q", c.path, c.src, err, c.want)
		}
	}
}

func TestJSONClassify(t *testing.T) {
	checkJSCases(t, []jsCase{
		{"a.json", "{\"a\": \"x // y\", \"b\": 1}\n", "\"x // y\"", Runtime, "string"},
		{"a.json", "{\"a\": 1 // no comments in JSON\n}\n", "// no", Runtime, "comment (JSON has none)"},
		{"a.json", "{\"a\": 1}\n", "1", Runtime, "JSON"},
		{"tsconfig.json", "{\n  // the target\n  \"target\": \"es2022\", /* why */\n}\n", "// the target", Prose, "comment"},
		{"tsconfig.json", "{\n  // the target\n  \"target\": \"es2022\", /* why */\n}\n", "/* why */", Prose, "comment"},
		{"tsconfig.json", "{\n  \"a\": \"// not\"\n}\n", "// not", Runtime, "string"},
		{".vscode/settings.json", "{ // c\n}", "// c", Prose, "comment"},
		{"x.jsonc", "{ // TODO: later\n}", "// TODO", Prose, "comment (TODO:)"},
		{"x.jsonc", "{ // schema: later\n}", "// schema", Directive, "directive: word:"},
		{"x.json5", "{a: 'x // y', // c\n}", "// c", Prose, "comment"},
		{"x.json5", "{a: 'x // y', // c\n}", "'x // y'", Runtime, "string"},
		{"x.jsonc", "{ // a\u2028 1 }\n", "// a", Prose, "comment"},
		{"x.jsonc", "{ // a\u2028 1 }\n", " 1 }", Runtime, "after a line separator: code for JSON5, comment for jsonc-parser"},
	})
	for _, c := range []struct{ path, src, want string }{
		{"a.json", "{\"a\": \"open\n", "a.json:1:7: unterminated string"},
		{"x.jsonc", "{ /* open\n", "x.jsonc:1:3: unterminated comment"},
		{"x.jsonc", "{ // a\u2028 \"b\": 1 }\n", "a line separator ends this comment"},
	} {
		_, err := Classify(c.path, []byte(c.src))
		var re *RefusedError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %q: error %v, want %q", c.path, c.src, err, c.want)
		}
	}
}
