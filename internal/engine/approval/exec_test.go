//go:build unix

package approval

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/engine/clean"
	"github.com/prosewash/prosewash/internal/engine/report"
	"github.com/prosewash/prosewash/internal/testtool"
)

// pyProvider is a project provider in Python that imports a module next
// to it: the module decides what it does with the text.
const pyProviderDef = `schema = "prosewash-provider/1"
id = "custom/py"
version = "1"
description = "a Python provider importing a module next to it"
command = ["%s", "${provider_dir}/py/clean.py"]

[operations.clean]
role = "transform"
capability = "unicode"
regions = "prose"
deterministic = true
`

const pyProviderMain = `import json, sys
import helper
req = json.load(sys.stdin)
files = []
for f in req["files"]:
    files.append({"id": f["id"], "regions": [{"id": r["id"], "text": helper.clean(r["text"])} for r in f["regions"]]})
json.dump({"protocol": "prosewash-provider/1", "files": files}, sys.stdout)
`

const pyHelper = "def clean(t):\n    return t.replace(\"\\u200b\", \"\")\n"

const pyPipeline = "schema = \"prosewash-pipeline/1\"\nid = \"custom/p\"\nversion = \"1\"\ndescription = \"custom\"\n\n[[stages]]\nname = \"clean\"\nrole = \"transform\"\ncapability = \"unicode\"\nregions = \"prose\"\nprovider = \"custom/py\"\n"

// newPython is a project in automatic mode whose pipeline runs pyProvider
// with the real python3, found outside the project.
func newPython(t *testing.T) *covered {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		testtool.Missing(t, "python3", "python3 not found: the provider is a Python script")
	}
	if real, err := filepath.EvalSymlinks(py); err == nil {
		// A launcher script (pyenv's shim) runs whichever Python it
		// picks: bind the program it would run, when it can say.
		if out, err := exec.Command(py, "-c", "import sys; print(sys.executable)").Output(); err == nil && strings.TrimSpace(string(out)) != "" {
			real = strings.TrimSpace(string(out))
		}
		py = real
	}
	root, _ := filepath.EvalSymlinks(t.TempDir())
	c := &covered{t: t, root: root, home: t.TempDir(), env: map[string]string{"PROSEWASH_STATE_DIR": t.TempDir()}}
	c.env["HOME"] = c.home
	c.write(".prosewash.toml", "[clean]\nmode = \"automatic\"\npipeline = \"custom/p\"\n")
	c.write(".prosewash/providers/py.toml", strings.Replace(pyProviderDef, "%s", py, 1))
	c.write(".prosewash/providers/py/clean.py", pyProviderMain)
	c.write(".prosewash/providers/py/helper.py", pyHelper)
	c.write(".prosewash/pipelines/p.toml", pyPipeline)
	return c
}

// execute runs the plan a decision approved over one file, as the end of
// a turn does, and returns that file's report line.
func (c *covered) execute(d Decision, rel string) report.File {
	c.t.Helper()
	if d.Plan == nil {
		c.t.Fatalf("nothing approved: %+v", d.Verdict)
	}
	abs := filepath.Join(c.root, rel)
	rep, err := clean.Execute(context.Background(), d.Plan, clean.Batch{Targets: []clean.Target{{Path: abs, Rel: rel}}, Scope: "test"})
	if err != nil {
		c.t.Fatal(err)
	}
	if len(rep.Files) != 1 {
		c.t.Fatalf("report %+v", rep)
	}
	return rep.Files[0]
}

const dirtyDoc = "# Notes\n\nA stray\u200b space.\n"

// The plan an approval checked is what runs, and the program it bound is
// what starts: a provider edited after the approval was checked (between
// Decide and the exec) is refused when it is about to start, the file
// stays as it was, and nothing it would have done happens. Without the
// edit the same plan cleans the file, so the refusal is the edit's doing.
func TestProviderEditedAfterApprovalIsRefusedAtExec(t *testing.T) {
	c := newPython(t)
	c.approveAutomatic()
	c.write("a.md", dirtyDoc)
	if f := c.execute(c.decide(), "a.md"); f.Status != report.Cleaned {
		t.Fatalf("unedited provider: %s (%s), want cleaned", f.Status, f.Reason)
	}
	for name, edit := range map[string]func(){
		"the script, in place": func() {
			c.write(".prosewash/providers/py/clean.py", pyProviderMain+"open('/dev/null','w').write('exfiltrated')\n")
		},
		"the script, replaced by a rename": func() {
			p := filepath.Join(c.root, ".prosewash/providers/py/clean.py")
			os.WriteFile(p+".new", []byte(pyProviderMain+"# other\n"), 0o755)
			if err := os.Rename(p+".new", p); err != nil {
				t.Fatal(err)
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			c.write(".prosewash/providers/py/clean.py", pyProviderMain)
			c.write("a.md", dirtyDoc)
			d := c.decide()
			if d.Verdict.Mode != Automatic {
				t.Fatalf("before the edit: %+v", d.Verdict)
			}
			edit()
			f := c.execute(d, "a.md")
			if f.Status != report.Refused || !strings.Contains(f.Reason, "changed before it started") {
				t.Fatalf("edited provider: %s (%s), want refused at exec", f.Status, f.Reason)
			}
			if got, _ := os.ReadFile(filepath.Join(c.root, "a.md")); string(got) != dirtyDoc {
				t.Fatalf("the file changed: %q", got)
			}
		})
	}
}

// An approved Python provider that imports a module keeps its approval
// across its own unattended runs: it writes no __pycache__ into the
// directory the approval covers. And a __pycache__ that a person's own
// run of the script left there neither lapses the approval nor runs: the
// provider never reads byte code from next to its code, so a planted .pyc
// whose header matches the module's source does not replace the module.
func TestPythonProviderKeepsItsApproval(t *testing.T) {
	c := newPython(t)
	c.approveAutomatic()
	dir := filepath.Join(c.root, ".prosewash/providers/py")
	for i := 0; i < 2; i++ {
		c.write("a.md", dirtyDoc)
		d := c.decide()
		if d.Verdict.Mode != Automatic {
			t.Fatalf("run %d: the approval lapsed: %+v", i+1, d.Verdict)
		}
		if f := c.execute(d, "a.md"); f.Status != report.Cleaned {
			t.Fatalf("run %d: %s (%s)", i+1, f.Status, f.Reason)
		}
		if _, err := os.Stat(filepath.Join(dir, "__pycache__")); err == nil {
			t.Fatalf("run %d wrote __pycache__ next to the provider's code", i+1)
		}
	}

	// A byte-code cache for a helper that keeps every zero width space,
	// with the timestamp and size of the real helper's source: Python
	// run the ordinary way takes it for the real helper's.
	py := c.decide().Plan.Bindings["custom/py"].Interpreter.Path
	evil := "def clean(t):\n    return t"
	for len(evil) < len(pyHelper)-1 {
		evil += " "
	}
	evil += "\n"
	helper := filepath.Join(dir, "helper.py")
	real, _ := os.ReadFile(helper)
	stamp := time.Now().Add(-time.Hour).Truncate(time.Second)
	os.WriteFile(helper, []byte(evil), 0o644)
	os.Chtimes(helper, stamp, stamp)
	if out, err := exec.Command(py, "-c", "import py_compile, sys; py_compile.compile(sys.argv[1])", helper).CombinedOutput(); err != nil {
		t.Fatalf("compile the planted helper: %v %s", err, out)
	}
	os.WriteFile(helper, real, 0o644)
	os.Chtimes(helper, stamp, stamp)
	check := exec.Command(py, "-c", "import helper; print(repr(helper.clean('a\\u200bb')))")
	check.Dir = dir
	if out, _ := check.Output(); !strings.Contains(string(out), "\\u200b") {
		t.Fatalf("the planted cache is not what Python imports by default (%q): the test proves nothing", out)
	}
	c.write("a.md", dirtyDoc)
	d := c.decide()
	if d.Verdict.Mode != Automatic {
		t.Fatalf("a __pycache__ next to the code lapsed the approval: %+v", d.Verdict)
	}
	if f := c.execute(d, "a.md"); f.Status != report.Cleaned {
		t.Fatalf("with a planted cache: %s (%s): the provider ran the planted byte code", f.Status, f.Reason)
	}
}
