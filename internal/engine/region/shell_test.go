package region

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

func TestShellLanguage(t *testing.T) {
	cases := []struct {
		path, head, lang string
	}{
		{"a.sh", "", "shell"}, {"a.bash", "", "shell"}, {"a.bats", "", "shell"},
		{"a.ksh", "", "shell"}, {"a.mksh", "", "shell"}, {"a.zsh", "", "shell"}, {"A.SH", "", "shell"},
		{"run", "#!/bin/sh\n", "shell"},
		{"run", "#!/bin/bash -e\n", "shell"},
		{"run", "#! /usr/bin/dash\n", "shell"},
		{"run", "#!/usr/bin/env bash\n", "shell"},
		{"run", "#!/usr/bin/env -S bash -eu\n", "shell"},
		{"run", "#!/usr/bin/env -Sbash\n", "shell"},
		{"run", "#!/usr/bin/env -i LC_ALL=C zsh\n", "shell"},
		{"run", "#!/usr/bin/env -u HOME mksh\n", "shell"},
		{"run", "#!/bin/ksh\n", "shell"},
		{"run", "#!/usr/bin/env bats\n", "shell"},
		{"run", "#!/usr/bin/env python3\n", ""},
		{"run", "#!/usr/bin/env\n", ""},
		{"run", "#!/bin/bashful\n", ""},
		{"run", " #!/bin/sh\n", ""},
		{"run", "echo hi\n", ""},
		{"run", "", ""},
	}
	for _, c := range cases {
		var head []byte
		if c.head != "" {
			head = []byte(c.head)
		}
		if got := Language(c.path, head); got != c.lang {
			t.Errorf("Language(%q, %q) = %q, want %q", c.path, c.head, got, c.lang)
		}
	}
}

func TestShellComments(t *testing.T) {
	cases := []struct {
		comment string
		kind    Kind
		why     string
	}{
		{"# plain narrative", Prose, "comment"},
		{"# see issue #42", Prose, "comment"},
		{"# hello\u200bworld", Prose, "comment"},
		{"# shellcheck disable=SC2086", Directive, "directive: # shellcheck"},
		{"#shellcheck source=lib.sh", Directive, "directive: # shellcheck"},
		{"# shfmt: -i 2", Directive, "directive: # shfmt:"},
		{"# bats test_tags=slow", Directive, "directive: # bats"},
		{"# vim: set ft=sh:", Directive, "directive: modeline"},
		{"# -*- mode: sh -*-", Directive, "directive: modeline"},
		{"# TODO: later", Prose, "comment (TODO:)"},
		{"# https://example.com", Directive, "directive: word:"},
		{"# why # shellcheck disable=SC2034", Directive, "directive: # shellcheck"},
		{"# nosemgrep", Directive, "directive: nosemgrep (semgrep)"},
		// Carriers that hide a directive.
		{"# shell\u200bcheck disable=SC2086", Directive, "directive: # shellcheck"},
		{"#\u00a0shellcheck disable=SC2086", Directive, "directive: # shellcheck"},
		{"# TODO\u2060: x", Prose, "comment"}, // the engine keeps the carrier: a label would appear
		{"# \x1b[1mTODO: x", Prose, "comment"},
		// U+2028 is no line break for the shell: one comment.
		{"# a\u2028b = 1", Prose, "comment"},
	}
	for _, c := range cases {
		src := "#!/bin/bash\nx=1\necho \"$x\" " + c.comment + "\necho done\n"
		r := kindAt(t, "t.sh", src, c.comment)
		if r.Kind != c.kind || r.Why != c.why {
			t.Errorf("%q: got %s %q, want %s %q", c.comment, r.Kind, r.Why, c.kind, c.why)
		}
		if start := strings.Index(src, c.comment); r.Start != start || r.End != start+len(c.comment) {
			t.Errorf("%q: region %d-%d, want %d-%d", c.comment, r.Start, r.End, start, start+len(c.comment))
		}
	}
}

// TestShellNotComments lists '#' that bash does not read as a comment: each
// must stay runtime, whatever follows it.
func TestShellNotComments(t *testing.T) {
	cases := []struct{ src, needle string }{
		{"echo a#b\n", "#b"},
		{"echo ${x#y}\n", "#y"},
		{"echo ${#x}\n", "#x"},
		{"echo $#\n", "#"},
		{"echo '# single'\n", "# single"},
		{"echo \"# double\"\n", "# double"},
		{"echo $(( 16#ff ))\n", "#ff"},
		{"[[ $a == b#c ]]\n", "#c"},
		{"echo\u00a0# nbsp makes one word\n", "# nbsp"},
		{"echo \u00a0# nbsp then hash\n", "# nbsp"},
		{"cat <<EOF\n# heredoc body\nEOF\n", "# heredoc"},
		{"cat <<-'EOF'\n\t# heredoc body\n\tEOF\n", "# heredoc"},
		{": <<'DOC'\n# block-comment idiom\nDOC\n", "# block"},
		{"cat <<EOF\n$(echo x # in a body\n)\nEOF\n", "# in a body"},
		{"echo \"$(echo x # in quotes\n)\"\n", "# in quotes"},
		{"x=`echo # in backquotes`\n", "# in backquotes"},
		{"echo a\r# after a lone CR\n", "# after"},
		{"a=(1 2)#x\n", "#x"},
	}
	for _, c := range cases {
		r := kindAt(t, "t.bash", c.src, c.needle)
		if r.Kind != Runtime {
			t.Errorf("%q at %q: got %s %q, want runtime", c.src, c.needle, r.Kind, r.Why)
		}
	}
}

func TestShellCommentsThatAre(t *testing.T) {
	cases := []struct{ src, needle string }{
		{"echo $(echo x # in a substitution\n)\n", "# in a substitution"},
		{"a=(1 # in an array\n 2)\n", "# in an array"},
		{"case x in\n # in a case\n x) ;;\nesac\n", "# in a case"},
		{"f() { # in a function\n :; }\n", "# in a function"},
		{"echo a;# after a semicolon\n", "# after"},
		{"echo a\t# after a tab\n", "# after"},
		{"cat <<EOF # after a heredoc word\nbody\nEOF\n", "# after"},
		{"cat <<EOF\nbody\nEOF\n# after the body\n", "# after"},
		// A comment ending in a backslash does not continue: the next
		// line is a command of its own, and its comment is found.
		{"echo a # c \\\necho b # next line\n", "# next line"},
		{"echo a # c \\\n# next line\n", "# next line"},
		{"x=1 # c\r\n# CRLF\r\n", "# CRLF"},
	}
	for _, c := range cases {
		r := kindAt(t, "t.bash", c.src, c.needle)
		if r.Kind != Prose {
			t.Errorf("%q at %q: got %s %q, want prose", c.src, c.needle, r.Kind, r.Why)
		}
	}
}

func TestShellHeader(t *testing.T) {
	cases := []struct {
		src, needle string
		kind        Kind
		why         string
	}{
		{"#!/bin/sh\necho\n", "#!", Directive, "directive: shebang"},
		{"#\u200b!/bin/sh\necho\n", "#", Directive, "directive: shebang"},
		{"echo\n#!/bin/sh\n", "#!", Prose, "comment"},
	}
	for _, c := range cases {
		r := kindAt(t, "t.sh", c.src, c.needle)
		if r.Kind != c.kind || r.Why != c.why {
			t.Errorf("%q at %q: got %s %q, want %s %q", c.src, c.needle, r.Kind, r.Why, c.kind, c.why)
		}
	}
}

func TestShellCarriageReturns(t *testing.T) {
	src := "#!/bin/sh\r\n# one\r\nif true; then\r\n  echo a # two\r\nfi\r\n"
	m, err := Classify("t.sh", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < len(src); i++ {
		if (src[i] == '\r' || src[i] == '\n') && m.At(i).Kind != Runtime {
			t.Errorf("line break at %d is %s", i, m.At(i).Kind)
		}
	}
	for _, needle := range []string{"# one", "# two"} {
		if r := m.At(strings.Index(src, needle)); r.Kind != Prose {
			t.Errorf("%q is %s %q", needle, r.Kind, r.Why)
		}
	}
	// A lone \r inside a comment ends the prose: what follows is runtime.
	src = "echo # a\rb\n"
	m, err = Classify("t.sh", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if r := m.At(strings.Index(src, "# a")); r.Kind != Prose || r.End != strings.Index(src, "\r") {
		t.Errorf("comment before a lone CR: %+v", r)
	}
	if r := m.At(strings.Index(src, "b")); r.Kind != Runtime {
		t.Errorf("text after a lone CR is %s", r.Kind)
	}
}

func TestShellDialects(t *testing.T) {
	// POSIX sh that uses bash syntax is read as bash, not refused.
	m, err := Classify("t.sh", []byte("#!/bin/sh\n[[ -n $x ]] && echo # c\n"))
	if err != nil || m.At(strings.Index("#!/bin/sh\n[[ -n $x ]] && echo # c\n", "# c")).Kind != Prose {
		t.Errorf("sh with [[: %v %v", m, err)
	}
	// mksh and zsh syntax is accepted for their shebangs and extensions.
	for path, src := range map[string]string{
		"t.mksh": "print -r -- ${x@Q}\n# c\n",
		"t.zsh":  "print ${(U)x}\n# c\n",
		"run":    "#!/usr/bin/env zsh\nprint ${(U)x}\n# c\n",
		"t.bats": "@test \"x\" {\n  run true # c\n}\n",
	} {
		m, err := Classify(path, []byte(src))
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if r := m.At(strings.Index(src, "# c")); r.Kind != Prose {
			t.Errorf("%s: comment is %s %q", path, r.Kind, r.Why)
		}
	}
}

func TestShellRefused(t *testing.T) {
	cases := []struct{ path, src, want string }{
		{"t.sh", "echo ok\nif then fi\n", "t.sh:2:"},
		{"t.bash", "echo 'open\n", "t.bash:1:6: not valid bash"},
		{"run", "#!/bin/bash\necho $(\n", "run:2:"},
		{"t.mksh", "echo ${x@Q}\nfunction f() {\n", "t.mksh:"},
		// Past the parser's size bound (its tree takes ~80x the script), at once.
		{"big.sh", strings.Repeat("echo x # c\n", maxShellParse/11+1), "big.sh:1:1: a shell script of 8.0 MiB is more than the 8 MiB"},
	}
	for _, c := range cases {
		_, err := Classify(c.path, []byte(c.src))
		var re *RefusedError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "refused") {
			t.Errorf("%s %q: error %v, want a RefusedError containing %q", c.path, c.src, err, c.want)
		}
	}
}

// A script just under the parser's size bound is still read.
func TestShellUnderSizeBound(t *testing.T) {
	if testing.Short() {
		t.Skip("parses an 8 MiB script")
	}
	unit := "echo x # c\n"
	src := strings.Repeat(unit, maxShellParse/len(unit))
	if _, err := Classify("big.sh", []byte(src)); err != nil {
		t.Fatalf("a %d-byte script: %v", len(src), err)
	}
}

// TestShellVariantsChosen holds the parser variants each shebang and
// extension selects: POSIX before bash for the sh family, each shell's own
// otherwise, bash for an unknown one.
func TestShellVariantsChosen(t *testing.T) {
	posix := []syntax.LangVariant{syntax.LangPOSIX, syntax.LangBash}
	for _, tc := range []struct {
		path, src, cmd string
		want           []syntax.LangVariant
	}{
		{"run", "#!/bin/sh\n", "sh", posix},
		{"run", "#!/bin/dash\n", "dash", posix},
		{"run", "#!/bin/ash\n", "ash", posix},
		{"run", "#!/bin/bash\n", "bash", []syntax.LangVariant{syntax.LangBash}},
		{"run", "#!/usr/bin/env bats\n", "bats", []syntax.LangVariant{syntax.LangBats}},
		{"run", "#!/bin/ksh\n", "ksh", []syntax.LangVariant{syntax.LangMirBSDKorn}},
		{"run", "#!/bin/mksh\n", "mksh", []syntax.LangVariant{syntax.LangMirBSDKorn}},
		{"run", "#!/usr/bin/env zsh\n", "zsh", []syntax.LangVariant{syntax.LangZsh}},
		{"t.sh", "echo\n", "bash", []syntax.LangVariant{syntax.LangBash}},
		{"t.BASH", "echo\n", "bash", []syntax.LangVariant{syntax.LangBash}},
		{"t.bats", "echo\n", "bats", []syntax.LangVariant{syntax.LangBats}},
		{"t.ksh", "echo\n", "ksh", []syntax.LangVariant{syntax.LangMirBSDKorn}},
		{"t.mksh", "echo\n", "mksh", []syntax.LangVariant{syntax.LangMirBSDKorn}},
		{"t.zsh", "echo\n", "zsh", []syntax.LangVariant{syntax.LangZsh}},
		{"t.zsh", "#!/bin/sh\n", "sh", posix},
		{"t.sh", "#!/usr/bin/python3\n", "bash", []syntax.LangVariant{syntax.LangBash}},
		{"t.fish", "echo\n", "bash", []syntax.LangVariant{syntax.LangBash}},
	} {
		t.Run(tc.path+" "+strings.TrimSpace(tc.src), func(t *testing.T) {
			cmd, vs := shellVariants(tc.path, []byte(tc.src))
			if cmd != tc.cmd || !slices.Equal(vs, tc.want) {
				t.Errorf("shellVariants = %s %v, want %s %v", cmd, vs, tc.cmd, tc.want)
			}
		})
	}
	for _, name := range []string{"python3", "fish", "", "Bash"} {
		if _, ok := shellDialect(name); ok {
			t.Errorf("shellDialect(%q) is a shell", name)
		}
	}
}
