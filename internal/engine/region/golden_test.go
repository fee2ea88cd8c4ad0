package region

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// Fixtures are testdata/golden/NAME.EXT.in; the classifier is chosen by
// NAME.EXT, so Go fixtures do not look like Go files to gofmt and go vet.
// Each golden file lists one region per line with a quoted preview.

func renderMap(m *Map, src []byte) string {
	var sb strings.Builder
	for _, r := range m.Regions {
		preview := src[r.Start:r.End]
		more := ""
		if len(preview) > 48 {
			preview, more = preview[:48], "..."
		}
		fmt.Fprintf(&sb, "%d-%d %s %s %s%s\n", r.Start, r.End, r.Kind, r.Why, strconv.Quote(string(preview)), more)
	}
	return sb.String()
}

func goldenFixtures(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "golden", "*.in"))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 30 {
		t.Fatalf("found %d fixtures under testdata/golden, want at least 30", len(files))
	}
	return files
}

func TestGolden(t *testing.T) {
	for _, in := range goldenFixtures(t) {
		name := strings.TrimSuffix(filepath.Base(in), ".in")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			m, err := Classify(name, src)
			if err != nil {
				t.Fatalf("Classify: %v", err)
			}
			got := renderMap(m, src)
			golden := strings.TrimSuffix(in, ".in") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestGolden -update to create it)", err)
			}
			if got != string(want) {
				gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
				for i := 0; i < len(gl) || i < len(wl); i++ {
					var g, w string
					if i < len(gl) {
						g = gl[i]
					}
					if i < len(wl) {
						w = wl[i]
					}
					if g != w {
						t.Fatalf("%s differs at line %d:\n got: %s\nwant: %s\n(run go test -run TestGolden -update after checking the change)", golden, i+1, g, w)
					}
				}
			}
		})
	}
}

// TestGoldenNoOrphans keeps golden files and fixtures paired.
func TestGoldenNoOrphans(t *testing.T) {
	goldens, err := filepath.Glob(filepath.Join("testdata", "golden", "*.golden"))
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range goldens {
		if _, err := os.Stat(strings.TrimSuffix(g, ".golden") + ".in"); err != nil {
			t.Errorf("%s has no fixture: %v", g, err)
		}
	}
}
