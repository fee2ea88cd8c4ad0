package realworld

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
	"golang.org/x/net/html"

	"github.com/prosewash/prosewash/internal/testtool"
)

// The web languages' corpus: stylesheets from npm frameworks other than
// the ones the web classifiers' tests read (Foundation, Pico, UIkit,
// animate.css: CSS, SCSS and Less), and HTML from Debian's Python and bash
// manuals and Prometheus's console templates.
var (
	npmWeb     = []string{"foundation-sites@6.9.0", "@picocss/pico@2.1.1", "uikit@3.25.29", "animate.css@4.1.1"}
	debianHTML = []string{"python3.11-doc", "bash-doc"}
	// webOracles parse stylesheets into trees without comments.
	webOracles = []string{"postcss@8.5.33", "postcss-scss@4.0.9", "postcss-less@6.0.0"}
)

func corpusHTML(t *testing.T) []entry {
	isHTML := func(rel string) bool { return langOf(rel) == "html" }
	out := files(testtool.Debian(t, debianHTML...), isHTML)
	return append(out, goModuleFiles(t, isHTML)...)
}

func corpusCSS(t *testing.T) []entry {
	return files(filepath.Join(testtool.NPM(t, npmWeb...), "node_modules"), func(rel string) bool {
		switch langOf(rel) {
		case "css", "scss", "less":
			return true
		}
		return false
	})
}

// htmlOracle is the DOM an HTML5 parser (golang.org/x/net/html) builds,
// without comment nodes; script and style text is read as the program it
// is (esbuild's minified JavaScript or CSS), since comments in it are
// prose too.
func htmlOracle(_ *testing.T, paths []string) []reading {
	return each(paths, func(src []byte, _ string) reading {
		doc, err := html.Parse(bytes.NewReader(src))
		if err != nil {
			return reading{err: err.Error()}
		}
		var b strings.Builder
		var walk func(n *html.Node, depth int)
		walk = func(n *html.Node, depth int) {
			if n.Type == html.CommentNode {
				return
			}
			fmt.Fprintf(&b, "%*s%d %q %q", depth, "", n.Type, n.Namespace, n.Data)
			for _, a := range n.Attr {
				fmt.Fprintf(&b, " %s:%s=%q", a.Namespace, a.Key, a.Val)
			}
			b.WriteByte('\n')
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.TextNode && n.Type == html.ElementNode && (n.Data == "script" || n.Data == "style") {
					loader := api.LoaderJS
					if n.Data == "style" {
						loader = api.LoaderCSS
					}
					if r := esbuildProgram(c.Data, loader); r.err == "" {
						fmt.Fprintf(&b, "%*s%s %q\n", depth+1, "", n.Data, r.program)
						continue
					}
				}
				walk(c, depth+1)
			}
		}
		walk(doc, 0)
		return reading{program: b.String()}
	})
}

// cssScript prints, per path, the tree postcss (with the SCSS or Less
// syntax for those files) reads, comments left out, as one JSON line.
const cssScript = `
const postcss = require('postcss'), scss = require('postcss-scss'), less = require('postcss-less');
const fs = require('fs');
function tree(n) {
  const o = {type: n.type};
  for (const k of ['selector', 'prop', 'value', 'name', 'params', 'important', 'text']) if (n[k] !== undefined) o[k] = n[k];
  if (n.type === 'decl' && n.raws && n.raws.value) o.value = n.raws.value.raw.replace(/\/\*[\s\S]*?\*\//g, '');
  if (n.nodes) o.nodes = n.nodes.filter(c => c.type !== 'comment').map(tree);
  return o;
}
for (const p of process.argv.slice(2)) {
  try {
    const src = fs.readFileSync(p, 'utf8');
    const syntax = p.endsWith('.scss') ? scss : p.endsWith('.less') ? less : undefined;
    const root = syntax ? syntax.parse(src, {from: p}) : postcss.parse(src, {from: p});
    console.log(JSON.stringify({path: p, program: JSON.stringify(tree(root))}));
  } catch (e) {
    console.log(JSON.stringify({path: p, err: String(e.reason || e.message).replace(p, 'FILE')}));
  }
}
`

func cssOracle(t *testing.T, paths []string) []reading {
	node := testtool.LookPath(t, "node", "apt-get install nodejs")
	prefix := testtool.NPM(t, webOracles...)
	got := map[string]reading{}
	for rest := paths; len(rest) > 0; rest = rest[min(len(rest), 300):] {
		n := min(len(rest), 300)
		cmd := exec.CommandContext(t.Context(), node, append([]string{"-e", cssScript}, rest[:n]...)...)
		cmd.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(prefix, "node_modules"))
		data, err := cmd.Output()
		if err != nil {
			t.Fatalf("postcss oracle: %v", err)
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(make([]byte, 1<<20), 256<<20)
		for sc.Scan() {
			// Lines a parser prints on its own (warnings) are not ours.
			var r struct{ Path, Program, Err string }
			if json.Unmarshal(sc.Bytes(), &r) == nil && r.Path != "" {
				got[r.Path] = reading{r.Program, r.Err}
			}
		}
	}
	out := make([]reading, len(paths))
	for i, p := range paths {
		r, ok := got[p]
		if !ok {
			r = reading{err: "postcss oracle printed nothing for it"}
		}
		out[i] = r
	}
	return out
}
