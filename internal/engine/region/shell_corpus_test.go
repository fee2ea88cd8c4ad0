package region

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"github.com/prosewash/prosewash/internal/testtool"
)

// shellCorpusPackages ship many shell scripts: maintainer helpers, bash
// completions (extension-less, no shebang: they are sourced by bash).
var shellCorpusPackages = []string{"bash-completion", "debhelper", "devscripts", "dash", "lsb-base"}

// shellCorpus returns the shell scripts of the corpus packages, each with the
// name to classify it under (completions get a .bash suffix).
func shellCorpus(t *testing.T) (files []string, names map[string]string) {
	t.Helper()
	root := testtool.Debian(t, shellCorpusPackages...)
	names = map[string]string{}
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		name := ""
		switch {
		case strings.Contains(rel, "bash-completion/completions/"):
			name = rel + ".bash"
		case languageByName(rel) == "shell":
			name = rel
		default:
			f, err := os.Open(p)
			if err != nil {
				return nil
			}
			head := make([]byte, 128)
			n, _ := f.Read(head)
			f.Close()
			if shellByContent(head[:n]) != "" {
				name = rel
			}
		}
		if name != "" {
			files = append(files, p)
			names[p] = name
		}
		return nil
	})
	sort.Strings(files)
	return files, names
}

// singleQuoted returns an offset just inside each single-quoted string of a
// script that parses: literal injection points a cleaner must never touch.
func singleQuoted(src []byte, variants []syntax.LangVariant) []int {
	var out []int
	for _, v := range variants {
		f, err := syntax.NewParser(syntax.Variant(v)).Parse(bytes.NewReader(src), "")
		if err != nil {
			continue
		}
		syntax.Walk(f, func(n syntax.Node) bool {
			if q, ok := n.(*syntax.SglQuoted); ok {
				off := int(q.Left.Offset())
				if q.Dollar {
					off++
				}
				if off < len(src) && src[off] == '\'' && off+1 < int(q.Right.Offset()) {
					out = append(out, off+1)
				}
			}
			return true
		})
		return out
	}
	return nil
}

func TestShellCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus test")
	}
	files, names := shellCorpus(t)
	if len(files) < 300 {
		t.Fatalf("found %d shell scripts in %v, want at least 300", len(files), shellCorpusPackages)
	}
	classified, refused, prose, literals, skipped := 0, 0, 0, 0, 0
	var blankedPairs [][2][]byte
	for _, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		name := names[p]
		m, err := Classify(name, src)
		if err != nil {
			refused++
			t.Logf("refused: %v", err)
			continue
		}
		classified++
		_, vs := shellVariants(name, src)
		np, nl := checkInjection(t, p, name, src, m, singleQuoted(src, vs))
		if np < 0 {
			skipped++
		} else {
			prose += np
			literals += nl
		}
		blankedPairs = append(blankedPairs, [2][]byte{src, fillProse(src, m)})
	}
	if refused > len(files)/50 {
		t.Errorf("refused %d of %d scripts", refused, len(files))
	}
	if prose < 2000 || literals < 1000 {
		t.Errorf("only %d prose and %d literal injections", prose, literals)
	}
	t.Logf("%d scripts: %d classified, %d refused, %d with carriers already; injected %d prose and %d literal carriers",
		len(files), classified, refused, skipped, prose, literals)
	compared := checkBashInvariance(t, blankedPairs)
	if compared < classified*9/10 {
		t.Errorf("bash compared only %d of %d classified scripts", compared, classified)
	}
	t.Logf("bash --pretty-print: %d scripts read the same with every prose byte replaced", compared)
}

// fillProse replaces every byte of every prose region after its '#' with
// 'Q': a region that is really a comment can hold anything.
func fillProse(src []byte, m *Map) []byte {
	out := bytes.Clone(src)
	for _, r := range m.Regions {
		if r.Kind == Prose {
			for k := r.Start + 1; k < r.End; k++ {
				out[k] = 'Q'
			}
		}
	}
	return out
}

// bashPrint returns bash's own rendering of a script, which leaves out
// comments: bash --pretty-print parses and prints without running anything.
func bashPrint(ctx context.Context, bash, dir string, src []byte) ([]byte, bool) {
	f := filepath.Join(dir, "probe.sh")
	if err := os.WriteFile(f, src, 0o600); err != nil {
		return nil, false
	}
	// Long options must come before the single-character ones.
	cmd := exec.CommandContext(ctx, bash, "--norc", "--noprofile", "--pretty-print", "-O", "extglob", f)
	cmd.Env = []string{"PATH=" + dir, "LC_ALL=C.UTF-8"}
	cmd.Dir = dir
	out, err := cmd.Output()
	return out, err == nil
}

// checkBashInvariance proves, with bash as the judge, that each pair's two
// scripts (an original and the same script with its prose regions filled)
// are the same program. It returns the number of pairs bash could parse.
func checkBashInvariance(t *testing.T, pairs [][2][]byte) int {
	t.Helper()
	bash := testtool.LookPath(t, "bash", "apt-get install bash")
	if out, err := exec.Command(bash, "--pretty-print", "-c", "true").CombinedOutput(); err != nil {
		testtool.Missing(t, "bash", "bash has no --pretty-print (bash 5.2 or later is needed): "+string(out))
	}
	dir := t.TempDir()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	compared := 0
	for _, pr := range pairs {
		a, ok := bashPrint(ctx, bash, dir, pr[0])
		if !ok {
			continue
		}
		b, ok := bashPrint(ctx, bash, dir, pr[1])
		if !ok {
			t.Errorf("bash parses the original but not the script with its prose filled:\n%s", firstLines(pr[1], 5))
			continue
		}
		if !bytes.Equal(a, b) {
			i := 0
			for i < len(a) && i < len(b) && a[i] == b[i] {
				i++
			}
			t.Errorf("filling prose changed bash's reading at byte %d of its print:\n orig %q\n fill %q", i,
				a[max(0, i-60):min(len(a), i+60)], b[max(0, i-60):min(len(b), i+60)])
			continue
		}
		compared++
	}
	return compared
}

func firstLines(b []byte, n int) string {
	lines := strings.SplitN(string(b), "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, "\n")
}

// TestShellFixturesAgainstBash runs the bash invariance check on the golden
// fixtures and on hand-made scripts full of the tricky cases.
func TestShellFixturesAgainstBash(t *testing.T) {
	var pairs [][2][]byte
	files, _ := filepath.Glob(filepath.Join("testdata", "golden", "*.in"))
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".in")
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if Language(name, src) != "shell" {
			continue
		}
		m, err := Classify(name, src)
		if err != nil {
			t.Fatal(err)
		}
		pairs = append(pairs, [2][]byte{src, fillProse(src, m)})
	}
	if len(pairs) < 3 {
		t.Fatalf("only %d shell fixtures", len(pairs))
	}
	if got := checkBashInvariance(t, pairs); got != len(pairs) {
		t.Errorf("bash compared %d of %d fixtures", got, len(pairs))
	}
	// The judge can fail: filling a byte bash reads is seen.
	bash := testtool.LookPath(t, "bash", "apt-get install bash")
	dir := t.TempDir()
	for _, pr := range [][2]string{
		{"echo a # c\n", "echo Q # c\n"},
		{"cat <<EOF\n# body\nEOF\n", "cat <<EOF\n#QQQQ\nEOF\n"},
		{"x=`echo # c`\n", "x=`echo #QQ`\n"},
	} {
		a, okA := bashPrint(t.Context(), bash, dir, []byte(pr[0]))
		b, okB := bashPrint(t.Context(), bash, dir, []byte(pr[1]))
		if !okA || !okB || bytes.Equal(a, b) {
			t.Errorf("bash does not tell %q from %q", pr[0], pr[1])
		}
	}
}
