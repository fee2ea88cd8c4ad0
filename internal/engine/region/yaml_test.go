package region

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestYAMLKinds(t *testing.T) {
	cases := []struct {
		name, src, needle string
		want              Kind
	}{
		{"line comment", "a: 1\n# note\n", "# note", Prose},
		{"trailing comment", "a: 1  # note\n", "# note", Prose},
		{"hash in plain scalar", "url: http://x#frag\n", "#frag", Runtime},
		{"hash after space ends a plain scalar", "a: b #c\n", "#c", Prose},
		{"hash in double quotes", "a: \"x # y\"\n", "# y", Runtime},
		{"hash in single quotes", "a: 'it''s # y'\n", "# y", Runtime},
		{"escaped quote", "a: \"x\\\" # y\"\n", "# y", Runtime},
		{"quoted over lines", "a: \"x\n  # y\"\n", "# y", Runtime},
		{"single quoted over lines", "a: 'x\n\n  # y'\n", "# y", Runtime},
		{"block scalar body", "run: |\n  echo hi\n  # shell comment\n", "# shell", Runtime},
		{"folded body", "run: >-\n  text\n  # more\n", "# more", Runtime},
		{"block header comment", "run: | # why\n  x\n", "# why", Prose},
		{"header with indicators", "run: |2- # why\n   x\n", "# why", Prose},
		{"less indented line ends the scalar", "a:\n  b: |\n    x\n  # c\n", "# c", Prose},
		{"blank lines stay in the scalar", "a: |\n  x\n\n  # y\n", "# y", Runtime},
		{"explicit indentation", "a: |1\n  # y\n", "# y", Runtime},
		{"sequence entry block", "- |\n  x\n # c\n", "# c", Prose},
		{"nested sequence block", "- - |\n    x\n   # y\n", "# y", Prose},
		{"plain continuation", "a: b\n  \"c\n# d\nx: \"# e\"\n", "# d", Prose},
		{"plain continuation keeps quote", "a: b\n  \"c\n# d\nx: \"# e\"\n", "# e", Runtime},
		{"quote inside plain", "a: it's # c\n", "# c", Prose},
		{"flow comment", "a: [1, # c\n  2]\n", "# c", Prose},
		{"flow eats to line end", "a: [1 #c]\n  ]\n", "#c]", Prose},
		{"tight after quote", "a: \"x\"#c\n", "#c", Runtime},
		{"tight after flow", "[a,#b]\n", "#b]", Runtime},
		{"header tight", "a: |#c\n  x\n", "#c", Runtime},
		{"anchor with hash", "a: &x#y b # c\n", "#y", Runtime},
		{"tag", "a: !!str 1 # c\n", "!!str", Runtime},
		{"directive line", "%YAML 1.2\n---\na: 1\n", "%YAML", Directive},
		{"tag directive", "%TAG ! tag:x,2000:\n---\na: 1\n", "%TAG", Directive},
		{"yamllint", "a: 1 # yamllint disable-line rule:truthy\n", "# yaml", Directive},
		{"schema", "# yaml-language-server: $schema=x.json\na: 1\n", "# yaml", Directive},
		{"word colon", "# Result: later\na: 1\n", "# Result", Directive},
		{"prose label", "# TODO: later\na: 1\n", "# TODO", Prose},
		{"commented-out key", "#key: value\na: 1\n", "#key", Directive},
		{"after removal", "# yaml\u200blint disable\na: 1\n", "# yaml", Directive},
		{"annotation", "# @schema {\"type\":\"string\"}\na: 1\n", "# @", Directive},
		{"second segment", "a: 1 # long # noqa\n", "# long", Directive},
		{"document marker", "a: 1\n--- # c\nb: 2\n", "---", Runtime},
		{"comment after doc marker", "a: 1\n--- # c\nb: 2\n", "# c", Prose},
		{"doc end", "a: 1\n... # c\n", "# c", Prose},
		{"top-level block at column 0", "--- |\nfoo\n# c\n", "# c", Runtime},
		{"libyaml counts leading blank lines", "a: |\n     \n  x\n  # c\n", "# c", Runtime},
		{"bom", "\ufeff# c\na: 1\n", "# c", Prose},
		{"bom mid-file is no indentation", "a: 1\n\ufeff# c\n", "# c", Runtime},
		{"nbsp before hash", "a: b\u00a0# c\n", "# c", Runtime},
		{"crlf", "a: 1 # c\r\nb: 2\r\n", "# c", Prose},
		{"lone cr", "a: |\r  x\r# c\r", "# c", Prose},
		{"tab before comment", "a: 1\t# c\n", "# c", Prose},
		{"key in quotes", "\"a # b\": 1 # c\n", "# b", Runtime},
		{"multi-doc", "a: |\n  x\n---\n# c\n", "# c", Prose},
		{"block in flow is not a header", "a: [|, # c\n ]\n", "# c", Prose},
		{"question key", "? |\n  # x\n: v # c\n", "# x", Runtime},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := kindAt(t, "f.yaml", c.src, c.needle)
			if r.Kind != c.want {
				m, _ := Classify("f.yaml", []byte(c.src))
				t.Errorf("%q in %q is %s (%s), want %s\n%s", c.needle, c.src, r.Kind, r.Why, c.want, m)
			}
		})
	}
}

// TestYAMLLineSeparators: U+0085, U+2028 and U+2029 end a comment for
// libyaml readers, so what follows is live structure for them.
func TestYAMLLineSeparators(t *testing.T) {
	for _, sep := range []string{"\u0085", "\u2028", "\u2029"} {
		src := "a: 1  # c" + sep + "b: 2 # d\nx: \"q" + sep + "r\" # e\n"
		m, err := Classify("f.yml", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		for off := strings.Index(src, sep); off >= 0; {
			r := m.At(off)
			if r.Kind != Runtime || r.Start != off || r.End != off+len(sep) || !strings.Contains(r.Why, "line separator") {
				t.Errorf("%U at %d is in %+v, want a runtime region of its own", []rune(sep)[0], off, r)
			}
			next := strings.Index(src[off+len(sep):], sep)
			if next < 0 {
				break
			}
			off += len(sep) + next
		}
		if r := m.At(strings.Index(src, "b: 2")); r.Kind != Runtime {
			t.Errorf("the key after %U is %s: libyaml reads it as a key", []rune(sep)[0], r.Kind)
		}
		for _, c := range []string{"# c", "# d", "# e"} {
			if r := m.At(strings.Index(src, c)); r.Kind != Prose {
				t.Errorf("%q is %s, want prose (a comment for every reader)", c, r.Kind)
			}
		}
	}
	// After a separator inside a comment, a quote opens a scalar for
	// libyaml: the YAML 1.2 comment on the next line is content there.
	src := "# a\u2028b: \"x\n  y: # z\"\n"
	if r := kindAt(t, "f.yaml", src, "# z"); r.Kind != Runtime {
		t.Errorf("# z is %s, want runtime (inside a libyaml quoted scalar)", r.Kind)
	}
	// A separator in a block scalar ends its line for libyaml.
	src = "a: |\n  x\u2028# c\n"
	if r := kindAt(t, "f.yaml", src, "# c"); r.Kind != Runtime {
		t.Errorf("# c is %s, want runtime (block content for YAML 1.2)", r.Kind)
	}
}

func TestYAMLErrors(t *testing.T) {
	cases := []struct{ src, pos, reason string }{
		{"a: \"x\n", "1:4", "unterminated quoted scalar"},
		{"a: 'x\n# c\n", "1:4", "unterminated quoted scalar"},
		{"a: \"x\n---\n\"\n", "2:1", "document marker inside a quoted scalar"},
		{"a: |0\n x\n", "1:5", "indentation indicator 0"},
		{"a: | x\n", "1:6", "not followed by a comment or a line break"},
		{"a: |\n\tx\n", "2:1", "tab"},
		{"a: |\n  x\n \ty\n", "3:2", "tab"},
		{"a: {{ .Values.x }}\n", "1:4", "template"},
	}
	for _, c := range cases {
		_, err := Classify("dir/f.yaml", []byte(c.src))
		var se *RefusedError
		if !errors.As(err, &se) {
			t.Errorf("%q: error %v, want a RefusedError", c.src, err)
			continue
		}
		if want := "dir/f.yaml:" + c.pos + ": "; !strings.Contains(err.Error(), want) || !strings.Contains(se.Reason, c.reason) {
			t.Errorf("%q: error %q, want %q...%q", c.src, err, want, c.reason)
		}
	}
	if _, err := Classify("chart/templates/dep.yaml", []byte("{{- if .Values.x }}\na: 1\n{{- end }}\n")); err == nil {
		t.Error("a chart template with an action where a node starts was classified")
	}
	// A file in templates/ that YAML reads is YAML; a comment holding an
	// action (Helm renders comments) or the tail of one is runtime.
	src := "# {{ .Values.x }}\na: b-{{ .Values.y }} # the name\nc: d{{ default \" #e\" }}\n"
	m, err := Classify("chart/templates/dep.yaml", []byte(src))
	if err != nil {
		t.Fatalf("YAML in a templates directory refused: %v", err)
	}
	for _, c := range []struct {
		at   string
		kind Kind
	}{{"# {{", Runtime}, {"# the name", Prose}, {"#e", Runtime}} {
		if r := m.At(strings.Index(src, c.at)); r.Kind != c.kind {
			t.Errorf("%q in %q: %v (%s), want %v", c.at, src, r.Kind, r.Why, c.kind)
		}
	}
	if _, err := Classify("w.yaml", []byte("name: \"${{ github.ref }}\" # {{ fine }}\nrun: echo ${{ x }}\n")); err != nil {
		t.Errorf("a workflow expression was refused: %v", err)
	}
}

func TestYAMLDispatch(t *testing.T) {
	for _, p := range []string{"a.yml", "b.YAML", ".github/workflows/ci.yml", "compose.yaml", ".pre-commit-config.yaml"} {
		if got := Language(p, nil); got != "yaml" {
			t.Errorf("Language(%q) = %q, want yaml", p, got)
		}
	}
}

// TestYAMLLinear checks growth, not time: classifying ten times the input
// (100k anchors and aliases, deep nesting, long flow lines) must cost about
// ten times as much, never a hundred.
func TestYAMLLinear(t *testing.T) {
	gens := map[string]func(n int) string{
		"anchors": func(n int) string {
			var sb strings.Builder
			for i := range n {
				fmt.Fprintf(&sb, "k%d: &a%d v # c\nr%d: *a%d\n", i, i, i, i)
			}
			return sb.String()
		},
		"nesting": func(n int) string {
			var sb strings.Builder
			for i := range n / 8 {
				sb.WriteString(strings.Repeat(" ", i%200) + "- a: |\n" + strings.Repeat(" ", i%200+4) + "x # y\n")
			}
			return sb.String()
		},
		"flowline": func(n int) string { return "a: [" + strings.Repeat("x, ", n) + "y] # c\n" },
		"plainline": func(n int) string {
			return "a: " + strings.Repeat("word ", n) + "\n" + strings.Repeat("  more words\n", n/4)
		},
	}
	for name, gen := range gens {
		checkLinear(t, "yaml "+name, []byte(gen(10000)), []byte(gen(100000)), func(src []byte) error {
			_, err := classifyYAML("f.yaml", src)
			return err
		})
	}
}

func FuzzClassifyYAML(f *testing.F) {
	addFixtureSeeds(f, ".yaml")
	addFixtureSeeds(f, ".yml")
	for _, s := range []string{
		"", "#", "'", "\"", "a: |", "a: |\n  # x\n# y\n", "a: 1 # c\u2028b: 2\n", "- - |\n    x\n   # y\n",
		"a: \"x\n  # y\"\n", "[a, #b\n]\n", "%YAML 1.2\n---\n", "a: b\n  \"c\n# d\n", "\ufeff# c\n",
		"--- |\nfoo\n# c\n", "a: |\n     \n  x\n  # c\n", "a: b # yaml\u200blint disable\n", "? |\n x\n: y\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if _, err := Classify("f.yaml", src); err != nil {
			var se *RefusedError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a RefusedError", err)
			}
			return
		}
		m := classifyChecked(t, "f.yaml", src)
		for _, r := range m.Regions {
			if r.Kind == Runtime {
				continue
			}
			for i := r.Start; i < r.End; i++ {
				if yamlSeparatorLen(src, i) > 0 {
					t.Fatalf("%s region %d-%d holds a line separator", r.Kind, r.Start, r.End)
				}
			}
			afterSep := (r.Start >= 3 && yamlSeparatorLen(src, r.Start-3) == 3) || (r.Start >= 2 && yamlSeparatorLen(src, r.Start-2) == 2)
			if src[r.Start] != '#' && src[r.Start] != '%' && !afterSep {
				t.Fatalf("%s region %d-%d %q does not start a comment", r.Kind, r.Start, r.End, src[r.Start:r.End])
			}
		}
		checkRemovalStable(t, "f.yaml", src, m)
	})
}
