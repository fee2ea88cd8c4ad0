package region

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testtool"
)

// TestProseLabelRecall measures what the prose-label rule gives back on
// Go's and Python's own sources: comment lines that open with a label
// ("Note:", "TODO:", "Deprecated:", "TODO(rsc):") were directives, so
// their carriers were only reported; now they are prose and cleaned. The
// figures are in docs/evidence/performance.md. Every line it moves must start with a label,
// and no line a tool reads may move.
func TestProseLabelRecall(t *testing.T) {
	if testing.Short() {
		t.Skip("walks GOROOT/src and the Python standard library")
	}
	roots := map[string]string{}
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		roots["go"] = filepath.Join(strings.TrimSpace(string(out)), "src")
	}
	if py, err := exec.LookPath("python3"); err == nil {
		if out, err := exec.Command(py, "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])").Output(); err == nil {
			roots["python"] = strings.TrimSpace(string(out))
		}
	}
	if roots["go"] == "" {
		testtool.Missing(t, "go", "go env GOROOT failed")
	}
	for _, lang := range []string{"go", "python"} {
		root := roots[lang]
		if root == "" {
			t.Logf("%s: no sources here", lang)
			continue
		}
		ext, marker := ".go", "//"
		if lang == "python" {
			ext, marker = ".py", "#"
		}
		var files, total, prose, labelled, directive int
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() && (d.Name() == "site-packages" || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			if !d.Type().IsRegular() || !strings.HasSuffix(p, ext) {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return nil
			}
			m, err := Classify(p, src)
			if err != nil {
				return nil
			}
			files++
			for _, r := range m.Regions {
				text := src[r.Start:r.End]
				if !bytes.HasPrefix(text, []byte(marker)) || (r.Kind != Prose && r.Kind != Directive) {
					continue
				}
				total++
				switch {
				case r.Kind == Directive:
					directive++
				case strings.HasPrefix(r.Why, "comment ("):
					labelled++
					prose++
					body := text[len(marker):]
					if proseLabel(body) == "" {
						t.Errorf("%s: %q is labelled prose without a label", p, text)
					}
				default:
					prose++
				}
			}
			return nil
		})
		if total == 0 {
			t.Fatalf("%s: no comment lines under %s", lang, root)
		}
		before := prose - labelled
		t.Logf("%s: %d files, %d %s comment lines: prose %d -> %d (%.1f%% -> %.1f%%), %d labelled lines now cleaned, %d directives left",
			lang, files, total, marker, before, prose, 100*float64(before)/float64(total), 100*float64(prose)/float64(total), labelled, directive)
		if labelled == 0 {
			t.Errorf("%s: the rule moved no line", lang)
		}
	}
}
