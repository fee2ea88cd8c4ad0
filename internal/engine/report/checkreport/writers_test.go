package checkreport

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/prosewash/prosewash/internal/engine/check"
	"github.com/prosewash/prosewash/internal/engine/report"
	"github.com/prosewash/prosewash/internal/testtool"
)

// finding is a check finding of a carrier at byte offset off of data.
func finding(path string, data []byte, off int, code, class, region, action, severity string) check.Finding {
	line, col := 1, 1
	for _, r := range string(data[:off]) {
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	return check.Finding{Path: path, Line: line, Col: col, Code: code, Name: "X", Class: class, Region: region,
		Action: action, Severity: severity, Offset: off, Len: len(string([]rune(string(data[off:]))[0]))}
}

func sampleReport() *Report {
	data := []byte("a\u200bb\n")
	r := &Report{Version: "1.2.3", Files: 2}
	r.Findings = Annotate(data, []check.Finding{
		finding("b.md", data, 1, "U+200B", "zero-width", "prose", "remove", "medium"),
		finding("a.md", data, 1, "U+200B", "zero-width", "runtime", "report", "medium"),
		finding("a.md", data, 1, "U+200B", "zero-width", "prose", "keep", "medium"),
	}, true)
	r.Skipped = []Skipped{{Path: "x.bin", Reason: "binary"}}
	r.Sort()
	return r
}

func write(t *testing.T, w Writer, r *Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := w.Write(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestTextWriter(t *testing.T) {
	r := sampleReport()
	want := "a.md:1:2 U+200B X runtime report medium\nb.md:1:2 U+200B X prose remove medium\n"
	if got := write(t, Text{}, r); got != want {
		t.Errorf("flat:\n%s\nwant\n%s", got, want)
	}
	want = "a.md\n  1:2 U+200B X runtime report medium\nb.md\n  1:2 U+200B X prose remove medium\n"
	if got := write(t, Text{Group: true}, r); got != want {
		t.Errorf("grouped:\n%s\nwant\n%s", got, want)
	}
	if got := r.Summary(); got != "check: 2 files read, 2 findings in 2 files (1 remove, 1 report; 2 medium); skipped 1 binary; 1 carrier kept as asked" {
		t.Errorf("summary %q", got)
	}
	if got := (&Report{Files: 1}).Summary(); got != "check: 1 file read, no findings" {
		t.Errorf("empty summary %q", got)
	}
}

func TestJSONWriter(t *testing.T) {
	var doc struct {
		Findings []map[string]any `json:"findings"`
		Skipped  []Skipped        `json:"skipped"`
		Notes    []Note           `json:"notes"`
		Summary  Counts           `json:"summary"`
	}
	out := write(t, JSON{}, sampleReport())
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Findings) != 3 || doc.Findings[0]["path"] != "a.md" || doc.Findings[0]["col"] != float64(2) || doc.Skipped[0].Path != "x.bin" ||
		doc.Summary.Findings != 2 || doc.Summary.Kept != 1 || doc.Summary.Skipped["binary"] != 1 || doc.Notes == nil {
		t.Errorf("JSON document:\n%s", out)
	}
	if _, ok := doc.Findings[0]["Col16"]; ok || strings.Contains(out, "LineHash") {
		t.Errorf("report-only fields leaked into JSON:\n%s", out)
	}
	if empty := write(t, JSON{}, &Report{}); !strings.Contains(empty, `"findings": []`) || !strings.Contains(empty, `"skipped": []`) {
		t.Errorf("an empty report must list empty arrays, not null:\n%s", empty)
	}
}

// GitHub's workflow commands: '%', CR and LF escaped in the message, and
// also ':' and ',' in properties, as GitHub's runner reads them back.
func TestGitHubWriterEscapes(t *testing.T) {
	data := []byte("x\u202ey\n")
	f := finding("a, b%:c\r\nd.md", data, 1, "U+202E", "bidi-control", "runtime", "report", "high")
	f.Reason = "50% of it,\nsplit: here"
	r := &Report{Findings: Annotate(data, []check.Finding{f}, false), Skipped: []Skipped{{Path: "z,1.bin", Reason: "binary"}},
		Notes: []Note{{Path: "n.md", Text: "a\rb"}}}
	got := write(t, GitHub{}, r)
	want := "::error file=a%2C b%25%3Ac%0D%0Ad.md,line=1,col=2,endColumn=3,title=prosewash bidi-control::U+202E X in runtime: reported, never touched (50%25 of it,%0Asplit: here)\n" +
		"::notice file=n.md,title=prosewash report-only::a%0Db\n" +
		"::notice file=z%2C1.bin,title=prosewash skipped::not scanned: binary\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// Columns in UTF-16 code units, as GitHub counts them: an oracle from the
// standard library's UTF-16 encoder over the line before the carrier.
func TestSARIFColumnsAfterAstralCharacters(t *testing.T) {
	lines := []string{
		"\U0001F600\U0001F600 a\u200bb",           // two emoji before it
		"\U000E0069\U000E0067 tag \u202e",         // tag characters (astral) before it
		"x\u200b",                                 // ASCII
		"caf\u00e9 \u4e2d\u6587 \U0001F44D\u2063", // BMP and astral mixed
	}
	for _, line := range lines {
		data := []byte("# title\n" + line + "\n")
		carrierRune := []rune(line)[len([]rune(line))-1]
		if line == lines[0] {
			carrierRune = '\u200b'
		}
		off := strings.LastIndex(string(data), string(carrierRune))
		f := Annotate(data, []check.Finding{finding("a.md", data, off, "U+X", "zero-width", "prose", "remove", "medium")}, true)[0]
		prefix := []rune(string(data[strings.IndexByte(string(data), '\n')+1 : off]))
		want := len(utf16.Encode(prefix)) + 1
		if f.Col16 != want || f.EndCol16 != want+len(utf16.Encode([]rune{carrierRune})) {
			t.Errorf("%q: UTF-16 columns %d-%d, want %d-%d (code point column %d)", line, f.Col16, f.EndCol16, want, want+1, f.Col)
		}
		if f.Col16 == f.Col && strings.ContainsFunc(string(prefix), func(r rune) bool { return r > 0xFFFF }) {
			t.Errorf("%q: astral characters before the carrier but the columns agree", line)
		}
	}
}

// Artifact URIs are RFC 3986 references: net/url reads back exactly the file
// name, with no query, fragment or scheme, whatever the name holds.
func TestSARIFArtifactURIs(t *testing.T) {
	for _, name := range []string{"docs/q?x#y.md", "colon:x.md", "pct%2e%2e%2fx.md", "sp ace/é ü.md", "a+b&c=d;e,f@g!.md", "/abs/p q#1.md"} {
		loc := artifactLocation(name)
		u, err := url.Parse(loc["uri"])
		if err != nil {
			t.Errorf("%q: %q does not parse: %v", name, loc["uri"], err)
			continue
		}
		if u.RawQuery != "" || u.Fragment != "" || u.Path != name || u.Opaque != "" {
			t.Errorf("%q: uri %q reads back as path %q query %q fragment %q", name, loc["uri"], u.Path, u.RawQuery, u.Fragment)
		}
		if abs := strings.HasPrefix(name, "/"); (u.Scheme == "file") != abs || (loc["uriBaseId"] == "%SRCROOT%") == abs {
			t.Errorf("%q: scheme %q, base %q", name, u.Scheme, loc["uriBaseId"])
		}
	}
}

func TestSARIFLevelsAndRules(t *testing.T) {
	cases := []struct {
		class, region, action, severity, hidden, want string
	}{
		{"bidi-control", "prose", "remove", "medium", "", "error"},
		{"tag", "prose", "remove", "high", "hi", "error"},
		{"variation-selector", "runtime", "report", "high", "\\x01", "error"},
		{"zero-width", "prose", "remove", "medium", "", "warning"},
		{"space", "prose", "replace", "low", "", "warning"},
		{"zero-width", "directive", "report", "high", "", "warning"},
		{"zero-width", "runtime", "report", "medium", "", "note"},
		{"zero-width", "prose", "keep", "medium", "", "note"},
	}
	for _, c := range cases {
		f := Finding{Finding: check.Finding{Class: c.class, Region: c.region, Action: c.action, Severity: c.severity, Hidden: c.hidden}}
		if got := Level(f); got != c.want {
			t.Errorf("%+v: level %s, want %s", c, got, c.want)
		}
	}
	// Every rule's helpUri names a heading of docs/carriers.md.
	page, err := os.ReadFile(filepath.Join(testtool.RepoRoot(t), "docs", "carriers.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range Rules {
		if !regexp.MustCompile(`(?m)^### ` + regexp.QuoteMeta(r.Class) + `$`).Match(page) {
			t.Errorf("docs/carriers.md has no heading for rule %s (helpUri %s)", r.Class, HelpURI(r.Class))
		}
	}
}

// The SARIF log: columns as GitHub counts them, both fingerprints, kept
// carriers suppressed, skipped paths as tool notifications.
func TestSARIFWriter(t *testing.T) {
	var log struct {
		Runs []struct {
			ColumnKind string `json:"columnKind"`
			Results    []struct {
				Level               string            `json:"level"`
				PartialFingerprints map[string]string `json:"partialFingerprints"`
				Suppressions        []any             `json:"suppressions"`
			} `json:"results"`
			Invocations []struct {
				Notifications []struct {
					Message struct{ Text string } `json:"message"`
				} `json:"toolExecutionNotifications"`
			} `json:"invocations"`
		} `json:"runs"`
	}
	out := write(t, SARIF{}, sampleReport())
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if run.ColumnKind != "utf16CodeUnits" || len(run.Results) != 3 || len(run.Invocations[0].Notifications) != 1 ||
		run.Invocations[0].Notifications[0].Message.Text != "x.bin: not scanned: binary" {
		t.Fatalf("log:\n%s", out)
	}
	kept := 0
	for _, r := range run.Results {
		if r.PartialFingerprints["primaryLocationLineHash"] == "" || r.PartialFingerprints["prosewash/v1"] == "" {
			t.Errorf("result without both fingerprints: %+v", r)
		}
		kept += len(r.Suppressions)
	}
	if kept != 1 {
		t.Errorf("%d suppressed results, want 1", kept)
	}
}

// TestJSONWritersEscapeWhatATerminalActsOn: a path holding DEL, a C1
// control, a bidi override and a tag character never comes out of the JSON
// and SARIF writers raw; JSON writes it as \u escapes that decode back to it
// (SARIF quotes it in messages and percent-encodes it in URIs).
func TestJSONWritersEscapeWhatATerminalActsOn(t *testing.T) {
	hostile := "d\x7f c1\u009b rlo\u202e tag\U000E0041 esc\x1b.md"
	r := &Report{Version: "1.2.3", Files: 1, Skipped: []Skipped{{Path: hostile, Reason: "binary"}}}
	for name, w := range map[string]Writer{"json": JSON{}, "sarif": SARIF{}} {
		out := write(t, w, r)
		for _, c := range out {
			if c != '\n' && report.Unsafe(c) {
				t.Errorf("%s: %U reached the output raw:\n%s", name, c, out)
			}
		}
		if name == "json" && (!strings.Contains(out, `\u007f`) || !strings.Contains(out, `\udb40\udc41`)) {
			t.Errorf("%s: no \\u escapes of DEL and the tag character:\n%s", name, out)
		}
		if !json.Valid([]byte(out)) {
			t.Fatalf("%s: not JSON:\n%s", name, out)
		}
	}
	var doc struct{ Skipped []Skipped }
	if err := json.Unmarshal([]byte(write(t, JSON{}, r)), &doc); err != nil || len(doc.Skipped) != 1 || doc.Skipped[0].Path != hostile {
		t.Errorf("json decodes to %+v (%v), want the path %q", doc.Skipped, err, hostile)
	}
}
