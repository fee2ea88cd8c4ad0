package region

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

type namedSource struct {
	name string
	src  []byte
}

// goldenInputs returns the golden fixtures whose names end in ext+".in".
func goldenInputs(t testing.TB, ext string) []namedSource {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "golden", "*"+ext+".in"))
	if err != nil {
		t.Fatal(err)
	}
	var out []namedSource
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, namedSource{strings.TrimSuffix(filepath.Base(f), ".in"), src})
	}
	return out
}
