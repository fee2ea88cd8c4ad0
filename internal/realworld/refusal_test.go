package realworld

import (
	"bytes"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/region"
	"github.com/prosewash/prosewash/internal/testtool"
)

// The refusal sweep classifies every file of real packages that a
// classifier claims and, for each refusal, asks the language's own reader
// whether the file is valid: a valid file refused is a defect unless it is
// one of the known refusals below, each with its reason.

// sweepDebian are Debian packages full of shell and YAML: zsh plugins
// (zsh-syntax-highlighting 0.7.1, zsh-autosuggestions 0.7.0, fzf 0.38.0's
// zsh widgets), bash completions, Ansible's collections, and the shell
// scripts the TestRealWorld corpus samples.
var sweepDebian = []string{
	"zsh-syntax-highlighting", "zsh-autosuggestions", "fzf", "bash-completion", "ansible",
	"git", "initramfs-tools-core", "xdg-utils", "ucf", "neofetch",
}

// sweepModules are Go modules with Helm charts (Loki's production chart,
// Argo CD's test charts), Argo CD's notification templates and x/exp's
// shell scripts, besides their Go, YAML, JSON and Markdown.
var sweepModules = []string{
	"github.com/grafana/loki/v3@v3.7.8", "github.com/argoproj/argo-cd/v3@v3.0.0",
	"golang.org/x/exp@v0.0.0-20261113113407-e3970619a1a4",
}

// knownRefusals are refusals of valid files that stay, by the end of the
// file's path, with why.
var knownRefusals = map[string]string{}

// sweepFile is one file of the sweep: where it is and the name it is
// classified under.
type sweepFile struct{ path, name string }

// sweepFiles lists the regular files under root a classifier claims,
// leaving out manual pages and compressed files; a bash completion (no
// extension, no shebang: bash sources it) is named with ".bash".
func sweepFiles(root string) []sweepFile {
	var out []sweepFile
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if strings.Contains(rel, "/man/") || strings.HasSuffix(rel, ".gz") {
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() > 4<<20 {
			return nil
		}
		name := rel
		if strings.Contains(rel, "bash-completion/completions/") && filepath.Ext(rel) == "" {
			name += ".bash"
		}
		head := make([]byte, 256)
		if f, err := os.Open(p); err == nil {
			n, _ := f.Read(head)
			f.Close()
			head = head[:n]
		}
		if region.Language(name, head) != "" {
			out = append(out, sweepFile{p, name})
		}
		return nil
	})
	return out
}

// validity says whether a file's own language reader accepts it: "valid",
// "invalid: why", or "" when this sweep has no reader for it.
type validity func(t *testing.T, f sweepFile, src []byte) string

func sweepValidity(t *testing.T, lang string) validity {
	switch lang {
	case "shell":
		return shellValid
	case "yaml":
		return yamlValid
	case "go":
		return func(_ *testing.T, f sweepFile, src []byte) string {
			if _, err := parser.ParseFile(token.NewFileSet(), f.name, src, parser.ParseComments); err != nil {
				return "invalid: " + err.Error()
			}
			return "valid"
		}
	}
	return nil
}

// shellValid runs the script's own shell with -n (read, never run).
func shellValid(t *testing.T, f sweepFile, src []byte) string {
	var argv []string
	switch region.ShellDialect(f.name, src) {
	case "bash":
		argv = []string{"bash", "--norc", "--noprofile", "-n"}
	case "sh", "dash", "ash":
		argv = []string{"dash", "-n"}
	case "zsh":
		argv = []string{"zsh", "-f", "-n"}
	default:
		return ""
	}
	bin := testtool.LookPath(t, argv[0], "apt-get install "+argv[0])
	cmd := exec.CommandContext(t.Context(), bin, argv[1:]...)
	cmd.Stdin = bytes.NewReader(src)
	if out, err := cmd.CombinedOutput(); err != nil {
		line, _, _ := strings.Cut(string(out), "\n")
		return "invalid: " + argv[0] + ": " + line
	}
	return "valid"
}

// yamlValid loads every document with PyYAML's safe loader.
func yamlValid(t *testing.T, _ sweepFile, src []byte) string {
	py := testtool.LookPath(t, "python3", "apt-get install python3 python3-yaml")
	cmd := exec.CommandContext(t.Context(), py, "-c", "import sys, yaml\nlist(yaml.safe_load_all(sys.stdin.buffer.read()))")
	cmd.Stdin = bytes.NewReader(src)
	if out, err := cmd.CombinedOutput(); err != nil {
		msg := ""
		for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
			if strings.HasPrefix(l, "yaml.") || strings.Contains(l, "Error:") {
				msg = l // the exception, last in the traceback
			}
		}
		return "invalid: PyYAML: " + msg
	}
	return "valid"
}

// sweepRefusal is one refused file and what its reader said.
type sweepRefusal struct {
	lang, name, reason, verdict string
}

// TestRefusalSweep classifies every claimed file of the sweep's packages
// and fails on a refusal of a file its own reader accepts that is not a
// known refusal. It logs the counts per language and every refusal.
func TestRefusalSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("real-world refusal sweep")
	}
	var files []sweepFile
	files = append(files, sweepFiles(testtool.Debian(t, sweepDebian...))...)
	for _, m := range sweepModules {
		files = append(files, sweepFiles(testtool.GoModule(t, m))...)
	}
	perLang := map[string]int{}
	var refusals []sweepRefusal
	for _, f := range files {
		src, err := os.ReadFile(f.path)
		if err != nil {
			t.Fatal(err)
		}
		lang := region.Language(f.name, src)
		perLang[lang]++
		if _, err := region.Classify(f.name, src); err != nil {
			var re *region.RefusedError
			if !errors.As(err, &re) {
				t.Errorf("%s: %v", f.name, err)
				continue
			}
			verdict := "not judged"
			if v := sweepValidity(t, lang); v != nil {
				if verdict = v(t, f, src); verdict == "" {
					verdict = "not judged"
				}
			}
			refusals = append(refusals, sweepRefusal{lang, f.name, re.Pos + ": " + re.Reason, verdict})
		}
	}
	sort.Slice(refusals, func(i, j int) bool {
		if refusals[i].lang != refusals[j].lang {
			return refusals[i].lang < refusals[j].lang
		}
		return refusals[i].name < refusals[j].name
	})
	var langs []string
	for l := range perLang {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	var b strings.Builder
	fmt.Fprintf(&b, "\n| language | files | refused | refused, valid for its reader | refused, invalid | not judged |\n|---|---:|---:|---:|---:|---:|\n")
	for _, l := range langs {
		var all, valid, invalid, unjudged int
		for _, r := range refusals {
			if r.lang != l {
				continue
			}
			all++
			switch {
			case r.verdict == "valid":
				valid++
			case strings.HasPrefix(r.verdict, "invalid"):
				invalid++
			default:
				unjudged++
			}
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | %d |\n", l, perLang[l], all, valid, invalid, unjudged)
	}
	t.Log(b.String())
	for _, r := range refusals {
		t.Logf("refused (%s, %s): %s: %s", r.lang, r.verdict, r.name, r.reason)
		if r.verdict != "valid" {
			continue
		}
		if why, ok := knownRefusal(r.name); ok {
			t.Logf("  known: %s", why)
			continue
		}
		t.Errorf("a valid %s file is refused: %s: %s", r.lang, r.name, r.reason)
	}
}

func knownRefusal(name string) (string, bool) {
	for suffix, why := range knownRefusals {
		if strings.HasSuffix(name, suffix) {
			return why, true
		}
	}
	return "", false
}
