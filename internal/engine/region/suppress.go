package region

import (
	"math/bits"
	"sync"
)

// The suppression comments below are read by tools that work across
// languages: a scanner that finds "nosemgrep" in a Python comment finds it
// in a Go, JavaScript, CSS or HTML comment too. Every classifier consults
// this one vocabulary (on the comment as written and on every form it
// could take once its carriers were removed, see carrierForms), so that
// cleaning never turns "no<ZWSP>semgrep" into a live suppression in any
// comment syntax. Each entry follows the tool's own matcher, widened where
// that is simpler: matching too much only makes the cleaner more timid.

// suppressPlace says where in a comment a suppression word counts.
type suppressPlace uint8

const (
	// atStart: the comment's first word, after its markers, blanks and
	// punctuation (semgrep's "^[^a-zA-Z0-9]*" reading of a comment line).
	atStart suppressPlace = iota
	// atClause: the first word, or the first word after a ';'.
	atClause
	// atWord: at any word start (no letter, digit or '_' before it).
	atWord
	// anywhere: as a substring, inside a word too.
	anywhere
	// whole: the comment's whole text, its markers, blanks and
	// punctuation around it aside.
	whole
)

// suppression is one tool's suppression comment. word is lower case and
// matched ignoring ASCII case.
type suppression struct {
	word string
	at   suppressPlace
	// bracket requires a '[' after the word, blanks between:
	// CodeQL's "lgtm[js/xss]" and "codeql[js/xss]".
	bracket bool
	// wordEnd requires that no letter or digit follows the word ("lgtm",
	// not "lgtmx"; "toc", not "tocsin").
	wordEnd bool
	// scope limits the entry to HTML comments: "<!-- more -->" is a
	// marker, "// more tests below" is prose.
	scope suppressScope
	why   string
}

// suppressScope names the comment syntaxes an entry applies to.
type suppressScope uint8

const (
	inAnyComment   suppressScope = iota // every comment syntax
	inHTML                              // HTML comments, in HTML and in Markdown
	inMarkdownHTML                      // HTML comments in Markdown only
)

// suppressions is the vocabulary; its test feeds every entry to every
// comment syntax it applies to, with a carrier inside the word.
var suppressions = [...]suppression{
	// semgrep (any language): " nosem" or " nosemgrep" anywhere on the
	// line, or alone on the line before; case-insensitive; "nosem" is a
	// prefix (" nosemantic" matches too).
	{word: "nosem", at: atWord, why: "directive: nosemgrep (semgrep)"},
	// CodeQL: "lgtm[...]" or "codeql[...]" anywhere, "lgtm" at the start
	// or after a ';' (codeql/util/suppression/AlertSuppression.qll).
	{word: "lgtm", at: atWord, bracket: true, why: "directive: lgtm[...] (CodeQL)"},
	{word: "lgtm", at: atClause, wordEnd: true, why: "directive: lgtm (CodeQL)"},
	{word: "codeql", at: atWord, bracket: true, why: "directive: codeql[...] (CodeQL)"},
	// JetBrains IDEs and Qodana: "//noinspection Name", "/** @noinspection Name */".
	{word: "noinspection", at: atWord, why: "directive: noinspection (JetBrains)"},
	// JetBrains formatter markers, any language.
	{word: "@formatter:", at: anywhere, why: "directive: @formatter: (JetBrains)"},
	// SonarQube: NOSONAR anywhere in a comment.
	{word: "nosonar", at: anywhere, why: "directive: NOSONAR (SonarQube)"},
	// gosec reads "#nosec" anywhere in a comment.
	{word: "#nosec", at: anywhere, why: "directive: #nosec (gosec)"},
	// ESLint's no-fallthrough: /falls?\s?through/iu tested on every
	// comment before a case; \s is one whitespace character.
	{word: "fallthrough", at: anywhere, why: "directive: falls through (ESLint no-fallthrough)"},
	{word: "fall through", at: anywhere, why: "directive: falls through (ESLint no-fallthrough)"},
	{word: "fall\tthrough", at: anywhere, why: "directive: falls through (ESLint no-fallthrough)"},
	{word: "fallsthrough", at: anywhere, why: "directive: falls through (ESLint no-fallthrough)"},
	{word: "falls through", at: anywhere, why: "directive: falls through (ESLint no-fallthrough)"},
	{word: "falls\tthrough", at: anywhere, why: "directive: falls through (ESLint no-fallthrough)"},
	// ESLint's default-case: /^no default$/iu on the trimmed comment.
	{word: "no default", at: whole, why: "directive: no default (ESLint default-case)"},
	// ESLint inline configuration, read in Markdown and HTML by its plugins too.
	{word: "eslint-disable", at: atWord, why: "directive: eslint-disable"},
	{word: "eslint-enable", at: atWord, why: "directive: eslint-enable"},
	// Prettier, every language it formats: "// prettier-ignore",
	// "<!-- prettier-ignore-start -->", "# prettier-ignore".
	{word: "prettier-ignore", at: atStart, why: "directive: prettier-ignore"},
	// JSHint reads its options in any comment: "// jshint ignore:line",
	// "/* jshint ignore:start */", "/* jshint esversion: 6 */".
	{word: "jshint", at: atStart, wordEnd: true, why: "directive: jshint"},
	// Flow lint suppressions: "// flowlint-next-line", "/* flowlint x:off */".
	{word: "flowlint", at: atStart, why: "directive: flowlint (Flow)"},
	// clang-format (C, C++, Java, JavaScript, TypeScript, proto):
	// "// clang-format off" and "on".
	{word: "clang-format o", at: atStart, why: "directive: clang-format off/on"},
	// dprint: "// dprint-ignore", "// dprint-ignore-file".
	{word: "dprint-ignore", at: atStart, why: "directive: dprint-ignore"},
	// release-please's generic updater rewrites the version on a line
	// holding "x-release-please-version" (and between -start/-end markers).
	{word: "x-release-please-", at: anywhere, why: "directive: x-release-please (release-please)"},
	// Trunk, any language: "// trunk-ignore(linter/rule)".
	{word: "trunk-ignore", at: atWord, why: "directive: trunk-ignore"},
	// Secret scanners: a line holding the marker is not reported.
	{word: "gitleaks:allow", at: anywhere, why: "directive: gitleaks:allow"},
	{word: "pragma: allowlist", at: anywhere, why: "directive: pragma: allowlist secret (detect-secrets)"},
	{word: "pragma: whitelist", at: anywhere, why: "directive: pragma: whitelist secret (detect-secrets)"},
	{word: "ggignore", at: anywhere, why: "directive: ggignore (ggshield)"},
	// Snyk Code: "// deepcode ignore Rule: reason", "file deepcode ignore".
	{word: "deepcode ignore", at: atWord, why: "directive: deepcode ignore (Snyk)"},
	// Spell checkers read their inline words anywhere in a comment.
	{word: "cspell:", at: atWord, why: "directive: cspell:"},
	{word: "spell-checker:", at: atWord, why: "directive: cspell:"},
	{word: "codespell:ignore", at: atWord, why: "directive: codespell:ignore"},
	{word: "editorconfig-checker-", at: atWord, why: "directive: editorconfig-checker"},
	// Cog generates code between markers in any comment syntax.
	{word: "[[[cog", at: anywhere, why: "directive: cog marker"},
	{word: "[[[end]]]", at: anywhere, why: "directive: cog marker"},

	// HTML comments read by Markdown and HTML tools, at the start of the
	// comment's text.
	{word: "markdownlint-", at: atStart, scope: inHTML, why: "directive: markdownlint"},
	{word: "textlint-", at: atStart, scope: inHTML, why: "directive: textlint"},
	{word: "lint ", at: atStart, scope: inHTML, why: "directive: remark-lint"},
	{word: "lint-", at: atStart, scope: inHTML, why: "directive: remark-lint"},
	{word: "markdown-link-check-", at: atStart, scope: inHTML, why: "directive: markdown-link-check"},
	{word: "vale ", at: atStart, scope: inHTML, why: "directive: vale"},
	{word: "cspell", at: atStart, scope: inHTML, why: "directive: cspell"},
	{word: "spell-checker", at: atStart, scope: inHTML, why: "directive: cspell"},
	{word: "spellchecker", at: atStart, scope: inHTML, why: "directive: spellchecker"},
	{word: "alex ", at: atStart, scope: inHTML, why: "directive: alex"},
	{word: "toc", at: atStart, wordEnd: true, scope: inHTML, why: "directive: table of contents marker"},
	{word: "tocstop", at: atStart, wordEnd: true, scope: inHTML, why: "directive: table of contents marker"},
	{word: "/toc", at: atStart, wordEnd: true, scope: inHTML, why: "directive: table of contents marker"},
	{word: "omit in toc", at: atStart, scope: inHTML, why: "directive: table of contents marker"},
	{word: "omit from toc", at: atStart, scope: inHTML, why: "directive: table of contents marker"},
	{word: "no toc", at: atStart, scope: inHTML, why: "directive: table of contents marker"},
	{word: "no-toc", at: atStart, scope: inHTML, why: "directive: table of contents marker"},
	// MarkdownTOC (Sublime Text): <!-- MarkdownTOC autolink="true" --> ... <!-- /MarkdownTOC -->.
	{word: "markdowntoc", at: atStart, scope: inHTML, why: "directive: MarkdownTOC"},
	{word: "/markdowntoc", at: atStart, scope: inHTML, why: "directive: MarkdownTOC"},
	// embedme: <!-- embedme path/to/file.ts --> replaces the code block after it.
	{word: "embedme", at: atStart, wordEnd: true, scope: inHTML, why: "directive: embedme"},
	// rumdl: rumdl-disable, -enable, -disable-line, -disable-next-line, -configure-file.
	{word: "rumdl-", at: atStart, scope: inHTML, why: "directive: rumdl"},
	// PyMarkdown: <!-- pyml disable-next-line md013 -->, pyml disable, pyml enable.
	{word: "pyml ", at: atStart, scope: inHTML, why: "directive: pyml (PyMarkdown)"},
	{word: "mdformat-", at: atStart, scope: inHTML, why: "directive: mdformat"},
	{word: "more", at: atStart, wordEnd: true, scope: inHTML, why: "directive: excerpt separator"},
	// Generated sections: <!-- BEGIN_TF_DOCS -->, <!-- END mdsh -->, <!-- START doctoc -->.
	{word: "begin", at: atStart, wordEnd: true, scope: inMarkdownHTML, why: "directive: generated section marker"},
	{word: "end", at: atStart, wordEnd: true, scope: inMarkdownHTML, why: "directive: generated section marker"},
	{word: "start", at: atStart, wordEnd: true, scope: inMarkdownHTML, why: "directive: generated section marker"},
	{word: "stop", at: atStart, wordEnd: true, scope: inMarkdownHTML, why: "directive: generated section marker"},
}

// suppressionDirective reports the first entry of the vocabulary that t,
// a comment's text (markers included or not), holds; in says which
// syntax the comment is written in (inAnyComment for every one that is not
// an HTML comment). The entries read at any word start or anywhere are
// matched in one pass over t (scanSuppressions); the others look at a few
// places each (the first word, after a ';', the whole text), in order.
func suppressionDirective(t []byte, in suppressScope) (string, bool) {
	first := scanSuppressions(t)
	for i := range suppressions[:first] {
		s := &suppressions[i]
		if scanned(i) || s.scope != inAnyComment && s.scope != in && !(s.scope == inHTML && in == inMarkdownHTML) {
			continue
		}
		if s.holds(t) {
			return s.why, true
		}
	}
	if first < len(suppressions) {
		return suppressions[first].why, true
	}
	return "", false
}

// scanned reports whether entry i is matched by scanSuppressions: read at
// any word start or anywhere, in every comment syntax, at least two bytes
// long, and among the first 64 entries (a bit of a uint64 each); the
// others are matched one by one.
func scanned(i int) bool {
	s := &suppressions[i]
	return i < 64 && len(s.word) >= 2 && (s.at == atWord || s.at == anywhere) && s.scope == inAnyComment
}

// suppressionIndex maps each of the first two bytes of a word, in either
// ASCII case, to the scanned entries whose word has it there, one bit
// each, bit b for suppressions[b]. A comment of n bytes then costs two
// table look-ups a byte and a prefix comparison only where an entry's
// first two bytes stand, where matching every entry at every offset cost n
// times the vocabulary (41M instructions over the 5,635 comments of the
// js/ts benchmark corpus).
type suppressionIndex struct{ first, second [256]uint64 }

// suppressionStarts is built on first use: a 4 KiB table built at start
// is a 4 KiB frame in the package's initialiser, and every process, the
// hooks' included, grew its stack for it.
var suppressionStarts = sync.OnceValue(indexSuppressions)

func indexSuppressions() *suppressionIndex {
	idx := new(suppressionIndex)
	for i := range suppressions {
		if s := &suppressions[i]; scanned(i) {
			for _, c := range [...]byte{s.word[0], upperASCII(s.word[0])} {
				idx.first[c] |= 1 << uint(i)
			}
			for _, c := range [...]byte{s.word[1], upperASCII(s.word[1])} {
				idx.second[c] |= 1 << uint(i)
			}
		}
	}
	return idx
}

func upperASCII(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// scanSuppressions returns the index of the first scanned entry that t
// holds, or len(suppressions).
func scanSuppressions(t []byte) int {
	first := len(suppressions)
	idx := suppressionStarts()
	for k := 0; k+1 < len(t); k++ {
		for m := idx.first[t[k]] & idx.second[t[k+1]]; m != 0; m &= m - 1 {
			i := bits.TrailingZeros64(m)
			if i >= first {
				break
			}
			s := &suppressions[i]
			if s.at == atWord && k > 0 && (isAlnum(t[k-1]) || t[k-1] == '_') {
				continue
			}
			if s.matchAt(t, k) {
				first = i
				break
			}
		}
	}
	return first
}

// holds reports whether t holds the suppression where it counts.
func (s *suppression) holds(t []byte) bool {
	switch s.at {
	case atStart:
		return s.first(t)
	case atClause:
		if s.first(t) {
			return true
		}
		for k, c := range t {
			if c == ';' && s.first(t[k+1:]) {
				return true
			}
		}
		return false
	case whole:
		lo, hi := firstWord(t), len(t)
		for hi > lo && !isAlnum(t[hi-1]) {
			hi--
		}
		return hi-lo == len(s.word) && s.matchAt(t[:hi], lo)
	}
	for k := 0; k+len(s.word) <= len(t); k++ {
		if s.at == atWord && k > 0 && (isAlnum(t[k-1]) || t[k-1] == '_') {
			continue
		}
		if s.matchAt(t, k) {
			return true
		}
	}
	return false
}

// first reports whether the word opens t: at its first word, or at the
// '/', '@' or '#' right before it ("<!-- /toc -->", "// @formatter:off").
func (s *suppression) first(t []byte) bool {
	w := firstWord(t)
	if s.matchAt(t, w) {
		return true
	}
	return w > 0 && (t[w-1] == '/' || t[w-1] == '@' || t[w-1] == '#') && s.matchAt(t, w-1)
}

// matchAt reports whether the word, with its conditions, stands at t[k:].
func (s *suppression) matchAt(t []byte, k int) bool {
	if k < 0 || k > len(t) || !hasPrefixFold(t[k:], s.word) {
		return false
	}
	e := k + len(s.word)
	if s.wordEnd && e < len(t) && isAlnum(t[e]) {
		return false
	}
	if s.bracket {
		for e < len(t) && isSpaceByte(t[e]) {
			e++
		}
		return e < len(t) && t[e] == '['
	}
	return true
}

// firstWord returns the offset of the first letter, digit or non-ASCII
// byte of t: what follows a comment's markers, blanks and punctuation.
func firstWord(t []byte) int {
	for k, c := range t {
		if isAlnum(c) || c >= 0x80 {
			return k
		}
	}
	return len(t)
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z'
}
