package cli

import (
	"bytes"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testtool"
)

// GNU patch is the oracle for clean --diff's hunks: applied to the old
// file, the diff gives the new one, for in-place edits (what a clean makes)
// and for lines added and removed (what a rewrite stage may make). Lines
// are ASCII here, so <U+XXXX> rendering does not come into it.
func TestDiffAppliesWithPatch(t *testing.T) {
	patch := testtool.LookPath(t, "patch", "apt-get install patch")
	rng := rand.New(rand.NewSource(7))
	words := []string{"alpha", "beta", "gamma", "", "delta", "# heading", "x = 1"}
	for round := 0; round < 60; round++ {
		var a []string
		for i := rng.Intn(40); i > 0; i-- {
			a = append(a, words[rng.Intn(len(words))])
		}
		b := append([]string(nil), a...)
		for k := rng.Intn(5); k > 0 && len(b) > 0; k-- {
			i := rng.Intn(len(b))
			switch rng.Intn(3) {
			case 0:
				b[i] += " edited"
			case 1:
				if round%2 == 1 {
					b = append(b[:i], b[i+1:]...)
				}
			default:
				if round%2 == 1 {
					b = append(b[:i], append([]string{"inserted"}, b[i:]...)...)
				}
			}
		}
		before, after := []byte(strings.Join(a, "\n")+"\n"), []byte(strings.Join(b, "\n")+"\n")
		if len(a) == 0 {
			before = nil
		}
		var d bytes.Buffer
		writeDiff(&d, "f.txt", before, after)
		dir := t.TempDir()
		f := filepath.Join(dir, "f.txt")
		os.WriteFile(f, before, 0o644)
		if bytes.Equal(before, after) {
			if strings.Contains(d.String(), "@@") {
				t.Fatalf("round %d: a hunk for equal files:\n%s", round, d.String())
			}
			continue
		}
		cmd := exec.Command(patch, "-s", "-p1", "--no-backup-if-mismatch")
		cmd.Dir, cmd.Stdin = dir, &d
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("round %d: patch refused the diff: %v\n%s\n%s", round, err, out, d.String())
		}
		if got, _ := os.ReadFile(f); !bytes.Equal(got, after) {
			t.Fatalf("round %d: patched file differs\ngot  %q\nwant %q\ndiff:\n%s", round, got, after, d.String())
		}
	}
}

func TestDiffShowsCarriers(t *testing.T) {
	var d bytes.Buffer
	writeDiff(&d, "a.md", []byte("a\u200bb \U000E0069\u00a0x\uFE0F\n"), []byte("ab  x\n"))
	if !strings.Contains(d.String(), "-a<U+200B>b <U+E0069><U+00A0>x<U+FE0F>\n+ab  x\n") {
		t.Errorf("diff:\n%s", d.String())
	}
}

// A file name holding a newline or a terminal escape is quoted in the
// headers as git quotes it (a raw newline forged a header line, a raw
// escape reached the terminal); git apply, the oracle, finds the file by
// the quoted name and applies the hunk.
func TestDiffQuotesNamesAsGit(t *testing.T) {
	git := testtool.LookPath(t, "git", "apt-get install git")
	for _, name := range []string{"nl\n+++ forged.md", "esc\x1b]0;title\a.md", "bidi\u202e.md", "tab\tq\"uote.md", "plain name.md"} {
		var d bytes.Buffer
		before, after := []byte("old\n"), []byte("new\n") // ASCII: a carrier is shown, not applied
		writeDiff(&d, name, before, after)
		if bytes.ContainsAny(d.Bytes(), "\x1b\a\u202e\t") || strings.Count(d.String(), "\n") != 5 {
			t.Errorf("%q: raw control or extra line in the diff:\n%q", name, d.String())
		}
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, name), before, 0o644)
		cmd := exec.Command(git, "apply", "-p1", "--unsafe-paths", "-")
		cmd.Dir, cmd.Stdin = dir, &d
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%q: git apply refused the diff: %v\n%s\n%q", name, err, out, d.String())
		}
		if got, _ := os.ReadFile(filepath.Join(dir, name)); !bytes.Equal(got, after) {
			t.Errorf("%q: applied file holds %q", name, got)
		}
	}
}
