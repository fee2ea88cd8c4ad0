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
