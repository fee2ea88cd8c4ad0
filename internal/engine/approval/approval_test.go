package approval

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/prosewash/prosewash/internal/engine/carrier"
	"github.com/prosewash/prosewash/internal/engine/clean"
	"github.com/prosewash/prosewash/internal/engine/pipeline"
	"github.com/prosewash/prosewash/internal/engine/provider"
	"github.com/prosewash/prosewash/internal/engine/validate"
	"github.com/prosewash/prosewash/internal/testtool"
)

// safeSubject plans the shipped safe pipeline for mode in an empty project.
func safeSubject(t *testing.T, mode, version string) Subject {
	t.Helper()
	p, _ := proj(t, map[string]string{".prosewash.toml": "[clean]\nmode = \"" + mode + "\"\n"})
	s, err := ProjectSubject(p, "prosewash", version, mode)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Every field of the plan that decides what a run does is in the
// fingerprint: changing any one of them changes the sum. The list of
// fields is checked against the Plan type, so a field added later without
// a line fails here until it is covered or said not to decide a run.
func TestFingerprintLapsesOnEveryChange(t *testing.T) {
	base := safeSubject(t, Automatic, "0.1.0")
	lines, sum := Fingerprint(base)
	all := strings.Join(lines, "\n")
	for _, want := range []string{"mode automatic", "project " + base.Plan.Project.Root, "over prose -> unicode@builtin:clean [shipped@0.1.0]"} {
		if !strings.Contains(all, want) {
			t.Fatalf("the fingerprint does not show %q:\n%s", want, all)
		}
	}
	script := provider.Binding{Kind: provider.BoundScript, Path: "x.py", Hash: "ab"}
	changes := map[string]func(*clean.Plan){
		"Mode":    func(p *clean.Plan) { p.Mode = Confirm },
		"Project": func(p *clean.Plan) { q := *p.Project; q.Root = "/elsewhere"; p.Project = &q },
		"PipelineID": func(p *clean.Plan) {
			q := *p.Pipeline
			pp := *q.Pipeline
			pp.ID = "custom/other"
			q.Pipeline = &pp
			p.Pipeline = &q
		},
		"Pipeline":         func(p *clean.Plan) { p.Pipeline.Stages[0].Scope = "runtime" },
		"Bindings":         func(p *clean.Plan) { p.Bindings["unicode"] = script },
		"Vars":             func(p *clean.Plan) { p.Vars["profile"] = string(carrier.Strict) },
		"MaxRewriteStages": func(p *clean.Plan) { p.MaxRewriteStages = 2 },
		"Allow":            func(p *clean.Plan) { a, _ := carrier.ParseAllow("U+00A0 in docs/**"); p.Allow = []carrier.Allow{a} },
		"Filter":           func(p *clean.Plan) { p.Filter.Exclude = []string{"docs/**"} },
		"MaxFileSize":      func(p *clean.Plan) { p.MaxFileSize++ },
		"Validation":       func(p *clean.Plan) { p.Validation.Level = validate.Tests },
		"Validation.Commands.Test": func(p *clean.Plan) {
			p.Validation.Commands.Test = []string{"sh", "other.sh"}
		},
		"Validation.Commands.Format": func(p *clean.Plan) { p.Validation.Commands.Format = []string{"gofmt", "-l", "."} },
		"Validation.Commands.Build":  func(p *clean.Plan) { p.Validation.Commands.Build = []string{"go", "build", "./..."} },
		"Validation.Timeout":         func(p *clean.Plan) { p.Validation.Timeout++ },
		"Validation.StripGitEnv":     func(p *clean.Plan) { p.Validation.StripGitEnv = true },
		"Validation.Demand":          func(p *clean.Plan) { p.Validation.Demand = validate.Tests },
	}
	// Fields that do not decide what a run does, and why.
	exempt := map[string]string{
		"Command":    "an approval plans clean runs only; test is a command of its own",
		"Unattended": "follows Mode",
		"Runner":     "code handed in by check, never by an approval",
		"Specials":   "code handed in by check, never by an approval",
	}
	pt := reflect.TypeOf(clean.Plan{})
	for i := 0; i < pt.NumField(); i++ {
		name := pt.Field(i).Name
		if _, ok := changes[name]; !ok && exempt[name] == "" {
			t.Errorf("Plan.%s is neither fingerprinted here nor exempt", name)
		}
	}
	for name, change := range changes {
		s := safeSubject(t, Automatic, "0.1.0")
		s.Plan.Project = base.Plan.Project
		change(s.Plan)
		if _, got := Fingerprint(s); got == sum {
			t.Errorf("changing the plan's %s did not change the fingerprint", name)
		}
	}
	for name, change := range map[string]func(*Subject){
		"provider tree file": func(s *Subject) { s.Files = []TreeFile{{Path: ".prosewash/providers/lib.py", Hash: "ab"}} },
	} {
		s := safeSubject(t, Automatic, "0.1.0")
		s.Plan.Project = base.Plan.Project
		change(&s)
		if _, got := Fingerprint(s); got == sum {
			t.Errorf("changing the %s did not change the fingerprint", name)
		}
	}
}

func TestEffective(t *testing.T) {
	rec := &Record{Mode: Automatic, Fingerprint: "f1"}
	tests := []struct {
		configured string
		rec        *Record
		fp         string
		mode       string
		lapsed     bool
	}{
		{"", nil, "f1", Manual, false},
		{"garbage", rec, "f1", Manual, false},
		{Manual, rec, "f1", Manual, false},
		{Automatic, nil, "f1", Manual, false},
		{Automatic, rec, "f1", Automatic, false},
		{Automatic, rec, "f2", Manual, true},
		{Confirm, rec, "f1", Manual, true},
	}
	for _, tc := range tests {
		v := Effective(tc.configured, tc.rec, tc.fp)
		if v.Mode != tc.mode || v.Lapsed != tc.lapsed {
			t.Errorf("Effective(%q, %v, %q) = %+v, want mode %s lapsed %v", tc.configured, tc.rec, tc.fp, v, tc.mode, tc.lapsed)
		}
	}
}

func TestSaveLoadPrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	if r, err := Load(dir); r != nil || err != nil {
		t.Fatalf("absent approval: %v %v", r, err)
	}
	in := &Record{Mode: Automatic, Fingerprint: "abc", Lines: []string{"x"}, ApprovedAt: time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)}
	if err := Save(dir, in); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(filepath.Join(dir, "approval.json"))
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("approval file mode %v", fi.Mode())
	}
	out, err := Load(dir)
	if err != nil || out.Mode != Automatic || out.Fingerprint != "abc" {
		t.Fatalf("round trip: %+v %v", out, err)
	}
	os.WriteFile(filepath.Join(dir, "approval.json"), []byte("{not json"), 0o600)
	if r, err := Load(dir); r != nil || err == nil {
		t.Fatal("an unreadable approval must be absent with an error")
	}
	if err := Revoke(dir); err != nil {
		t.Fatal(err)
	}
	if err := Revoke(dir); err != nil {
		t.Fatal("revoking twice must succeed")
	}
}

// TestBindingLapsesOnScriptEdit binds a custom provider to its script and
// shows that editing the script changes the fingerprint.
func TestBindingLapsesOnScriptEdit(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		testtool.Missing(t, "python3", "python3 not found: the custom provider is a python script")
	}
	root := t.TempDir()
	dir := filepath.Join(root, ".prosewash", "providers")
	os.MkdirAll(dir, 0o755)
	script := filepath.Join(dir, "shout.py")
	os.WriteFile(script, []byte("print('v1')\n"), 0o644)
	def := `schema = "prosewash-provider/1"
id = "custom/shout"
version = "1"
command = ["python3", "${provider_dir}/shout.py"]
[operations.clean]
role = "transform"
capability = "unicode"
regions = "prose"
deterministic = true
`
	bare := strings.Replace(def, `["python3", "${provider_dir}/shout.py"]`, `["python3", "-c", "print(1)"]`, 1)
	for _, tc := range []struct {
		def  string
		kind string
	}{{def, provider.BoundScript}, {bare, provider.Unbound}} {
		prov, err := provider.LoadSet(nil, fstest.MapFS{"shout.toml": {Data: []byte(tc.def)}}, dir)
		if err != nil {
			t.Fatal(err)
		}
		d, _ := prov.Lookup("custom/shout")
		b := provider.Bind(d, map[string]string{"provider_dir": dir}, root, "0.1.0")
		if b.Kind != tc.kind {
			t.Fatalf("binding kind %s, want %s (%v)", b.Kind, tc.kind, b)
		}
		if tc.kind == provider.Unbound {
			if b.Bindable() || !strings.Contains(b.Why, "bare interpreter") {
				t.Fatalf("bare interpreter must be unbindable: %v", b)
			}
			continue
		}
		if b.Path != ".prosewash/providers/shout.py" {
			t.Fatalf("script path %q", b.Path)
		}
		ps, _ := pipeline.LoadSet(nil, fstest.MapFS{"p.toml": {Data: []byte("schema = \"prosewash-pipeline/1\"\nid = \"custom/p\"\nversion = \"1\"\n[[stages]]\nrole = \"transform\"\nprovider = \"custom/shout\"\n")}}, "x")
		p, _ := ps.Lookup("custom/p")
		r, err := pipeline.Resolve(p, prov, pipeline.Options{})
		if err != nil {
			t.Fatal(err)
		}
		pr, _ := proj(t, nil)
		s := Subject{Plan: &clean.Plan{Project: pr, Pipeline: r, Bindings: map[string]provider.Binding{"custom/shout": b}, MaxRewriteStages: 1}}
		_, before := Fingerprint(s)
		os.WriteFile(script, []byte("print('v2: now does something else')\n"), 0o644)
		s.Plan.Bindings["custom/shout"] = provider.Bind(d, map[string]string{"provider_dir": dir}, root, "0.1.0")
		if _, after := Fingerprint(s); after == before {
			t.Fatal("editing the provider script did not change the fingerprint")
		}
	}
}

func TestBindingOfABinaryOutsideTheRepo(t *testing.T) {
	cat, err := exec.LookPath("cat")
	if err != nil {
		testtool.Missing(t, "cat", "cat not found")
	}
	d := &provider.Definition{ID: "custom/cat", Version: "1", Command: []string{cat}}
	b := provider.Bind(d, nil, t.TempDir(), "0.1.0")
	if b.Kind != provider.BoundBinary || b.Hash == "" || b.Version == "" || !filepath.IsAbs(b.Path) {
		t.Fatalf("binary binding: %+v", b)
	}
}
