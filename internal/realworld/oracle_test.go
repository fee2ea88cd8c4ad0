package realworld

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"go/parser"
	"go/printer"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer/html"

	"github.com/prosewash/prosewash/internal/testtool"
)

// An oracle reads a file the way its language's own tools do and returns
// the program it denotes with every comment gone, or a parse error. Clean
// keeps the program when the oracle's reading of the cleaned file equals
// its reading of the file before.
type oracle func(t *testing.T, paths []string) []reading

type reading struct {
	program string
	err     string
}

func each(paths []string, read func(src []byte, path string) reading) []reading {
	out := make([]reading, len(paths))
	for i, p := range paths {
		src, err := os.ReadFile(p)
		if err != nil {
			out[i] = reading{err: err.Error()}
			continue
		}
		out[i] = read(src, p)
	}
	return out
}

// goOracle parses without comments and prints the syntax tree.
func goOracle(_ *testing.T, paths []string) []reading {
	return each(paths, func(src []byte, path string) reading {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			return reading{err: err.Error()}
		}
		var b bytes.Buffer
		if err := printer.Fprint(&b, fset, f); err != nil {
			return reading{err: err.Error()}
		}
		return reading{program: b.String()}
	})
}

// pyScript prints, per path, the ast.dump of a Python file or the decoded
// value of a TOML file (tomllib), as one JSON line.
const pyScript = `
import ast, json, sys, tomllib
for p in sys.argv[2:]:
    try:
        data = open(p, 'rb').read()
        if sys.argv[1] == 'toml':
            out = json.dumps(tomllib.loads(data.decode('utf-8')), default=repr, sort_keys=True)
        else:
            out = ast.dump(ast.parse(data, p))
        print(json.dumps({'program': out}))
    except Exception as e:
        print(json.dumps({'err': '%s: %s' % (type(e).__name__, e)}))
`

func pythonRun(t *testing.T, mode string, paths []string) []reading {
	py := testtool.LookPath(t, "python3", "apt-get install python3")
	var out []reading
	for len(paths) > 0 {
		n := min(len(paths), 400)
		cmd := exec.CommandContext(t.Context(), py, append([]string{"-c", pyScript, mode}, paths[:n]...)...)
		data, err := cmd.Output()
		if err != nil {
			t.Fatalf("python3 oracle: %v", err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 1<<20), 256<<20)
		for sc.Scan() {
			var r struct{ Program, Err string }
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
			out = append(out, reading{r.Program, r.Err})
		}
		paths = paths[n:]
	}
	return out
}

func pythonOracle(t *testing.T, paths []string) []reading { return pythonRun(t, "python", paths) }

func tomlOracle(t *testing.T, paths []string) []reading { return pythonRun(t, "toml", paths) }

// shellOracle is bash's own reading: --pretty-print parses the script
// without running it and prints it back without comments.
func shellOracle(t *testing.T, paths []string) []reading {
	bash := testtool.LookPath(t, "bash", "apt-get install bash")
	if err := exec.Command(bash, "--pretty-print", "/dev/null").Run(); err != nil {
		testtool.Missing(t, "bash", "this bash has no --pretty-print (5.2 or later needed)")
	}
	out := make([]reading, len(paths))
	for i, p := range paths {
		var stderr bytes.Buffer
		cmd := exec.CommandContext(t.Context(), bash, "--pretty-print", p)
		cmd.Stderr = &stderr
		b, err := cmd.Output()
		if err != nil {
			// Error messages name the path, which differs between the
			// two files compared.
			out[i] = reading{err: fmt.Sprintf("%v: %s", err, strings.ReplaceAll(stderr.String(), p, "FILE"))}
			continue
		}
		out[i] = reading{program: string(b)}
	}
	return out
}

// esbuildProgram minifies the whitespace of a JavaScript or TypeScript
// file: comments (legal ones too) go, strings, templates, regexes, JSX
// text and the line breaks automatic semicolon insertion reads stay.
func esbuildProgram(src string, loader api.Loader) reading {
	r := api.Transform(src, api.TransformOptions{
		Loader:           loader,
		MinifyWhitespace: true,
		LegalComments:    api.LegalCommentsNone,
		JSX:              api.JSXPreserve,
		LogLevel:         api.LogLevelSilent,
	})
	if len(r.Errors) > 0 {
		return reading{err: r.Errors[0].Text}
	}
	return reading{program: string(r.Code)}
}

func jsOracle(_ *testing.T, paths []string) []reading {
	return each(paths, func(src []byte, path string) reading {
		loader := api.LoaderJSX
		switch strings.ToLower(filepath.Ext(path)) {
		case ".ts", ".mts", ".cts":
			loader = api.LoaderTS
		case ".tsx":
			loader = api.LoaderTSX
		}
		return esbuildProgram(string(src), loader)
	})
}

// jsonOracle decodes JSON; JSONC (comments, trailing commas) is read as
// the JavaScript expression it is, through esbuild.
func jsonOracle(_ *testing.T, paths []string) []reading {
	return each(paths, func(src []byte, path string) reading {
		if langOf(path) == "jsonc" {
			return esbuildProgram("(\n"+string(src)+"\n)", api.LoaderJS)
		}
		d := json.NewDecoder(bytes.NewReader(src))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			return reading{err: err.Error()}
		}
		b, err := json.Marshal(v)
		if err != nil {
			return reading{err: err.Error()}
		}
		return reading{program: string(b)}
	})
}

// markdownOracle renders GitHub-flavoured Markdown to HTML. Prose is the
// text itself, so equality cannot be byte equality: outside <code> the
// carriers (format characters) are dropped and other spaces made plain on
// both sides, and everything else must match: structure, links, code
// spans and blocks with their carriers, raw HTML. (The carriers are the
// invisible characters: format and control characters, variation
// selectors, the other default-ignorable code points.)
func markdownOracle(_ *testing.T, paths []string) []reading {
	md := goldmark.New(goldmark.WithExtensions(extension.GFM), goldmark.WithRendererOptions(html.WithUnsafe()))
	return each(paths, func(src []byte, _ string) reading {
		var b bytes.Buffer
		if err := md.Convert(src, &b); err != nil {
			return reading{err: err.Error()}
		}
		return reading{program: withoutProseCarriers(b.String())}
	})
}

func withoutProseCarriers(h string) string {
	var sb strings.Builder
	for len(h) > 0 {
		i := strings.Index(h, "<code")
		if i < 0 {
			i = len(h)
		}
		for _, r := range h[:i] {
			switch {
			case r == '\n' || r == '\t':
				sb.WriteRune(r)
			case unicode.In(r, unicode.Cf, unicode.Cc, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point):
			case unicode.Is(unicode.Zs, r):
				sb.WriteByte(' ')
			default:
				sb.WriteRune(r)
			}
		}
		h = h[i:]
		j := strings.Index(h, "</code>")
		if j < 0 {
			j = len(h)
		} else {
			j += len("</code>")
		}
		sb.WriteString(h[:j])
		h = h[j:]
	}
	return sb.String()
}

// dockerfileOracle is BuildKit's parser (the region tests' test-only
// module): every instruction with its line numbers, here-document bodies,
// parser directives and the escape token; comments are what it leaves out.
func dockerfileOracle(t *testing.T, paths []string) []reading {
	bin := filepath.Join(t.TempDir(), "buildkit-oracle")
	cmd := exec.CommandContext(t.Context(), "go", "build", "-o", bin, ".")
	cmd.Dir = filepath.Join(testtool.RepoRoot(t), "engine", "region", "testdata", "buildkit")
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		testtool.Missing(t, "go-module-proxy", fmt.Sprintf("build the BuildKit oracle: %v\n%s", err, out))
	}
	data, err := exec.CommandContext(t.Context(), bin, paths...).Output()
	if err != nil {
		t.Fatalf("BuildKit oracle: %v", err)
	}
	var out []reading
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var r map[string]any
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		delete(r, "path")
		if e, ok := r["error"].(string); ok {
			out = append(out, reading{err: e})
			continue
		}
		b, _ := json.Marshal(r)
		out = append(out, reading{program: string(b)})
	}
	return out
}
