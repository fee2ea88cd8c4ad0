package agent

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// The transcript archive deletes transcripts and must only ever run from the command line,
// after a person says yes: no hook adapter may import it or call the lane's Archive.
func TestClaudeHooksNeverArchive(t *testing.T) {
	root := filepath.Join("..")
	checked := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, 0)
		if err != nil {
			return err
		}
		checked++
		for _, im := range f.Imports {
			if strings.Contains(im.Path.Value, "internal/engine/wash/archive") {
				t.Errorf("%s imports %s", p, im.Path.Value)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && (sel.Sel.Name == "Archive" || sel.Sel.Name == "ArchiveOptions") {
				t.Errorf("%s: calls %s", p, sel.Sel.Name)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 5 {
		t.Fatalf("only %d hook sources checked", checked)
	}
}
