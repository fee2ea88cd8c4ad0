package gitconfig

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testtool"
)

// cases are config files and the core.excludesfile git reads from them.
var cases = []string{
	"[core]\n\texcludesFile = ~/.gitignore_global\n",
	"[core]\nexcludesfile=/abs/path\n[core]\n  excludesFile = second\n",
	"[Core]\n\tExcludesFile = \"quoted value with spaces\" # comment\n",
	"[core] excludesfile = same-line\n",
	"[core]\n\texcludesfile = a\\\"b\\\\c\n",
	"[core]\n\texcludesfile = with;semicolon\n",
	"[core]\n\texcludesfile = \"with;semicolon\"\n",
	"[core]\n\texcludesfile = trailing   \n",
	"[core]\n\texcludesfile = cont\\\ninued\n",
	"[include]\n\tpath = other\n[core]\n\tbare = false\n\texcludesfile = x # c\n",
	"[remote \"origin\"]\n\turl = u\n[core]\n\texcludesfile = after-subsection\n",
	"; comment\n# comment\n[core]\n\texcludesfile = tabs\tinside\n",
	"[core]\n\texcludesfile\n",
}

func TestLastMatchesGit(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		testtool.Missing(t, "git", "git not found: the parser is checked against git config --get")
	}
	dir := t.TempDir()
	for i, c := range cases {
		f := filepath.Join(dir, "config")
		os.WriteFile(f, []byte(c), 0o644)
		cmd := exec.Command(git, "config", "--file", f, "--get", "core.excludesfile")
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir)
		out, gerr := cmd.Output()
		want, wantSet := strings.TrimSuffix(string(out), "\n"), gerr == nil
		got, set := Last(f, "core", "excludesfile")
		if c == cases[len(cases)-1] {
			// A bare key is "true" for git --get --type=bool; as a path it
			// is empty. Either way it is set.
			want = ""
		}
		if set != wantSet || got != want {
			t.Errorf("case %d %q: got %q set=%v, git says %q set=%v", i, c, got, set, want, wantSet)
		}
	}
}

func TestMalformedIsRefused(t *testing.T) {
	for _, c := range []string{"[core\nx = 1\n", "x = 1\n", "[core]\n=1\n", "[core]\nx = \"open\n", "[core]\nx = bad\\q\n"} {
		if _, err := Parse([]byte(c)); err == nil {
			t.Errorf("%q parsed", c)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, c := range cases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		es, err := Parse(data)
		if err != nil {
			return
		}
		for _, e := range es {
			if e.Section == "" || e.Key == "" || e.Key != strings.ToLower(e.Key) {
				t.Fatalf("bad entry %+v", e)
			}
		}
	})
}
