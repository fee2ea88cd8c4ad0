package realworld

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/prosewash/prosewash/internal/engine/region"
	"github.com/prosewash/prosewash/internal/testtool"
)

// EnvFull names the variable that runs the whole corpus of every language
// instead of the bounded sample CI runs ("1"), or sets the sample size per
// language (a number).
const EnvFull = "PROSEWASH_REALWORLD"

// sampleSize is how many files per language a default run takes.
const sampleSize = 40

// maxFileSize leaves out files larger than this (minified bundles of
// several megabytes would dominate the run without adding cases).
const maxFileSize = 256 << 10

type language struct {
	name   string
	corpus func(t *testing.T) []entry
	oracle oracle
}

func languages() []language {
	return []language{
		{"python", corpusPython, pythonOracle},
		{"go", corpusGo, goOracle},
		{"markdown", corpusMarkdown, markdownOracle},
		{"javascript/typescript", corpusJS, jsOracle},
		{"json/jsonc", corpusJSON, jsonOracle},
		{"shell", corpusShell, shellOracle},
		{"toml", corpusTOML, tomlOracle},
		{"dockerfile", corpusDockerfile, dockerfileOracle},
		{"yaml", corpusYAML, yamlOracle},
		{"rust", corpusRust, rustOracle},
		{"rust #[doc]", corpusRustDocAttr, rustOracle},
		{"html", corpusHTML, htmlOracle},
		{"css/scss/less", corpusCSS, cssOracle},
	}
}

// tally is one language's row of the table.
type tally struct {
	files, injected, prose, removed, reported, neverRemoved      int
	refusedValid, refusedX, oracleCompared, oracleNA, mismatches int
	refusals, kept                                               []string
	// Per file of the "c" variant (carriers in prose and literals only):
	// exact (every prose carrier gone, nothing else touched), conservative
	// (a prose carrier kept), refused; damaged counts files of either
	// variant where clean touched what it must not, or did other than
	// check predicted, or the language's own tools read another program.
	exact, conservative, damaged, refusedFiles int
}

// TestRealWorld runs the real prosewash binary over real third-party files
// of every classified language, with carriers injected into comments,
// literals and code, and proves for each file: clean never panics or
// fails internally, and a refusal names the file and a position; clean
// does exactly what check predicted (every carrier check marks remove or
// replace is gone, every other byte is still there); no carrier injected
// into a literal, code or a directive is removed; and the language's own
// tools read the same program before and after.
func TestRealWorld(t *testing.T) {
	if testing.Short() {
		t.Skip("real-world corpus run")
	}
	bin := buildBinary(t)
	n := sampleSize
	if v := os.Getenv(EnvFull); v == "1" {
		n = 1 << 30
	} else if k, err := strconv.Atoi(v); err == nil && k > 0 {
		n = k
	}
	rows := map[string]*tally{}
	var order []string
	for _, l := range languages() {
		t.Run(strings.ReplaceAll(l.name, "/", "-"), func(t *testing.T) {
			tl := &tally{}
			rows[l.name] = tl
			order = append(order, l.name)
			runLanguage(t, bin, l, n, tl)
		})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n| language | files | exact | conservative | damaged | refused |\n|---|---:|---:|---:|---:|---:|\n")
	var sum tally
	for _, name := range order {
		r := rows[name]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d |\n", name, r.files, r.exact, r.conservative, r.damaged, r.refusedFiles)
		sum.files, sum.exact, sum.conservative, sum.damaged, sum.refusedFiles = sum.files+r.files, sum.exact+r.exact, sum.conservative+r.conservative, sum.damaged+r.damaged, sum.refusedFiles+r.refusedFiles
	}
	fmt.Fprintf(&b, "| all | %d | %d | %d | %d | %d |\n", sum.files, sum.exact, sum.conservative, sum.damaged, sum.refusedFiles)
	fmt.Fprintf(&b, "\n| language | files | carriers injected | in prose | removed | reported | refused (valid / with code carriers) | oracle compared | oracle n/a | oracle mismatches |\n")
	fmt.Fprintf(&b, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, name := range order {
		r := rows[name]
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d | %d / %d | %d | %d | %d |\n", name, r.files, r.injected, r.prose,
			r.removed, r.reported, r.refusedValid, r.refusedX, r.oracleCompared, r.oracleNA, r.mismatches)
	}
	t.Log(b.String())
	for _, name := range order {
		for _, s := range rows[name].refusals {
			t.Logf("refused (%s): %s", name, s)
		}
		for _, s := range rows[name].kept {
			t.Logf("prose carrier kept (%s): %s", name, s)
		}
	}
}

func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "prosewash")
	cmd := exec.CommandContext(t.Context(), "go", "build", "-o", bin, "./cmd/prosewash")
	cmd.Dir = testtool.RepoRoot(t)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("build prosewash: %v\n%s", err, out)
	}
	return bin
}

// sample is one variant of one corpus file in the test repository.
type sample struct {
	e        entry
	variant  string // "c": prose and literals; "x": code and directives too
	rel      string // path in the repository
	injected []byte
	inj      []injection
	valid    bool // the original classifies
	lang     string
	damaged  bool // clean touched what it must not, or did other than predicted
	kept     bool // a prose carrier stayed
}

func pick(t *testing.T, l language, n int) []entry {
	all := l.corpus(t)
	h := fnv.New64a()
	h.Write([]byte(l.name))
	rng := rand.New(rand.NewPCG(20260, h.Sum64()))
	rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	var out []entry
	seen := map[string]bool{}
	for _, e := range all {
		if len(out) >= n {
			break
		}
		fi, err := os.Stat(e.src)
		if err != nil || fi.Size() == 0 || fi.Size() > maxFileSize || seen[e.name] {
			continue
		}
		seen[e.name] = true
		out = append(out, e)
	}
	if len(out) < min(n, 10) {
		t.Fatalf("%s corpus: only %d usable files of %d", l.name, len(out), len(all))
	}
	return out
}

func runLanguage(t *testing.T, bin string, l language, n int, tl *tally) {
	entries := pick(t, l, n)
	repo := t.TempDir()
	before := t.TempDir()
	rng := rand.New(rand.NewPCG(7, uint64(len(entries))))
	var samples []*sample
	for i, e := range entries {
		src, err := os.ReadFile(e.src)
		if err != nil {
			t.Fatal(err)
		}
		if !utf8.Valid(src) {
			continue
		}
		m, err := region.Classify(e.name, src)
		for _, v := range []string{"c", "x"} {
			s := &sample{e: e, variant: v, rel: fmt.Sprintf("%s/%03d/%s", v, i, e.name), valid: err == nil, lang: langOf(e.name)}
			at := positions(rng, src, m, v)
			s.injected, s.inj = inject(rng, src, at)
			if _, cerr := region.Classify(e.name, s.injected); v == "c" && s.valid && cerr != nil {
				// A carrier in a literal's delimiter (a here-document's
				// terminator) breaks the file: the "c" variant must stay
				// valid, so its literals go without carriers.
				t.Logf("%s: no carriers in literals (%v)", e.src, cerr)
				s.injected, s.inj = inject(rng, src, without(at, inLiteral))
			}
			samples = append(samples, s)
			write(t, filepath.Join(repo, s.rel), s.injected)
			write(t, filepath.Join(before, s.rel), s.injected)
		}
		tl.files++
	}
	git(t, repo, "init", "-q")
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-q", "-m", "corpus")

	findings := runCheck(t, bin, repo)
	var rels []string
	for _, s := range samples {
		rels = append(rels, s.rel)
	}
	report := runClean(t, bin, repo, rels)

	var oracleBefore, oracleAfter []string
	var oracleSamples []*sample
	for _, s := range samples {
		after, err := os.ReadFile(filepath.Join(repo, s.rel))
		if err != nil {
			t.Fatal(err)
		}
		f, ok := report[s.rel]
		if !ok {
			t.Errorf("%s: not in clean's report", s.rel)
			continue
		}
		judge(t, s, after, findings[s.rel], f, tl)
		if s.variant == "c" && l.oracle != nil && f.Status != "refused" {
			oracleSamples = append(oracleSamples, s)
			oracleBefore = append(oracleBefore, filepath.Join(before, s.rel))
			oracleAfter = append(oracleAfter, filepath.Join(repo, s.rel))
		}
	}
	defer countFiles(samples, report, tl)
	if l.oracle == nil {
		return
	}
	a, b := l.oracle(t, oracleBefore), l.oracle(t, oracleAfter)
	if len(a) != len(oracleSamples) || len(b) != len(oracleSamples) {
		t.Fatalf("oracle answered %d and %d readings for %d files", len(a), len(b), len(oracleSamples))
	}
	for i, s := range oracleSamples {
		if a[i].err != "" {
			tl.oracleNA++
			continue
		}
		tl.oracleCompared++
		if a[i] != b[i] {
			tl.mismatches++
			s.damaged = true
			t.Errorf("%s (%s): the program changed:\n%s", s.rel, s.e.src, firstDiff(a[i].program+a[i].err, b[i].program+b[i].err))
		}
	}
	if tl.oracleCompared < tl.files/2 {
		t.Errorf("the oracle compared only %d of %d files (%d it cannot read)", tl.oracleCompared, tl.files, tl.oracleNA)
	}
}

// countFiles sorts each file into exact, conservative, damaged or refused
// (see tally) once clean, check and the oracle have judged it.
func countFiles(samples []*sample, report map[string]fileReport, tl *tally) {
	for _, s := range samples {
		switch {
		case s.damaged:
			tl.damaged++
		case s.variant != "c":
		case report[s.rel].Status == "refused":
			tl.refusedFiles++
		case s.kept:
			tl.conservative++
		default:
			tl.exact++
		}
	}
}

// finding is what check --format json prints per carrier. Offset and Len
// (bytes) are read when check prints them; else the place comes from line
// and column and the carrier is one character.
type finding struct {
	Path, Code, Name, Class, Region, Action, Reason string
	Line, Col                                       int
	Offset, Len                                     *int
}

func runCheck(t *testing.T, bin, repo string) map[string][]finding {
	stdout, stderr, code := run(t, bin, repo, "check", "--format", "json", "c", "x")
	if code != 0 && code != 1 {
		t.Fatalf("check exited %d: %s", code, stderr)
	}
	var doc struct{ Findings []finding }
	if err := json.Unmarshal(stdout, &doc); err != nil {
		t.Fatalf("check --format json: %v", err)
	}
	out := map[string][]finding{}
	for _, f := range doc.Findings {
		out[f.Path] = append(out[f.Path], f)
	}
	return out
}

// fileReport is one file of clean --json.
type fileReport struct {
	Path, Status, Reason, Validation, Note string
}

func runClean(t *testing.T, bin, repo string, rels []string) map[string]fileReport {
	stdout, stderr, code := run(t, bin, repo, append([]string{"clean", "--json"}, rels...)...)
	if code != 0 && code != 3 {
		t.Fatalf("clean exited %d: %s", code, stderr)
	}
	var doc struct{ Files []fileReport }
	if err := json.Unmarshal(stdout, &doc); err != nil {
		t.Fatalf("clean --json: %v\n%s", err, stderr)
	}
	out := map[string]fileReport{}
	for _, f := range doc.Files {
		out[f.Path] = f
	}
	return out
}

// internalFailure matches what a Go panic, a runtime error or an engine
// invariant failure prints.
var internalFailure = regexp.MustCompile(`(?i)panic:|goroutine \d+ \[|runtime error|internal error`)

func run(t *testing.T, bin, dir string, args ...string) (stdout, stderr []byte, code int) {
	t.Helper()
	state := t.TempDir()
	cmd := exec.CommandContext(t.Context(), bin, args...)
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), "PROSEWASH_STATE_DIR="+filepath.Join(state, "state"),
		"XDG_CONFIG_HOME="+filepath.Join(state, "config"), "HOME="+filepath.Join(state, "home"), "NO_COLOR=1")
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		code = ee.ExitCode()
	default:
		t.Fatalf("prosewash %s: %v", args[0], err)
	}
	if internalFailure.Match(e.Bytes()) || internalFailure.Match(o.Bytes()) {
		t.Errorf("prosewash %s failed internally:\n%s", args[0], e.String())
	}
	return o.Bytes(), e.Bytes(), code
}

// cleanEnv is the environment without variables that would point the
// binary at a session or configuration of the developer's.
func cleanEnv() []string {
	var out []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "PROSEWASH_") && !strings.HasPrefix(kv, testtool.EnvRequire+"=") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid")
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.CommandContext(t.Context(), testtool.LookPath(t, "git", "apt-get install git"), args...)
	cmd.Dir = dir
	cmd.Env = cleanEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// position names a file and a place in it: path:line:col.
var position = regexp.MustCompile(`:\d+:\d+`)

// judge checks one file against check's prediction and the injections.
func judge(t *testing.T, s *sample, after []byte, fs []finding, f fileReport, tl *tally) {
	t.Helper()
	offs := offsets(s.injected)
	acted := map[int]act{}  // byte offset -> what clean does there
	why := map[int]string{} // byte offset -> check's reason for leaving it
	for _, x := range fs {
		off, ok := offs[[2]int{x.Line, x.Col}]
		if !ok || (x.Offset != nil && *x.Offset != off) {
			t.Errorf("%s: check reports %s at %d:%d, which is no character of the file or not at offset %v", s.rel, x.Code, x.Line, x.Col, x.Offset)
			continue
		}
		why[off] = x.Region + ": " + x.Reason
		if x.Action == "remove" || x.Action == "replace" {
			_, n := utf8.DecodeRune(s.injected[off:])
			if x.Len != nil {
				n = *x.Len
			}
			// One finding may cover a run (tag characters, an escape
			// sequence): every character of it is acted on.
			for k := off; k < off+n; {
				_, size := utf8.DecodeRune(s.injected[k:])
				acted[k] = act{x.Action, k == off}
				k += size
			}
		}
	}
	tl.injected += len(s.inj)
	// Prose recall is measured on the "c" variants: the carriers in code
	// of an "x" variant may leave its language unreadable, and then
	// every carrier is only reported.
	recall := s.variant == "c"
	for _, in := range s.inj {
		if in.where == inProse && recall {
			tl.prose++
		}
		a, ok := acted[in.off]
		switch {
		case !ok:
			tl.reported++
			if in.where == inProse && recall {
				s.kept = true
			}
			if in.where == inProse && recall && len(tl.kept) < 8 {
				tl.kept = append(tl.kept, fmt.Sprintf("%s: %+q kept (%s) at %s", s.rel, in.text, why[in.off], where(s.injected, in.off)))
			}
		case in.where == inProse:
			if recall {
				tl.removed++
			}
		case (in.where == inLiteral || in.where == inCode) && !dissolves(s.lang, in.why):
			tl.neverRemoved++
			s.damaged = true
			t.Errorf("%s (%s): check marks %s the carrier %+q injected into %s at %s", s.rel, s.e.src, a.action, in.text, in.where, where(s.injected, in.off))
		case in.where != inProse && in.where != inAnywhere && restores(s.injected, apply(s.injected, acted), in.off, len(in.text)):
			// A carrier that broke a directive's (or markup's) shape may
			// go only when that does not bring it back.
			tl.neverRemoved++
			s.damaged = true
			t.Errorf("%s (%s): cleaning the carrier %+q injected into %s brings the original back: %s", s.rel, s.e.src, in.text, in.where, where(s.injected, in.off))
		}
	}
	if f.Status == "refused" {
		if s.valid && s.variant == "c" {
			tl.refusedValid++
		} else {
			tl.refusedX++
		}
		tl.refusals = append(tl.refusals, fmt.Sprintf("%s (%s): %s", s.rel, s.e.src, f.Reason))
		if !strings.HasPrefix(f.Reason, "no classifier") && !position.MatchString(f.Reason) {
			t.Errorf("%s: the refusal names no position: %q", s.rel, f.Reason)
		}
		if !bytes.Equal(after, s.injected) {
			s.damaged = true
			t.Errorf("%s: refused, yet the file changed", s.rel)
		}
		return
	}
	want := apply(s.injected, acted)
	if !bytes.Equal(after, want) {
		s.damaged = true
		i := 0
		for i < len(after) && i < len(want) && after[i] == want[i] {
			i++
		}
		t.Errorf("%s (%s, %s): clean did not do what check predicted, first difference at %s:\n got %q\nwant %q",
			s.rel, s.e.src, f.Status, where(s.injected, i), after[max(0, i-40):min(len(after), i+40)], want[max(0, i-40):min(len(want), i+40)])
	}
}

// offsets maps each character's line:col (as check counts them: \n, \r\n
// and \r end lines, columns count characters) to its byte offset.
func offsets(b []byte) map[[2]int]int {
	out := map[[2]int]int{}
	line, col := 1, 1
	for i := 0; i < len(b); {
		out[[2]int{line, col}] = i
		r, size := utf8.DecodeRune(b[i:])
		switch {
		case r == '\n', r == '\r' && (i+1 >= len(b) || b[i+1] != '\n'):
			line, col = line+1, 1
		case r == '\r':
			col++ // the \r of \r\n: the \n ends the line
		default:
			col++
		}
		i += size
	}
	return out
}

// act is what clean does to one character: remove it, or replace it with a
// space (the first character of a finding only; the rest of its run goes).
type act struct {
	action string
	first  bool
}

// restores reports whether the line holding the injection at off (n bytes)
// reads, once cleaned, as it read before any injection: the original line
// is the injected one with every injected carrier on it taken out.
func restores(injected, cleaned []byte, off, n int) bool {
	ls := bytes.LastIndexByte(injected[:off], '\n') + 1
	line := bytes.Count(injected[:off], []byte("\n"))
	cl := bytes.Split(cleaned, []byte("\n"))
	if line >= len(cl) {
		return false
	}
	le := bytes.IndexByte(injected[off:], '\n')
	if le < 0 {
		le = len(injected) - off
	}
	orig := stripCarriers(injected[ls : off+le])
	return bytes.Equal(cl[line], orig)
}

// stripCarriers drops every character of the injected carriers.
func stripCarriers(b []byte) []byte {
	out := b
	for _, c := range carriers {
		out = bytes.ReplaceAll(out, []byte(c), nil)
	}
	return out
}

// apply removes the carrier at each acted offset, or replaces it with a
// space.
func apply(b []byte, acted map[int]act) []byte {
	keys := make([]int, 0, len(acted))
	for k := range acted {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	var out []byte
	prev := 0
	for _, k := range keys {
		_, size := utf8.DecodeRune(b[k:])
		out = append(out, b[prev:k]...)
		if a := acted[k]; a.action == "replace" && a.first {
			out = append(out, ' ')
		}
		prev = k + size
	}
	return append(out, b[prev:]...)
}

func where(b []byte, off int) string {
	line := bytes.Count(b[:off], []byte("\n")) + 1
	ls := bytes.LastIndexByte(b[:off], '\n') + 1
	le := bytes.IndexByte(b[off:], '\n')
	if le < 0 {
		le = len(b) - off
	}
	return fmt.Sprintf("line %d: %q", line, b[ls:min(off+le, ls+160)])
}

func firstDiff(a, b string) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return fmt.Sprintf("before: %q\n after: %q", a[max(0, i-80):min(len(a), i+80)], b[max(0, i-80):min(len(b), i+80)])
}
