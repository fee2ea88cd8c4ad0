package pipeline

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/prosewash/prosewash/internal/engine/provider"
	"github.com/prosewash/prosewash/internal/engine/validate"
	"github.com/prosewash/prosewash/internal/pipelines"
	"github.com/prosewash/prosewash/internal/providers"
)

func def(id string, shipped bool, ops ...*provider.Operation) *provider.Definition {
	d := &provider.Definition{ID: id, Version: "1", Shipped: shipped, Operations: map[string]*provider.Operation{}}
	for _, op := range ops {
		d.Operations[op.Name] = op
	}
	return d
}

func op(name, role, capability, regions string, det bool) *provider.Operation {
	return &provider.Operation{Name: name, Role: role, Capability: capability, Regions: regions, Deterministic: det}
}

func set(t *testing.T, defs ...*provider.Definition) *provider.Set {
	t.Helper()
	shipped, custom := fstest.MapFS{}, fstest.MapFS{}
	for _, d := range defs {
		var b strings.Builder
		b.WriteString("schema = \"prosewash-provider/1\"\nid = \"" + d.ID + "\"\nversion = \"1\"\ncommand = [\"true\"]\n")
		for _, o := range d.Operations {
			b.WriteString("[operations." + o.Name + "]\nrole = \"" + o.Role + "\"\ncapability = \"" + o.Capability + "\"\nregions = \"" + o.Regions + "\"\n")
			if o.Deterministic {
				b.WriteString("deterministic = true\n")
			}
		}
		name := strings.ReplaceAll(d.ID, "/", "_") + ".toml"
		if d.Shipped {
			shipped[name] = &fstest.MapFile{Data: []byte(b.String())}
		} else {
			custom[name] = &fstest.MapFile{Data: []byte(b.String())}
		}
	}
	s, err := provider.LoadSet(shipped, custom, ".prosewash/providers")
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func pipe(t *testing.T, shipped bool, id string, stages string) *Pipeline {
	t.Helper()
	p, err := Parse("p.toml", []byte("schema = \"prosewash-pipeline/1\"\nid = \""+id+"\"\nversion = \"1\"\n"+stages), shipped)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

const (
	stUnicode = "[[stages]]\nrole = \"transform\"\ncapability = \"unicode\"\nregions = \"prose\"\n"
	stRewrite = "[[stages]]\nrole = \"transform\"\ncapability = \"statistical-rewrite\"\nregions = \"prose\"\n"
	stSyntax  = "[[stages]]\nrole = \"validate\"\nbuiltin = \"syntax\"\n"
	stInspect = "[[stages]]\nrole = \"inspect\"\ncapability = \"unicode\"\nregions = \"any\"\n"
)

func standard(t *testing.T) *provider.Set {
	return set(t,
		def("unicode", true, op("clean", "transform", "unicode", "any", true), op("inspect", "inspect", "unicode", "any", true)),
		def("ollama-rewrite", true, op("rewrite", "transform", "statistical-rewrite", "prose", false)),
	)
}

func TestShippedPipelinesResolve(t *testing.T) {
	ps, err := LoadSet(pipelines.Definitions(), nil, "")
	if err != nil {
		t.Fatal(err)
	}
	prov, err := provider.LoadSet(providers.Definitions(), nil, "")
	if err != nil {
		t.Fatal(err)
	}
	safe, ok := ps.Lookup("safe")
	if !ok {
		t.Fatal("no shipped safe pipeline")
	}
	r, err := Resolve(safe, prov, Options{Automatic: true})
	if err != nil {
		t.Fatal(err)
	}
	if r.Demand != validate.Syntax || r.Rewrites != 0 {
		t.Fatalf("safe demands %s with %d rewrites", r.Demand, r.Rewrites)
	}
	for _, st := range r.Stages {
		if st.Def != nil && st.Role == RoleTransform && st.Scope != provider.ScopeProse {
			t.Fatalf("safe transform stage %s is not prose-scoped", st.Label())
		}
	}
}

func TestResolve(t *testing.T) {
	tests := []struct {
		name    string
		stages  string
		opt     Options
		want    string // error substring; "" = success
		demand  validate.Level
		rewrite int
	}{
		{"safe", stInspect + stUnicode + stSyntax, Options{}, "", validate.Syntax, 0},
		{"full explicit", stUnicode + stRewrite + stSyntax, Options{ExplicitTarget: true}, "", validate.Tests, 1},
		{"full over session files", stUnicode + stRewrite + stSyntax, Options{}, "needs explicitly named files", 0, 0},
		{"full automatic", stUnicode + stRewrite + stSyntax, Options{ExplicitTarget: true, Automatic: true}, "never runs automatically", 0, 0},
		{"two rewrites", stRewrite + stRewrite + stSyntax, Options{ExplicitTarget: true}, "2 rewrite stages, more than max_rewrite_stages = 1", 0, 0},
		{"two rewrites allowed", stRewrite + stRewrite + stSyntax, Options{ExplicitTarget: true, MaxRewriteStages: 2}, "", validate.Tests, 2},
		{"validate before transform", stSyntax + stUnicode, Options{}, "a transform stage cannot follow a validate stage", 0, 0},
		{"rewrite before transform", stRewrite + stUnicode, Options{ExplicitTarget: true}, "a transform stage cannot follow a rewrite stage", 0, 0},
		{"inspect after transform", stUnicode + stInspect, Options{}, "an inspect stage cannot follow", 0, 0},
		{"runtime scope demands tests", strings.Replace(stUnicode, `"prose"`, `"runtime"`, 1), Options{}, "", validate.Tests, 0},
		{"unknown capability provider", "[[stages]]\nrole = \"transform\"\ncapability = \"syntax\"\n", Options{}, "no provider offers syntax", 0, 0},
		{"pin unknown provider", "[[stages]]\nrole = \"transform\"\nprovider = \"nope\"\n", Options{}, `provider "nope" is not defined`, 0, 0},
		{"pin with operation", "[[stages]]\nrole = \"transform\"\nprovider = \"unicode:clean\"\n", Options{}, "", validate.Syntax, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := Resolve(pipe(t, false, "custom/p", tc.stages), standard(t), tc.opt)
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "custom/p") {
					t.Fatalf("got %v, want an error naming the pipeline containing %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "" && (r.Demand != tc.demand || r.Rewrites != tc.rewrite) {
				t.Fatalf("demand %s rewrites %d, want %s %d", r.Demand, r.Rewrites, tc.demand, tc.rewrite)
			}
		})
	}
}

func TestResolveScopeIsTheNarrower(t *testing.T) {
	prov := set(t, def("unicode", true, op("clean", "transform", "unicode", "prose", true)))
	r, err := Resolve(pipe(t, false, "custom/p", strings.Replace(stUnicode, `"prose"`, `"any"`, 1)), prov, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Stages[0].Scope != provider.ScopeProse || r.Demand != validate.Syntax {
		t.Fatalf("stage any + operation prose must give prose, got %s (demand %s)", r.Stages[0].Scope, r.Demand)
	}
}

func TestResolveAmbiguityAndShippedIsolation(t *testing.T) {
	prov := set(t,
		def("unicode", true, op("clean", "transform", "unicode", "any", true)),
		def("custom/mine", false, op("clean", "transform", "unicode", "prose", true)),
	)
	// A shipped pipeline ignores project providers entirely.
	r, err := Resolve(pipe(t, true, "safe", stUnicode), prov, Options{})
	if err != nil || r.Stages[0].Def.ID != "unicode" {
		t.Fatalf("shipped pipeline resolved to %v, %v", r, err)
	}
	if _, err := Resolve(pipe(t, true, "safe", "[[stages]]\nrole = \"transform\"\nprovider = \"custom/mine\"\n"), prov, Options{}); err == nil || !strings.Contains(err.Error(), "cannot pin the project provider") {
		t.Fatalf("shipped pipeline pinned a project provider: %v", err)
	}
	// A custom pipeline sees both and must pin one.
	if _, err := Resolve(pipe(t, false, "custom/p", stUnicode), prov, Options{}); err == nil || !strings.Contains(err.Error(), "several providers offer unicode") {
		t.Fatalf("ambiguity not refused: %v", err)
	}
	r, err = Resolve(pipe(t, false, "custom/p", "[[stages]]\nrole = \"transform\"\nprovider = \"custom/mine\"\n"), prov, Options{})
	if err != nil || r.Stages[0].Def.ID != "custom/mine" {
		t.Fatalf("pin not honoured: %v", err)
	}
}

func TestParseRefuses(t *testing.T) {
	tests := []struct {
		shipped        bool
		id, body, want string
	}{
		{false, "mine", stUnicode, "must be custom/<name>"},
		{true, "custom/x", stUnicode, "invalid shipped id"},
		{false, "custom/p", "", "at least one stage"},
		{false, "custom/p", "[[stages]]\nrole = \"rewrite\"\ncapability = \"unicode\"\n", "role: must be"},
		{false, "custom/p", "[[stages]]\nrole = \"transform\"\n", "needs a capability"},
		{false, "custom/p", "[[stages]]\nrole = \"transform\"\nbuiltin = \"syntax\"\n", "is not a builtin transform stage"},
		{false, "custom/p", "[[stages]]\nrole = \"validate\"\nbuiltin = \"syntax\"\ncapability = \"unicode\"\n", "takes no capability"},
		{false, "custom/p", "[[stages]]\nrole = \"transform\"\ncapability = \"unicode\"\nregions = \"all\"\n", "regions: must be"},
		{true, "safe", "[[stages]]\nrole = \"transform\"\ncapability = \"c2pa\"\n", "never in a shipped pipeline"},
		{false, "custom/p", "[[stages]]\nrole = \"transform\"\ncapability = \"unicode\"\ncolour = 1\n", "unknown key"},
	}
	for _, tc := range tests {
		_, err := Parse("p.toml", []byte("schema = \"prosewash-pipeline/1\"\nid = \""+tc.id+"\"\nversion = \"1\"\n"+tc.body), tc.shipped)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "p.toml") {
			t.Errorf("%s %q: got %v, want %q", tc.id, tc.body, err, tc.want)
		}
	}
}
