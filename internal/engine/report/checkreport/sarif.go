package checkreport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/report"
)

// DocsURL is where each rule's helpUri points: the carrier policy page, at
// the rule's own heading.
const DocsURL = "https://github.com/prosewash/prosewash/blob/main/docs/carriers.md"

// Rule is one carrier class as a SARIF rule.
type Rule struct {
	Class string
	Short string
	Help  string
	// SecuritySeverity is GitHub's 0.1-10 score for security rules (7 and
	// up shows as High, 4 to 7 as Medium), empty where the class is a
	// matter of hygiene rather than security.
	SecuritySeverity string
}

// Rules are the carrier policy's classes, one SARIF rule each; docs/carriers.md
// has a heading per class, which HelpURI points at.
var Rules = []Rule{
	{"ansi-escape", "Terminal escape sequence", "An ANSI/ECMA-48 escape sequence can rewrite what a terminal shows (hide text, move the cursor). prosewash removes it from prose; in code and literals it is reported, never touched.", "6.0"},
	{"bidi-control", "Bidirectional control character", "Bidi embeddings, overrides and isolates reorder how text is displayed, the Trojan Source attack (CVE-2021-42574). In code, strings or directives they can make a reviewer read different logic than the compiler does.", "8.0"},
	{"bidi-mark", "Stray directional mark", "A left-to-right or right-to-left mark outside right-to-left text carries nothing a reader sees and can hide data.", "4.0"},
	{"bom", "Byte order mark inside the text", "U+FEFF away from the start of the file is a zero-width no-break space: invisible and able to split identifiers or words.", "4.0"},
	{"control", "Control character", "C0/C1 control characters are invisible in most viewers and have no place in source text.", "5.0"},
	{"default-ignorable", "Default-ignorable code point", "A code point Unicode tells renderers to ignore: invisible, so it can carry hidden data.", "4.0"},
	{"filler", "Invisible filler character", "Hangul and other fillers render as nothing and are used to smuggle text.", "4.0"},
	{"format", "Invisible format character", "A format character that renders as nothing here.", "4.0"},
	{"hidden-comment", "Long HTML comment in an instruction file", "An HTML comment in an agent's instruction file (CLAUDE.md, AGENTS.md, ...) is hidden when the file is rendered but read by the agent: a place to smuggle instructions past a reviewer.", "5.0"},
	{"joiner", "Zero-width joiner or non-joiner outside a script that uses it", "ZWJ/ZWNJ belong in emoji sequences and in Arabic-script and Indic words; elsewhere they are invisible carriers.", "4.0"},
	{"line-separator", "Unicode line or paragraph separator", "U+2028/U+2029/U+0085 end lines for some languages and readers but not others, so the same bytes parse differently.", "5.0"},
	{"noncharacter", "Noncharacter", "A code point Unicode reserves as never to be interchanged.", ""},
	{"object-replacement", "Object replacement character", "U+FFFC stands for an embedded object that is not there.", ""},
	{"private-use", "Private-use character", "A private-use code point means whatever a font or tool decides; reported, never removed.", ""},
	{"soft-hyphen", "Soft hyphen", "U+00AD is invisible unless a line breaks at it, and splits words for search and review.", ""},
	{"space", "Exotic space", "A space other than U+0020 (no-break, em, ideographic...) where none is expected: it looks like a space and is not one to parsers.", ""},
	{"tag", "Tag character", "Unicode tag characters (U+E0000 block) are invisible and spell hidden ASCII text: a known channel for prompt injection.", "8.0"},
	{"variation-selector", "Variation selector outside a sequence", "A variation selector that modifies nothing is invisible; runs of them encode hidden bytes.", "7.0"},
	{"zero-width", "Zero-width character", "Zero-width spaces and similar characters are invisible and can hide data or split words and identifiers.", "4.0"},
}

// RuleID is a class's rule id.
func RuleID(class string) string { return "prosewash/" + class }

// HelpURI is a class's documentation: its heading on the carrier page.
func HelpURI(class string) string { return DocsURL + "#" + class }

// Level is a finding's SARIF level, one per result rather than per rule: a
// bidi control or a tag run, and a run of selectors spelling a payload, is
// an error wherever it sits (they change what a reader sees or smuggle
// text); a carrier in prose that clean removes is a warning; one that stays
// (in a directive, a literal, code, a file without a classifier) is a
// warning when its severity is high and a note otherwise; a carrier kept on
// purpose is a note.
func Level(f Finding) string {
	switch {
	case f.Kept():
		return "note"
	case f.Class == "bidi-control" || f.Class == "tag" || (f.Class == "variation-selector" && f.Hidden != ""):
		return "error"
	case f.Region == "prose" && (f.Action == "remove" || f.Action == "replace"):
		return "warning"
	case f.Severity == "high":
		return "warning"
	}
	return "note"
}

// Message is the one-line message of a finding: what it is, where, what
// clean does, why it stays and what a payload spells.
func Message(f Finding) string {
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

// SARIF writes one SARIF 2.1.0 log as GitHub code scanning reads it:
// columns in UTF-16 code units (SARIF's default column kind, the only one
// GitHub honours), artifact locations as RFC 3986 references relative to
// %SRCROOT%, a level per result, GitHub's line hash and prosewash's own
// fingerprint, kept carriers as suppressed results, and every skipped or
// report-only file as a tool notification, so a log never reads as clean
// where check did not look.
type SARIF struct{}

type sarifMessage struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

func (SARIF) Write(w io.Writer, r *Report) error {
	run := map[string]any{
		"tool": map[string]any{"driver": map[string]any{
			"name": "prosewash", "version": r.Version, "semanticVersion": semver(r.Version),
			"informationUri": "https://github.com/prosewash/prosewash", "rules": sarifRules(),
		}},
		"columnKind":  "utf16CodeUnits",
		"results":     sarifResults(r),
		"invocations": []any{map[string]any{"executionSuccessful": true, "toolExecutionNotifications": sarifNotifications(r)}},
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(map[string]any{
		"$schema": "https://json.schemastore.org/sarif-2.1.0.json",
		"version": "2.1.0",
		"runs":    []any{run},
	}); err != nil {
		return err
	}
	return writeIndented(w, bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}

func sarifRules() []map[string]any {
	var rules []map[string]any
	for _, c := range Rules {
		lvl := "warning"
		if c.Class == "bidi-control" || c.Class == "tag" {
			lvl = "error"
		}
		props := map[string]any{"tags": []string{"invisible-unicode"}, "precision": "very-high"}
		if c.SecuritySeverity != "" {
			props["tags"] = []string{"security", "invisible-unicode"}
			props["security-severity"] = c.SecuritySeverity
		}
		rules = append(rules, map[string]any{
			"id": RuleID(c.Class), "name": c.Class,
			"shortDescription":     sarifMessage{Text: c.Short},
			"fullDescription":      sarifMessage{Text: c.Help},
			"help":                 sarifMessage{Text: c.Help + " Run 'prosewash check' to list them and 'prosewash clean FILE' to remove those in comments and documentation text.", Markdown: c.Help + "\n\nRun `prosewash check` to list them and `prosewash clean FILE` to remove those in comments and documentation text; code, strings and directives are never touched."},
			"helpUri":              HelpURI(c.Class),
			"defaultConfiguration": map[string]string{"level": lvl},
			"properties":           props,
		})
	}
	return rules
}

func sarifResults(r *Report) []map[string]any {
	index := map[string]int{}
	for i, c := range Rules {
		index[RuleID(c.Class)] = i
	}
	results := []map[string]any{}
	for _, f := range r.Findings {
		id := RuleID(f.Class)
		prints := map[string]string{"prosewash/v1": f.Print}
		if f.LineHash != "" {
			prints["primaryLocationLineHash"] = f.LineHash
		}
		res := map[string]any{
			"ruleId":  id,
			"level":   Level(f),
			"message": sarifMessage{Text: Message(f)},
			"locations": []any{map[string]any{"physicalLocation": map[string]any{
				"artifactLocation": artifactLocation(f.Path),
				"region":           map[string]int{"startLine": f.Line, "startColumn": f.Col16, "endLine": f.Line, "endColumn": f.EndCol16},
			}}},
			"partialFingerprints": prints,
			"properties":          map[string]string{"region": f.Region, "action": f.Action, "class": f.Class, "codePoint": f.Code, "severity": f.Severity},
		}
		if i, ok := index[id]; ok {
			res["ruleIndex"] = i
		}
		if f.Kept() {
			// Kept by [clean] allow or a keep marker: shown as suppressed
			// in source, as linters show their own ignore comments.
			res["suppressions"] = []any{map[string]string{"kind": "inSource", "justification": f.Reason}}
		}
		results = append(results, res)
	}
	return results
}

func sarifNotifications(r *Report) []map[string]any {
	out := []map[string]any{}
	note := func(level, id, path, text string) {
		out = append(out, map[string]any{
			"level":      level,
			"descriptor": map[string]string{"id": id},
			"message":    sarifMessage{Text: report.Quote(path) + ": " + text},
			"locations":  []any{map[string]any{"physicalLocation": map[string]any{"artifactLocation": artifactLocation(path)}}},
		})
	}
	for _, n := range r.Notes {
		note("note", "prosewash/report-only", n.Path, n.Text)
	}
	for _, s := range r.Skipped {
		note("warning", "prosewash/skipped", s.Path, skipText(s))
	}
	return out
}

// artifactLocation is a path as a SARIF artifact location: a relative path
// becomes an RFC 3986 relative reference against %SRCROOT%, an absolute one
// a file URI, every byte but the unreserved characters and '/' percent-encoded.
func artifactLocation(p string) map[string]string {
	p = filepath.ToSlash(p)
	if strings.HasPrefix(p, "/") {
		return map[string]string{"uri": "file://" + EscapePath(p)}
	}
	return map[string]string{"uri": EscapePath(strings.TrimPrefix(p, "./")), "uriBaseId": "%SRCROOT%"}
}

// EscapePath percent-encodes a slash-separated path for a URI reference:
// only ALPHA, DIGIT, '-', '.', '_', '~' and the '/' between segments stay as
// they are, so '?', '#', '%', ':', spaces and non-ASCII bytes can neither end
// the path nor make its first segment read as a scheme.
func EscapePath(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		if c == '/' || c == '-' || c == '.' || c == '_' || c == '~' ||
			('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9') {
			b.WriteByte(c)
			continue
		}
		percentEscape(&b, 0, p[i:i+1])
	}
	return b.String()
}

func semver(v string) string {
	v = strings.TrimPrefix(v, "v")
	if v == "" || v == "devel" || strings.HasPrefix(v, "(") {
		return "0.0.0"
	}
	return v
}
