package gauge

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/prosewash/prosewash/internal/testtool"
)

var fitFlag = flag.Bool("estimator.fit", false, "fit new estimator weights and print them")

// tokenizerDir is the npm prefix holding the real tokenizers, pinned and installed by
// testtool.NPM into a cache outside the repository ($PROSEWASH_TOKENIZER_DIR overrides it).
func tokenizerDir(t *testing.T) string {
	if d := os.Getenv("PROSEWASH_TOKENIZER_DIR"); d != "" {
		return d
	}
	return testtool.NPM(t, "@anthropic-ai/tokenizer@0.0.4", "gpt-tokenizer@4.0.0")
}

// corpus lists the committed fixtures plus Markdown files shipped on this machine (Debian
// package docs and the Go distribution's), capped in size and count, in a stable order.
func corpus(t *testing.T) []string {
	var files []string
	fix, err := filepath.Glob(filepath.Join("..", "testdata", "corpus", "*"))
	if err != nil || len(fix) == 0 {
		t.Fatalf("fixtures missing: %v", err)
	}
	for _, f := range fix {
		abs, _ := filepath.Abs(f)
		files = append(files, abs)
	}
	for _, root := range []string{"/usr/share/doc", testtool.GOROOT(t)} {
		var found []string
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") || !d.Type().IsRegular() {
				return nil
			}
			if info, err := d.Info(); err == nil && info.Size() >= 200 && info.Size() <= 64<<10 {
				found = append(found, p)
			}
			return nil
		})
		sort.Strings(found)
		if len(found) > 120 {
			found = found[:120]
		}
		files = append(files, found...)
	}
	return files
}

type counted struct {
	Path   string `json:"path"`
	Bytes  int    `json:"bytes"`
	Claude int    `json:"claude"`
	O200k  int    `json:"o200k"`
	text   []byte
}

func realCounts(t *testing.T) []counted {
	files := corpus(t)
	res := countFiles(t, files)
	if len(res) < len(files)/2 {
		t.Fatalf("only %d of %d files counted", len(res), len(files))
	}
	return res
}

// countFiles counts the files' real tokens with the pinned tokenizers (through tokcount.js).
func countFiles(t *testing.T, files []string) []counted {
	dir := tokenizerDir(t)
	node := testtool.LookPath(t, "node", "apt-get install nodejs")
	script, _ := filepath.Abs(filepath.Join("..", "testdata", "tokcount.js"))
	cmd := exec.Command(node, script, dir)
	cmd.Stdin = strings.NewReader(strings.Join(files, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("tokcount.js: %v: %s", err, stderr.String())
	}
	var res []counted
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var c counted
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("parse tokcount output: %v", err)
		}
		c.text, err = os.ReadFile(c.Path)
		if err != nil {
			t.Fatal(err)
		}
		if c.Claude > 0 {
			res = append(res, c)
		}
	}
	return res
}

type errStats struct{ mean, p95, max float64 }

func stats(errs []float64) errStats {
	s := append([]float64(nil), errs...)
	sort.Float64s(s)
	sum := 0.0
	for _, e := range s {
		sum += e
	}
	return errStats{mean: sum / float64(len(s)), p95: s[int(math.Ceil(0.95*float64(len(s))))-1], max: s[len(s)-1]}
}

func relErrs(cs []counted, real func(counted) int, est func([]byte) float64) []float64 {
	out := make([]float64, len(cs))
	for i, c := range cs {
		r := float64(real(c))
		out[i] = math.Abs(est(c.text)-r) / r
	}
	return out
}

// TestEstimatorAgainstBPE measures the estimator against real BPE tokenizers and fails if it is
// not clearly better than chars/4. With -estimator.fit it fits and prints new weights from the
// even-indexed files and reports the held-out error on the odd-indexed ones.
func TestEstimatorAgainstBPE(t *testing.T) {
	cs := realCounts(t)
	claude := func(c counted) int { return c.Claude }
	o200k := func(c counted) int { return c.O200k }
	charsOver4 := func(b []byte) float64 { return float64(estimateCharsOver4(b)) }
	bytesOver4 := func(b []byte) float64 { return float64(len(b)) / 4 }
	original := func(b []byte) float64 { // CoalWash: asciiChars/4 + nonAsciiChars/1.5
		ascii, other := 0, 0
		for _, r := range string(b) {
			if r < 0x80 {
				ascii++
			} else {
				other++
			}
		}
		return math.Round(float64(ascii)/4 + float64(other)/1.5)
	}
	ours := func(b []byte) float64 { return float64(Estimate(b)) }
	if *fitFlag {
		fitAndReport(t, cs)
	}
	rows := []struct {
		name string
		est  func([]byte) float64
	}{{"bytes/4", bytesOver4}, {"chars/4", charsOver4}, {"CoalWash ascii/4+other/1.5", original}, {"prosewash (class-weighted)", ours}}
	var report strings.Builder
	fmt.Fprintf(&report, "files: %d\n| estimator | vs claude mean | p95 | max | vs o200k mean | p95 | max |\n|---|---:|---:|---:|---:|---:|---:|\n", len(cs))
	res := map[string]errStats{}
	for _, r := range rows {
		a := stats(relErrs(cs, claude, r.est))
		b := stats(relErrs(cs, o200k, r.est))
		res[r.name] = a
		fmt.Fprintf(&report, "| %s | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %.1f%% |\n", r.name, 100*a.mean, 100*a.p95, 100*a.max, 100*b.mean, 100*b.p95, 100*b.max)
	}
	// Per-class view of our estimator on the committed fixtures (memory-shaped text).
	fmt.Fprintf(&report, "\nfixtures:\n| file | bytes | claude | o200k | chars/4 | prosewash |\n|---|---:|---:|---:|---:|---:|\n")
	for _, c := range cs {
		if strings.Contains(c.Path, filepath.Join("testdata", "corpus")) {
			fmt.Fprintf(&report, "| %s | %d | %d | %d | %d | %d |\n", filepath.Base(c.Path), c.Bytes, c.Claude, c.O200k, estimateCharsOver4(c.text), Estimate(c.text))
		}
	}
	t.Log("\n" + report.String())
	if ours, base := res["prosewash (class-weighted)"], res["chars/4"]; ours.mean >= base.mean || ours.p95 >= base.p95 {
		t.Errorf("estimator no better than chars/4: mean %.3f vs %.3f, p95 %.3f vs %.3f", ours.mean, base.mean, ours.p95, base.p95)
	}
	if ours := res["prosewash (class-weighted)"]; ours.mean > 0.10 || ours.p95 > 0.25 {
		t.Errorf("estimator error above its documented bound: mean %.3f (<= 0.10), p95 %.3f (<= 0.25)", ours.mean, ours.p95)
	}
}

func formatWeights(w []float64) string {
	parts := make([]string, len(w))
	for i, x := range w {
		parts[i] = fmt.Sprintf("%.4f", x)
	}
	return strings.Join(parts, ", ")
}

// fitAndReport fits new weights on the Markdown corpus plus 40 man pages of each language
// (the even ones; the per-language measurement reads the odd ones), reports the error of weights fitted on the even-indexed half on the odd-indexed
// half, and prints the weights fitted on everything.
func fitAndReport(t *testing.T, cs []counted) {
	byLang := languageCorpus(t, t.TempDir(), 0, 40)
	var files []string
	for _, fs := range byLang {
		files = append(files, fs...)
	}
	sort.Strings(files)
	all := append(append([]counted(nil), cs...), countFiles(t, files)...)
	var train, test []counted
	for i, c := range all {
		if i%2 == 0 {
			train = append(train, c)
		} else {
			test = append(test, c)
		}
	}
	w := fit(train)
	fitted := func(b []byte) float64 {
		v := Measure(b).Vector()
		s := 0.0
		for i := range v {
			s += v[i] * w[i]
		}
		return math.Round(s)
	}
	claude := func(c counted) int { return c.Claude }
	t.Logf("weights (train n=%d): %s", len(train), formatWeights(w))
	t.Logf("held-out n=%d: fitted %+v chars/4 %+v", len(test), stats(relErrs(test, claude, fitted)), stats(relErrs(test, claude, func(b []byte) float64 { return float64(estimateCharsOver4(b)) })))
	t.Logf("weights (all n=%d): %s", len(all), formatWeights(fit(all)))
}

// fit solves least squares on the relative error per file (each row divided by its real
// count, so a short file weighs as much as a long one) with every weight non-negative: a
// feature whose weight comes out negative is dropped and the rest refitted, so removing text
// never raises an estimate.
func fit(cs []counted) []float64 {
	xs := make([][]float64, len(cs))
	ys := make([]float64, len(cs))
	for i, c := range cs {
		xs[i], ys[i] = Measure(c.text).Vector(), float64(c.Claude)
	}
	n := len(xs[0])
	on := make([]bool, n)
	for i := range on {
		on[i] = true
	}
	for {
		var idx []int
		for i := range on {
			if on[i] {
				idx = append(idx, i)
			}
		}
		sub := make([][]float64, len(xs))
		for k, x := range xs {
			for _, i := range idx {
				sub[k] = append(sub[k], x[i])
			}
		}
		ws := lsq(sub, ys, 1e-4)
		w := make([]float64, n)
		neg := false
		for j, i := range idx {
			w[i] = ws[j]
			if ws[j] < 0 {
				on[i], neg = false, true
			}
		}
		if !neg {
			return w
		}
	}
}

// lsq minimises the sum of ((x.w - y)/y)^2 plus a small ridge, by Gaussian elimination.
func lsq(xs [][]float64, ys []float64, lambda float64) []float64 {
	n := len(xs[0])
	a := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, n+1)
	}
	for k, x := range xs {
		y := ys[k]
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				a[i][j] += x[i] / y * x[j] / y
			}
			a[i][n] += x[i] / y
		}
	}
	for i := 0; i < n; i++ {
		a[i][i] += lambda
	}
	for col := 0; col < n; col++ {
		p := col
		for r := col + 1; r < n; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[p][col]) {
				p = r
			}
		}
		a[col], a[p] = a[p], a[col]
		for r := 0; r < n; r++ {
			if r == col || a[col][col] == 0 {
				continue
			}
			f := a[r][col] / a[col][col]
			for k := col; k <= n; k++ {
				a[r][k] -= f * a[col][k]
			}
		}
	}
	w := make([]float64, n)
	for i := 0; i < n; i++ {
		if a[i][i] != 0 {
			w[i] = a[i][n] / a[i][i]
		}
	}
	return w
}

func TestEstimateBasics(t *testing.T) {
	if Estimate(nil) != 0 {
		t.Error("empty text costs tokens")
	}
	short := Estimate([]byte(strings.Repeat("- run the tests before every release\n", 10)))
	long := Estimate([]byte(strings.Repeat("- run the tests before every release\n", 100)))
	if short <= 0 || long < 9*short || long > 11*short {
		t.Errorf("estimate not roughly additive: %d vs %d", short, long)
	}
	if Estimate([]byte("Operatív Központ")) <= Estimate([]byte("Operativ Kozpont")) {
		t.Error("accented Latin letters should cost more than plain ones")
	}
	if Estimate([]byte("数据库迁移")) <= Estimate([]byte("abcde")) {
		t.Error("CJK should cost more per character than ASCII letters")
	}
}

func BenchmarkEstimate(b *testing.B) {
	text := bytes.Repeat([]byte("- deploy with `make release` on 2024-03-05 → ok ✅ 数据库\n"), 2000)
	b.SetBytes(int64(len(text)))
	for i := 0; i < b.N; i++ {
		Estimate(text)
	}
}

// TestCounterSplitsAnywhere: a text fed to the streaming Counter in pieces of any size, cut
// inside a rune, a word, a digit run or a space run, has exactly the features of the whole
// text, so a streamed reading of a file too large to hold is the reading of the file.
func TestCounterSplitsAnywhere(t *testing.T) {
	texts := [][]byte{
		[]byte("- deploy with `make release` on 2024-03-05 → ok ✅ 数据库  and   Operatív Központ 123456\n"),
		[]byte("สวัสดีครับ 日本語のテキスト \xff\xe2\x82 broken utf8 \xe2\x82\xac end"),
		{0xe2},
		[]byte(strings.Repeat("ő", 50) + "12345678901"),
	}
	for _, text := range texts {
		want := Measure(text)
		for step := 1; step <= 7; step++ {
			var c Counter
			for i := 0; i < len(text); i += step {
				c.Write(text[i:min(len(text), i+step)])
			}
			if got := c.Features(); got != want {
				t.Errorf("step %d on %q: %+v, want %+v", step, text, got, want)
			}
		}
	}
}

func FuzzCounter(f *testing.F) {
	f.Add([]byte("a\xe2\x82\xacb 12 34"), uint8(2))
	f.Fuzz(func(t *testing.T, text []byte, step uint8) {
		s := int(step%16) + 1
		var c Counter
		for i := 0; i < len(text); i += s {
			c.Write(text[i:min(len(text), i+s)])
		}
		if got, want := c.Features(), Measure(text); got != want {
			t.Fatalf("step %d: %+v, want %+v", s, got, want)
		}
	})
}

// estimateCharsOver4 is the classic chars/4 rule, the baseline the fitted
// estimate is compared with.
func estimateCharsOver4(text []byte) int {
	return (utf8.RuneCount(text) + 3) / 4
}
