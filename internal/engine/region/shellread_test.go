package region

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/testtool"
)

// zshPrint returns zsh's own rendering of a script, without its comments
// and without running it: the script becomes the body of a function that
// is defined, never called, and printed by "functions" (zsh -f: no startup
// files, so no aliases).
func zshPrint(ctx context.Context, zsh, dir string, src []byte) ([]byte, bool) {
	f := filepath.Join(dir, "probe.zsh")
	wrapped := append(append([]byte("__probe() {\n"), src...), "\n}\nfunctions __probe\n"...)
	if err := os.WriteFile(f, wrapped, 0o600); err != nil {
		return nil, false
	}
	cmd := exec.CommandContext(ctx, zsh, "-f", f)
	cmd.Env = []string{"PATH=" + dir, "LC_ALL=C.UTF-8"}
	cmd.Dir = dir
	out, err := cmd.Output()
	return out, err == nil
}

// checkZshInvariance is checkBashInvariance with zsh as the judge: each
// pair's scripts (an original and the same with its prose filled) must
// print the same. It returns the number of pairs zsh read.
func checkZshInvariance(t *testing.T, names []string, pairs [][2][]byte) int {
	t.Helper()
	zsh := testtool.LookPath(t, "zsh", "apt-get install zsh")
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	compared := 0
	for i, pr := range pairs {
		a, ok := zshPrint(ctx, zsh, dir, pr[0])
		if !ok {
			t.Errorf("%s: zsh does not read the original", names[i])
			continue
		}
		b, ok := zshPrint(ctx, zsh, dir, pr[1])
		if !ok {
			t.Errorf("%s: zsh reads the original but not the script with its prose filled", names[i])
			continue
		}
		if !bytes.Equal(a, b) && !verbatimCommentsOnly(pr[0], a, b) {
			k := 0
			for k < len(a) && k < len(b) && a[k] == b[k] {
				k++
			}
			t.Errorf("%s: filling prose changed zsh's reading at byte %d of its print:\n orig %q\n fill %q", names[i], k,
				a[max(0, k-60):min(len(a), k+60)], b[max(0, k-60):min(len(b), k+60)])
			continue
		}
		compared++
	}
	return compared
}

// verbatimCommentsOnly reports whether two prints differ only in comments
// that zsh prints verbatim: the body of a process or command substitution
// is kept as its source text (re-read when it runs), comments included. A
// line may differ only where the original print's line is a line of the
// script as written and the rest of it, from a '#' at a word's start, is
// filled in the other print.
func verbatimCommentsOnly(src, a, b []byte) bool {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	if len(la) != len(lb) {
		return false
	}
	lines := map[string]bool{}
	for _, l := range bytes.Split(src, []byte("\n")) {
		lines[string(l)] = true
	}
	for i := range la {
		if bytes.Equal(la[i], lb[i]) {
			continue
		}
		k := 0
		for k < len(la[i]) && k < len(lb[i]) && la[i][k] == lb[i][k] {
			k++
		}
		h := bytes.LastIndexByte(la[i][:k], '#')
		if !lines[string(la[i])] || h < 0 || len(bytes.Trim(lb[i][h+1:], "Q")) != 0 ||
			(h > 0 && la[i][h-1] != ' ' && la[i][h-1] != '\t') {
			return false
		}
	}
	return true
}

// zshForms are zsh's own forms (zsh -n accepts each) around comments: every
// "# c" is a comment zsh skips, every "#x" inside a word, a glob flag or a
// string is not.
var zshForms = []string{
	"{\n  a # c\n} always {\n  b # c\n}\n",
	"f() {\n  { a } always { b } # c\n}\n",
	"for 1 2 3; do # c\n  print $1 $2 $3 # c\ndone\n",
	"for k v in a b c d; do # c\n  print $k$v\ndone\n",
	"if (( EUID == 0 )) { print root } # c\n",
	"if [[ -n $a ]] { a # c\n} elif [[ -n $b ]] { b # c\n} else { c # c\n}\n",
	"while (( i < 3 )) { (( i++ )) # c\n}\n",
	"for x (a b c) { print $x # c\n}\n",
	"for x in a b; { print $x } # c\n",
	"for ((i=0; i<3; i++)) { print $i } # c\n",
	": ${x::=1} # c\n",
	"[[ $a = (#b)(#s)(x)# ]] # c\nprint ${#match} # c\n",
	"x=$((echo a) | tr a b) # c\n",
	// A function named by an expansion: the line is blanked, nothing is
	// prose, nothing refused.
	"f_${name}() { :; } # c\nprint x # c\n",
	"print ${(j:#:)arr} # c\n",
}

// TestZshFormsClassified: every form is read (none refused) and its prose,
// filled, leaves zsh's own reading unchanged; on today's parser alone the
// first ten are refused.
func TestZshFormsClassified(t *testing.T) {
	var names []string
	var pairs [][2][]byte
	for i, src := range zshForms {
		name := "form.zsh"
		m, err := Classify(name, []byte(src))
		if err != nil {
			t.Errorf("form %d %q: %v", i, src, err)
			continue
		}
		if len(m.Spans(Prose)) == 0 {
			t.Errorf("form %d %q: no prose found", i, src)
		}

		names = append(names, src)
		pairs = append(pairs, [2][]byte{[]byte(src), fillProse([]byte(src), m)})
	}
	if got := checkZshInvariance(t, names, pairs); got != len(pairs) {
		t.Errorf("zsh compared %d of %d forms", got, len(pairs))
	}
	// The judge can fail: filling what zsh reads is seen.
	zsh := testtool.LookPath(t, "zsh", "apt-get install zsh")
	dir := t.TempDir()
	for _, pr := range [][2]string{
		{"print a # c\n", "print Q # c\n"},
		{"[[ $a = (#b)x ]]\n", "[[ $a = (#Q)x ]]\n"},
		{"print ${(j:#:)arr}\n", "print ${(j:#Q)arr}\n"},
	} {
		a, okA := zshPrint(t.Context(), zsh, dir, []byte(pr[0]))
		b, okB := zshPrint(t.Context(), zsh, dir, []byte(pr[1]))
		if okA && okB && bytes.Equal(a, b) {
			t.Errorf("zsh does not tell %q from %q", pr[0], pr[1])
		}
	}
}

// zshPackages ship zsh scripts that zsh -n accepts and the shell parser
// alone refuses ("} always {", "for 1 2 3", short "if", "${x::=y}",
// extended glob flags).
var zshPackages = []string{"zsh-syntax-highlighting", "zsh-autosuggestions", "fzf"}

// TestZshRealScripts reads the real zsh scripts of three Debian packages:
// none is refused, and filling their prose leaves zsh's reading unchanged.
func TestZshRealScripts(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus test")
	}
	root := testtool.Debian(t, zshPackages...)
	var files []string
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && strings.HasSuffix(p, ".zsh") {
			files = append(files, p)
		}
		return nil
	})
	if len(files) < 10 {
		t.Fatalf("found %d .zsh files in %v, want at least 10", len(files), zshPackages)
	}
	var names []string
	var pairs [][2][]byte
	prose := 0
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, p)
		m, err := Classify(rel, src)
		if err != nil {
			t.Errorf("refused: %v", err)
			continue
		}
		prose += len(m.Spans(Prose))
		names = append(names, rel)
		pairs = append(pairs, [2][]byte{src, fillProse(src, m)})
	}
	compared := checkZshInvariance(t, names, pairs)
	t.Logf("%d zsh scripts, %d classified, %d prose regions; zsh read %d the same with every prose byte filled",
		len(files), len(pairs), prose, compared)
	if prose < 500 {
		t.Errorf("only %d prose regions in %d scripts", prose, len(pairs))
	}
}

// TestDParenSubshellLikeBash: "$((" is arithmetic only where the ")"
// closing its inner "(" is followed by ")", as bash and zsh read it
// (bash 5.2: "x=$((echo a) | tr a b)" sets b, "$((1)+(2))" is a command
// substitution and fails), and a comment inside the subshell is prose.
func TestDParenSubshellLikeBash(t *testing.T) {
	cases := []struct {
		src   string
		prose []string // the prose regions' text
	}{
		{"x=$((echo a) | tr a b) # c\n", []string{"# c"}},
		{"x=$(( (1) + (2) )) # c\n", []string{"# c"}},
		{"x=$((1 + 2)) # c\ny=$((a) ) # d\n", []string{"# c", "# d"}},
		{"echo '$((a) b)' \"$((a) | b)\" # c\n", []string{"# c"}},
	}
	var pairs [][2][]byte
	for _, c := range cases {
		m, err := Classify("a.sh", []byte(c.src))
		if err != nil {
			t.Errorf("%q: %v", c.src, err)
			continue
		}
		var got []string
		for _, r := range m.Spans(Prose) {
			got = append(got, c.src[r.Start:r.End])
		}
		if strings.Join(got, "|") != strings.Join(c.prose, "|") {
			t.Errorf("%q: prose %q, want %q", c.src, got, c.prose)
		}
		pairs = append(pairs, [2][]byte{[]byte(c.src), fillProse([]byte(c.src), m)})
	}
	if got := checkBashInvariance(t, pairs); got != len(pairs) {
		t.Errorf("bash compared %d of %d", got, len(pairs))
	}
	// bash finds the end of "$((echo a # c\n) | x)" reading it as
	// arithmetic, where "#" starts no comment ("x=$((echo a #)\n) 2>&1)"
	// is a syntax error), then reads it as commands: the comment stays.
	src := "x=$((echo a # in\n) 2>&1) # c\n"
	m, err := Classify("a.sh", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if r := m.At(strings.Index(src, "# in")); r.Kind != Runtime {
		t.Errorf("%q: the comment inside the subshell is %v (%s), want runtime", src, r.Kind, r.Why)
	}
	if r := m.At(strings.Index(src, "# c")); r.Kind != Prose {
		t.Errorf("%q: the comment after it is %v, want prose", src, r.Kind)
	}
}

// TestDParenSubshellRealScripts reads the real scripts with "$((cmd) ...)"
// (golang.org/x/exp's shootout/timing.sh, grafana/loki's tools/image-tag):
// neither is refused, and bash --pretty-print reads each the same with its
// prose filled.
func TestDParenSubshellRealScripts(t *testing.T) {
	if testing.Short() {
		t.Skip("real scripts from the module proxy")
	}
	scripts := []struct{ mod, file string }{
		{"golang.org/x/exp@v0.0.0-20261113113407-e3970619a1a4", "shootout/timing.sh"},
		{"github.com/grafana/loki/v3@v3.7.8", "tools/image-tag"},
	}
	var pairs [][2][]byte
	for _, s := range scripts {
		src, err := os.ReadFile(filepath.Join(testtool.GoModule(t, s.mod), s.file))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(src, []byte("$((")) {
			t.Fatalf("%s %s holds no $((", s.mod, s.file)
		}
		m, err := Classify(s.file, src)
		if err != nil {
			t.Errorf("%s: %v", s.mod, err)
			continue
		}
		if len(m.Spans(Prose)) == 0 {
			t.Errorf("%s %s: no prose", s.mod, s.file)
		}
		pairs = append(pairs, [2][]byte{src, fillProse(src, m)})
	}
	if got := checkBashInvariance(t, pairs); got != len(pairs) {
		t.Errorf("bash compared %d of %d scripts", got, len(pairs))
	}
}

// TestShellForeignDialectLine: bash checks only that a "${" closes until it
// expands it, so a bash script may hold zsh's expansion flags in a branch
// only zsh runs (git's bash completion does); the line is left runtime,
// the rest read, and bash --pretty-print reads it the same with the prose
// filled.
func TestShellForeignDialectLine(t *testing.T) {
	src := "# first\nif [[ -n ${ZSH_VERSION-} ]]; then\n\tunset ${(M)${(k)parameters[@]}:#__gitcomp_builtin_*} 2>/dev/null # gone\nelse\n\tunset $(compgen -v __gitcomp_builtin_) # kept\nfi\n"
	m, err := Classify("git.bash", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		at   string
		kind Kind
	}{{"# first", Prose}, {"# gone", Runtime}, {"# kept", Prose}, {"#__git", Runtime}} {
		if r := m.At(strings.Index(src, c.at)); r.Kind != c.kind {
			t.Errorf("%q: %v (%s), want %v", c.at, r.Kind, r.Why, c.kind)
		}
	}
	if got := checkBashInvariance(t, [][2][]byte{{[]byte(src), fillProse([]byte(src), m)}}); got != 1 {
		t.Error("bash did not read the script the same with its prose filled")
	}
}

// TestZshUnreadKeptRuntime: a zsh script zsh accepts but the parser cannot
// read within the rewrites it is given (here 70 functions named by an
// expansion, each line blanked in turn, past the bound) is kept runtime
// throughout, not refused.
func TestZshUnreadKeptRuntime(t *testing.T) {
	var b strings.Builder
	b.WriteString("# a comment\n")
	for i := range 70 {
		fmt.Fprintf(&b, "f_${n}%d() { :; }\n", i)
	}
	src := b.String()
	zsh := testtool.LookPath(t, "zsh", "apt-get install zsh")
	cmd := exec.Command(zsh, "-f", "-n")
	cmd.Stdin = strings.NewReader(src)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("zsh -n rejects the script: %v %s", err, out)
	}
	m, err := Classify("a.zsh", []byte(src))
	if err != nil {
		t.Fatalf("refused: %v", err)
	}
	if len(m.Regions) != 1 || m.Regions[0].Kind != Runtime || !strings.Contains(m.Regions[0].Why, "cannot read") {
		t.Errorf("regions %v, want one runtime region naming why", m.Regions)
	}
}
