package region

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testtool"
)

// A .txt that is data, not prose, is runtime as a whole and says why.
func TestTextThatIsData(t *testing.T) {
	for _, tc := range []struct {
		path, src, why string
	}{
		{"notes.txt", "Plain notes with a stray\u200b space.\n", ""},
		{"script.txt", "# a Go script test\nexec go version\n\n-- go.mod --\nmodule m\n-- a.go --\npackage a // \u200b\n", "test data: a txtar archive"},
		{"jp.txt", "\x1b$B$3$s$K$A$O\x1b(B\n", "encoded text: ISO-2022 escape sequences are the encoding"},
		{"kr.txt", "\x1b$)C\x0e!!\x0f\n", "encoded text: ISO-2022 escape sequences are the encoding"},
		{"hz.txt", "~{<:Ky2;S{#,NpJ)l6HK!#~}\n", "encoded text: HZ escape sequences are the encoding"},
		{"pkg/testdata/golden.txt", "expected output\u200b\n", "test data: in a testdata directory"},
		{"tests/Fixtures/out.txt", "x\n", "test data: in a fixtures directory"},
		{"colours.txt", "\x1b[31mred\x1b[0m text\n", ""},
		{"dashes.txt", "-- not a marker\n---- x ----\n", ""},
	} {
		m, err := Classify(tc.path, []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		if tc.why == "" {
			if len(m.Spans(Prose)) == 0 {
				t.Errorf("%s: no prose in %q", tc.path, tc.src)
			}
			continue
		}
		if len(m.Regions) != 1 || m.Regions[0].Kind != Runtime || m.Regions[0].Why != tc.why {
			t.Errorf("%s: %s, want one runtime region %q", tc.path, m, tc.why)
		}
	}
}

// CPython's own ISO-2022 fixtures (cleaning one made it no longer decode
// to its UTF-8 twin) and Go's script tests, read from where they live.
func TestTextRealData(t *testing.T) {
	if py, err := exec.LookPath("python3"); err == nil {
		out, err := exec.Command(py, "-c", "import test, os; print(os.path.dirname(test.__file__))").Output()
		dir := filepath.Join(strings.TrimSpace(string(out)), "cjkencodings")
		if err == nil {
			files, _ := filepath.Glob(filepath.Join(dir, "iso2022_*.txt"))
			for _, f := range files {
				if strings.HasSuffix(f, "-utf8.txt") {
					continue
				}
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				m, err := Classify(filepath.Base(f), data)
				if err != nil {
					t.Fatal(err)
				}
				if len(m.Spans(Prose)) != 0 {
					t.Errorf("%s: ISO-2022 text has prose regions", f)
				}
			}
			t.Logf("%d CPython ISO-2022 fixtures checked", len(files))
		}
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		testtool.Missing(t, "go", fmt.Sprintf("go env GOROOT: %v", err))
	}
	scripts, _ := filepath.Glob(filepath.Join(strings.TrimSpace(string(goroot)), "src", "cmd", "go", "testdata", "script", "*.txt"))
	if len(scripts) == 0 {
		t.Skip("GOROOT has no cmd/go script tests")
	}
	n := 0
	for _, f := range scripts[:min(len(scripts), 200)] {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !isTxtar(data) {
			continue // a script without files is only commands
		}
		n++
		// Outside a testdata directory, the archive is still recognised.
		m, err := Classify(filepath.Base(f), data)
		if err != nil {
			t.Fatal(err)
		}
		if len(m.Spans(Prose)) != 0 {
			t.Errorf("%s: a txtar archive has prose regions", f)
		}
	}
	if n < 100 {
		t.Fatalf("only %d of the first 200 Go script tests hold files", n)
	}
}
