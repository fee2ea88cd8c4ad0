package region

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// shellTreeDepth parses src as the classifier would (without the bound) and
// returns the depth of syntax.Walk's recursion over its tree: with the
// parser's own descent, what the Go stack pays for.
func shellTreeDepth(src string, v syntax.LangVariant) (int, error) {
	f, err := syntax.NewParser(syntax.KeepComments(true), syntax.Variant(v)).Parse(strings.NewReader(src), "")
	if err != nil {
		return 0, err
	}
	depth, deepest := 0, 0
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil {
			depth--
			return true
		}
		depth++
		deepest = max(deepest, depth)
		return true
	})
	return deepest, nil
}

// shellNestingBoundHolds is the property the bound rests on: the parser's
// tree is never more than a constant times deeper than shellNesting says
// (each counted level is at most a few tree levels: a command substitution
// is Stmt, CallExpr, Word, CmdSubst).
func shellNestingBoundHolds(tree, counted int) bool { return tree <= 6*counted+12 }

// nestedShell are the ways a shell script nests, each d levels deep: what
// the parser descends into or builds as a deep tree.
func nestedShell(d int) map[string]string {
	r := strings.Repeat
	return map[string]string{
		"subshell":           r("(", d) + "a" + r(")", d),
		"command subst":      r("$(", d) + "a" + r(")", d),
		"backquote+subst":    "echo `" + r("$(", d) + "a" + r(")", d) + "`",
		"group":              r("{ ", d) + "a; " + r("}; ", d),
		"if":                 r("if ", d) + "a" + r("; then b; fi", d),
		"while":              r("while ", d) + "a" + r("; do b; done", d),
		"for":                r("for x in a; do ", d) + "b" + r("; done", d),
		"case":               r("case a in a) ", d) + "b" + r(";; esac", d),
		"function":           r("f() { ", d) + "a; " + r("}; ", d),
		"parameter":          "echo " + r("${a:-", d) + "x" + r("}", d),
		"quoted subst":       "echo " + r("\"$(", d) + "x" + r(")\"", d),
		"process subst":      "cat " + r("<(", d) + "a" + r(")", d),
		"array of substs":    "a=(" + r("$(", d) + "a" + r(")", d) + ")",
		"and chain":          r("a && ", d) + "a",
		"pipeline":           r("a | ", d) + "a",
		"chain over lines":   r("a &&\n", d) + "a",
		"arith parens":       "echo $((" + r("(", d) + "1" + r(")", d) + "))",
		"arith sum":          "echo $((" + r("1+", d) + "1))",
		"arith assignment":   "echo $((" + r("a=", d) + "1))",
		"arith power":        "echo $((" + r("2**", d) + "1))",
		"arith ternary":      "echo $((" + r("a?b:", d) + "1))",
		"arith command":      "((" + r("(", d) + "1" + r(")", d) + "))",
		"arith brackets":     "echo $[" + r("a[", d) + "1" + r("]", d) + "]",
		"let":                "let a=" + r("1+", d) + "1",
		"array index":        "a[" + r("1+", d) + "1]=x",
		"slice offset":       "echo ${a:" + r("1+", d) + "1}",
		"test and":           "[[ " + r("a && ", d) + "a ]]",
		"test parens":        "[[ " + r("( ", d) + "a" + r(" )", d) + " ]]",
		"test not":           "[[ " + r("! ", d) + "a ]]",
		"here-doc body":      "cat <<E\n" + r("$(", d) + "a" + r(")", d) + "\nE\n",
		"here-doc in subst":  r("$(cat <<E\nx\nE\n", d) + "a" + r(")", d),
		"delimiter in subst": "cat <<E\n$(\nE\n)\n'\n" + r("$(", d) + "a" + r(")", d) + "\n'\nE\n",
		"subst of subshell":  "echo $(" + r("(", d) + "a" + r(")", d) + ")",
		"crlf groups":        r("{\r\n", d) + "a\r\n" + r("}\r\n", d),
	}
}

// TestShellNestingBoundsTheParser checks the bound on every way of nesting
// and on generated scripts mixing them with strings, comments and
// here-documents full of closers: wherever the parser reads a deep tree,
// shellNesting counts at least a sixth of its depth.
func TestShellNestingBoundsTheParser(t *testing.T) {
	for name, src := range nestedShell(300) {
		tree, err := shellTreeDepth(src, syntax.LangBash)
		if err != nil {
			t.Errorf("%s: the parser refuses the nesting: %v", name, err)
			continue
		}
		counted, _ := shellNesting([]byte(src), false, 1<<30)
		if !shellNestingBoundHolds(tree, counted) || counted > 3*300+10 {
			t.Errorf("%s: tree %d deep, counted %d", name, tree, counted)
		}
	}
	rng := rand.New(rand.NewPCG(20, 4))
	parsed := 0
	for range 20000 {
		g := &shellGen{r: rng, budget: 200}
		src := g.list(3+rng.IntN(10)) + "\n"
		tree, err := shellTreeDepth(src, syntax.LangBash)
		if err != nil {
			continue
		}
		parsed++
		if counted, _ := shellNesting([]byte(src), false, 1<<30); !shellNestingBoundHolds(tree, counted) {
			t.Fatalf("tree %d deep, counted %d:\n%q", tree, counted, src)
		}
	}
	if parsed < 4000 {
		t.Fatalf("only %d of 20000 generated scripts parse: the generator has drifted", parsed)
	}
}

// shellGen writes random nested scripts whose strings, comments and
// here-documents hold the closers and openers a lexer could mistake.
type shellGen struct {
	r      *rand.Rand
	budget int
}

var (
	shellJunkSingle = []string{")", "}", "fi", "done", "esac", "]]", "))", "\"", "$(", "(", "{", "#", "\\", "`", "\n", "E", "<<E", ";;"}
	shellJunkDouble = []string{")", "}", "fi", "done", "esac", "]]", "))", "'", "(", "{", "#", "\n", "E", ";;", "\\\"", "\\$(", "\\`"}
)

func (g *shellGen) junk(set []string) string {
	var b strings.Builder
	for k := g.r.IntN(5); k > 0; k-- {
		b.WriteString(set[g.r.IntN(len(set))])
		b.WriteByte(' ')
	}
	return b.String()
}

func (g *shellGen) word(d int) string {
	g.budget--
	if d <= 0 || g.budget <= 0 {
		return "w"
	}
	switch g.r.IntN(11) {
	case 0:
		return "'" + g.junk(shellJunkSingle) + "'"
	case 1:
		return "\"" + g.junk(shellJunkDouble) + "$(" + g.list(d-1) + ")\""
	case 2:
		return "${a:-" + g.word(d-1) + "}"
	case 3:
		return "$(" + g.list(d-1) + ")"
	case 4:
		return "$((" + g.arith(d-1) + "))"
	case 5:
		return "<(" + g.list(d-1) + ")"
	case 6:
		return "\"${a:-" + g.word(d-1) + "}\""
	case 7:
		return "$'" + strings.ReplaceAll(g.junk(shellJunkSingle), "'", "\\'") + "'"
	case 8:
		return "${a[" + g.arith(d-1) + "]}"
	}
	return "w"
}

func (g *shellGen) arith(d int) string {
	g.budget--
	if d <= 0 || g.budget <= 0 {
		return "1"
	}
	switch g.r.IntN(6) {
	case 0:
		return "(" + g.arith(d-1) + ")"
	case 1:
		return g.arith(d-1) + "+" + g.arith(d-1)
	case 2:
		return "-" + g.arith(d-1)
	case 3:
		return "a=" + g.arith(d-1)
	case 4:
		return "$(( " + g.arith(d-1) + " ))"
	}
	return "x"
}

func (g *shellGen) cmd(d int) string {
	g.budget--
	if d <= 0 || g.budget <= 0 {
		return "c " + g.word(0)
	}
	switch g.r.IntN(18) {
	case 0:
		return "( " + g.list(d-1) + " )"
	case 1:
		return "{ " + g.list(d-1) + "; }"
	case 2:
		return "if " + g.list(d-1) + "; then " + g.list(d-1) + "; fi"
	case 3:
		return "while " + g.list(d-1) + "; do " + g.list(d-1) + "; done"
	case 4:
		return "case " + g.word(d-1) + " in fi) " + g.list(d-1) + ";; (a|b) " + g.list(d-1) + ";; esac"
	case 5:
		return "[[ ! " + g.word(d-1) + " && ( a || " + g.word(d-1) + " ) ]]"
	case 6:
		return "((" + g.arith(d-1) + "))"
	case 7:
		return "f() { " + g.list(d-1) + "; }"
	case 8:
		return g.cmd(d-1) + " && " + g.cmd(d-1)
	case 9:
		return g.cmd(d-1) + " | " + g.cmd(d-1)
	case 10:
		return "! " + g.cmd(d-1)
	case 11:
		return "cat <<E; " + g.cmd(d-1) + "\n" + g.junk(shellJunkDouble) + "$(" + g.list(d-1) + ")\nE\n"
	case 12:
		return "cat <<'E'\n" + g.junk(shellJunkSingle) + "\nE\n"
	case 13:
		return "c # " + strings.ReplaceAll(g.junk(shellJunkSingle), "\n", " ") + "\n"
	case 14:
		return "c " + g.word(d-1) + " " + g.word(d-1)
	case 15:
		return "let a=" + g.arith(d-1)
	case 16:
		return "a[" + g.arith(d-1) + "]=" + g.word(d-1)
	}
	return "c `c " + g.word(0) + "`"
}

func (g *shellGen) list(d int) string {
	s := g.cmd(d)
	for g.r.IntN(3) == 0 && g.budget > 0 {
		s += []string{"; ", "\n", " & "}[g.r.IntN(3)] + g.cmd(d)
	}
	return s
}

// TestShellDeepNestingRefused feeds every way of nesting 200,000 levels
// deep (the break: a Go stack overflow, exit 2, ~1 GB) to the classifier
// of each dialect: each is refused with a position, before the parser
// runs, and the refusal costs memory in proportion to the script only.
func TestShellDeepNestingRefused(t *testing.T) {
	for name, src := range nestedShell(200000) {
		for _, path := range []string{"deep.sh", "deep.bash", "deep.zsh", "deep.mksh", "deep.bats"} {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, err := Classify(path, []byte(src))
			runtime.ReadMemStats(&after)
			var re *RefusedError
			if !errors.As(err, &re) || !strings.Contains(err.Error(), "nested more than") || !strings.HasPrefix(err.Error(), path+":") {
				t.Errorf("%s as %s: %v, want a refusal for nesting", name, path, err)
				continue
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > uint64(4*len(src))+1<<20 {
				t.Errorf("%s as %s: refusing a %d-byte script allocated %d bytes", name, path, len(src), grew)
			}
		}
	}
}

// Nesting just under the bound is still parsed, and the bound is what the
// parser is given, not a guess: the same script one level deeper is refused.
func TestShellNestingAtTheBound(t *testing.T) {
	for _, c := range [][3]string{{"$(", "a", ")"}, {"{ ", "a; ", "}; "}, {"if a; then ", "b", "; fi"}} {
		nest := func(d int) []byte {
			return []byte(strings.Repeat(c[0], d) + c[1] + strings.Repeat(c[2], d) + " # c\n")
		}
		if _, err := Classify("ok.sh", nest(maxShellNest-1)); err != nil {
			t.Errorf("%q x %d: %v", c[0], maxShellNest-1, err)
		}
		if _, err := Classify("deep.sh", nest(maxShellNest+1)); err == nil {
			t.Errorf("%q x %d: classified", c[0], maxShellNest+1)
		}
	}
}

// The hooks' reading of a tool's command goes through the same bound.
func TestParseShellBounded(t *testing.T) {
	deep := strings.Repeat("$(", 200000) + "a" + strings.Repeat(")", 200000)
	var ne *ShellNestingError
	if _, err := ParseShell([]byte(deep), syntax.LangBash); !errors.As(err, &ne) {
		t.Fatalf("ParseShell of a 200,000-deep command: %v", err)
	}
	var te *ShellTooLargeError
	if _, err := ParseShell(bytes.Repeat([]byte("a;"), maxShellParse/2+1), syntax.LangBash); !errors.As(err, &te) {
		t.Fatalf("ParseShell of a command over 8 MiB: %v", err)
	}
	f, err := ParseShell([]byte("echo a > out.txt"), syntax.LangBash)
	if err != nil || len(f.Stmts) != 1 {
		t.Fatalf("ParseShell of a plain command: %v", err)
	}
}

// FuzzShellNesting checks the bound on any input the parser reads: its
// tree is never deeper than the bound allows for what shellNesting counted.
func FuzzShellNesting(f *testing.F) {
	for _, src := range nestedShell(40) {
		f.Add([]byte(src))
	}
	for _, s := range []string{
		"cat <<E\n$(\nE\n)\nE\n", "echo \"${a:-'}'}\"", "case a in fi) (b);; esac", "$((a) | b)",
		"let a=1+2", "x=$[a[1]+2]", "cat <<-'E'\n\t)\n\tE\n(", "{ a }\n}", "a &&\n\n b",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 4096 {
			return
		}
		for _, v := range []syntax.LangVariant{syntax.LangBash, syntax.LangPOSIX, syntax.LangZsh, syntax.LangMirBSDKorn} {
			tree, err := shellTreeDepth(string(src), v)
			if err != nil {
				continue
			}
			if counted, _ := shellNesting(src, v == syntax.LangZsh, 1<<30); !shellNestingBoundHolds(tree, counted) {
				t.Fatalf("%s: tree %d deep, counted %d", v, tree, counted)
			}
		}
	})
}
