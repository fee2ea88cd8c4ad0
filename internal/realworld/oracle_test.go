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
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

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

// pyScript prints, per path, the ast.dump of a Python file, the decoded
// value of a TOML file (tomllib) or of every document of a YAML file
// (PyYAML's safe loader; a tag it does not know is kept with its value),
// as one JSON line.
const pyScript = `
import ast, json, sys, tomllib
if sys.argv[1] == 'yaml':
    import yaml
    class Loader(yaml.SafeLoader):
        pass
    def tagged(loader, tag, node):
        if isinstance(node, yaml.ScalarNode):
            return (tag, loader.construct_scalar(node))
        if isinstance(node, yaml.SequenceNode):
            return (tag, loader.construct_sequence(node, deep=True))
        return (tag, loader.construct_mapping(node, deep=True))
    Loader.add_multi_constructor('', tagged)
for p in sys.argv[2:]:
    try:
        data = open(p, 'rb').read()
        if sys.argv[1] == 'toml':
            out = json.dumps(tomllib.loads(data.decode('utf-8')), default=repr, sort_keys=True)
        elif sys.argv[1] == 'yaml':
            out = repr(list(yaml.load_all(data, Loader=Loader)))
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

func yamlOracle(t *testing.T, paths []string) []reading {
	py := testtool.LookPath(t, "python3", "apt-get install python3")
	if exec.Command(py, "-c", "import yaml").Run() != nil {
		testtool.Missing(t, "python3-yaml", "python3 cannot import yaml (apt-get install python3-yaml)")
	}
	return pythonRun(t, "yaml", paths)
}

// rustOracle is rustc's own reading: the AST it dumps, without spans and
// ids. Doc comments are in the AST as strings: their carriers are dropped
// on both sides (code blocks in them are runtime, and the injection
// checks hold those to their carriers).
func rustOracle(t *testing.T, paths []string) []reading {
	rustc := testtool.Working(t, "rustc", "apt-get install rustc", "--version")
	span := regexp.MustCompile(`(?m)^\s*span: .*$|\S+\.rs:\d+:\d+: \d+:\d+ \(#\d+\)`)
	id := regexp.MustCompile(`(?m)^\s*id: (AttrId|NodeId)\(\d+\),?$`)
	// DocComment(Line, "...") in the item tree, DocComment(Line, Outer,
	// "...") in macro token trees.
	doc := regexp.MustCompile(`(DocComment\(\s*(?:Line|Block),\s*(?:(?:Outer|Inner),\s*)?)("(?:[^"\\]|\\.)*")`)
	esc := regexp.MustCompile(`\\u\{([0-9a-fA-F]+)\}`)
	return parallel(paths, func(p string) reading {
		cmd := exec.CommandContext(t.Context(), rustc, "-Zunpretty=ast-tree", "--edition", "2021", p)
		cmd.Env = append(os.Environ(), "RUSTC_BOOTSTRAP=1")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		b, err := cmd.Output()
		if err != nil {
			msg, _, _ := strings.Cut(strings.ReplaceAll(stderr.String(), p, "FILE"), "\n")
			return reading{err: fmt.Sprintf("%v: %s", err, msg)}
		}
		dump := doc.ReplaceAllStringFunc(string(b), func(m string) string {
			sub := doc.FindStringSubmatch(m)
			goQuoted := esc.ReplaceAllStringFunc(sub[2], func(e string) string {
				n, _ := strconv.ParseUint(e[3:len(e)-1], 16, 32)
				return fmt.Sprintf(`\U%08x`, n)
			})
			s, err := strconv.Unquote(goQuoted)
			if err != nil {
				return m
			}
			return sub[1] + strconv.Quote(withoutProseCarriers(s))
		})
		dump = span.ReplaceAllString(dump, "")
		return reading{program: id.ReplaceAllString(dump, "")}
	})
}

// parallel reads each path with read on as many workers as there are CPUs.
func parallel(paths []string, read func(path string) reading) []reading {
	out := make([]reading, len(paths))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				out[i] = read(paths[i])
			}
		})
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

// shellOracle is bash's own reading: --pretty-print parses the script
// without running it and prints it back without comments.
func shellOracle(t *testing.T, paths []string) []reading {
	bash := testtool.LookPath(t, "bash", "apt-get install bash")
	if err := exec.Command(bash, "--pretty-print", "/dev/null").Run(); err != nil {
		testtool.Missing(t, "bash", "this bash has no --pretty-print (5.2 or later needed)")
	}
	return parallel(paths, func(p string) reading {
		var stderr bytes.Buffer
		cmd := exec.CommandContext(t.Context(), bash, "--pretty-print", p)
		cmd.Stderr = &stderr
		b, err := cmd.Output()
		if err != nil {
			// Error messages name the path, which differs between the
			// two files compared.
			return reading{err: fmt.Sprintf("%v: %s", err, strings.ReplaceAll(stderr.String(), p, "FILE"))}
		}
		return reading{program: string(b)}
	})
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
		text := h[:i]
		for k := 0; k < len(text); {
			r, size := utf8.DecodeRuneInString(text[k:])
			if r == 0x1b && k+1 < len(text) && text[k+1] == '[' {
				// A reader sees no escape sequence: CSI, parameters,
				// intermediates and the final byte go together.
				k += 2
				for k < len(text) && text[k] >= 0x20 && text[k] < 0x40 {
					k++
				}
				if k < len(text) && text[k] >= 0x40 && text[k] < 0x7f {
					k++
				}
				continue
			}
			k += size
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
	cmd.Dir = filepath.Join(testtool.RepoRoot(t), "internal", "engine", "region", "testdata", "buildkit")
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
