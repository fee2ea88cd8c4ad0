package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// perDir is how many files share a directory in a generated corpus, about what a source tree
// holds.
const perDir = 20

// corpus writes n small files (Markdown, Python, Go and JavaScript in turn), each with one
// zero-width space in its prose, into a new git repository at dir, committed, and returns
// their paths.
func corpus(dir string, n int) ([]string, error) {
	const zwsp = "\u200b"
	var paths []string
	for i := range n {
		sub := filepath.Join(dir, fmt.Sprintf("d%03d", i/perDir))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			return nil, err
		}
		var name, body string
		switch i % 4 {
		case 0:
			name, body = fmt.Sprintf("note%d.md", i), fmt.Sprintf("# Note %d\n\nSome prose%s about file %d.\n", i, zwsp, i)
		case 1:
			name, body = fmt.Sprintf("mod%d.py", i), fmt.Sprintf("# A comment%s on module %d.\nX = %d\n", zwsp, i, i)
		case 2:
			name, body = fmt.Sprintf("f%d.go", i), fmt.Sprintf("package d\n\n// V%d is a value%s.\nvar V%d = %d\n", i, zwsp, i, i)
		default:
			name, body = fmt.Sprintf("m%d.js", i), fmt.Sprintf("// A note%s on %d.\nconst x%d = %d;\n", zwsp, i, i, i)
		}
		p := filepath.Join(sub, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return nil, err
		}
		paths = append(paths, p)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "corpus"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=b@example.invalid",
			"GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=b@example.invalid")
		if out, err := cmd.CombinedOutput(); err != nil {
			return nil, fmt.Errorf("git %v: %v\n%s", args, err, out)
		}
	}
	return paths, nil
}
