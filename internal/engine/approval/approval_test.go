package approval

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/prosewash/prosewash/internal/engine/pipeline"
	"github.com/prosewash/prosewash/internal/engine/provider"
	"github.com/prosewash/prosewash/internal/engine/validate"
	"github.com/prosewash/prosewash/internal/pipelines"
	"github.com/prosewash/prosewash/internal/providers"
	"github.com/prosewash/prosewash/internal/testtool"
)

func resolveSafe(t *testing.T) (*pipeline.Resolved, *provider.Set) {
	t.Helper()
	prov, err := provider.LoadSet(providers.Definitions(), nil, "")
	if err != nil {
		t.Fatal(err)
	}
	ps, _ := pipeline.LoadSet(pipelines.Definitions(), nil, "")
	safe, _ := ps.Lookup("safe")
	r, err := pipeline.Resolve(safe, prov, pipeline.Options{Automatic: true})
	if err != nil {
		t.Fatal(err)
	}
	return r, prov
}

func subject(r *pipeline.Resolved, version string) Subject {
	b := map[string]provider.Binding{}
	for _, st := range r.Stages {
		if st.Def != nil {
			b[st.Def.ID] = provider.Binding{Kind: provider.BoundShipped, Version: version}
		}
	}
	return Subject{Pipeline: r, Bindings: b, MaxRewriteStages: 1, Validation: validate.Syntax}
}

func TestFingerprintLapsesOnEveryChange(t *testing.T) {
	r, _ := resolveSafe(t)
	lines, base := Fingerprint(subject(r, "0.1.0"))
	if len(lines) < 4 || !strings.Contains(strings.Join(lines, "\n"), "over prose -> unicode@builtin:clean [shipped@0.1.0]") {
		t.Fatalf("fingerprint lines do not show stage scope and provider:\n%s", strings.Join(lines, "\n"))
	}
	changes := map[string]func(*Subject){
		"provider version": func(s *Subject) {
			s.Bindings["unicode"] = provider.Binding{Kind: provider.BoundShipped, Version: "0.2.0"}
		},
		"rewrite limit":    func(s *Subject) { s.MaxRewriteStages = 2 },
		"validation level": func(s *Subject) { s.Validation = validate.Tests },
		"script content": func(s *Subject) {
			s.Bindings["unicode"] = provider.Binding{Kind: provider.BoundScript, Path: "x.py", Hash: "ab"}
		},
		"stage region scope": func(s *Subject) { s.Pipeline.Stages[0].Scope = "runtime" },
		"test command":       func(s *Subject) { s.Commands.Test = []string{"sh", "other.sh"} },
		"carrier profile":    func(s *Subject) { s.Profile = "strict" },
		"format command":     func(s *Subject) { s.Commands.Format = []string{"gofmt", "-l", "."} },
		"build command":      func(s *Subject) { s.Commands.Build = []string{"go", "build", "./..."} },
		"provider argv":      func(s *Subject) { s.Runs = []string{"stage 2 runs [\"sh\" \"x.sh\"]"} },
		"provider tree file": func(s *Subject) { s.Files = []TreeFile{{Path: ".prosewash/providers/lib.py", Hash: "ab"}} },
		"config variable":    func(s *Subject) { s.Vars = []string{`clean.rewrite_model = "other"`} },
	}
	for name, change := range changes {
		r2, _ := resolveSafe(t)
		s := subject(r2, "0.1.0")
		change(&s)
		if _, sum := Fingerprint(s); sum == base {
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
		s := Subject{Pipeline: r, Bindings: map[string]provider.Binding{"custom/shout": b}, MaxRewriteStages: 1, Validation: validate.Syntax}
		_, before := Fingerprint(s)
		os.WriteFile(script, []byte("print('v2: now does something else')\n"), 0o644)
		s.Bindings["custom/shout"] = provider.Bind(d, map[string]string{"provider_dir": dir}, root, "0.1.0")
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
