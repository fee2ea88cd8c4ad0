package region

import (
	"bytes"
	"path/filepath"
	"strings"
)

// JSON has no comments: a .json file is all runtime, but it is still
// classified so that check reports real regions. JSONC (JSON with comments,
// as VS Code, TypeScript and most tool configs read it) and JSON5 have "//"
// and "/* */" comments, which are prose. Names that tools read as JSONC are
// JSONC whatever their extension.

// jsonLanguage returns "json", "jsonc" or "" for path.
func jsonLanguage(path string) string {
	base := strings.ToLower(filepath.Base(path))
	switch filepath.Ext(base) {
	case ".jsonc", ".json5", ".code-workspace", ".code-snippets":
		return "jsonc"
	case ".json":
	default:
		switch base {
		case ".babelrc", ".swcrc", ".jshintrc":
			return "jsonc"
		}
		return ""
	}
	if isJSONCName(base) || strings.EqualFold(filepath.Base(filepath.Dir(path)), ".vscode") {
		return "jsonc"
	}
	return "json"
}

// isJSONCName reports .json names that their tools read with comments:
// TypeScript (tsconfig, jsconfig: its own JSON-with-comments parser), the
// dev container spec, ESLint's legacy .eslintrc.json (strip-json-comments),
// Turborepo, Deno, Biome, Babel (JSON5), TSLint, API Extractor and
// markdownlint.
func isJSONCName(base string) bool {
	switch base {
	case "devcontainer.json", ".devcontainer.json", ".eslintrc.json", "turbo.json", "deno.json",
		"biome.json", ".babelrc.json", "babel.config.json", "tslint.json", "api-extractor.json",
		".markdownlint.json", "language-configuration.json":
		return true
	}
	return strings.HasPrefix(base, "tsconfig") || strings.HasPrefix(base, "jsconfig")
}

func classifyJSON(path string, src []byte) (*Map, error) {
	lang := jsonLanguage(path)
	m, e := lexJSON(src, lang == "jsonc", lang)
	if e != nil {
		return nil, syntaxError(path, src, e.off, e.reason)
	}
	return m, nil
}

// lexJSON classifies src; with comments set, comments are prose (JSONC,
// JSON5), else runtime like everything else.
func lexJSON(src []byte, comments bool, lang string) (*Map, *jsErr) {
	r := newReading(len(src))
	n := len(src)
	for i := 0; i < n; {
		k := indexJSONSpecial(src[i:])
		if k < 0 {
			break
		}
		i += k
		switch src[i] {
		case '"', '\'':
			end, ok := jsStringEnd(src, i)
			if !ok {
				return nil, &jsErr{i, "unterminated string"}
			}
			r.mark(i, end, Runtime, "string")
			i = end
		case '/':
			if i+1 >= n || (src[i+1] != '/' && src[i+1] != '*') {
				i++
				continue
			}
			end, e := jsonComment(r, src, i, comments)
			if e != nil {
				return nil, e
			}
			i = end
		}
	}
	return mapFromMarks(n, r.marks, "JSON", lang), nil
}

// indexJSONSpecial returns the index of the first quote or slash in s, or -1.
func indexJSONSpecial(s []byte) int {
	for i, c := range s {
		if c == '"' || c == '\'' || c == '/' {
			return i
		}
	}
	return -1
}

// jsonComment marks the comment at i and returns the offset after it.
func jsonComment(r *jsReading, src []byte, i int, comments bool) (int, *jsErr) {
	block := src[i+1] == '*'
	var end int
	if block {
		k := bytes.Index(src[i+2:], []byte("*/"))
		if k < 0 {
			return 0, &jsErr{i, "unterminated comment"}
		}
		end = i + 2 + k + 2
	} else {
		end = jsLineEnd(src, i)
	}
	if !comments {
		r.mark(i, end, Runtime, "comment (JSON has none)")
	} else if kind, why := jsCommentKind(src[i:end], block); kind == Runtime {
		r.mark(i, end, Runtime, why)
	} else {
		markCommentPieces(r, i, src[i:end], kind, why, nil)
	}
	if block || !isLineSep(src, end) {
		return end, nil
	}
	// U+2028 and U+2029 end a line comment for JSON5 and TypeScript (which
	// reads tsconfig.json) but not for jsonc-parser (VS Code): the rest of
	// the line is code for some readers and comment for others. It is
	// runtime, and it must read the same both ways.
	rest := lineEnd(src, end)
	tail := src[end:rest]
	if bytes.ContainsAny(tail, "\"'`") || bytes.Contains(tail, []byte("/*")) {
		return 0, &jsErr{end, "a line separator ends this comment for TypeScript and JSON5 but not for jsonc-parser, and the rest of the line reads differently for them"}
	}
	r.mark(end, rest, Runtime, "after a line separator: code for JSON5, comment for jsonc-parser")
	return rest, nil
}
