package ollama

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestAccept(t *testing.T) {
	long := "The parser reads every line of the input and keeps the comments that explain the code nearby."
	tests := []struct {
		name   string
		input  string
		answer string
		want   string // expected text when accepted
		reason string // substring of the refusal reason; "" = accepted
	}{
		{"plain", "Use the tool.", "Employ the tool.", "Employ the tool.", ""},
		{"edges restored", "  \tUse the tool.\n\n", "Employ the tool.", "  \tEmploy the tool.\n\n", ""},
		{"model adds edges", "Use the tool.", "\n\n  Employ the tool.  \n", "Employ the tool.", ""},
		{"nbsp edge restored, not other characters", "\u00a0Use it.\u3000", "Employ it.", "\u00a0Employ it.\u3000", ""},
		{"indent and trailing spaces per line", "First line here.  \n    second line here\n\tthird line", "First line now.\nsecond line now\nthird line",
			"First line now.  \n    second line now\n\tthird line", ""},
		{"crlf restored", "One line here.\r\nTwo lines here.", "One line now.\nTwo lines now.", "One line now.\r\nTwo lines now.", ""},
		{"crlf answer", "One line here.\nTwo lines here.", "One line now.\r\nTwo lines now.", "One line now.\nTwo lines now.", ""},
		{"blank line kept", "Para one.\n\nPara two.", "Part one.\n  \nPart two.", "Part one.\n\nPart two.", ""},
		{"wrapper line", "Use the tool.", "Here is the rewritten text:\n\nEmploy the tool.", "Employ the tool.", ""},
		{"wrapper sure", "Use the tool.", "Sure! Here's a paraphrased version of your text:\nEmploy the tool.", "Employ the tool.", ""},
		{"wrapper same line", "Use the tool.", "Here is the rewritten text: Employ the tool.", "Employ the tool.", ""},
		{"wrapper and fence", "Use the tool.", "Here is the rewritten text:\n\n```text\nEmploy the tool.\n```", "Employ the tool.", ""},
		{"fence only", "Use the tool.", "```\nEmploy the tool.\n```", "Employ the tool.", ""},
		{"input that starts like a wrapper keeps it", "Here are the steps:\nRun it.", "Here are the steps:\nExecute it.", "Here are the steps:\nExecute it.", ""},
		{"double quotes", "Use the tool.", "\"Employ the tool.\"", "Employ the tool.", ""},
		{"curly quotes", "Use the tool.", "“Employ the tool.”", "Employ the tool.", ""},
		{"quoted input keeps quotes", "\"Use the tool.\"", "\"Employ the tool.\"", "\"Employ the tool.\"", ""},
		{"think block", "Use the tool.", "<think>\nhmm\n</think>\n\nEmploy the tool.", "Employ the tool.", ""},
		{"unfinished think", "Use the tool.", "<think>\nhmm, the user", "", "no text"},
		{"empty", "Use the tool.", "", "", "no text"},
		{"whitespace only", "Use the tool.", " \n\t ", "", "no text"},
		{"empty fence", "Use the tool.", "```\n```", "", "no text"},
		{"line added", "Use the tool.", "Employ the tool.\nChanges made: swapped words.", "", "line structure (2 lines, want 1)"},
		{"lines joined", "Use the\ntool now.", "Employ the tool now.", "", "line structure (1 lines, want 2)"},
		{"blank line moved", "A b.\n\nC d.\ne f.", "A b.\nC d.\n\ne f.", "", "blank line (line 2)"},
		{"marker dropped", "- use it\n- check it", "- employ it\nverify it", "", "marker at the start of line 2"},
		{"marker added", "use it", "> employ it", "", "marker at the start of line 1"},
		{"comment leader kept", "// use it\n// check it", "// employ it\n// verify it", "// employ it\n// verify it", ""},
		{"too long", long, long + " " + long + " " + long, "", "length drifted (ratio 3.02"},
		{"too short", long, "The parser keeps comments.", "", "length drifted (ratio 0.28"},
		{"short text has no ratio bound", "Use it.", "Employ the tool for this task as you like, always.", "Employ the tool for this task as you like, always.", ""},
		{"number dropped", "Check 42 files.", "Verify the files.", "", "dropped 1 number"},
		{"number changed", "Wait 1,000 ms.", "Wait 1000 ms.", "", "dropped 1 number"},
		{"number substring is not kept", "Wait 5 s.", "Wait 15 s.", "", "dropped 1 number"},
		{"version kept", "Needs Go 1.26.0 or later.", "Requires Go 1.26.0 or newer.", "Requires Go 1.26.0 or newer.", ""},
		{"url dropped", "See https://example.com/a?b=c for details.", "See the docs for details.", "", "dropped 1 URL"},
		{"url trailing dot", "See https://example.com/a.", "Read https://example.com/a for more.", "Read https://example.com/a for more.", ""},
		{"code span dropped", "Call `Parse()` first.", "Call Parse() first.", "", "dropped 1 code span"},
		{"two kinds dropped", "Call `Parse()` 3 times.", "Call it thrice.", "", "dropped 1 number and 1 code span"},
		{"number introduced", "Check the files.", "Check the 3 files.", "", "introduced 1 number"},
		{"url introduced", "Read the docs.", "Read https://evil.example/docs.", "", "introduced 1 URL"},
		{"zero-width space introduced", "Use the tool.", "Employ the\u200b tool.", "", "introduced 1 invisible or control character"},
		{"tag characters introduced", "Use the tool.", "Employ the tool.\U000E0041\U000E0042", "", "introduced 2 invisible or control characters"},
		{"bidi and nbsp introduced", "Use the tool.", "Employ\u00a0the \u202etool.", "", "introduced 2 invisible"},
		{"variation selector introduced", "I like it.", "I love it \u2764\ufe0f.", "", "introduced 1 invisible"},
		{"escape introduced", "Use the tool.", "Employ the \x1b[mtool.", "", "introduced 1 invisible"},
		{"invalid UTF-8 introduced", "Use the tool.", "Employ the \xff tool.", "", "introduced 1 invisible"},
		{"invisible kept from input", "Le prix\u202f: 3 €.", "Le coût\u202f: 3 €.", "Le coût\u202f: 3 €.", ""},
		{"emoji joiner kept from input", "Family 👨\u200d👩 here.", "The family 👨\u200d👩 is here.", "The family 👨\u200d👩 is here.", ""},
		{"reordered tokens fine", "Run `go test` 2 times on https://x.test.", "On https://x.test, run `go test` 2 times.", "On https://x.test, run `go test` 2 times.", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, reason := Accept(tc.input, tc.answer)
			if tc.reason != "" {
				if !strings.Contains(reason, tc.reason) || got != "" {
					t.Fatalf("Accept = %q, %q; want a refusal containing %q", got, reason, tc.reason)
				}
				if strings.Contains(reason, tc.input) || (tc.answer != "" && strings.Contains(reason, tc.answer)) {
					t.Fatalf("reason %q quotes the text", reason)
				}
				return
			}
			if reason != "" || got != tc.want {
				t.Fatalf("Accept = %q, %q; want %q", got, reason, tc.want)
			}
		})
	}
}

func TestSplitEdges(t *testing.T) {
	for _, s := range []string{"", " ", "a", " a ", "\n\ta b\r\n", "\u00a0x\u2028", "\xffa\xff "} {
		lead, core, trail := splitEdges(s)
		if lead+core+trail != s {
			t.Fatalf("splitEdges(%q) = %q %q %q, does not rebuild the input", s, lead, core, trail)
		}
		if strings.TrimSpace(core) != core || strings.TrimSpace(lead) != "" || strings.TrimSpace(trail) != "" {
			t.Fatalf("splitEdges(%q) = %q %q %q", s, lead, core, trail)
		}
	}
}

func TestPromptCarriesTheTextLast(t *testing.T) {
	p := Prompt("Use `x` 3 times.")
	if !strings.HasSuffix(p, "\n---\nUse `x` 3 times.") || strings.Count(p, "\n---\n") != 1 {
		t.Fatalf("prompt does not end with the separator and the text: %q", p)
	}
	for _, w := range []string{"number", "URL", "code identifier", "line structure", "leading and trailing whitespace", "Output only"} {
		if !strings.Contains(p, w) {
			t.Fatalf("prompt does not mention %q", w)
		}
	}
}

// loseWhitespace mimics what a model does to layout: indentation, trailing
// spaces and the text's edges go; CRLF becomes LF.
func loseWhitespace(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	for i := range lines {
		lines[i] = strings.TrimSpace(lines[i])
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}

// FuzzAccept checks the invariants: an answer identical to the input, or
// identical but for whitespace, gives back the input byte for byte; an
// accepted answer keeps the input's whitespace layout; a refusal returns no
// text and never quotes the input.
func FuzzAccept(f *testing.F) {
	f.Add("  Use the tool.\n", "Employ the tool.")
	f.Add("- a 1\n\n  b https://x.y/z `c`\r\n", "- a 1\n\nb https://x.y/z `c`")
	f.Add("Here is the text:\n```\nx\n```", "\"x\"")
	f.Add("\u00a0<think>a</think>\u2028", "</think>")
	f.Fuzz(func(t *testing.T, input, answer string) {
		if got, reason := Accept(input, input); reason != "" || got != input {
			if strings.TrimSpace(input) != "" {
				t.Fatalf("Accept(x, x) = %q, %q; want x back", got, reason)
			}
		}
		if strings.TrimSpace(input) != "" && !strings.Contains(input, "\r") {
			if got, reason := Accept(input, loseWhitespace(input)); reason != "" || got != input {
				t.Fatalf("Accept(x, x without layout) = %q, %q; want x back", got, reason)
			}
		}
		got, reason := Accept(input, answer)
		if reason != "" {
			if got != "" {
				t.Fatalf("refusal with text %q", got)
			}
			if len(input) > 8 && strings.Contains(reason, input) {
				t.Fatalf("reason quotes the input")
			}
			return
		}
		inLead, _, inTrail := splitEdges(input)
		gotLead, _, gotTrail := splitEdges(got)
		if inLead != gotLead || inTrail != gotTrail {
			t.Fatalf("edges changed: %q -> %q", input, got)
		}
		if strings.Count(got, "\n") != strings.Count(input, "\n") {
			t.Fatalf("line count changed: %q -> %q", input, got)
		}
		if utf8.ValidString(input) && utf8.ValidString(answer) && !utf8.ValidString(got) {
			t.Fatalf("invalid UTF-8 from valid input")
		}
	})
}
