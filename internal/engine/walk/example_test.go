package walk_test

import (
	"github.com/prosewash/prosewash/internal/engine/carrier"

	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/prosewash/prosewash/internal/engine/walk"
)

// A check-like command: the fast path decides most files, a real scan the
// rest; results arrive in a stable order whatever the parallelism.
func ExampleWalk() {
	dir, err := os.MkdirTemp("", "walk-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	for name, content := range map[string]string{
		"a.go":      "package a\n",
		"b.md":      "zero\u200bwidth\n",
		"c.bin":     "\x00\x01",
		"sub/d.txt": "plain\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		_ = os.MkdirAll(filepath.Dir(p), 0o755)
		_ = os.WriteFile(p, []byte(content), 0o644)
	}
	rel := func(p string) string {
		r, _ := filepath.Rel(dir, p)
		return filepath.ToSlash(r)
	}

	process := func(f walk.File) (any, error) {
		i := carrier.IndexSpecial(f.Data)
		if i < 0 {
			return "plain", nil
		}
		return fmt.Sprintf("first special byte at %d", i), nil
	}
	emit := func(path string, result any, err error) error {
		fmt.Println(rel(path), result)
		return nil
	}
	skipped := func(s walk.Skip) { fmt.Println(rel(s.Path), "skipped:", s.Reason) }
	if err := walk.Walk(context.Background(), []string{dir}, walk.Options{}, process, emit, skipped); err != nil {
		fmt.Println(err)
	}
	// Output:
	// a.go plain
	// b.md first special byte at 4
	// c.bin skipped: binary
	// sub/d.txt plain
}
