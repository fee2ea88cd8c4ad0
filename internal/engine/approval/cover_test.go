//go:build unix

package approval

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/pipelines"
	"github.com/prosewash/prosewash/internal/providers"
	"github.com/prosewash/prosewash/internal/testtool"
)

// covered is a project whose pipeline runs a custom provider: a shell
// script that sources a helper next to it and passes ${model} on.
type covered struct {
	t     *testing.T
	root  string
	env   map[string]string
	home  string
	state string
}

const coveredDef = `schema = "prosewash-provider/1"
id = "custom/mine"
version = "1"
description = "a script in the repo"
command = ["sh", "${provider_dir}/clean.sh"]

[operations.clean]
role = "transform"
capability = "unicode"
regions = "prose"
deterministic = true
args = ["--model", "${model}"]
`

func newCovered(t *testing.T) *covered {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		testtool.Missing(t, "sh", "sh not found")
	}
	root, _ := filepath.EvalSymlinks(t.TempDir())
	c := &covered{t: t, root: root, home: t.TempDir(), env: map[string]string{"PROSEWASH_STATE_DIR": t.TempDir()}}
	c.env["HOME"] = c.home
	c.write(".prosewash.toml", "[clean]\nmode = \"automatic\"\npipeline = \"custom/p\"\nrewrite_model = \"small\"\n")
	c.write(".prosewash/providers/mine.toml", coveredDef)
	c.write(".prosewash/providers/clean.sh", ". \"$(dirname \"$0\")/lib/helper.sh\"\ncat\n")
	c.write(".prosewash/providers/lib/helper.sh", "helper() { :; }\n")
	c.write(".prosewash/pipelines/p.toml", "schema = \"prosewash-pipeline/1\"\nid = \"custom/p\"\nversion = \"1\"\ndescription = \"custom\"\n\n[[stages]]\nname = \"clean\"\nrole = \"transform\"\ncapability = \"unicode\"\nregions = \"prose\"\nprovider = \"custom/mine\"\n")
	return c
}

func (c *covered) write(rel, content string) {
	c.t.Helper()
	p := filepath.Join(c.root, filepath.FromSlash(rel))
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(content), 0o755); err != nil {
		c.t.Fatal(err)
	}
}

func (c *covered) project() *project.Project {
	c.t.Helper()
	p, err := project.Find(project.Options{Root: c.root, Getenv: func(k string) string { return c.env[k] }, Home: c.home,
		ShippedProviders: providers.Definitions(), ShippedPipelines: pipelines.Definitions()})
	if err != nil {
		c.t.Fatal(err)
	}
	if c.state, err = p.StateDir(); err != nil {
		c.t.Fatal(err)
	}
	return p
}

// decide opens the project afresh (as every hook does) and decides.
func (c *covered) decide() Decision {
	c.t.Helper()
	d, err := Decide(c.project(), c.state, "prosewash", "1")
	if err != nil {
		c.t.Fatal(err)
	}
	return d
}

// approve approves the project's plan for mode, as 'prosewash approve'
// does when the person says yes.
func (c *covered) approve(mode string) *Record {
	c.t.Helper()
	s, err := ProjectSubject(c.project(), "prosewash", "1", mode)
	if err != nil {
		c.t.Fatal(err)
	}
	rec, err := Grant(c.state, Caller{}, s)
	if err != nil {
		c.t.Fatal(err)
	}
	return rec
}

func (c *covered) approveAutomatic() {
	c.t.Helper()
	c.approve(Automatic)
	if d := c.decide(); d.Verdict.Mode != Automatic || d.Plan == nil {
		c.t.Fatalf("just approved: %+v", d.Verdict)
	}
}

func (c *covered) mustLapse(what string) {
	c.t.Helper()
	if d := c.decide(); d.Verdict.Mode != Manual {
		c.t.Fatalf("%s: the approval still holds (%+v)", what, d.Verdict)
	}
}

// An approval records what it covers, and any change to what an unattended
// run executes lapses it: a module the script sources, the interpreter,
// the operation's arguments, a configuration value that feeds ${model}.
func TestApprovalCoversWhatRuns(t *testing.T) {
	t.Run("what the lines show", func(t *testing.T) {
		c := newCovered(t)
		d := c.decide()
		all := strings.Join(d.Lines, "\n")
		for _, want := range []string{
			"file .prosewash/providers/lib/helper.sh sha256:",
			"file .prosewash/providers/clean.sh sha256:",
			"file .prosewash/providers/mine.toml sha256:",
			`stage 1 runs ["sh" "${provider_dir}/clean.sh"] args ["--model" "${model}"] options [] io stdio timeout 120s`,
			`config clean.rewrite_model = "small"`,
			"run by /",
		} {
			if !strings.Contains(all, want) {
				t.Errorf("the fingerprint does not show %q:\n%s", want, all)
			}
		}
	})
	for name, change := range map[string]func(c *covered){
		"the script": func(c *covered) { c.write(".prosewash/providers/clean.sh", "cat; curl -s example.invalid\n") },
		"a module it sources": func(c *covered) {
			c.write(".prosewash/providers/lib/helper.sh", "helper() { curl -s example.invalid; }\n")
		},
		"a new file next to it": func(c *covered) { c.write(".prosewash/providers/lib/sitecustomize.py", "import os\n") },
		"the operation's arguments": func(c *covered) {
			c.write(".prosewash/providers/mine.toml", strings.Replace(coveredDef, `"--model"`, `"--model-path"`, 1))
		},
		"rewrite_model, which ${model} passes on": func(c *covered) {
			c.write(".prosewash.toml", "[clean]\nmode = \"automatic\"\npipeline = \"custom/p\"\nrewrite_model = \"other\"\n")
		},
	} {
		t.Run(name, func(t *testing.T) {
			c := newCovered(t)
			c.approveAutomatic()
			change(c)
			c.mustLapse("changing " + name)
		})
	}
	t.Run("interpreter", func(t *testing.T) {
		sh, _ := exec.LookPath("sh")
		cat, err := exec.LookPath("cat")
		if err != nil {
			testtool.Missing(t, "cat", "cat not found")
		}
		bin := t.TempDir()
		copyFile(t, sh, filepath.Join(bin, "sh"))
		t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		c := newCovered(t)
		c.approveAutomatic()
		copyFile(t, cat, filepath.Join(bin, "sh"))
		c.mustLapse("replacing the interpreter binary")
	})
	t.Run("interpreter inside the project", func(t *testing.T) {
		c := newCovered(t)
		sh, _ := exec.LookPath("sh")
		copyFile(t, sh, filepath.Join(c.root, "tools", "sh"))
		c.write(".prosewash/providers/mine.toml", strings.Replace(coveredDef, `["sh", `, `["./tools/sh", `, 1))
		d := c.decide()
		if d.Verdict.Mode != Manual || !strings.Contains(d.Verdict.Why, "inside the project") {
			t.Fatalf("an interpreter inside the project: %+v", d.Verdict)
		}
	})
	t.Run("script at the top of the project", func(t *testing.T) {
		c := newCovered(t)
		c.write("clean.sh", "cat\n")
		c.write(".prosewash/providers/mine.toml", strings.Replace(coveredDef, `${provider_dir}/clean.sh`, `${workspace}/clean.sh`, 1))
		d := c.decide()
		if d.Verdict.Mode != Manual || !strings.Contains(d.Verdict.Why, "top of the project") {
			t.Fatalf("a script at the project's top: %+v", d.Verdict)
		}
	})
	t.Run("linked directory", func(t *testing.T) {
		c := newCovered(t)
		os.Symlink(t.TempDir(), filepath.Join(c.root, ".prosewash", "providers", "vendor"))
		if d := c.decide(); d.Verdict.Mode != Manual || !strings.Contains(d.Verdict.Why, "link to a directory") {
			t.Fatalf("a linked directory: %+v", d.Verdict)
		}
	})
}

// A stored record approves only the plan it holds, for the mode and the
// project it was given for: a record copied from another project, one
// whose lines were edited, and one whose mode was edited from confirm to
// automatic (with the configuration) are not approvals. And an agent
// cannot get a record granted. (The record holds no secret: something that
// recomputes the fingerprint of edited lines can write one; see the
// package documentation.)
func TestStoredApprovalHoldsThePlan(t *testing.T) {
	t.Run("another project's", func(t *testing.T) {
		c := newCovered(t)
		rec := c.approve(Automatic)
		rec.Root = "/elsewhere"
		if err := Save(c.state, rec); err != nil {
			t.Fatal(err)
		}
		c.mustLapse("a record for another project")
	})
	t.Run("edited lines", func(t *testing.T) {
		c := newCovered(t)
		rec := c.approve(Automatic)
		rec.Lines = append([]string{"pipeline other"}, rec.Lines[1:]...)
		if err := Save(c.state, rec); err != nil {
			t.Fatal(err)
		}
		c.mustLapse("edited lines")
	})
	t.Run("mode edited from confirm to automatic", func(t *testing.T) {
		c := newCovered(t)
		c.write(".prosewash.toml", "[clean]\nmode = \"confirm\"\npipeline = \"custom/p\"\nrewrite_model = \"small\"\n")
		rec := c.approve(Confirm)
		if d := c.decide(); d.Verdict.Mode != Confirm {
			t.Fatalf("confirm approved: %+v", d.Verdict)
		}
		rec.Mode = Automatic
		if err := Save(c.state, rec); err != nil {
			t.Fatal(err)
		}
		c.write(".prosewash.toml", "[clean]\nmode = \"automatic\"\npipeline = \"custom/p\"\nrewrite_model = \"small\"\n")
		c.mustLapse("a confirm approval with its mode edited to automatic")
	})
	t.Run("older record", func(t *testing.T) {
		c := newCovered(t)
		rec := c.approve(Automatic)
		rec.Version = 2
		if err := Save(c.state, rec); err != nil {
			t.Fatal(err)
		}
		if d := c.decide(); d.Verdict.Mode != Manual || !strings.Contains(d.Verdict.Why, "older prosewash") {
			t.Fatalf("a version 2 record: %+v", d.Verdict)
		}
	})
	t.Run("under an agent", func(t *testing.T) {
		c := newCovered(t)
		s, err := ProjectSubject(c.project(), "prosewash", "1", Automatic)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Grant(c.state, Caller{Environ: []string{"CLAUDECODE=1"}}, s); err == nil {
			t.Fatal("Grant under an agent")
		}
		if rec, _ := Load(c.state); rec != nil {
			t.Fatalf("a refused grant stored %+v", rec)
		}
	})
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Dir(to), 0o755)
	os.Remove(to)
	if err := os.WriteFile(to, b, 0o755); err != nil {
		t.Fatal(err)
	}
}
