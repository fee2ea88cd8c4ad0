package region

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testtool"
	yaml "go.yaml.in/yaml/v3"
)

// The YAML scanner is checked against three real readers:
//
//   - positions: npm yaml's Lexer (a YAML 1.2 reader) must see a comment
//     wherever the scanner marks prose or a directive (the scanner may end a
//     comment earlier, at a separator libyaml treats as a line break), and
//     every comment it sees must be prose or a directive in files where the
//     two reader families agree;
//   - invariance: replacing the text of every prose region with junk full of
//     carriers, quotes, colons, brackets and block indicators must leave the
//     decoded documents identical under PyYAML (both its pure-Python and its
//     libyaml loaders), go.yaml.in/yaml/v3 and npm yaml.
//
// The corpus: the golden fixtures, a sample of the YAML that Debian's
// ansible package ships, the workflow files shipped in Debian's Rust crate
// packages, in npm packages and in the Go module cache, and each of those again with a
// U+2028 and a live-looking key planted in its comments.

const yamlNodeScript = `
const fs = require('fs');
const crypto = require('crypto');
const {Lexer, CST, parseAllDocuments} = require(process.env.YAML_DIR);
const mode = process.argv[1];
for (const path of process.argv.slice(2)) {
  const text = fs.readFileSync(path, 'utf8');
  if (mode === 'lex') {
    const comments = [];
    let off = 0;
    for (const tok of new Lexer().lex(text)) {
      if (tok === '\x02' || tok === '\x18' || tok === '\x1f') continue;
      const n = Buffer.byteLength(tok, 'utf8');
      if (CST.tokenType(tok) === 'comment') comments.push([off, off + n]);
      off += n;
    }
    console.log(JSON.stringify({path, comments, size: off}));
  } else {
    let value = 'ERR';
    try {
      const docs = parseAllDocuments(text, {uniqueKeys: false});
      if (!docs.some(d => d.errors.length > 0)) {
        value = crypto.createHash('sha256').update(JSON.stringify(docs.map(d => d.toJS({maxAliasCount: -1})))).digest('hex');
      }
    } catch (e) { value = 'ERR'; }
    console.log(JSON.stringify({path, value}));
  }
}
`

const yamlPyScript = `
import hashlib, json, sys, yaml
for path in sys.argv[1:]:
    data = open(path, 'rb').read()
    out = {'path': path}
    for name, loader in (('py', yaml.SafeLoader), ('c', getattr(yaml, 'CSafeLoader', None))):
        if loader is None:
            out[name] = 'MISSING'
            continue
        try:
            out[name] = hashlib.sha256(repr(list(yaml.load_all(data, Loader=loader))).encode('utf-8', 'backslashreplace')).hexdigest()
        except Exception:
            out[name] = 'ERR'
    print(json.dumps(out))
`

// yamlOracleCorpus returns the files to compare: fixtures and real files,
// each copied into dir under a name that keeps its extension.
func yamlOracleCorpus(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, ext := range []string{".yaml.in", ".yml.in"} {
		fx, _ := filepath.Glob(filepath.Join("testdata", "golden", "*"+ext))
		files = append(files, fx...)
	}
	root := testtool.Debian(t, testtool.YAMLPackages...)
	files = append(files, testtool.Files(t, root, 400, ".yml", ".yaml")...)
	crates := testtool.Debian(t, testtool.RustPackages...)
	files = append(files, testtool.Files(t, crates, 0, ".yml", ".yaml")...)
	// npm packages that ship their GitHub workflow and dependabot files.
	npm := testtool.NPM(t, "reusify@1.1.0", "nan@2.30.0", "needle@3.5.0", "@vue/tsconfig@0.9.1", "iconv-lite@0.6.3")
	for _, p := range testtool.Files(t, filepath.Join(npm, "node_modules"), 0, ".yml", ".yaml") {
		if strings.Contains(p, "/.github/") {
			files = append(files, p)
		}
	}
	if out, err := exec.Command("go", "env", "GOMODCACHE").Output(); err == nil {
		// Module roots sit one to three directories deep (host/owner/repo@v).
		mod := strings.TrimSpace(string(out))
		for _, depth := range []string{"*@*", "*/*@*", "*/*/*@*"} {
			for _, pat := range []string{".github/workflows/*.y*ml", ".github/*.y*ml", "*compose*.y*ml"} {
				m, _ := filepath.Glob(filepath.Join(mod, depth, pat))
				files = append(files, m...)
			}
		}
	}
	return files
}

// plantSeparators returns src with "<U+2028>zz: 1 " planted after the '#'
// of every prose comment: a live key for libyaml readers.
func plantSeparators(src []byte, m *Map) []byte {
	var out []byte
	pos := 0
	for _, r := range m.Regions {
		if r.Kind == Prose && src[r.Start] == '#' {
			out = append(out, src[pos:r.Start+1]...)
			out = append(out, "\u2028zz: 1 "...)
			pos = r.Start + 1
		}
	}
	return append(out, src[pos:]...)
}

// junkProse replaces the text of every prose region with junk that would
// change any YAML it were part of.
func junkProse(src []byte, m *Map) []byte {
	const junk = "#\u200b\u00a0\"'\": [{|>&*!%@` - ? #x\u202e"
	var out []byte
	for _, r := range m.Regions {
		if r.Kind != Prose {
			out = append(out, src[r.Start:r.End]...)
			continue
		}
		if src[r.Start] == '#' {
			out = append(out, junk...)
		} else {
			out = append(out, junk[1:]...)
		}
	}
	return out
}

func TestYAMLAgainstReaders(t *testing.T) {
	var inputs []yamlInput
	for _, p := range yamlOracleCorpus(t) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, yamlInput{p, src})
		if m, err := classifyYAML(p, src); err == nil && len(m.Spans(Prose)) > 0 && len(inputs)%3 == 0 {
			inputs = append(inputs, yamlInput{p + " (with planted U+2028 keys)", plantSeparators(src, m)})
		}
	}
	pairs, counts := checkYAMLReaders(t, inputs)
	for _, reader := range []string{"go yaml.v3", "npm yaml", "PyYAML"} {
		if counts[reader] < pairs*7/10 {
			t.Errorf("%s decoded only %d of %d files", reader, counts[reader], pairs)
		}
	}
}

type yamlInput struct {
	name string
	src  []byte
}

// checkYAMLReaders runs the position and invariance checks on inputs and
// returns how many classified and, per reader, how many it decoded.
func checkYAMLReaders(t *testing.T, inputs []yamlInput) (int, map[string]int) {
	t.Helper()
	node := testtool.LookPath(t, "node", "apt-get install nodejs")
	python := testtool.LookPath(t, "python3", "apt-get install python3 python3-yaml")
	if err := exec.Command(python, "-c", "import yaml").Run(); err != nil {
		testtool.Missing(t, "python3-yaml", "python3 cannot import yaml (apt-get install python3-yaml)")
	}
	prefix := testtool.NPM(t, "yaml@2.9.1")
	dir := t.TempDir()

	type pair struct {
		name       string // for messages
		orig, junk string // files in dir
		m          *Map
		agree      bool // the two reader families read the same comments
	}
	var pairs []pair
	var origPaths, allPaths []string
	refused := 0
	add := func(name string, src []byte) {
		m, err := classifyYAML(name, src)
		if err != nil {
			var se *RefusedError
			if !errors.As(err, &se) {
				t.Errorf("%s: %v", name, err)
			}
			refused++
			return
		}
		k := len(pairs)
		o := filepath.Join(dir, fmt.Sprintf("%04d.yaml", k))
		j := filepath.Join(dir, fmt.Sprintf("%04d.junk.yaml", k))
		if err := os.WriteFile(o, src, 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(j, junkProse(src, m), 0o600); err != nil {
			t.Fatal(err)
		}
		spec := &yamlScanner{src: src}
		spec.run()
		pairs = append(pairs, pair{name, o, j, m, !spec.diverged && !hasYAMLSeparators(src)})
		origPaths = append(origPaths, o)
		allPaths = append(allPaths, o, j)
	}
	for _, in := range inputs {
		add(in.name, in.src)
	}

	// Invariance, under four readers.
	nodeVals := runJSONLines(t, exec.Command(node, "-e", yamlNodeScript, "value"), allPaths, "YAML_DIR="+filepath.Join(prefix, "node_modules", "yaml"))
	pyVals := runJSONLines(t, exec.Command(python, "-c", yamlPyScript), allPaths)
	// Positions, from npm yaml's Lexer.
	lex := runJSONLines(t, exec.Command(node, "-e", yamlNodeScript, "lex"), origPaths, "YAML_DIR="+filepath.Join(prefix, "node_modules", "yaml"))
	lexed := 0
	for _, p := range pairs {
		// Positions count only where npm yaml reads the file without
		// error: its lexer's recovery from an error is not a reading.
		var nv struct{ Value string }
		if json.Unmarshal(nodeVals[p.orig], &nv); nv.Value == "ERR" {
			continue
		}
		var r struct {
			Comments [][2]int `json:"comments"`
			Size     int      `json:"size"`
		}
		if err := json.Unmarshal(lex[p.orig], &r); err != nil || r.Size != p.m.Size {
			t.Errorf("%s: lexer output %s (size %d, file %d)", p.name, lex[p.orig], r.Size, p.m.Size)
			continue
		}
		lexed++
		inComment := make([]bool, p.m.Size)
		for _, c := range r.Comments {
			for k := c[0]; k < c[1]; k++ {
				inComment[k] = true
			}
			if !p.agree {
				continue
			}
			for k := c[0]; k < c[1]; {
				reg := p.m.At(k)
				// Runtime on purpose: a comment libyaml alone reads, and one
				// holding a template action (Helm renders comments; an
				// Ansible comment holding "{{" is kept too, reported).
				if reg.Kind == Runtime && !strings.Contains(reg.Why, "no space before it") && !strings.Contains(reg.Why, "template action in a comment") {
					t.Errorf("%s: the lexer's comment [%d,%d) holds runtime %d-%d %q", p.name, c[0], c[1], reg.Start, reg.End, reg.Why)
					break
				}
				k = reg.End
			}
		}
		for _, reg := range p.m.Regions {
			if reg.Kind == Runtime || strings.HasPrefix(reg.Why, "directive: %") {
				continue
			}
			for k := reg.Start; k < reg.End; k++ {
				if !inComment[k] {
					t.Errorf("%s: %s region %d-%d is not in a comment for npm yaml", p.name, reg.Kind, reg.Start, reg.End)
					break
				}
			}
		}
	}

	counts := map[string]int{}
	for _, p := range pairs {
		values := map[string][2]string{"go yaml.v3": {goYAMLValue(t, p.orig), goYAMLValue(t, p.junk)}}
		var no, nj struct{ Value string }
		_ = json.Unmarshal(nodeVals[p.orig], &no)
		_ = json.Unmarshal(nodeVals[p.junk], &nj)
		values["npm yaml"] = [2]string{no.Value, nj.Value}
		var po, pj struct{ Py, C string }
		_ = json.Unmarshal(pyVals[p.orig], &po)
		_ = json.Unmarshal(pyVals[p.junk], &pj)
		values["PyYAML"] = [2]string{po.Py, pj.Py}
		values["PyYAML libyaml"] = [2]string{po.C, pj.C}
		for reader, v := range values {
			if v[0] == "" || v[0] == "ERR" || v[0] == "MISSING" {
				continue
			}
			counts[reader]++
			if v[0] != v[1] {
				t.Errorf("%s: %s decodes differently once the prose is replaced (prose is not all comment)", p.name, reader)
			}
		}
	}
	t.Logf("%d files (%d refused as bad YAML), %d lexed; decoded and compared: %v", len(pairs), refused, lexed, counts)
	return len(pairs), counts
}

// goYAMLValue decodes every document of the file with go.yaml.in/yaml/v3.
func goYAMLValue(t *testing.T, path string) string {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := yaml.NewDecoder(bytes.NewReader(src))
	h := sha256.New()
	for {
		var v any
		err := dec.Decode(&v)
		if err == io.EOF {
			break
		}
		if err != nil {
			return "ERR"
		}
		fmt.Fprintf(h, "%#v\n", v)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// runJSONLines runs cmd over paths (appended as arguments, in batches) and
// returns each output line keyed by its "path" field.
func runJSONLines(t *testing.T, cmd *exec.Cmd, paths []string, env ...string) map[string]json.RawMessage {
	t.Helper()
	out := map[string]json.RawMessage{}
	for len(paths) > 0 {
		batch := paths[:min(len(paths), 200)]
		paths = paths[len(batch):]
		c := exec.CommandContext(t.Context(), cmd.Path, append(append([]string(nil), cmd.Args[1:]...), batch...)...)
		c.Env = append(os.Environ(), env...)
		var stderr bytes.Buffer
		c.Stderr = &stderr
		stdout, err := c.Output()
		if err != nil {
			t.Fatalf("%s: %v\n%s", cmd.Args[0], err, stderr.String())
		}
		sc := bufio.NewScanner(bytes.NewReader(stdout))
		sc.Buffer(make([]byte, 1<<20), 256<<20)
		for sc.Scan() {
			var r struct{ Path string }
			line := append([]byte(nil), sc.Bytes()...)
			if err := json.Unmarshal(line, &r); err != nil {
				t.Fatalf("%s output: %v", cmd.Args[0], err)
			}
			out[r.Path] = line
		}
	}
	return out
}

// yamlTemplateModules hold YAML files under templates/ directories: Argo
// CD's notification templates ("{{ }}" in plain scalars only) and the Helm
// charts of Argo CD's tests and of Loki.
var yamlTemplateModules = []string{"github.com/argoproj/argo-cd/v3@v3.0.0", "github.com/grafana/loki/v3@v3.7.8"}

// TestYAMLTemplatesByReaders: whether a file under templates/ is refused
// as a template follows whether the YAML readers load it, not its
// directory. Every file both PyYAML and npm yaml load is classified (and
// its prose, replaced, leaves every reader's value unchanged); a file the
// classifier refuses is one a reader rejects.
func TestYAMLTemplatesByReaders(t *testing.T) {
	if testing.Short() {
		t.Skip("real files from the module proxy")
	}
	node := testtool.LookPath(t, "node", "apt-get install nodejs")
	python := testtool.LookPath(t, "python3", "apt-get install python3 python3-yaml")
	prefix := testtool.NPM(t, "yaml@2.9.1")
	var paths []string
	for _, mod := range yamlTemplateModules {
		for _, p := range testtool.Files(t, testtool.GoModule(t, mod), 0, ".yaml", ".yml") {
			if strings.Contains(filepath.ToSlash(p), "/templates/") {
				paths = append(paths, p)
			}
		}
	}
	nodeVals := runJSONLines(t, exec.Command(node, "-e", yamlNodeScript, "value"), paths, "YAML_DIR="+filepath.Join(prefix, "node_modules", "yaml"))
	pyVals := runJSONLines(t, exec.Command(python, "-c", yamlPyScript), paths)
	var inputs []yamlInput
	loaded, refused, argo := 0, 0, 0
	for _, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var nv struct{ Value string }
		var pv struct{ Py string }
		_ = json.Unmarshal(nodeVals[p], &nv)
		_ = json.Unmarshal(pyVals[p], &pv)
		loads := nv.Value != "" && nv.Value != "ERR" && pv.Py != "" && pv.Py != "ERR"
		_, err = Classify(p, src)
		switch {
		case loads && err != nil:
			t.Errorf("PyYAML and npm yaml load it, refused: %v", err)
		case loads:
			loaded++
			inputs = append(inputs, yamlInput{p, src})
			if strings.Contains(p, "notifications_catalog/templates/") && bytes.Contains(src, []byte("{{")) {
				argo++
			}
		case err != nil:
			refused++
		}
	}
	t.Logf("%d YAML files under templates/: %d loaded by both readers and classified (%d Argo CD notification templates), %d refused, every one rejected by a reader",
		len(paths), loaded, argo, refused)
	if argo < 8 || refused < 100 {
		t.Errorf("want the 8 Argo CD notification templates classified and Loki's Helm templates refused; got %d and %d", argo, refused)
	}
	checkYAMLReaders(t, inputs)
}
