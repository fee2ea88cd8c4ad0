package gate

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden drop lists")

// TestVerifyGolden runs Verify on the OLD/NEW pairs in testdata/verify and compares the
// rendered drop list (what `prosewash wash verify` prints) with NAME.drops.
func TestVerifyGolden(t *testing.T) {
	olds, err := filepath.Glob(filepath.Join("testdata", "verify", "*.old.md"))
	if err != nil || len(olds) == 0 {
		t.Fatalf("no golden cases: %v", err)
	}
	for _, old := range olds {
		name := strings.TrimSuffix(old, ".old.md")
		t.Run(filepath.Base(name), func(t *testing.T) {
			a, err := os.ReadFile(old)
			if err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(name + ".new.md")
			if err != nil {
				t.Fatal(err)
			}
			got := Render(Verify(a, b))
			golden := name + ".drops"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("read golden (run with -update): %v", err)
			}
			if got != string(want) {
				t.Errorf("drops differ from %s:\n got:\n%s\nwant:\n%s", golden, got, want)
			}
		})
	}
}
