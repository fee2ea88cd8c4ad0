// Command buildkit prints, for each Dockerfile named on the command line, one
// JSON line with what BuildKit's parser reads from it: every instruction
// (its dump, original text, flags, lines and here-document bodies), the
// parser directives and the escape token. Comments are left out: they are
// what prosewash may clean. It is a test oracle in a module of its own, so
// that BuildKit never becomes a dependency of prosewash.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"

	"github.com/moby/buildkit/frontend/dockerfile/parser"
)

type heredoc struct {
	Name    string `json:"name"`
	Content string `json:"content"`
	Expand  bool   `json:"expand"`
	Chomp   bool   `json:"chomp"`
}

type node struct {
	Dump     string    `json:"dump"`
	Original string    `json:"original"`
	Flags    []string  `json:"flags"`
	Start    int       `json:"start"`
	End      int       `json:"end"`
	Heredocs []heredoc `json:"heredocs"`
}

type result struct {
	Path       string   `json:"path"`
	Error      string   `json:"error,omitempty"`
	Nodes      []node   `json:"nodes"`
	Directives []string `json:"directives"`
	Syntax     string   `json:"syntax"`
	Escape     string   `json:"escape"`
}

func main() {
	enc := json.NewEncoder(os.Stdout)
	for _, path := range os.Args[1:] {
		r := result{Path: path}
		src, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		res, err := parser.Parse(bytes.NewReader(src))
		if err != nil {
			r.Error = err.Error()
		} else {
			r.Escape = string(res.EscapeToken)
			for _, c := range res.AST.Children {
				n := node{Dump: c.Dump(), Original: c.Original, Flags: c.Flags, Start: c.StartLine, End: c.EndLine}
				for _, h := range c.Heredocs {
					n.Heredocs = append(n.Heredocs, heredoc{h.Name, h.Content, h.Expand, h.Chomp})
				}
				r.Nodes = append(r.Nodes, n)
			}
		}
		var dp parser.DirectiveParser
		ds, _ := dp.ParseAll(src)
		for _, d := range ds {
			r.Directives = append(r.Directives, d.Name+"="+d.Value)
		}
		r.Syntax, _, _, _ = parser.DetectSyntax(src)
		if err := enc.Encode(r); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	}
}
