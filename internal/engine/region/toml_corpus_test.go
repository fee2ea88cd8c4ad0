package region

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	toml "github.com/pelletier/go-toml/v2"

	"github.com/prosewash/prosewash/internal/testtool"
)

// tomlCorpusPackages ship Cargo.toml manifests (as published and, for some,
// the original with its comments as Cargo.toml.orig) and other TOML.
var tomlCorpusPackages = []string{
	"librust-serde-dev", "librust-regex-dev", "librust-tokio-dev", "librust-clap-dev",
	"librust-rand-dev", "librust-syn-dev", "librust-anyhow-dev", "librust-log-dev",
	"librust-libc-dev", "librust-futures-dev", "librust-hyper-dev", "librust-toml-dev",
}

// tomlTestSuite is the Go module that vendors toml-test, the TOML
// conformance suite: hundreds of valid and invalid documents.
const tomlTestSuite = "github.com/BurntSushi/toml@v1.5.0"

// goModuleDir downloads a Go module through the module proxy and returns
// its directory in the module cache.
func goModuleDir(t *testing.T, mod string) string { return testtool.GoModule(t, mod) }

// tomlCorpus returns the TOML files of the Debian corpus packages and of
// toml-test.
func tomlCorpus(t *testing.T) []string {
	t.Helper()
	var files []string
	walk := func(dir string) {
		_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && d.Type().IsRegular() && (strings.HasSuffix(p, ".toml") || strings.HasSuffix(p, "Cargo.toml.orig")) {
				files = append(files, p)
			}
			return nil
		})
	}
	walk(testtool.Debian(t, tomlCorpusPackages...))
	walk(filepath.Join(goModuleDir(t, tomlTestSuite), "internal", "toml-test", "tests"))
	sort.Strings(files)
	return files
}

// tomlStrings returns an offset just inside each string literal (after the
// opening quote or quotes).
func tomlStrings(src []byte, m *Map) []int {
	var out []int
	for _, r := range m.Regions {
		if r.Kind == Runtime && r.Why == "string" && r.Len() >= 2 {
			q := 1
			if r.Len() >= 6 && src[r.Start+1] == src[r.Start] && src[r.Start+2] == src[r.Start] {
				q = 3
			}
			out = append(out, r.Start+q)
		}
	}
	return out
}

const tomllibScript = `
import json, sys, tomllib
for path in sys.argv[1:]:
    try:
        with open(path, 'rb') as f:
            v = tomllib.load(f)
        print(json.dumps({'path': path, 'value': repr(v)}))
    except Exception as e:
        print(json.dumps({'path': path, 'error': type(e).__name__}))
`

// tomllibDecode decodes each file with Python's tomllib and returns the
// canonical JSON of each value, keyed by path ("" for files it rejects).
func tomllibDecode(t *testing.T, paths []string) map[string]string {
	t.Helper()
	python := testtool.LookPath(t, "python3", "apt-get install python3")
	script := filepath.Join(t.TempDir(), "decode.py")
	if err := os.WriteFile(script, []byte(tomllibScript), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.CommandContext(t.Context(), python, append([]string{script}, paths...)...).Output()
	if err != nil {
		testtool.Missing(t, "python3", "python3 with tomllib (3.11+) failed: "+err.Error())
	}
	res := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var r struct {
			Path  string `json:"path"`
			Value string `json:"value"`
			Error string `json:"error"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		res[r.Path] = r.Value
	}
	return res
}

func TestTOMLCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus test")
	}
	files := tomlCorpus(t)
	if len(files) < 400 {
		t.Fatalf("found %d TOML files, want at least 400", len(files))
	}
	dir := t.TempDir()
	var origs, fills []string
	prose, literals, whole := 0, 0, 0
	for i, p := range files {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		name := "Cargo.toml"
		m, err := Classify(name, src)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if len(m.Regions) == 1 && m.Regions[0].Kind == Runtime && strings.HasPrefix(m.Regions[0].Why, "TOML error") {
			whole++
			continue
		}
		np, nl := checkInjection(t, p, name, src, m, tomlStrings(src, m))
		prose, literals = prose+max(np, 0), literals+max(nl, 0)
		// Decode equality: go-toml here, tomllib below.
		filled := fillProse(src, m)
		// fmt prints maps sorted and NaN as NaN, so equal values print
		// equal. A file that does not decode may decode once its prose is
		// filled (a control character in a comment): that is the repair.
		var a, b map[string]any
		if errA := toml.Unmarshal(src, &a); errA == nil {
			errB := toml.Unmarshal(filled, &b)
			if errB != nil || fmt.Sprint(a) != fmt.Sprint(b) {
				t.Errorf("%s: go-toml decodes differently once prose is filled (%v)", p, errB)
			}
		}
		o, f := filepath.Join(dir, fmt.Sprintf("o-%05d.toml", i)), filepath.Join(dir, fmt.Sprintf("f-%05d.toml", i))
		if err := os.WriteFile(o, src, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, filled, 0o600); err != nil {
			t.Fatal(err)
		}
		origs, fills = append(origs, o), append(fills, f)
	}
	dec := tomllibDecode(t, append(append([]string(nil), origs...), fills...))
	same := 0
	for i := range origs {
		a, b := dec[origs[i]], dec[fills[i]]
		if a != "" && a != b {
			t.Errorf("%s: tomllib decodes differently once prose is filled", origs[i])
			continue
		}
		if a != "" {
			same++
		}
	}
	if prose < 200 || literals < 500 || same < 150 {
		t.Errorf("weak corpus: %d prose and %d literal injections, tomllib decoded %d of %d", prose, literals, same, len(origs))
	}
	t.Logf("%d TOML files (%d invalid, whole runtime): injected %d prose and %d literal carriers; go-toml and tomllib (%d files) decode each the same with prose filled",
		len(files), whole, prose, literals, same)
}
