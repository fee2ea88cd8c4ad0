package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/prosewash/prosewash/internal/engine/check"
	"github.com/prosewash/prosewash/internal/engine/report"
)

// This file renders check's findings for CI: SARIF 2.1.0 for GitHub code
// scanning and workflow commands for plain Actions logs.

// carrierClasses are the carrier policy's classes, one SARIF rule each,
// with what the rule tells a reader.
var carrierClasses = []struct{ class, short, help string }{
	{"ansi-escape", "Terminal escape sequence", "An ANSI/ECMA-48 escape sequence can rewrite what a terminal shows (hide text, move the cursor). prosewash removes it from prose; in code and literals it is reported, never touched."},
	{"bidi-control", "Bidirectional control character", "Bidi embeddings, overrides and isolates reorder how text is displayed, the Trojan Source attack (CVE-2021-42574). In code, strings or directives they can make a reviewer read different logic than the compiler does."},
	{"bidi-mark", "Stray directional mark", "A left-to-right or right-to-left mark outside right-to-left text carries nothing a reader sees and can hide data."},
	{"bom", "Byte order mark inside the text", "U+FEFF away from the start of the file is a zero-width no-break space: invisible and able to split identifiers or words."},
	{"control", "Control character", "C0/C1 control characters are invisible in most viewers and have no place in source text."},
	{"default-ignorable", "Default-ignorable code point", "A code point Unicode tells renderers to ignore: invisible, so it can carry hidden data."},
	{"filler", "Invisible filler character", "Hangul and other fillers render as nothing and are used to smuggle text."},
	{"format", "Invisible format character", "A format character that renders as nothing here."},
	{"hidden-comment", "Long HTML comment in an instruction file", "An HTML comment in an agent's instruction file (CLAUDE.md, AGENTS.md, ...) is hidden when the file is rendered but read by the agent: a place to smuggle instructions past a reviewer."},
	{"joiner", "Zero-width joiner or non-joiner outside a script that uses it", "ZWJ/ZWNJ belong in emoji sequences and in Arabic-script and Indic words; elsewhere they are invisible carriers."},
	{"line-separator", "Unicode line or paragraph separator", "U+2028/U+2029/U+0085 end lines for some languages and readers but not others, so the same bytes parse differently."},
	{"noncharacter", "Noncharacter", "A code point Unicode reserves as never to be interchanged."},
	{"object-replacement", "Object replacement character", "U+FFFC stands for an embedded object that is not there."},
	{"private-use", "Private-use character", "A private-use code point means whatever a font or tool decides; reported, never removed."},
	{"soft-hyphen", "Soft hyphen", "U+00AD is invisible unless a line breaks at it, and splits words for search and review."},
	{"space", "Exotic space", "A space other than U+0020 (no-break, em, ideographic...) where none is expected: it looks like a space and is not one to parsers."},
	{"tag", "Tag character", "Unicode tag characters (U+E0000 block) are invisible and spell hidden ASCII text: a known channel for prompt injection."},
	{"variation-selector", "Variation selector outside a sequence", "A variation selector that modifies nothing is invisible; runs of them encode hidden bytes."},
	{"zero-width", "Zero-width character", "Zero-width spaces and similar characters are invisible and can hide data or split words and identifiers."},
}

func ruleID(class string) string { return "prosewash/" + class }

// findingLevel is a finding's SARIF level: a high severity is an error
// (hidden text that clean removes still deserves a look); otherwise a
// carrier clean removes from prose is a note, and the severity decides the
// rest (medium a warning, low a note). A finding without a severity is
// judged by class and region: what can change how code reads (bidi
// controls, tags, selectors, escapes, line separators) is an error outside
// prose, any other carrier a warning.
func findingLevel(f check.Finding) string {
	if f.Severity == "high" {
		return "error"
	}
	if f.Region == "prose" && (f.Action == "remove" || f.Action == "replace") {
		return "note"
	}
	switch f.Severity {
	case "medium":
		return "warning"
	case "low":
		return "note"
	}
	if f.Region == "prose" && f.Action != "report" {
		return "note"
	}
	switch f.Class {
	case "bidi-control", "tag", "variation-selector", "ansi-escape", "line-separator":
		return "error"
	}
	return "warning"
}

// fingerprinter computes a finding's stable identity: the rule, the path,
// the code point, the text of its line without carriers or surrounding
// blanks, and which occurrence of that combination it is in the file. Line
// numbers stay out, so an alert survives lines added above it.
type fingerprinter struct {
	lines [][]byte
	seen  map[string]int
}

func newFingerprinter(data []byte) *fingerprinter {
	fp := &fingerprinter{seen: map[string]int{}}
	start := 0
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case '\n':
			fp.lines = append(fp.lines, data[start:i])
			start = i + 1
		case '\r':
			if i+1 < len(data) && data[i+1] == '\n' {
				continue
			}
			fp.lines = append(fp.lines, data[start:i])
			start = i + 1
		}
	}
	fp.lines = append(fp.lines, data[start:])
	return fp
}

// visible keeps the characters a reader sees: letters, marks, digits,
// punctuation and symbols; carriers and spacing go.
func visible(line []byte) string {
	var b strings.Builder
	for len(line) > 0 {
		r, n := utf8.DecodeRune(line)
		line = line[n:]
		if r > ' ' && r != 0x7f && !(r >= 0x80 && r < 0xa1) && isGraphic(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func (fp *fingerprinter) of(f check.Finding) string {
	text := ""
	if f.Line >= 1 && f.Line <= len(fp.lines) {
		text = visible(fp.lines[f.Line-1])
	}
	key := strings.Join([]string{ruleID(f.Class), filepath.ToSlash(f.Path), f.Code, text}, "\x00")
	n := fp.seen[key]
	fp.seen[key] = n + 1
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s\x00%d", key, n)))
	return hex.EncodeToString(sum[:16])
}

// sarifFinding is a finding with its fingerprint.
type sarifFinding struct {
	check.Finding
	print string
}

func artifactURI(p string) (uri, base string) {
	p = filepath.ToSlash(p)
	if strings.HasPrefix(p, "/") {
		return "file://" + p, ""
	}
	return strings.TrimPrefix(p, "./"), "%SRCROOT%"
}

// writeSARIF prints one SARIF 2.1.0 log: every carrier class as a rule,
// every finding as a result with a region in Unicode code points.
func writeSARIF(w io.Writer, version string, fs []sarifFinding) error {
	type msg struct {
		Text     string `json:"text"`
		Markdown string `json:"markdown,omitempty"`
	}
	var rules []map[string]any
	for _, c := range carrierClasses {
		lvl := "warning"
		if findingLevel(check.Finding{Class: c.class, Region: "runtime", Action: "report"}) == "error" {
			lvl = "error"
		}
		props := map[string]any{"tags": []string{"security", "invisible-unicode"}, "precision": "very-high"}
		if lvl == "error" {
			props["security-severity"] = "8.0"
		} else {
			props["security-severity"] = "4.0"
		}
		rules = append(rules, map[string]any{
			"id": ruleID(c.class), "name": c.class,
			"shortDescription":     msg{Text: c.short},
			"fullDescription":      msg{Text: c.help},
			"help":                 msg{Text: c.help + " Run 'prosewash check' to list them and 'prosewash clean FILE' to remove those in comments and documentation text.", Markdown: c.help + "\n\nRun `prosewash check` to list them and `prosewash clean FILE` to remove those in comments and documentation text; code, strings and directives are never touched."},
			"helpUri":              "https://github.com/prosewash/prosewash#carrier-policy",
			"defaultConfiguration": map[string]string{"level": lvl},
			"properties":           props,
		})
	}
	index := map[string]int{}
	for i, c := range carrierClasses {
		index[ruleID(c.class)] = i
	}
	results := []map[string]any{}
	for _, f := range fs {
		uri, base := artifactURI(f.Path)
		loc := map[string]any{"uri": uri}
		if base != "" {
			loc["uriBaseId"] = base
		}
		id := ruleID(f.Class)
		r := map[string]any{
			"ruleId":  id,
			"level":   findingLevel(f.Finding),
			"message": msg{Text: findingText(f.Finding)},
			"locations": []any{map[string]any{"physicalLocation": map[string]any{
				"artifactLocation": loc,
				"region":           map[string]int{"startLine": f.Line, "startColumn": f.Col, "endLine": f.Line, "endColumn": f.Col + 1},
			}}},
			"partialFingerprints": map[string]string{"prosewash/v1": f.print},
			"properties":          map[string]string{"region": f.Region, "action": f.Action, "class": f.Class, "codePoint": f.Code},
		}
		if i, ok := index[id]; ok {
			r["ruleIndex"] = i
		}
		if f.Action == "keep" {
			// Kept by [clean] allow or a keep marker: shown as suppressed
			// in source, as linters show their own ignore comments.
			r["suppressions"] = []any{map[string]string{"kind": "inSource", "justification": f.Reason}}
		}
		results = append(results, r)
	}
	doc := map[string]any{
		"$schema": "https://json.schemastore.org/sarif-2.1.0.json",
		"version": "2.1.0",
		"runs": []any{map[string]any{
			"tool": map[string]any{"driver": map[string]any{
				"name": "prosewash", "version": version, "semanticVersion": semver(version),
				"informationUri": "https://github.com/prosewash/prosewash", "rules": rules,
			}},
			"columnKind": "unicodeCodePoints",
			"results":    results,
		}},
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

func semver(v string) string {
	v = strings.TrimPrefix(v, "v")
	if v == "" || v == "devel" || strings.HasPrefix(v, "(") {
		return "0.0.0"
	}
	return v
}

// findingText is the one-line message of a finding: what it is, where,
// what clean does, why it stays and what a payload spells.
func findingText(f check.Finding) string {
	s := fmt.Sprintf("%s %s in %s: %s", f.Code, f.Name, f.Region, actionText(f.Action))
	if f.Reason != "" && f.Action != "remove" && f.Action != "replace" {
		s += " (" + f.Reason + ")"
	}
	return s + report.HiddenNote(f.Class, f.Hidden)
}

func actionText(a string) string {
	switch a {
	case "remove":
		return "prosewash clean removes it"
	case "replace":
		return "prosewash clean replaces it with a plain space"
	case "keep":
		return "kept on purpose"
	}
	return "reported, never touched"
}

// writeGitHub prints one workflow command per finding, which GitHub
// Actions shows as an annotation on the line.
func writeGitHub(w io.Writer, fs []check.Finding) {
	for _, f := range fs {
		cmd := map[string]string{"error": "error", "warning": "warning", "note": "notice"}[findingLevel(f)]
		fmt.Fprintf(w, "::%s file=%s,line=%d,col=%d,endColumn=%d,title=%s::%s\n", cmd,
			ghProp(filepath.ToSlash(f.Path)), f.Line, f.Col, f.Col+1, ghProp("prosewash "+f.Class),
			ghData(findingText(f)))
	}
}

func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProp(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

func sortFindings(fs []sarifFinding) {
	sort.SliceStable(fs, func(i, j int) bool {
		if fs[i].Path != fs[j].Path {
			return fs[i].Path < fs[j].Path
		}
		if fs[i].Line != fs[j].Line {
			return fs[i].Line < fs[j].Line
		}
		return fs[i].Col < fs[j].Col
	})
}

func isGraphic(r rune) bool {
	return unicode.IsGraphic(r) && !unicode.Is(unicode.Cf, r) && !unicode.IsSpace(r)
}
