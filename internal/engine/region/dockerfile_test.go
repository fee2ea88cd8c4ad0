package region

import (
	"strings"
	"testing"
)

func TestDockerfileNames(t *testing.T) {
	for path, lang := range map[string]string{
		"Dockerfile": "dockerfile", "dockerfile": "dockerfile", "Containerfile": "dockerfile",
		"build/Dockerfile.dev": "dockerfile", "Dockerfile.alpine": "dockerfile", "Containerfile.in": "dockerfile",
		"api.Dockerfile": "dockerfile", "x.dockerfile": "dockerfile", "x.Containerfile": "dockerfile",
		"Dockerfile.md": "markdown", "Dockerfile.txt": "text", "Dockerfile.sh": "shell", "Dockerfile.toml": "toml",
		"Dockerfiles": "", "MyDockerfile": "", "Dockerfile-dev": "",
	} {
		if got := Language(path, nil); got != lang {
			t.Errorf("Language(%q) = %q, want %q", path, got, lang)
		}
	}
}

func TestDockerfileLines(t *testing.T) {
	cases := []struct {
		src, needle string
		kind        Kind
		why         string
	}{
		{"# syntax=docker/dockerfile:1\nFROM x\n", "# syntax", Directive, "directive: # syntax="},
		{"#syntax = docker/dockerfile:1\nFROM x\n", "#syntax", Directive, "directive: # syntax="},
		{"# check=skip=JSONArgsRecommended\nFROM x\n", "# check", Directive, "directive: # check="},
		{"  # escape=`\nFROM x\n", "# escape", Directive, "directive: # escape="},
		{"#!/usr/bin/env buildctl\n# syntax=x\nFROM x\n", "# syntax", Directive, "directive: # syntax="},
		{"#!/usr/bin/env buildctl\n# syntax=x\nFROM x\n", "#!", Directive, "directive: shebang"},
		{"# syntax=x\n# escape=\\\n# hello\nFROM x\n", "# escape", Directive, "directive: # escape="},
		// Directives end at the first line that is not one.
		{"# hello\n# syntax=x\nFROM x\n", "# syntax", Prose, "comment"},
		{"\n# syntax=x\nFROM x\n", "# syntax", Prose, "comment"},
		{"FROM x\n# syntax=x\n", "# syntax", Prose, "comment"},
		{"# foo=bar\n# syntax=x\nFROM x\n", "# syntax", Prose, "comment"},
		// A carrier that hides a directive.
		{"# syn\u200btax=x\nFROM x\n", "# syn", Directive, "directive: parser directive"},
		{"# syn\u200btax=x\n# escape=`\nFROM x\n", "# escape", Directive, "directive: # escape="},
		{"FROM x\n# hadolint ignore=DL3008\nRUN x\n", "# hadolint", Directive, "directive: # hadolint"},
		{"FROM x\n# TODO: pin\nRUN x\n", "# TODO", Prose, "comment (TODO:)"},
		{"FROM x\n# plain\u200b words\nRUN x\n", "# plain", Prose, "comment"},
		{"FROM x\n\u00a0\u2003# after unicode spaces\n", "# after", Prose, "comment"},
		{"FROM x\n\t# indented\n", "# indented", Prose, "comment"},
		{"\ufeff# syntax=x\nFROM x\n", "# syntax", Directive, "directive: # syntax="},
		// Comments inside a continued instruction are dropped by BuildKit.
		{"FROM x\nRUN a \\\n  # inside\n  b\n", "# inside", Prose, "comment"},
		{"FROM x\nRUN a \\\n\n  # after an empty line\n  b\n", "# after", Prose, "comment"},
		// Not comments.
		{"FROM x\nRUN echo hi # passed to the shell\n", "# passed", Runtime, "code"},
		{"FROM x\nRUN a \\\n  b # argument\n", "# argument", Runtime, "code"},
		{"FROM x\n\u200b# zero width space is no blank\n", "# zero", Runtime, "code"},
		{"FROM x\nRUN <<EOF\n# body\nEOF\n# after\n", "# body", Runtime, "here-document"},
		{"FROM x\nRUN <<EOF\n# body\nEOF\n# after\n", "# after", Prose, "comment"},
		{"FROM x\nRUN <<-EOF\n\t# body\n\tEOF\n# after\n", "# body", Runtime, "here-document"},
		{"FROM x\nRUN <<-EOF\n\t# body\n\tEOF\n# after\n", "# after", Prose, "comment"},
		{"FROM x\nCOPY <<'A' <<\"B\" /dst/\n# a\nA\n# b\nB\n# after\n", "# b", Runtime, "here-document"},
		{"FROM x\nCOPY <<'A' <<\"B\" /dst/\n# a\nA\n# b\nB\n# after\n", "# after", Prose, "comment"},
		{"FROM x\nRUN cat <<EOF \\\n  && true\n# body\nEOF\n", "# body", Runtime, "here-document"},
		{"FROM x\nRUN <<EOF\n# body never ends\n", "# body", Runtime, "here-document"},
		{"FROM x\nRUN <<EOF\r\n# crlf body\r\nEOF\r\n# after\r\n", "# crlf", Runtime, "here-document"},
		{"FROM x\nRUN <<EOF\r\n# crlf body\r\nEOF\r\n# after\r\n", "# after", Prose, "comment"},
		// A lone \r does not end a line for BuildKit: the rest is the instruction's.
		{"FROM x\nRUN a\r# not a comment\n", "# not", Runtime, "code"},
	}
	for _, c := range cases {
		r := kindAt(t, "Dockerfile", c.src, c.needle)
		if r.Kind != c.kind || r.Why != c.why {
			t.Errorf("%q at %q: got %s %q, want %s %q", c.src, c.needle, r.Kind, r.Why, c.kind, c.why)
		}
	}
}

func TestDockerfileEscape(t *testing.T) {
	// With escape=` a trailing backslash is no continuation, a backquote is.
	src := "# escape=`\nFROM x\nRUN dir c:\\\n# a comment\nRUN a `\n  # inside\n  b\n"
	for _, needle := range []string{"# a comment", "# inside"} {
		if r := kindAt(t, "Dockerfile", src, needle); r.Kind != Prose {
			t.Errorf("%q: %s %q", needle, r.Kind, r.Why)
		}
	}
	m, err := Classify("Dockerfile", []byte("# escape=x\nFROM a\n# c\n"))
	if err != nil || len(m.Regions) != 1 || m.Regions[0].Kind != Runtime || !strings.Contains(m.Regions[0].Why, "invalid escape") {
		t.Errorf("invalid escape: %v %v", m, err)
	}
}

func TestDockerfileHeredocReadings(t *testing.T) {
	// BuildKit removes quotes and escapes from the word: E"O"F ends at EOF.
	src := "FROM x\nRUN <<E\"O\"F\n# body\nEOF\n# after\n"
	if r := kindAt(t, "Dockerfile", src, "# body"); r.Kind != Runtime {
		t.Errorf("body line is %s", r.Kind)
	}
	if r := kindAt(t, "Dockerfile", src, "# after"); r.Kind != Prose {
		t.Errorf("line after the terminator is %s", r.Kind)
	}
	// "<< EOF" is no heredoc for BuildKit, but bash would read one: the
	// body is runtime either way.
	src = "FROM x\nRUN cat << EOF\n# body\nEOF\n"
	if r := kindAt(t, "Dockerfile", src, "# body"); r.Kind != Runtime {
		t.Errorf("spaced heredoc body is %s", r.Kind)
	}
}
