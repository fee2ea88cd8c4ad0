package gauge

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testtool"
)

// manLanguages are the Debian man page translations the per-language measurement reads: real
// prose in each language (Latin with accents, Cyrillic, CJK), not written for this test.
var manLanguages = []struct{ pkg, dir, lang string }{
	{"manpages-hu", "hu", "Hungarian"},
	{"manpages-de", "de", "German"},
	{"manpages-fr", "fr", "French"},
	{"manpages-es", "es", "Spanish"},
	{"manpages-pl", "pl", "Polish"},
	{"manpages-ru", "ru", "Russian"},
	{"manpages-ja", "ja", "Japanese"},
	{"manpages-zh", "zh_CN", "Chinese"},
}

// languageCorpus extracts the text of up to perLang man pages per language (2 to 24 KiB of
// text each, in name order, taking every other one from the first or the second) into dir and
// returns the files by language. The fit takes the even ones, the measurement the odd ones,
// so the per-language figures are on pages the weights never saw.
func languageCorpus(t *testing.T, dir string, odd, perLang int) map[string][]string {
	var pkgs []string
	for _, l := range manLanguages {
		pkgs = append(pkgs, l.pkg)
	}
	root := testtool.Debian(t, pkgs...)
	out := map[string][]string{}
	for _, l := range manLanguages {
		pages, _ := filepath.Glob(filepath.Join(root, "usr", "share", "man", l.dir, "man1", "*.gz"))
		sort.Strings(pages)
		seen := 0
		for _, p := range pages {
			if len(out[l.lang]) >= perLang {
				break
			}
			text, err := manText(p)
			if err != nil || len(text) < 2<<10 || len(text) > 24<<10 {
				continue
			}
			if seen++; seen%2 != odd {
				continue
			}
			f := filepath.Join(dir, l.dir+"-"+strings.TrimSuffix(filepath.Base(p), ".gz")+".txt")
			if err := os.WriteFile(f, text, 0o644); err != nil {
				t.Fatal(err)
			}
			out[l.lang] = append(out[l.lang], f)
		}
		if len(out[l.lang]) == 0 {
			t.Fatalf("no %s man pages under %s", l.lang, root)
		}
	}
	return out
}

// manText turns a gzipped roff man page into its plain text: macro lines keep their words,
// font and character escapes are dropped.
func manText(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	raw, err := io.ReadAll(io.LimitReader(z, 1<<20))
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	for _, line := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(line, ".") || strings.HasPrefix(line, "'") {
			macro, rest, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(line, "."), "'"), " ")
			switch macro {
			case "SH", "SS", "B", "I", "BI", "IB", "BR", "RB", "IR", "RI", "IP", "TP":
				line = strings.ReplaceAll(rest, "\"", "")
			default:
				continue
			}
		}
		b.WriteString(roffUnescape(line))
		b.WriteByte('\n')
	}
	return b.Bytes(), nil
}

func roffUnescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		i++
		switch s[i] {
		case 'f': // \fB, \f[B], \f(BI
			switch {
			case i+1 < len(s) && s[i+1] == '[':
				if j := strings.IndexByte(s[i:], ']'); j > 0 {
					i += j
				}
			case i+1 < len(s) && s[i+1] == '(':
				i += 3
			default:
				i++
			}
		case '(': // \(em and friends
			i += 2
			b.WriteByte(' ')
		case '-':
			b.WriteByte('-')
		case 'e', '\\':
			b.WriteByte('\\')
		case ' ':
			b.WriteByte(' ')
		case '&', '%', '|', '^':
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// TestEstimatorPerLanguage measures the estimator against the Claude tokenizer on real text
// in eight languages (Debian's translated man pages, pages the fit never saw) and on the
// development corpus of real memory files, and reports the mean error per language next to
// chars/4's; it fails when a language's mean error passes 12% or the memory files' 10%.
func TestEstimatorPerLanguage(t *testing.T) {
	dir := t.TempDir()
	byLang := languageCorpus(t, dir, 1, 25) // pages the fit never saw
	var all []string
	for _, fs := range byLang {
		all = append(all, fs...)
	}
	cs := countFiles(t, all)
	byPath := map[string]counted{}
	for _, c := range cs {
		byPath[c.Path] = c
	}
	var langs []string
	for l := range byLang {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	var report strings.Builder
	fmt.Fprintf(&report, "| language | files | prosewash mean | p95 | chars/4 mean |\n|---|---:|---:|---:|---:|\n")
	for _, l := range langs {
		var group []counted
		for _, f := range byLang[l] {
			if c, ok := byPath[f]; ok {
				group = append(group, c)
			}
		}
		claude := func(c counted) int { return c.Claude }
		ours := stats(relErrs(group, claude, func(b []byte) float64 { return float64(Estimate(b)) }))
		c4 := stats(relErrs(group, claude, func(b []byte) float64 { return float64(estimateCharsOver4(b)) }))
		fmt.Fprintf(&report, "| %s | %d | %.1f%% | %.1f%% | %.1f%% |\n", l, len(group), 100*ours.mean, 100*ours.p95, 100*c4.mean)
		if ours.mean > 0.12 {
			t.Errorf("%s: mean error %.1f%% above 12%%", l, 100*ours.mean)
		}
	}
	// The development corpus of real memory files, which no fit has seen.
	if mem := memoryCorpus(t); len(mem) > 0 {
		cs := countFiles(t, mem)
		claude := func(c counted) int { return c.Claude }
		errs := relErrs(cs, claude, func(b []byte) float64 { return float64(Estimate(b)) })
		ours := stats(errs)
		c4 := stats(relErrs(cs, claude, func(b []byte) float64 { return float64(estimateCharsOver4(b)) }))
		fmt.Fprintf(&report, "| real memory files (testdata/corpus/memory) | %d | %.1f%% | %.1f%% | %.1f%% |\n", len(cs), 100*ours.mean, 100*ours.p95, 100*c4.mean)
		for i, c := range cs {
			if errs[i] > 0.10 {
				fmt.Fprintf(&report, "  %s: %d tok, estimate %d (%.1f%%)\n", filepath.Base(c.Path), c.Claude, Estimate(c.text), 100*errs[i])
			}
		}
		if ours.mean > 0.10 {
			t.Errorf("real memory files: mean error %.1f%% above 10%%", 100*ours.mean)
		}
	}
	t.Log("\n" + report.String())
}

// memoryCorpus lists the development corpus of real memory files
// (testdata/corpus/memory).
func memoryCorpus(t *testing.T) []string {
	fs, _ := filepath.Glob(filepath.Join(testtool.MemoryCorpus(t), "*"))
	var out []string
	for _, f := range fs {
		if b := filepath.Base(f); b != "index.tsv" && b != "README.md" {
			out = append(out, f)
		}
	}
	return out
}
