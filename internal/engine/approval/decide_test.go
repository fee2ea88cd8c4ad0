package approval

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/pipelines"
	"github.com/prosewash/prosewash/internal/providers"
)

func proj(t *testing.T, files map[string]string) (*project.Project, string) {
	t.Helper()
	root := t.TempDir()
	for rel, c := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(c), 0o644)
	}
	home := t.TempDir()
	env := map[string]string{"PROSEWASH_STATE_DIR": t.TempDir(), "HOME": home}
	p, err := project.Find(project.Options{Root: root, Getenv: func(k string) string { return env[k] }, Home: home,
		ShippedProviders: providers.Definitions(), ShippedPipelines: pipelines.Definitions()})
	if err != nil {
		t.Fatal(err)
	}
	sd, err := p.StateDir()
	if err != nil {
		t.Fatal(err)
	}
	return p, sd
}

// Manual loads no definitions: a broken custom pipeline cannot cost the
// Stop hook anything when nothing would run.
func TestDecideManualLoadsNothing(t *testing.T) {
	p, sd := proj(t, map[string]string{
		".prosewash.toml":                  "[clean]\nmode = \"manual\"\n",
		".prosewash/pipelines/broken.toml": "not toml [[[",
	})
	d, err := Decide(p, sd, "prosewash", "1")
	if err != nil || d.Verdict.Mode != Manual || d.Verdict.Why != "" || d.Lines != nil {
		t.Fatalf("decision %+v, err %v", d, err)
	}
}

func TestDecide(t *testing.T) {
	p, sd := proj(t, map[string]string{".prosewash.toml": "[clean]\nmode = \"automatic\"\n"})
	d, err := Decide(p, sd, "prosewash", "1")
	if err != nil || d.Verdict.Mode != Manual || !strings.Contains(d.Verdict.Why, "never approved") || d.Sum == "" {
		t.Fatalf("unapproved: %+v %v", d, err)
	}
	if !d.NoteOnce(sd) || d.NoteOnce(sd) {
		t.Error("the unapproved note must be said exactly once")
	}
	s, err := ProjectSubject(p, "prosewash", "1", Automatic)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Grant(sd, Caller{}, s); err != nil {
		t.Fatal(err)
	}
	d, _ = Decide(p, sd, "prosewash", "1")
	if d.Verdict.Mode != Automatic || d.Plan == nil || d.Plan.Mode != Automatic || !d.Plan.Unattended {
		t.Fatalf("approved: %+v", d)
	}
	// A new prosewash version changes the shipped provider's binding.
	d, _ = Decide(p, sd, "prosewash", "2")
	if d.Verdict.Mode != Manual || !d.Verdict.Lapsed {
		t.Fatalf("after an upgrade: %+v", d)
	}
	if !d.NoteOnce(sd) {
		t.Fatal("lapse not reported")
	}
	d, _ = Decide(p, sd, "prosewash", "2")
	if d.NoteOnce(sd) {
		t.Error("lapse reported twice")
	}
	if rec, _ := Load(sd); rec == nil || rec.LapseReported == "" {
		t.Errorf("LapseReported not stored: %+v", rec)
	}
}

// A pipeline with an unbindable provider is never approvable.
func TestDecideUnbound(t *testing.T) {
	p, sd := proj(t, map[string]string{
		".prosewash.toml": "[clean]\nmode = \"automatic\"\npipeline = \"custom/p\"\n",
		".prosewash/providers/bare.toml": `schema = "prosewash-provider/1"
id = "custom/bare"
version = "1"
description = "a bare interpreter"
command = ["sh", "-c", "cat"]

[operations.clean]
role = "transform"
capability = "unicode"
regions = "prose"
deterministic = true
`,
		".prosewash/pipelines/p.toml": `schema = "prosewash-pipeline/1"
id = "custom/p"
version = "1"
description = "bare"

[[stages]]
name = "clean"
role = "transform"
capability = "unicode"
regions = "prose"
provider = "custom/bare"
`,
	})
	d, err := Decide(p, sd, "prosewash", "1")
	if err != nil || d.Verdict.Mode != Manual {
		t.Fatalf("%+v %v", d, err)
	}
	if !strings.Contains(d.Verdict.Why, "cannot be bound") {
		t.Errorf("why = %q", d.Verdict.Why)
	}
}
