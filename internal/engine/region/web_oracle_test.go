package region

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/prosewash/prosewash/internal/testtool"
)

// The web classifiers against the languages' own parsers, run by node from
// testdata/web-oracle.mjs: parse5 (the HTML standard's tree builder) for
// HTML, postcss's and css-tree's tokenizers for CSS, postcss-scss and
// sass-parser (dart-sass's own parser) for SCSS, postcss-less for Less, and
// dart-sass and lessc themselves for the invariance checks. The corpus is
// real: CSS, SCSS and Less from npm packages, HTML from Debian's
// documentation packages and npm packages, plus generated documents.

// webOraclePackages are pinned; testtool.NPM installs them into a cache.
var webOraclePackages = []string{
	"parse5@8.1.1", "postcss@8.5.33", "css-tree@3.2.1", "postcss-scss@4.0.9", "postcss-less@6.0.0",
	"sass@1.108.2", "sass-parser@0.4.55", "less@4.9.1",
}

// webCorpusPackages hold the real CSS, SCSS, Less and HTML.
var webCorpusPackages = []string{
	"bootstrap@5.3.8", "bulma@1.0.4", "normalize.css@8.0.1", "tailwindcss@3.4.17",
	"@fortawesome/fontawesome-free@6.7.2", "font-awesome@4.7.0", "reveal.js@6.0.2", "html5-boilerplate@9.0.1",
}

// webLessPackages: bootstrap 3 is written in Less (a separate install, as
// the name is taken by bootstrap 5 above).
var webLessPackages = []string{"bootstrap@3.4.1"}

// webDebianHTML are documentation packages full of hand-written and
// generated HTML: jQuery UI's examples (inline scripts and styles), SQLite's
// documentation (inline SVG diagrams), git's manual pages (AsciiDoc output).
var webDebianHTML = []string{"libjs-jquery-ui-docs", "sqlite3-doc", "git-doc"}

type webOracleJob struct {
	ID        int      `json:"id"`
	Kind      string   `json:"kind"`
	File      string   `json:"file"`
	LoadPaths []string `json:"loadPaths,omitempty"`
}

type webOracleStyle struct {
	Span       [2]int   `json:"span"`
	Postcss    [][2]int `json:"postcss"`
	CSSTree    [][2]int `json:"csstree"`
	TokenError string   `json:"tokenError"`
}

type webOracleResult struct {
	ID    int    `json:"id"`
	Error string `json:"error"`
	Norm  string `json:"norm"`
	// html
	Comments [][2]int         `json:"comments"`
	Texts    [][2]int         `json:"texts"`
	Attrs    [][2]int         `json:"attrs"`
	Styles   []webOracleStyle `json:"styles"`
	Scripts  [][2]int         `json:"scripts"`
	// css, scss, less; TokenError is set when postcss's tokenizer gave up
	// (then its lists are incomplete).
	TokenError  string   `json:"tokenError"`
	Postcss     [][2]int `json:"postcss"`
	CSSTree     [][2]int `json:"csstree"`
	Strings     [][2]int `json:"strings"`
	Sass        [][2]int `json:"sass"`
	PostcssLess [][2]int `json:"postcssLess"`
}

// webOracle installs the oracle's packages and returns a function that runs
// a batch of jobs through one node process.
func webOracle(t *testing.T) func(jobs []webOracleJob) []webOracleResult {
	t.Helper()
	if testing.Short() {
		t.Skip("needs node and npm packages; skipped with -short")
	}
	prefix := testtool.NPM(t, webOraclePackages...)
	node := testtool.LookPath(t, "node", "apt-get install nodejs")
	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(prefix, "node_modules"), filepath.Join(dir, "node_modules")); err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs(filepath.Join("testdata", "web-oracle.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	return func(jobs []webOracleJob) []webOracleResult {
		t.Helper()
		n++
		list := filepath.Join(dir, fmt.Sprintf("jobs%d.json", n))
		body, _ := json.Marshal(jobs)
		if err := os.WriteFile(list, body, 0o600); err != nil {
			t.Fatal(err)
		}
		cmd := exec.CommandContext(t.Context(), node, script, list)
		cmd.Dir = dir
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("web oracle: %v\n%s", err, stderr.String())
		}
		res := make([]webOracleResult, len(jobs))
		sc := bufio.NewScanner(bytes.NewReader(out))
		sc.Buffer(make([]byte, 1<<20), 256<<20)
		got := 0
		for sc.Scan() {
			var r webOracleResult
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatalf("web oracle output: %v", err)
			}
			res[r.ID] = r
			got++
		}
		if got != len(jobs) {
			t.Fatalf("web oracle answered %d of %d jobs\n%s", got, len(jobs), stderr.String())
		}
		return res
	}
}

// webCorpus returns the files under root whose extension is one of exts,
// sorted.
func webCorpus(t *testing.T, root string, exts ...string) []string {
	t.Helper()
	var out []string
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		for _, e := range exts {
			if strings.HasSuffix(p, e) {
				out = append(out, p)
			}
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// sample keeps at most n of files, spread evenly.
func sample(files []string, n int) []string {
	if len(files) <= n {
		return files
	}
	out := make([]string, 0, n)
	for i := 0; i < n; i++ {
		out = append(out, files[i*len(files)/n])
	}
	return out
}

// spanSet answers whether a byte lies in any of a set of spans.
type spanSet []bool

func newSpanSet(size int, lists ...[][2]int) spanSet {
	s := make(spanSet, size)
	for _, l := range lists {
		for _, sp := range l {
			for k := max(sp[0], 0); k < min(sp[1], size); k++ {
				s[k] = true
			}
		}
	}
	return s
}

func (s spanSet) and(o spanSet) spanSet {
	out := make(spanSet, len(s))
	for i := range s {
		out[i] = s[i] && o[i]
	}
	return out
}

// proseOutside returns the first non-runtime region with a byte outside
// allowed, or false.
func proseOutside(m *Map, allowed spanSet) (Region, bool) {
	for _, r := range m.Regions {
		if r.Kind == Runtime {
			continue
		}
		for k := r.Start; k < r.End; k++ {
			if !allowed[k] {
				return r, true
			}
		}
	}
	return Region{}, false
}

// covered reports whether every byte of sp is prose or directive in m,
// line breaks aside.
func covered(m *Map, src []byte, sp [2]int) bool {
	for k := sp[0]; k < sp[1]; {
		r := m.At(k)
		if r.Kind == Runtime && r.Why != "line break" {
			return false
		}
		k = r.End
	}
	return sp[1] > sp[0]
}

// Carriers injected into the corpus: each is removed by any clean.
var injected = []string{"\u200b", "\u2060", "\u202e", "\U000E0041", "\u00ad"}

// inject returns src with a carrier inserted before each offset (sorted,
// rune boundaries) and the offsets of the carriers in the result.
func inject(src []byte, at []int, seed int) ([]byte, []int) {
	sort.Ints(at)
	out := make([]byte, 0, len(src)+4*len(at))
	var pos []int
	prev := 0
	for i, a := range at {
		out = append(out, src[prev:a]...)
		pos = append(pos, len(out))
		out = append(out, injected[(i+seed)%len(injected)]...)
		prev = a
	}
	return append(out, src[prev:]...), pos
}

// cleanInjected removes the injected carriers that lie in prose regions of
// m, as a clean would.
//
// A carrier whose removal would join the bytes around it into a comment
// closer stays, as the engine keeps it (its structure proof sees the
// comment end early).
func cleanInjected(src []byte, m *Map) []byte {
	out := make([]byte, 0, len(src))
	for i := 0; i < len(src); {
		if m.At(i).Kind == Prose {
			hit := false
			for _, c := range injected {
				if bytes.HasPrefix(src[i:], []byte(c)) && m.At(i+len(c)-1).Kind == Prose && !closerAround(src, i, i+len(c)) {
					i += len(c)
					hit = true
					break
				}
			}
			if hit {
				continue
			}
		}
		out = append(out, src[i])
		i++
	}
	return out
}

// closerAround reports whether src[:i] and src[j:] would join into "*/",
// "-->", "--!>", "<!-->" or Sass's "#{" once src[i:j] and the injected
// carriers next to it were gone.
func closerAround(src []byte, i, j int) bool {
	for moved := true; moved; {
		moved = false
		for _, c := range injected {
			if bytes.HasSuffix(src[:i], []byte(c)) {
				i, moved = i-len(c), true
			}
			if bytes.HasPrefix(src[j:], []byte(c)) {
				j, moved = j+len(c), true
			}
		}
	}
	if i == 0 || j >= len(src) {
		return false
	}
	a, b := src[i-1], src[j]
	return (a == '*' || a == '-' || a == '!') && (b == '/' || b == '-' || b == '>' || b == '!') || a == '#' && b == '{'
}

// proseInjectionPoints picks, in each prose region, the byte after its
// opener, one in the middle and the one before its closer, all on rune
// boundaries; with markers set, every fourth region also gets points inside
// its markers, which may make the comment something else.
func proseInjectionPoints(src []byte, m *Map, opener, closer int, markers bool) []int {
	var at []int
	for i, r := range m.Regions {
		if r.Kind != Prose || r.Len() == 0 {
			continue
		}
		pts := []int{r.Start + min(opener, r.Len()), r.Start + r.Len()/2, r.End - min(closer, r.Len())}
		if markers && i%4 == 0 {
			pts = append(pts, r.Start+1, r.End-1)
		}
		for _, p := range pts {
			p = min(max(p, r.Start), r.End-1)
			for p > r.Start && !utf8.RuneStart(src[p]) {
				p--
			}
			if !markers && (p < r.Start+opener || p > r.End-closer) {
				continue // a short comment: the point would split a marker
			}
			at = append(at, p)
		}
	}
	sort.Ints(at)
	dedup := at[:0]
	for i, a := range at {
		if i == 0 || a != at[i-1] {
			dedup = append(dedup, a)
		}
	}
	return dedup
}

// runtimeInjectionPoints picks the middle of each span.
func runtimeInjectionPoints(src []byte, spans [][2]int) []int {
	var at []int
	for _, sp := range spans {
		if sp[1]-sp[0] < 2 {
			continue
		}
		p := (sp[0] + sp[1]) / 2
		// On a rune boundary, and never between a backslash and what it
		// escapes.
		for p > sp[0] && (!utf8.RuneStart(src[p]) || src[p-1] == '\\') {
			p--
		}
		at = append(at, p)
	}
	return at
}

type webStats struct {
	files, refused, oracleComments, agreed, invariance, invarianceSkipped, runtimeInjected int
	// oracleGaveUp counts files the position oracle could not tokenize.
	oracleGaveUp int
	// realComments and realAgreed count the real files only, not the
	// generated ones built to sit at the tokenizers' edges.
	realComments, realAgreed int
	whyRuntime               map[string]int
}

// count records one oracle comment and whether the map agreed.
func (s *webStats) count(name string, agreed bool) {
	s.oracleComments++
	real := !strings.HasPrefix(name, "generated")
	if real {
		s.realComments++
	}
	if agreed {
		s.agreed++
		if real {
			s.realAgreed++
		}
	}
}

func (s *webStats) log(t *testing.T, what string) {
	t.Helper()
	pct := 0.0
	if s.oracleComments > 0 {
		pct = 100 * float64(s.agreed) / float64(s.oracleComments)
	}
	var whys []string
	for w, n := range s.whyRuntime {
		whys = append(whys, fmt.Sprintf("%s: %d", w, n))
	}
	sort.Strings(whys)
	realPct := 100.0
	if s.realComments > 0 {
		realPct = 100 * float64(s.realAgreed) / float64(s.realComments)
	}
	t.Logf("%s: %d files (%d refused, %d the oracle could not tokenize); oracle comments %d, prose or directive %d (%.2f%%; in real files %d of %d, %.2f%%); runtime by reason {%s}; invariance checked on %d files (%d skipped: variant refused); %d carriers injected into runtime stayed runtime",
		what, s.files, s.refused, s.oracleGaveUp, s.oracleComments, s.agreed, pct, s.realAgreed, s.realComments, realPct, strings.Join(whys, ", "), s.invariance, s.invarianceSkipped, s.runtimeInjected)
}

// webFile is one corpus file and its variants for one run of the oracle.
type webFile struct {
	name         string
	src          []byte
	m            *Map
	orig, varied int // job ids; varied is -1 without a variant
	variant      []byte
	vmap         *Map
	cleaned      int // job id of the variant with its prose cleaned
}

func writeTemp(t *testing.T, dir, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// prepareVariant makes two variants of f. Carriers injected into the given
// runtime spans (the oracle's text, attribute values and strings) must be
// runtime for the classifier. Carriers injected into prose, markers
// included, are classified again and removed from the variant's prose: the
// variant and its cleaned form are queued as oracle jobs.
func prepareVariant(t *testing.T, f *webFile, runtimeSpans [][2]int, opener, closer int, ext, dir string, jobs *[]webOracleJob, kind string, st *webStats) {
	t.Helper()
	f.varied, f.cleaned = -1, -1
	if rt := runtimeInjectionPoints(f.src, runtimeSpans); len(rt) > 0 {
		v, pos := inject(f.src, rt, len(f.name))
		vm, err := Classify("v"+ext, v)
		if err != nil {
			t.Errorf("%s: carriers injected into runtime make it refused: %v", f.name, err)
		}
		for i := range rt {
			if err == nil {
				if r := vm.At(pos[i]); r.Kind != Runtime {
					t.Errorf("%s: a carrier injected into runtime at %d is %s %q", f.name, rt[i], r.Kind, r.Why)
				}
			}
			st.runtimeInjected++
		}
	}
	pts := proseInjectionPoints(f.src, f.m, opener, closer, true)
	if len(pts) == 0 || jobs == nil {
		return
	}
	v, _ := inject(f.src, pts, len(f.name))
	vm, err := Classify("v"+ext, v)
	if err != nil {
		var se *RefusedError
		if errors.As(err, &se) {
			st.invarianceSkipped++
			return
		}
		t.Fatalf("%s variant: %v", f.name, err)
	}
	f.variant, f.vmap = v, vm
	f.varied = len(*jobs)
	*jobs = append(*jobs, webOracleJob{ID: f.varied, Kind: kind, File: writeTemp(t, dir, fmt.Sprintf("v%d%s", f.varied, ext), v)})
	f.cleaned = len(*jobs)
	*jobs = append(*jobs, webOracleJob{ID: f.cleaned, Kind: kind, File: writeTemp(t, dir, fmt.Sprintf("c%d%s", f.cleaned, ext), cleanInjected(v, vm))})
}

// webCheckInvariance: the variant with carriers in its prose and the same file
// cleaned are the same program for the oracle.
func webCheckInvariance(t *testing.T, f *webFile, res []webOracleResult, st *webStats) {
	t.Helper()
	if f.varied < 0 {
		return
	}
	a, b := res[f.varied], res[f.cleaned]
	if a.Error != "" || b.Error != "" || a.Norm == "" {
		st.invarianceSkipped++
		return
	}
	st.invariance++
	if a.Norm != b.Norm {
		t.Errorf("%s: removing the carriers from prose changed the program (oracle hash %s vs %s)", f.name, a.Norm[:12], b.Norm[:12])
	}
}

func TestHTMLAgainstParse5(t *testing.T) {
	run := webOracle(t)
	var files []namedSource
	for _, s := range htmlQuirks {
		files = append(files, namedSource{fmt.Sprintf("quirk %q", s), []byte(s)})
	}
	files = append(files, goldenInputs(t, ".html")...)
	npm := testtool.NPM(t, webCorpusPackages...)
	for _, p := range webCorpus(t, filepath.Join(npm, "node_modules"), ".html", ".htm") {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, namedSource{p, src})
	}
	deb := testtool.Debian(t, webDebianHTML...)
	for _, p := range sample(webCorpus(t, deb, ".html", ".htm"), 300) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, namedSource{p, src})
	}
	files = append(files, generatedHTML(600)...)
	st := checkHTMLFiles(t, run, files)
	st.log(t, "parse5")
	if st.files < 300 {
		t.Fatalf("only %d HTML files checked", st.files)
	}
}

func checkHTMLFiles(t *testing.T, run func([]webOracleJob) []webOracleResult, files []namedSource) *webStats {
	t.Helper()
	dir := t.TempDir()
	st := &webStats{whyRuntime: map[string]int{}}
	var jobs []webOracleJob
	wf := classifyCorpus(t, ".html", files, st, dir, &jobs, "html")
	res := run(jobs)
	// Second round: variants need the first round's text and attribute spans.
	jobs = jobs[:0]
	for _, w := range wf {
		r := res[w.orig]
		if r.Error != "" {
			t.Errorf("%s: parse5: %s", w.name, r.Error)
			continue
		}
		st.files++
		checkHTMLOracle(t, w, r, st)
		prepareVariant(t, w, append(append([][2]int(nil), r.Texts...), r.Attrs...), 4, 3, ".html", dir, &jobs, "html", st)
	}
	res2 := run(jobs)
	for _, w := range wf {
		webCheckInvariance(t, w, res2, st)
	}
	return st
}

// checkHTMLOracle: prose and directive bytes lie in parse5's comments, in
// CSS comments (postcss and css-tree agreeing) of an HTML <style> or in the
// text of a <script>; parse5's
// comments are prose or directive unless runtime for a stated reason.
func checkHTMLOracle(t *testing.T, w *webFile, r webOracleResult, st *webStats) {
	t.Helper()
	// Script content is the JavaScript classifier's; its comments are
	// checked by that classifier's own oracles.
	allowed := newSpanSet(len(w.src), r.Comments, r.Scripts)
	for _, s := range r.Styles {
		if s.TokenError != "" {
			st.oracleGaveUp++
			continue
		}
		css := newSpanSet(len(w.src), s.Postcss).and(newSpanSet(len(w.src), s.CSSTree))
		for k := s.Span[0]; k < s.Span[1] && k < len(w.src); k++ {
			allowed[k] = allowed[k] || css[k]
		}
		for _, c := range s.Postcss {
			ok := covered(w.m, w.src, c)
			st.count(w.name, ok)
			if !ok {
				st.whyRuntime[w.m.At(c[0]).Why]++
			}
		}
	}
	if reg, bad := proseOutside(w.m, allowed); bad {
		t.Errorf("%s: %s region %d-%d %q (%s) is no comment for parse5", w.name, reg.Kind, reg.Start, reg.End, clip(w.src[reg.Start:reg.End]), reg.Why)
	}
	for _, c := range r.Comments {
		if !bytes.HasPrefix(w.src[c[0]:], []byte("<!--")) {
			continue // bogus comments (<?x>, <!x>) are runtime by design
		}
		ok := covered(w.m, w.src, c)
		st.count(w.name, ok)
		if ok {
			continue
		}
		why := w.m.At(c[0]).Why
		st.whyRuntime[why]++
		if os.Getenv("WEB_ORACLE_VERBOSE") != "" && !strings.HasPrefix(w.name, "generated") {
			t.Logf("%s: parse5 comment %d-%d %q is runtime %q", w.name, c[0], c[1], clip(w.src[c[0]:c[1]]), why)
		}
		switch {
		case why == "comment that could close early", strings.HasSuffix(why, "(markup when not raw text)"), strings.HasPrefix(why, "CDATA section"):
		default:
			t.Errorf("%s: parse5 comment %d-%d %q is runtime %q", w.name, c[0], c[1], clip(w.src[c[0]:c[1]]), why)
		}
	}
}

// checkCSSOracle: prose and directive bytes lie in comments of every
// allowed list (when any is given); base is the oracle's comment list that
// agreement is measured on.
func checkCSSOracle(t *testing.T, w *webFile, st *webStats, tokenError string, base [][2]int, allowed ...[][2]int) {
	t.Helper()
	if tokenError != "" {
		st.oracleGaveUp++
		if !strings.HasPrefix(w.name, "generated") {
			t.Errorf("%s: the oracle cannot tokenize a real file: %s", w.name, tokenError)
		}
		return
	}
	if len(allowed) > 0 {
		ok := newSpanSet(len(w.src), allowed[0])
		for _, l := range allowed[1:] {
			ok = ok.and(newSpanSet(len(w.src), l))
		}
		if reg, bad := proseOutside(w.m, ok); bad {
			t.Errorf("%s: %s region %d-%d %q (%s) is no comment for the oracle", w.name, reg.Kind, reg.Start, reg.End, clip(w.src[reg.Start:reg.End]), reg.Why)
		}
	}
	for _, c := range base {
		ok := covered(w.m, w.src, c) || covered(w.m, w.src, [2]int{c[0], trimLineEnd(w.src, c)})
		st.count(w.name, ok)
		if !ok {
			st.whyRuntime[w.m.At(c[0]).Why]++
			if os.Getenv("WEB_ORACLE_VERBOSE") != "" && !strings.HasPrefix(w.name, "generated") {
				t.Logf("%s: oracle comment %d-%d %q is runtime %q", w.name, c[0], c[1], clip(w.src[c[0]:c[1]]), w.m.At(c[0]).Why)
			}
		}
	}
}

// checkSassComments measures agreement with sass-parser, which merges
// consecutive "//" lines (and the indentation between them) into one
// comment: each line of such a comment must be prose or directive from its
// "//" to its end.
func checkSassComments(t *testing.T, w *webFile, st *webStats, comments [][2]int) {
	t.Helper()
	for _, c := range comments {
		for k := c[0]; k < c[1]; {
			e := k
			for e < c[1] && w.src[e] != '\n' && w.src[e] != '\r' {
				e++
			}
			line := bytes.TrimLeft(w.src[k:e], " \t")
			if start := e - len(line); len(line) > 1 {
				ok := covered(w.m, w.src, [2]int{start, e})
				st.count(w.name, ok)
				if !ok {
					st.whyRuntime[w.m.At(start).Why]++
					if os.Getenv("WEB_ORACLE_VERBOSE") != "" && !strings.HasPrefix(w.name, "generated") {
						t.Logf("%s: sass-parser comment line %d-%d %q is runtime %q", w.name, start, e, clip(w.src[start:e]), w.m.At(start).Why)
					}
				}
			}
			k = e + 1
		}
	}
}

// trimLineEnd drops the line break an oracle counts into a "//" comment.
func trimLineEnd(src []byte, c [2]int) int {
	e := c[1]
	for e > c[0] && (src[e-1] == '\n' || src[e-1] == '\r' || src[e-1] == '\f') {
		e--
	}
	return e
}

func classifyCorpus(t *testing.T, ext string, files []namedSource, st *webStats, dir string, jobs *[]webOracleJob, kind string) []*webFile {
	t.Helper()
	var wf []*webFile
	for _, f := range files {
		if !utf8.Valid(f.src) || bytes.IndexByte(f.src, 0) >= 0 {
			continue // refused by clean before any classifier runs
		}
		m, err := Classify("x"+ext, f.src)
		if err != nil {
			var se *RefusedError
			if !errors.As(err, &se) {
				t.Fatalf("%s: %v", f.name, err)
			}
			st.refused++
			if !strings.HasPrefix(f.name, "generated") {
				t.Logf("%s: refused: %v", f.name, err)
			}
			continue
		}
		w := &webFile{name: f.name, src: f.src, m: m, orig: len(*jobs)}
		*jobs = append(*jobs, webOracleJob{ID: w.orig, Kind: kind, File: writeTemp(t, dir, fmt.Sprintf("o%d%s", w.orig, ext), f.src)})
		wf = append(wf, w)
	}
	return wf
}

func readCorpus(t *testing.T, paths []string) []namedSource {
	t.Helper()
	var out []namedSource
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, namedSource{p, src})
	}
	return out
}

func TestCSSAgainstPostcss(t *testing.T) {
	run := webOracle(t)
	npm := testtool.NPM(t, webCorpusPackages...)
	files := goldenInputs(t, ".css")
	// Minified copies add nothing but size: a few of them stay.
	var css, minified []string
	for _, p := range webCorpus(t, filepath.Join(npm, "node_modules"), ".css") {
		if strings.HasSuffix(p, ".min.css") {
			minified = append(minified, p)
		} else {
			css = append(css, p)
		}
	}
	files = append(files, readCorpus(t, append(css, sample(minified, 8)...))...)
	files = append(files, generatedCSS(600, cssPlain)...)
	dir := t.TempDir()
	st := &webStats{whyRuntime: map[string]int{}}
	var jobs []webOracleJob
	wf := classifyCorpus(t, ".css", files, st, dir, &jobs, "css")
	res := run(jobs)
	jobs = jobs[:0]
	for _, w := range wf {
		r := res[w.orig]
		st.files++
		checkCSSOracle(t, w, st, r.TokenError, r.Postcss, r.Postcss, r.CSSTree)
		prepareVariant(t, w, r.Strings, 2, 2, ".css", dir, &jobs, "css", st)
	}
	res2 := run(jobs)
	for _, w := range wf {
		webCheckInvariance(t, w, res2, st)
	}
	st.log(t, "postcss and css-tree")
	if st.files < 300 || st.invariance < 100 {
		t.Fatalf("only %d CSS files checked, %d for invariance", st.files, st.invariance)
	}
}

func TestSCSSAgainstSass(t *testing.T) {
	run := webOracle(t)
	npm := filepath.Join(testtool.NPM(t, webCorpusPackages...), "node_modules")
	files := goldenInputs(t, ".scss")
	files = append(files, readCorpus(t, webCorpus(t, npm, ".scss"))...)
	files = append(files, generatedCSS(600, cssSCSS)...)
	dir := t.TempDir()
	st := &webStats{whyRuntime: map[string]int{}}
	var jobs []webOracleJob
	wf := classifyCorpus(t, ".scss", files, st, dir, &jobs, "scss")
	res := run(jobs)
	sassParsed := 0
	sassSt := &webStats{whyRuntime: map[string]int{}}
	for _, w := range wf {
		r := res[w.orig]
		st.files++
		// postcss-scss's tokenizer is the position oracle; sass-parser
		// (Sass's own parser, which keeps statement-level comments)
		// measures agreement where it parses the file.
		checkCSSOracle(t, w, st, r.TokenError, r.Postcss, r.Postcss)
		if r.Error == "" {
			sassParsed++
			checkSassComments(t, w, sassSt, r.Sass)
		}
		prepareVariant(t, w, r.Strings, 2, 2, ".scss", dir, nil, "scss", st)
	}
	st.log(t, "postcss-scss")
	sassSt.log(t, fmt.Sprintf("sass-parser (statement-level comments, %d files parsed)", sassParsed))
	checkCompiled(t, run, "sass", ".scss", []compileEntry{
		{npm, "bootstrap/scss/bootstrap.scss"},
		{npm, "bulma/bulma.scss"},
		{npm, "font-awesome/scss/font-awesome.scss"},
	})
}

func TestLessAgainstLessc(t *testing.T) {
	run := webOracle(t)
	npm := filepath.Join(testtool.NPM(t, webCorpusPackages...), "node_modules")
	bs3 := filepath.Join(testtool.NPM(t, webLessPackages...), "node_modules")
	files := goldenInputs(t, ".less")
	files = append(files, readCorpus(t, webCorpus(t, npm, ".less"))...)
	files = append(files, readCorpus(t, webCorpus(t, bs3, ".less"))...)
	files = append(files, generatedCSS(600, cssLess)...)
	dir := t.TempDir()
	st := &webStats{whyRuntime: map[string]int{}}
	var jobs []webOracleJob
	wf := classifyCorpus(t, ".less", files, st, dir, &jobs, "less")
	res := run(jobs)
	nodeSt := &webStats{whyRuntime: map[string]int{}}
	for _, w := range wf {
		r := res[w.orig]
		st.files++
		// The position oracle is what postcss-less knows of comments:
		// its parser's comment nodes (statement level; none when it
		// fails) and postcss's tokens as it reads them (block comments,
		// "//" words up to the line's end; a quote inside a "//" comment
		// derails the tokens, not the parser). Less itself is the
		// invariance oracle below.
		all := append(append([][2]int(nil), r.PostcssLess...), r.Postcss...)
		checkCSSOracle(t, w, st, r.TokenError, all, all)
		if r.Error == "" {
			checkCSSOracle(t, w, nodeSt, "", r.PostcssLess)
		}
		prepareVariant(t, w, r.Strings, 2, 2, ".less", dir, nil, "less", st)
	}
	st.log(t, "postcss tokens as postcss-less reads them")
	nodeSt.log(t, "postcss-less comment nodes")
	checkCompiled(t, run, "lessc", ".less", []compileEntry{
		{bs3, "bootstrap/less/bootstrap.less"},
		{npm, "font-awesome/less/font-awesome.less"},
		{npm, "@fortawesome/fontawesome-free/less/fontawesome.less"},
	})
}

type compileEntry struct{ root, file string }

// checkCompiled compiles each entry from the package tree as installed and
// from a copy whose every file of ext has carriers injected into its prose,
// then cleaned from the copy's prose; then from the copy with the carriers
// left in. The compressed CSS must be the same all three times: carriers in
// prose change nothing that the compiler emits.
func checkCompiled(t *testing.T, run func([]webOracleJob) []webOracleResult, kind, ext string, entries []compileEntry) {
	t.Helper()
	var jobs []webOracleJob
	injectedFiles := 0
	for _, e := range entries {
		pkg := strings.SplitN(e.file, "/", 2)[0]
		if strings.HasPrefix(pkg, "@") {
			pkg = strings.Join(strings.SplitN(e.file, "/", 3)[:2], "/")
		}
		variant := t.TempDir()
		for _, p := range webCorpus(t, filepath.Join(e.root, pkg), ext) {
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(e.root, p)
			m, err := Classify(p, src)
			if err == nil {
				v, _ := inject(src, proseInjectionPoints(src, m, 2, 2, false), len(rel))
				if vm, err := Classify(p, v); err == nil {
					src = v
					injectedFiles++
					_ = vm
				}
			}
			writeTemp(t, variant, rel, src)
		}
		cleaned := t.TempDir()
		for _, p := range webCorpus(t, filepath.Join(variant, pkg), ext) {
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			rel, _ := filepath.Rel(variant, p)
			if m, err := Classify(p, src); err == nil {
				src = cleanInjected(src, m)
			}
			writeTemp(t, cleaned, rel, src)
		}
		for _, root := range []string{e.root, variant, cleaned} {
			jobs = append(jobs, webOracleJob{ID: len(jobs), Kind: kind, File: filepath.Join(root, e.file), LoadPaths: []string{root}})
		}
	}
	res := run(jobs)
	for i := 0; i < len(res); i += 3 {
		e := entries[i/3]
		if res[i].Error != "" {
			t.Errorf("%s %s: %s", kind, e.file, res[i].Error)
			continue
		}
		for k, what := range []string{"with carriers in prose", "cleaned"} {
			if r := res[i+1+k]; r.Error != "" || r.Norm != res[i].Norm {
				t.Errorf("%s %s %s compiles differently: %s", kind, e.file, what, r.Error)
			}
		}
	}
	t.Logf("%s: %d entries compiled to the same CSS with carriers injected into the prose of %d files", kind, len(entries), injectedFiles)
}
