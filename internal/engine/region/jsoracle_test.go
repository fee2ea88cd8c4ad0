package region

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/prosewash/prosewash/internal/testtool"
)

// jsNPM are the pinned npm packages of the JavaScript and JSON tests: the
// oracles (the TypeScript compiler, acorn with acorn-jsx, Microsoft's
// jsonc-parser) and the real-code corpus (TypeScript's own lib .d.ts and
// compiler, React and React DOM, a TSX router's sources, jQuery's minified
// bundle, RxJS's TypeScript sources and tsconfig files, commented tsconfig
// presets).
var jsNPM = []string{
	"typescript@6.0.3", "acorn@8.19.0", "acorn-jsx@5.3.2", "jsonc-parser@3.3.1",
	"react@19.3.1", "react-dom@19.3.1", "@tanstack/react-router@1.170.46", "jquery@4.0.0",
	"rxjs@7.8.2", "@vue/tsconfig@0.9.1", "@tsconfig/strictest@2.0.8",
}

// jsNodeModules installs jsNPM (once, cached outside the repository) and
// returns its node_modules directory.
func jsNodeModules(t *testing.T) string {
	t.Helper()
	testtool.LookPath(t, "node", "apt-get install nodejs")
	return filepath.Join(testtool.NPM(t, jsNPM...), "node_modules")
}

var jsExts = map[string]bool{".js": true, ".mjs": true, ".cjs": true, ".jsx": true, ".ts": true, ".tsx": true, ".mts": true, ".cts": true}

// jsCorpus returns a stable sample of the corpus's JavaScript and
// TypeScript files: every JSX/TSX file, TypeScript's lib .d.ts files and
// about n others spread over the sorted list.
func jsCorpus(t *testing.T, nm string, n int) []string {
	t.Helper()
	var all, keep []string
	_ = filepath.WalkDir(nm, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !jsExts[strings.ToLower(filepath.Ext(p))] {
			return nil
		}
		if fi, err := d.Info(); err != nil || fi.Size() > 3<<20 {
			return nil // the oracles' node walk is slow on the biggest bundles
		}
		switch {
		case strings.HasSuffix(p, ".tsx") || strings.HasSuffix(p, ".jsx"),
			strings.Contains(p, "/typescript/lib/lib.") && strings.HasSuffix(p, ".d.ts"),
			strings.HasSuffix(p, ".min.js"):
			keep = append(keep, p)
		default:
			all = append(all, p)
		}
		return nil
	})
	keep = append(keep, sampleEvenly(all, n)...)
	sort.Strings(keep)
	return dedupStrings(keep)
}

// sampleEvenly returns up to n of all, spread evenly over the sorted list,
// so that a sample is stable from run to run.
func sampleEvenly(all []string, n int) []string {
	sort.Strings(all)
	var out []string
	for i := 0; i < n && len(all) > 0; i++ {
		out = append(out, all[i*len(all)/n])
	}
	return out
}

func dedupStrings(s []string) []string {
	out := s[:0]
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// jsFixtures copies the golden fixtures of the JS/TS languages into a
// temporary directory under their real names (NAME.EXT.in -> NAME.EXT).
func jsFixtures(t *testing.T) []string {
	t.Helper()
	var exts []string
	for ext := range jsExts {
		exts = append(exts, ext)
	}
	return copyFixtures(t, exts...)
}

// copyFixtures copies the golden fixtures NAME.EXT.in for each EXT into a
// temporary directory as NAME.EXT, where tools that go by the name can read
// them.
func copyFixtures(t *testing.T, exts ...string) []string {
	t.Helper()
	dir := t.TempDir()
	var out []string
	for _, ext := range exts {
		files, _ := filepath.Glob(filepath.Join("testdata", "golden", "*"+ext+".in"))
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(dir, strings.TrimSuffix(filepath.Base(f), ".in"))
			if err := os.WriteFile(p, src, 0o600); err != nil {
				t.Fatal(err)
			}
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

type oracleResult struct {
	Path        string   `json:"path"`
	Error       string   `json:"error"`
	Comments    [][2]int `json:"comments"`
	Literals    [][2]int `json:"literals"`
	Diagnostics int      `json:"diagnostics"`
	SourceType  string   `json:"sourceType"`
}

// runOracle runs testdata/js/oracle.cjs in mode over files, in batches.
func runOracle(t *testing.T, nm, mode string, files []string) map[string]oracleResult {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("testdata", "js", "oracle.cjs"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]oracleResult{}
	for len(files) > 0 {
		batch := files[:min(len(files), 150)]
		files = files[len(batch):]
		cmd := exec.CommandContext(t.Context(), "node", append([]string{"--max-old-space-size=4096", script, nm, mode}, batch...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		stdout, err := cmd.Output()
		if err != nil {
			t.Fatalf("oracle %s: %v\n%s", mode, err, stderr.String())
		}
		sc := bufio.NewScanner(bytes.NewReader(stdout))
		sc.Buffer(make([]byte, 1<<20), 256<<20)
		for sc.Scan() {
			var r oracleResult
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatalf("oracle output: %v", err)
			}
			out[r.Path] = r
		}
	}
	return out
}

// checkInjected writes a U+200B into every comment the oracle found (at
// its end, before "*/" for a block comment) and into every literal (after
// its first byte), as an agent might, and classifies the result: a carrier
// in a comment must take the kind of the comment text it follows (prose,
// directive, or runtime inside a JSDoc type), a carrier in a literal must
// be runtime, and every original byte must keep its kind.
func checkInjected(t *testing.T, r oracleResult, src []byte, m *Map, tally *oracleTally) {
	t.Helper()
	type site struct {
		at   int
		want Kind
	}
	var sites []site
	for _, c := range r.Comments {
		at := c[1] // the end of a line comment
		if src[c[0]+1] == '*' {
			at = c[1] - 2 // before "*/"
		}
		if at > c[0]+2 {
			sites = append(sites, site{at, m.At(at - 1).Kind})
		}
	}
	for _, l := range r.Literals {
		if l[1]-l[0] >= 2 {
			sites = append(sites, site{l[0] + 1, Runtime})
		}
	}
	sort.Slice(sites, func(i, j int) bool { return sites[i].at < sites[j].at })
	var mut []byte
	newOff := make([]int, len(src)+1)
	k := 0
	for i := 0; i <= len(src); i++ {
		for k < len(sites) && sites[k].at == i {
			if i < len(src) && !utf8.RuneStart(src[i]) {
				sites[k].at = -1 // inside a multi-byte character: skipped
			} else {
				sites[k].at = len(mut)
				mut = append(mut, "\u200b"...)
			}
			k++
		}
		newOff[i] = len(mut)
		if i < len(src) {
			mut = append(mut, src[i])
		}
	}
	m2, err := Classify(r.Path, mut)
	if err != nil {
		t.Errorf("%s: with carriers injected into comments and literals: %v", r.Path, err)
		return
	}
	for _, s := range sites {
		if s.at < 0 {
			continue
		}
		tally.injected++
		if got := m2.At(s.at); got.Kind != s.want {
			t.Errorf("%s: a carrier injected at %d is %s %q, want %s", r.Path, s.at, got.Kind, got.Why, s.want)
		}
	}
	for i := range src {
		if a, b := m.At(i).Kind, m2.At(newOff[i]).Kind; a != b {
			t.Errorf("%s: byte %d was %s, with carriers injected it is %s", r.Path, i, a, b)
			return
		}
	}
}

// oracleTally sums the agreement figures over a corpus.
type oracleTally struct {
	files, refused, skipped          int
	comments, commentBytes, ourBytes int // oracle comments; their bytes; of those, non-runtime for us
	lostComments                     int // oracle comments that are wholly runtime for us
	injected                         int // carriers injected into comments and literals
}

// checkOracle compares the classifier's map of src with the oracle's
// comments and literals: a byte the oracle calls code (anything outside
// its comments) must never be prose or a directive, and every literal byte
// is runtime.
func checkOracle(t *testing.T, r oracleResult, src []byte, tally *oracleTally) {
	t.Helper()
	m, err := Classify(r.Path, src)
	if err != nil {
		var re *RefusedError
		if !errors.As(err, &re) {
			t.Fatalf("%s: %v", r.Path, err)
		}
		tally.refused++
		if r.Diagnostics == 0 {
			t.Errorf("%s: refused a file the oracle parses without error: %v", r.Path, err)
		}
		return
	}
	tally.files++
	inComment := make([]bool, len(src))
	for _, c := range r.Comments {
		for k := c[0]; k < c[1] && k < len(src); k++ {
			inComment[k] = true
		}
	}
	for _, reg := range m.Regions {
		if reg.Kind == Runtime || reg.Why == "directive: shebang" {
			continue
		}
		for k := reg.Start; k < reg.End; k++ {
			if !inComment[k] {
				t.Errorf("%s: %s byte %d (%s %q) is code for the oracle", r.Path, reg.Kind, k, reg.Why, preview(src, reg.Start, reg.End))
				break
			}
		}
	}
	for _, l := range r.Literals {
		for off := l[0]; off < l[1]; {
			reg := m.At(off)
			if reg.Kind != Runtime {
				t.Errorf("%s: literal [%d,%d) %q overlaps %s region %d-%d", r.Path, l[0], l[1], preview(src, l[0], l[1]), reg.Kind, reg.Start, reg.End)
				break
			}
			off = reg.End
		}
	}
	checkInjected(t, r, src, m, tally)
	for _, c := range r.Comments {
		tally.comments++
		ours := 0
		for off := c[0]; off < c[1]; off++ {
			if m.At(off).Kind != Runtime {
				ours++
			}
		}
		tally.commentBytes += c[1] - c[0]
		tally.ourBytes += ours
		if ours == 0 {
			tally.lostComments++
		}
	}
}

func preview(src []byte, s, e int) string {
	if e-s > 60 {
		e = s + 60
	}
	return string(src[s:e])
}

func (ta *oracleTally) log(t *testing.T, name string) {
	t.Helper()
	pct := 0.0
	if ta.commentBytes > 0 {
		pct = 100 * float64(ta.ourBytes) / float64(ta.commentBytes)
	}
	t.Logf("%s: %d files compared, %d refused, %d skipped; %d oracle comments (%d bytes): %.2f%% of their bytes prose or directive here, %d comments wholly runtime here; %d injected carriers classified as expected",
		name, ta.files, ta.refused, ta.skipped, ta.comments, ta.commentBytes, pct, ta.lostComments, ta.injected)
}

func TestJSAgainstTypeScript(t *testing.T) {
	if testing.Short() {
		t.Skip("oracle run skipped in -short mode")
	}
	nm := jsNodeModules(t)
	files := append(jsFixtures(t), jsCorpus(t, nm, 700)...)
	res := runOracle(t, nm, "ts", files)
	var tally oracleTally
	for _, f := range files {
		r, ok := res[f]
		if !ok || r.Error != "" {
			t.Errorf("%s: no oracle answer: %s", f, r.Error)
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkOracle(t, r, src, &tally)
	}
	tally.log(t, "typescript@6.0.3")
	if tally.files < len(files)*9/10 {
		t.Fatalf("compared only %d of %d files", tally.files, len(files))
	}
}

func TestJSAgainstAcorn(t *testing.T) {
	if testing.Short() {
		t.Skip("oracle run skipped in -short mode")
	}
	nm := jsNodeModules(t)
	var files []string
	for _, f := range append(jsFixtures(t), jsCorpus(t, nm, 700)...) {
		switch strings.ToLower(filepath.Ext(f)) {
		case ".js", ".mjs", ".cjs", ".jsx":
			files = append(files, f)
		}
	}
	res := runOracle(t, nm, "acorn", files)
	var tally oracleTally
	for _, f := range files {
		r, ok := res[f]
		if !ok {
			t.Fatalf("%s: no oracle answer", f)
		}
		if r.Error != "" {
			tally.skipped++ // acorn rejects it (e.g. TypeScript-only syntax); the TypeScript oracle covers it
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkOracle(t, r, src, &tally)
	}
	tally.log(t, "acorn@8.19.0")
	if tally.files < len(files)*8/10 {
		t.Fatalf("compared only %d of %d files", tally.files, len(files))
	}
}
