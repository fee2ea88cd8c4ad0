package region

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testtool"
)

// BuildKit's Dockerfile parser is the judge of the Dockerfile classifier. It
// lives in a module of its own (testdata/buildkit), built by the test, so it
// never becomes a dependency of prosewash: what it prints for a file (every
// instruction, here-document body, directive and the escape token, but no
// comment) must not change when every prose byte is replaced.

const buildkitModule = "github.com/moby/buildkit@v0.34.2"

func buildkitOracle(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "buildkit-oracle")
	cmd := exec.CommandContext(t.Context(), "go", "build", "-o", bin, ".")
	cmd.Dir = filepath.Join("testdata", "buildkit")
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		testtool.Missing(t, "go-module-proxy", fmt.Sprintf("build the BuildKit oracle: %v\n%s", err, out))
	}
	return bin
}

// buildkitRead runs the oracle over paths and returns its output per path,
// the path itself left out.
func buildkitRead(t *testing.T, bin string, paths []string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for len(paths) > 0 {
		n := min(len(paths), 500)
		cmd := exec.CommandContext(t.Context(), bin, paths[:n]...)
		data, err := cmd.Output()
		if err != nil {
			t.Fatalf("BuildKit oracle: %v", err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		for sc.Scan() {
			var r map[string]any
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
			p, _ := r["path"].(string)
			delete(r, "path")
			b, _ := json.Marshal(r)
			out[p] = string(b)
		}
		paths = paths[n:]
	}
	return out
}

// dockerLiterals returns injection points inside runtime text: the start of
// each here-document body and the argument of each FROM line.
func dockerLiterals(src []byte, m *Map) []int {
	var out []int
	for _, r := range m.Regions {
		if r.Kind == Runtime && r.Why == "here-document" && r.Len() > 0 {
			out = append(out, r.Start)
		}
	}
	for i := 0; i < len(src); {
		if bytes.HasPrefix(src[i:], []byte("FROM ")) && (i == 0 || src[i-1] == '\n') {
			out = append(out, i+len("FROM "))
		}
		k := bytes.IndexByte(src[i:], '\n')
		if k < 0 {
			break
		}
		i += k + 1
	}
	sort.Ints(out)
	return out
}

// dockerfileRandom builds a Dockerfile from lines chosen to meet every rule:
// directives, comments after Unicode spaces, continuations with either
// escape, here-documents of every shape, lone and paired \r.
func dockerfileRandom(rng *rand.Rand) []byte {
	pool := []string{
		"# c\u200b", "  # indented", "\u00a0# nbsp", "\u2003\t# em space", "\u200b# zwsp", "# syntax=x", "# escape=`",
		"# escape=\\", "#check=skip=all", "# hadolint ignore=DL3008", "# TODO: x", "", "   ", "FROM a", "RUN a \\", "RUN a `",
		"RUN a \\\\", "RUN <<EOF", "RUN <<-EOF", "COPY <<A <<B /x", "EOF", "\tEOF", "A", "B", "RUN echo # x", "  b", "  b \\",
		"RUN cat << EOF", "RUN <<'EOF' bash", "RUN <<E\"O\"F", "ONBUILD RUN <<EOF", "RUN [\"a\", \"<<EOF\"]", "RUN x\r",
		"# c\r", "# a\rRUN b", "LABEL a=<<EOF", "RUN cat <<EOF;", "EOF;", "RUN <<EOF \\", "  && true", "# e\u2028f",
	}
	var sb strings.Builder
	for range 3 + rng.IntN(14) {
		sb.WriteString(pool[rng.IntN(len(pool))])
		if rng.IntN(10) == 0 {
			sb.WriteString("\r")
		}
		sb.WriteString("\n")
	}
	return []byte(sb.String())
}

func TestDockerfileAgainstBuildKit(t *testing.T) {
	if testing.Short() {
		t.Skip("oracle test")
	}
	bin := buildkitOracle(t)
	var files []string
	_ = filepath.WalkDir(goModuleDir(t, buildkitModule), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Type().IsRegular() && Language(filepath.Base(p), nil) == "dockerfile" {
			files = append(files, p)
		}
		return nil
	})
	fixtures, _ := filepath.Glob(filepath.Join("testdata", "golden", "*ockerfile*.in"))
	if len(files) < 40 || len(fixtures) < 2 {
		t.Fatalf("found %d BuildKit Dockerfiles and %d fixtures", len(files), len(fixtures))
	}
	type sample struct {
		name string
		src  []byte
	}
	var samples []sample
	for _, p := range append(files, fixtures...) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		samples = append(samples, sample{p, src})
	}
	rng := rand.New(rand.NewPCG(14, 7))
	for i := range 3000 {
		samples = append(samples, sample{fmt.Sprintf("generated-%d", i), dockerfileRandom(rng)})
	}
	dir := t.TempDir()
	var origs, fills []string
	prose, literals := 0, 0
	for i, s := range samples {
		m, err := Classify("Dockerfile", s.src)
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		np, nl := checkInjection(t, s.name, "Dockerfile", s.src, m, dockerLiterals(s.src, m))
		prose, literals = prose+max(np, 0), literals+max(nl, 0)
		o, f := filepath.Join(dir, fmt.Sprintf("o-%05d", i)), filepath.Join(dir, fmt.Sprintf("f-%05d", i))
		if err := os.WriteFile(o, s.src, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, fillProse(s.src, m), 0o600); err != nil {
			t.Fatal(err)
		}
		origs, fills = append(origs, o), append(fills, f)
	}
	read := buildkitRead(t, bin, append(append([]string(nil), origs...), fills...))
	parsed, heredocs := 0, 0
	for i := range origs {
		a, b := read[origs[i]], read[fills[i]]
		if a != b {
			t.Errorf("%s: BuildKit reads it differently once prose is filled:\n%q\n orig %s\n fill %s", samples[i].name, samples[i].src, a, b)
			continue
		}
		if !strings.Contains(a, `"error"`) {
			parsed++
		}
		if strings.Contains(a, `"heredocs":[`) {
			heredocs++
		}
	}
	if parsed < 600 || heredocs < 150 || prose < 500 {
		t.Errorf("weak comparison: %d parsed, %d with heredocs, %d prose injections", parsed, heredocs, prose)
	}
	t.Logf("%d Dockerfiles (%d from BuildKit, %d generated): BuildKit parsed %d (%d with heredocs) the same with prose filled; injected %d prose and %d literal carriers",
		len(samples), len(files), 3000, parsed, heredocs, prose, literals)
}
