package agent

import (
	"reflect"
	"strings"
	"testing"
)

func TestPatchPaths(t *testing.T) {
	dir := "/p"
	patch := "*** Begin Patch\n*** Add File: a.md\n+x\n*** Update File: src/b.go\n*** Move to: src/c.go\n@@\n-x\n+y\n" +
		"*** Delete File: gone.md\n*** Update File: /abs/d.py\r\n*** Add File: a.md\n+again\n*** Add File: with space.md\n+x\n*** End Patch\n"
	var got []string
	for _, w := range PatchPaths(patch, dir) {
		got = append(got, w.Path+"|"+w.Raw)
	}
	want := []string{"/p/a.md|a.md", "/p/src/b.go|src/b.go", "/p/src/c.go|src/c.go", "/abs/d.py|/abs/d.py", "/p/with space.md|with space.md"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("PatchPaths = %q, want %q", got, want)
	}
}

func TestShellPaths(t *testing.T) {
	for _, tt := range []struct {
		cmd  string
		want []string
	}{
		{`printf '%s\n' 'a' > hello.py`, []string{"/p/hello.py"}},
		{`cat >> "notes 1.md" <<'EOF'` + "\nx\u200b\nEOF\n", []string{"/p/notes 1.md"}},
		{`echo x | tee -a a.md /tmp/b.md >/dev/null`, []string{"/p/a.md", "/tmp/b.md"}},
		{`echo x > "$OUT"; echo y > *.md; echo z > $(f)`, nil},
		{`cd sub && echo x &> log.txt 2>/dev/null`, []string{"/p/log.txt"}},
		{`ls -la; grep -r x .`, nil},
		{`if then fi ((`, nil},
		{"apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: p.md\n+x\n*** End Patch\nEOF\n", []string{"/p/p.md"}},
	} {
		var got []string
		for _, w := range ShellPaths(tt.cmd, "/p") {
			got = append(got, w.Path)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ShellPaths(%q) = %q, want %q", tt.cmd, got, tt.want)
		}
	}
}

// A command nested far deeper than the shell parser's stack allows (the
// issue's 200,000 subshells) names nothing; unbounded, the parser
// overflowed the Go stack, which no recover catches.
func TestShellPathsDeepNesting(t *testing.T) {
	const n = 200000
	for _, deep := range []string{
		strings.Repeat("(", n) + "echo x > a.md" + strings.Repeat(")", n),
		strings.Repeat("$(", n) + "x" + strings.Repeat(")", n) + " > b.md",
	} {
		if got := ShellPaths(deep, "/p"); len(got) != 0 {
			t.Fatalf("ShellPaths of a %d-deep command = %v, want nothing", n, got)
		}
	}
}
