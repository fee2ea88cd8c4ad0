package region

import (
	"bytes"
	"unicode/utf8"
)

// jsSpan is a runtime piece [s, e) of a comment, relative to its start.
type jsSpan struct {
	s, e int
	why  string
}

// comment marks the comment src[start:end] (markers included). A comment
// inside a template literal's hole ("${ x /* c */ }") is a comment of the
// hole's expression, like any other: the literal's text around it is
// runtime, the comment is not part of the string.
func (lx *jsLexer) comment(r *jsReading, start, end int, block bool) {
	text := lx.src[start:end]
	kind, why := jsCommentKind(text, block)
	if kind == Runtime {
		r.mark(start, end, Runtime, why)
		return
	}
	var rt []jsSpan
	if kind == Prose && block {
		rt = jsdocRuntime(text)
	}
	markCommentPieces(r, start, text, kind, why, rt)
}

// markCommentPieces marks text (at offset start) as kind, except the runtime
// spans rt and every CR, U+2028 and U+2029 (line breaks for JavaScript's
// automatic semicolon insertion: never handed to a cleaner).
func markCommentPieces(r *jsReading, start int, text []byte, kind Kind, why string, rt []jsSpan) {
	pos, k := 0, 0
	emitTo := func(e int) {
		for k < len(rt) && rt[k].s < e {
			sp := rt[k]
			if sp.s > pos {
				r.mark(start+pos, start+sp.s, kind, why)
			}
			if sp.e > pos {
				r.mark(start+max(sp.s, pos), start+sp.e, Runtime, sp.why)
				pos = sp.e
			}
			k++
		}
		if e > pos {
			r.mark(start+pos, start+e, kind, why)
			pos = e
		}
	}
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c != '\r' && (c != 0xe2 || !isLineSep(text, i)) {
			continue
		}
		if i < pos {
			continue // inside a runtime span already
		}
		w, size := "carriage return", 1
		if c == 0xe2 {
			w, size = "line separator: a line break in JavaScript", 3
		}
		emitTo(i)
		if i >= pos {
			r.mark(start+i, start+i+size, Runtime, w)
			pos = i + size
		}
		i += size - 1
	}
	emitTo(len(text))
	for ; k < len(rt); k++ {
		if rt[k].e > pos {
			r.mark(start+max(rt[k].s, pos), start+rt[k].e, Runtime, rt[k].why)
			pos = rt[k].e
		}
	}
}

// jsCommentKind classifies one comment's text (markers included). A
// carrier whose removal would let "*/" appear inside a block comment, and
// close it early, is prose like the rest of the comment: the engine
// classifies the file again without it, sees the rest become code, and
// keeps that one carrier while the others go ("/** Matches<ZWSP>
// src/**<ZWSP>/*.ts */" loses its first carrier only).
func jsCommentKind(text []byte, _ bool) (Kind, string) {
	fs := carrierForms(text)
	if why, ok := fs.match(jsDirective); ok {
		return Directive, why
	}
	body, _ := goCommentBody(text) // the same // and /* */ markers
	return Prose, commentWhy(body)
}

// markerAt returns the directive marker s starts with, c being its first
// byte in lower case. Markers are recognised anywhere in a comment, ASCII
// case ignored, grouped by first character: tools find them by substring
// (minifiers' legal comments and annotations, TypeScript's pragmas and
// @internal, coverage and lint suppressions, bundlers' magic comments,
// source map links, docblock pragmas). Markers that start with a letter
// are looked for at word starts only.
func markerAt(s []byte, c byte) (string, bool) {
	switch c {
	case '@':
		return firstFold(s, "@license", "@preserve", "@cc_on", "@ts-", "@jsx", "@flow", "@noflow", "@internal",
			"@vite-ignore", "@refresh", "@format", "@prettier", "@noformat", "@generated",
			"@jest-environment", "@vitest-environment", "@__")
	case '#':
		return firstFold(s, "#__", "#region", "#endregion")
	case '$':
		return firstFold(s, "$flow")
	case '_':
		return firstFold(s, "__pure__", "__no_side_effects__")
	case 's':
		return firstFold(s, "sourcemappingurl=", "sourceurl=", "stylelint-disable")
	case 'e':
		return firstFold(s, "eslint-disable", "eslint-enable", "eslint-env")
	case 'p':
		return firstFold(s, "prettier-ignore")
	case 'b':
		return firstFold(s, "biome-ignore")
	case 'o':
		return firstFold(s, "oxlint-disable", "oxlint-enable")
	case 'd':
		return firstFold(s, "deno-lint-ignore", "deno-fmt-ignore", "deno-coverage-ignore")
	case 'i':
		return firstFold(s, "istanbul ignore")
	case 'c':
		return firstFold(s, "c8 ignore")
	case 'v':
		return firstFold(s, "v8 ignore")
	case 'n':
		return firstFold(s, "node:coverage", "nosonar")
	case 'w':
		return firstFold(s, "webpackchunkname", "webpackmode", "webpackprefetch", "webpackpreload", "webpackinclude",
			"webpackexclude", "webpackexports", "webpackignore", "webpackfetchpriority")
	case 't':
		return firstFold(s, "turbopackignore")
	}
	return "", false
}

// jsStartWords are directives only as the first word of a block comment
// (ESLint reads "/* global x */", never "// global x").
var jsStartWords = [...]string{"global", "globals", "exported", "eslint", "jshint", "jslint", "jscs"}

// jsDirective classifies a comment's text (markers included) as a directive.
func jsDirective(t []byte) (string, bool) {
	if why, ok := suppressionDirective(t, inAnyComment); ok {
		return why, true
	}
	body, line := goCommentBody(t) // the same comment syntax
	if line && len(body) > 0 && body[0] == '/' {
		if s := trimSpaceLeft(body[1:]); len(s) > 0 && s[0] == '<' {
			return "directive: /// <reference>", true
		}
	}
	if len(body) > 0 && body[0] == '!' {
		return "directive: legal comment", true
	}
	if m, ok := findMarker(body); ok {
		return "directive: " + m, true
	}
	s := trimSpaceLeft(body)
	for len(s) > 0 && s[0] == '*' {
		s = s[1:]
	}
	s = trimSpaceLeft(s)
	for _, w := range jsStartWords {
		if !line && len(s) >= len(w) && string(s[:len(w)]) == w && (len(s) == len(w) || isSpaceByte(s[len(w)]) || s[len(w)] == ':') {
			return "directive: " + w, true
		}
	}
	if word, ok := wordColon(s); ok {
		switch word {
		case "tslint", "cspell", "spell-checker", "istanbul", "webpackChunkName", "jshint":
			return "directive: " + word + ":", true
		}
		return "directive: word:", true
	}
	return "", false
}

// firstFold returns the first of ms that s starts with, ignoring ASCII case.
func firstFold(s []byte, ms ...string) (string, bool) {
	for _, m := range ms {
		if hasPrefixFold(s, m) {
			return m, true
		}
	}
	return "", false
}

// findMarker returns the first marker (see markerAt) found in body, ignoring
// ASCII case.
func findMarker(body []byte) (string, bool) {
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c >= 'a' && c <= 'z' && i > 0 && isWordByte(body[i-1]) && body[i-1] != '.' && body[i-1] != '-' {
			continue // inside a word
		}
		if m, ok := markerAt(body[i:], c); ok {
			return m, true
		}
	}
	return "", false
}

// jsdocProseTags are JSDoc tags whose description is documentation text;
// any other tag's line is runtime (TypeScript reads @type, @typedef,
// @template, @import, @satisfies...; Jest reads @jest-environment).
var jsdocProseTags = [...]string{
	"param", "arg", "argument", "property", "prop", "returns", "return", "throws", "exception",
	"yields", "yield", "deprecated", "description", "desc", "summary", "remarks", "privateremarks",
	"see", "since", "todo", "fileoverview", "file", "overview", "author", "note", "example",
}

// invisibleAt returns the size of the invisible character (one a cleaner
// could remove or turn into a space) at s[i], or 0.
func invisibleAt(s []byte, i int) int {
	if s[i] < 0x80 {
		if s[i] < 0x20 && s[i] != '\t' && s[i] != '\n' && s[i] != '\r' || s[i] == 0x7f {
			return 1
		}
		return 0
	}
	r, size := utf8.DecodeRune(s[i:])
	if r == utf8.RuneError && size <= 1 {
		return 1
	}
	if carrierRune(r) || (asSpace(r) && r != 0x2028 && r != 0x2029) {
		return size
	}
	return 0
}

// skipBlank skips spaces, tabs and invisible characters on one line.
func skipBlank(s []byte, i int) int {
	for i < len(s) {
		if s[i] == ' ' || s[i] == '\t' {
			i++
			continue
		}
		n := invisibleAt(s, i)
		if n == 0 {
			return i
		}
		i += n
	}
	return i
}

// jsdocRuntime returns the runtime spans of a block comment's JSDoc tags: a
// tag's name always; for documentation tags the {type} and the parameter
// name after it, the description staying prose; every other tag's whole
// line (types and pragmas that tools read); an @example's whole body.
func jsdocRuntime(text []byte) []jsSpan {
	if len(text) < 4 {
		return nil
	}
	bodyEnd := len(text) - 2 // before "*/"
	var out []jsSpan
	covered := 0
	for p := 2; p < bodyEnd; {
		lineEnd := jsLineEnd(text[:bodyEnd], p)
		next := lineEnd
		if next < bodyEnd {
			next = afterJSLineBreak(text, next)
		}
		if p < covered {
			p = next
			continue
		}
		// A line's lead: blanks and "*", and any invisible character among
		// them, which removal would take away ("/*<ZWSP>* @type" becomes a
		// JSDoc tag): invisible characters in the lead belong to the tag.
		q, from := p, -1
		for q < lineEnd {
			if text[q] == ' ' || text[q] == '\t' || text[q] == '*' {
				q++
				continue
			}
			n := invisibleAt(text, q)
			if n == 0 {
				break
			}
			if from < 0 {
				from = q
			}
			q += n
		}
		if q >= lineEnd || text[q] != '@' {
			p = next
			continue
		}
		sp, name := jsdocTag(text[:bodyEnd], q, lineEnd)
		if from >= 0 {
			sp.s = from
		}
		if !isProseTag(name) {
			sp.e = max(sp.e, lineEnd)
			sp.e = max(sp.e, balancedEnd(text[:bodyEnd], q, lineEnd))
		} else if name == "example" {
			sp.e = nextTagLine(text[:bodyEnd], next)
		}
		out = append(out, sp)
		covered = sp.e
		p = next
	}
	return out
}

// jsdocTag reads the tag at q ("@name", invisible characters included) and,
// for documentation tags, the {type} and parameter name after it.
func jsdocTag(text []byte, q, lineEnd int) (jsSpan, string) {
	e := q + 1
	var name []byte
	for e < len(text) {
		c := text[e]
		if isWordByte(c) && c != '.' {
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			name = append(name, c)
			e++
			continue
		}
		if n := invisibleAt(text, e); n > 0 {
			e += n
			continue
		}
		break
	}
	sp := jsSpan{s: q, e: e, why: "JSDoc tag"}
	tag := string(name)
	if !isProseTag(tag) {
		return sp, tag
	}
	j := skipBlank(text[:lineEnd], e)
	if j < len(text) && text[j] == '{' {
		sp.e = balancedEnd(text, j, j)
		sp.why = "JSDoc type"
		j = skipBlank(text[:lineEnd], sp.e)
	}
	switch tag {
	case "param", "arg", "argument", "property", "prop":
		if j < lineEnd && text[j] == '[' {
			k := bytes.IndexByte(text[j:lineEnd], ']')
			if k < 0 {
				sp.e = lineEnd
			} else {
				sp.e = j + k + 1
			}
		} else if j < lineEnd && text[j] != '-' {
			k := j
			for k < lineEnd && text[k] != ' ' && text[k] != '\t' {
				k++
			}
			if k > j {
				sp.e = k
			}
		}
	}
	return sp, tag
}

func isProseTag(name string) bool {
	for _, t := range jsdocProseTags {
		if t == name {
			return true
		}
	}
	return false
}

// balancedEnd returns the end of the first "{...}" group (nested braces
// balanced) that starts at or after from and before lineEnd, or from when
// there is none; an unbalanced group runs to the end of text.
func balancedEnd(text []byte, from, lineEnd int) int {
	k := bytes.IndexByte(text[from:max(lineEnd, from+1)], '{')
	if k < 0 || from+k >= len(text) {
		return from
	}
	depth := 0
	for j := from + k; j < len(text); j++ {
		switch text[j] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return len(text)
}

// nextTagLine returns the start of the next line at or after p whose text
// (after "*" and blanks) starts with "@", or len(text).
func nextTagLine(text []byte, p int) int {
	for p < len(text) {
		lineEnd := jsLineEnd(text, p)
		q := p
		for q < lineEnd && (text[q] == ' ' || text[q] == '\t' || text[q] == '*') {
			q++
		}
		q = skipBlank(text[:lineEnd], q)
		if q < lineEnd && text[q] == '@' {
			return p
		}
		if lineEnd >= len(text) {
			break
		}
		p = afterJSLineBreak(text, lineEnd)
	}
	return len(text)
}

// afterJSLineBreak returns the offset after the line terminator at i (LF,
// CRLF, CR, U+2028 or U+2029).
func afterJSLineBreak(src []byte, i int) int {
	if src[i] == 0xe2 {
		return i + 3
	}
	return afterLineBreak(src, i)
}
