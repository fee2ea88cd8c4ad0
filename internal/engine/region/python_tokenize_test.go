package region

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testtool"
)

// tokenizeScript prints, for each file named on the command line, one JSON
// object with the byte spans of its COMMENT, STRING and f-string tokens as
// CPython's tokenize module sees them. tokenize reports (row, col) with col
// counted in code points of the decoded line, so the script converts them to
// byte offsets itself. Lines are split on \n, \r\n and \r only (never with
// str.splitlines) and handed to tokenize with \n endings, which is what
// CPython's universal newlines do; line contents, and so columns, do not move.
const tokenizeScript = `
import io, json, re, sys, tokenize

LINE = re.compile(rb'\r\n|\r|\n')

def physical_lines(data):
    out, pos = [], 0
    for m in LINE.finditer(data):
        out.append((pos, data[pos:m.start()], data[m.start():m.end()]))
        pos = m.end()
    if pos < len(data):
        out.append((pos, data[pos:], b''))
    return out

def spans(path):
    data = open(path, 'rb').read()
    enc, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    bom = 3 if data.startswith(b'\xef\xbb\xbf') else 0
    if enc == 'utf-8-sig':
        enc = 'utf-8'
    phys = physical_lines(data)
    texts = []
    for i, (start, body, end) in enumerate(phys):
        if i == 0 and bom:
            body = body[3:]
        texts.append(body.decode(enc) + ('\n' if end else ''))
    def off(row, col):
        start, _, _ = phys[row - 1]
        b = len(texts[row - 1][:col].encode(enc))
        if row == 1:
            b += bom
        return start + b
    it = iter(texts)
    toks = list(tokenize.generate_tokens(lambda: next(it, '')))
    comments, strings, fstrings = [], [], []
    stack = []
    for t in toks:
        name = tokenize.tok_name[t.type]
        if t.type == tokenize.COMMENT:
            comments.append([off(*t.start), off(*t.end), len(stack) > 0])
        elif t.type == tokenize.STRING:
            strings.append([off(*t.start), off(*t.end)])
        elif name == 'FSTRING_START':
            stack.append(off(*t.start))
        elif name == 'FSTRING_END':
            s = stack.pop()
            if not stack:
                fstrings.append([s, off(*t.end)])
    return {'comments': comments, 'strings': strings, 'fstrings': fstrings}

print(json.dumps({'version': list(sys.version_info[:2])}))
for path in sys.argv[1:]:
    try:
        r = spans(path)
        r['path'] = path
    except Exception as e:
        r = {'path': path, 'error': type(e).__name__}
    print(json.dumps(r))
`

type tokenizeResult struct {
	Path     string  `json:"path"`
	Error    string  `json:"error"`
	Comments [][]any `json:"comments"`
	Strings  [][]int `json:"strings"`
	FStrings [][]int `json:"fstrings"`
	Version  []int   `json:"version"`
}

// stdlibSample returns up to n .py files of the system's Python stdlib,
// spread evenly over the sorted list so the sample is stable.
func stdlibSample(t *testing.T, python string, n int) []string {
	t.Helper()
	out, err := exec.Command(python, "-c", "import sysconfig; print(sysconfig.get_paths()['stdlib'])").Output()
	if err != nil {
		t.Logf("no stdlib path from %s: %v", python, err)
		return nil
	}
	root := strings.TrimSpace(string(out))
	var all []string
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && (d.Name() == "site-packages" || d.Name() == "dist-packages" || d.Name() == "__pycache__") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".py") {
			all = append(all, p)
		}
		return nil
	})
	sort.Strings(all)
	if len(all) <= n {
		return all
	}
	sample := make([]string, 0, n)
	for i := 0; i < n; i++ {
		sample = append(sample, all[i*len(all)/n])
	}
	return sample
}

func TestPythonAgainstTokenize(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		testtool.Missing(t, "python3", "python3 not found: cannot compare with CPython's tokenize module")
	}
	fixtures, err := filepath.Glob(filepath.Join("testdata", "golden", "*.py.in"))
	if err != nil || len(fixtures) == 0 {
		t.Fatalf("no Python fixtures: %v", err)
	}
	stdlib := stdlibSample(t, python, 300)
	script := filepath.Join(t.TempDir(), "spans.py")
	if err := os.WriteFile(script, []byte(tokenizeScript), 0o600); err != nil {
		t.Fatal(err)
	}
	args := append([]string{script}, fixtures...)
	args = append(args, stdlib...)
	cmd := exec.CommandContext(t.Context(), python, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("python3 tokenize helper: %v\n%s", err, stderr.String())
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	var version []int
	compared, stdlibCompared := 0, 0
	isFixture := map[string]bool{}
	for _, f := range fixtures {
		isFixture[f] = true
	}
	for sc.Scan() {
		var r tokenizeResult
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("helper output: %v", err)
		}
		if r.Version != nil {
			version = r.Version
			continue
		}
		name := filepath.Base(r.Path)
		pep701 := len(version) == 2 && (version[0] > 3 || version[1] >= 12)
		switch {
		case isFixture[r.Path] && strings.Contains(name, "_invalid"):
			// Deliberately broken input: tokenize may fail or produce
			// error tokens; the goldens cover these.
			continue
		case isFixture[r.Path] && strings.Contains(name, "_py312") && !pep701:
			t.Logf("%s needs PEP 701 tokenize (Python 3.12+), have %v: excluded from the cross-check only", name, version)
			continue
		case r.Error != "":
			if isFixture[r.Path] {
				t.Errorf("%s: tokenize failed on a fixture: %s", name, r.Error)
			}
			continue
		}
		src, err := os.ReadFile(r.Path)
		if err != nil {
			t.Fatal(err)
		}
		checkAgainstTokenize(t, r, src)
		compared++
		if !isFixture[r.Path] {
			stdlibCompared++
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if compared < len(fixtures)-5 {
		t.Fatalf("compared only %d files", compared)
	}
	if len(stdlib) > 0 && stdlibCompared < len(stdlib)*8/10 {
		t.Fatalf("compared %d of %d stdlib files; tokenize failed on too many", stdlibCompared, len(stdlib))
	}
	t.Logf("python %v: compared %d files (%d from the stdlib) with tokenize", version, compared, stdlibCompared)
}

func checkAgainstTokenize(t *testing.T, r tokenizeResult, src []byte) {
	t.Helper()
	m, err := classifyPython(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Check(); err != nil {
		t.Fatalf("%s: %v", r.Path, err)
	}
	comments := map[[2]int]bool{}
	for _, c := range r.Comments {
		s, e := int(c[0].(float64)), int(c[1].(float64))
		inF, _ := c[2].(bool)
		if inF {
			// A comment inside an f-string replacement field (3.12+): part
			// of the f-string, so runtime.
			if k := m.At(s).Kind; k != Runtime {
				t.Errorf("%s: comment [%d,%d) inside an f-string is %s, want runtime", r.Path, s, e, k)
			}
			continue
		}
		comments[[2]int{s, e}] = true
		reg := m.At(s)
		if reg.Start != s || reg.End != e || reg.Kind == Runtime {
			t.Errorf("%s: tokenize COMMENT [%d,%d) %q, classifier has %d-%d %s %q",
				r.Path, s, e, src[s:e], reg.Start, reg.End, reg.Kind, reg.Why)
		}
	}
	for _, reg := range m.Regions {
		if reg.Kind != Runtime && !comments[[2]int{reg.Start, reg.End}] {
			t.Errorf("%s: %s region %d-%d %q is no COMMENT token", r.Path, reg.Kind, reg.Start, reg.End, src[reg.Start:reg.End])
		}
	}
	for _, list := range [][][]int{r.Strings, r.FStrings} {
		for _, s := range list {
			for off := s[0]; off < s[1]; {
				reg := m.At(off)
				if reg.Kind != Runtime {
					t.Errorf("%s: string [%d,%d) overlaps %s region %d-%d", r.Path, s[0], s[1], reg.Kind, reg.Start, reg.End)
					break
				}
				off = reg.End
			}
		}
	}
}
