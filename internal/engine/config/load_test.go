package config

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/engine/carrier"
	"github.com/prosewash/prosewash/internal/engine/validate"
)

var update = flag.Bool("update", false, "rewrite KEYS.md from the key table")

// files writes a user and a project file ("" skips one) and returns their paths.
func files(t *testing.T, user, project string) (string, string) {
	t.Helper()
	dir := t.TempDir()
	u := filepath.Join(dir, "user.toml")
	p := filepath.Join(dir, ProjectFile)
	if user != "" {
		if err := os.WriteFile(u, []byte(user), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if project != "" {
		if err := os.WriteFile(p, []byte(project), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return u, p
}

func TestDefaults(t *testing.T) {
	cfg, warns, err := LoadFiles("", filepath.Join(t.TempDir(), "missing.toml"))
	if err != nil || len(warns) != 0 {
		t.Fatalf("err = %v, warnings = %v", err, warns)
	}
	d := Default()
	d.origins = cfg.origins
	if !reflect.DeepEqual(cfg, d) {
		t.Errorf("empty load = %+v; want defaults %+v", cfg, d)
	}
	c := cfg.Clean
	if c.Mode != ModeManual || c.Pipeline != "safe" || c.Profile != carrier.Standard || c.Validation != validate.Syntax ||
		c.ValidationTimeout != 600*time.Second || c.MaxRewriteStages != 1 || c.RewriteModel != "" || cfg.Wash.Mode != WashAuto {
		t.Errorf("defaults = %+v %+v", c, cfg.Wash)
	}
	if len(cfg.Sources) != 0 {
		t.Errorf("sources = %v", cfg.Sources)
	}
	if cfg.Origin("clean.mode").String() != "default" {
		t.Errorf("origin = %q", cfg.Origin("clean.mode"))
	}
	var none *Config
	if none.CleanMode() != ModeManual {
		t.Error("a nil config must mean manual")
	}
}

func TestFullConfig(t *testing.T) {
	u, p := files(t, "", `# every key
[clean]
mode = "confirm"
pipeline = "custom/my-pipe"
profile = "strict"
validation = "tests"
validation_timeout = 120
include = ["**/*.md", "src/**/*.py"]
exclude = ["vendor/**"]
max_rewrite_stages = 0
rewrite_model = "llama3.2:3b"
max_file_size = 1048576

[commands]
format = "sh scripts/fmt-check.sh"
build = ["go", "build", "./..."]
test = 'go test -count=1 ./...'

[wash]
mode = "manual"
local_only = true
fat_arm_tokens = 800
fat_disarm_tokens = 300
capacity_tokens = 100000
index_max_bytes = 10000
index_max_lines = 150
budget_tokens = 12000
stale_days = 90
archive_after_days = 30
archive_dir = "/srv/transcripts"
`)
	cfg, warns, err := LoadFiles(u, p)
	if err != nil || len(warns) != 0 {
		t.Fatalf("err = %v, warnings = %v", err, warns)
	}
	want := Clean{Mode: "confirm", Pipeline: "custom/my-pipe", Profile: carrier.Strict, Validation: validate.Tests,
		ValidationTimeout: 120 * time.Second, Include: []string{"**/*.md", "src/**/*.py"}, Exclude: []string{"vendor/**"},
		MaxRewriteStages: 0, RewriteModel: "llama3.2:3b", RewriteEndpoint: "http://127.0.0.1:11434", MaxFileSize: 1 << 20}
	if !reflect.DeepEqual(cfg.Clean, want) {
		t.Errorf("clean = %+v\nwant    %+v", cfg.Clean, want)
	}
	wantCmds := validate.Commands{Format: []string{"sh", "scripts/fmt-check.sh"}, Build: []string{"go", "build", "./..."}, Test: []string{"go", "test", "-count=1", "./..."}}
	if !reflect.DeepEqual(cfg.Commands, wantCmds) {
		t.Errorf("commands = %q", cfg.Commands)
	}
	wantWash := Wash{Mode: "manual", LocalOnly: true, FatArmTokens: 800, FatDisarmTokens: 300, CapacityTokens: 100000, IndexMaxBytes: 10000, IndexMaxLines: 150,
		BudgetTokens: 12000, StaleDays: 90, ArchiveAfterDays: 30, ArchiveDir: "/srv/transcripts"}
	if cfg.Wash != wantWash {
		t.Errorf("wash = %+v", cfg.Wash)
	}
	if o := cfg.Origin("clean.validation"); o.File != p || o.Line != 6 {
		t.Errorf("origin of clean.validation = %v; want %s:6", o, p)
	}
	if !reflect.DeepEqual(cfg.Sources, []string{p}) {
		t.Errorf("sources = %v", cfg.Sources)
	}
}

func TestSyntaxErrors(t *testing.T) {
	tests := []struct {
		name      string
		doc       string
		line, col int
	}{
		{"missing value", "[clean]\nmode =\n", 2, 7},
		{"unterminated string", "[clean]\n\nmode = \"manual\n", 3, 15},
		{"unclosed table", "[clean\nmode = \"manual\"\n", 1, 7},
		{"duplicate key", "[clean]\nmode = \"manual\"\nmode = \"confirm\"\n", 3, 1},
		{"duplicate table", "[clean]\n[wash]\n[clean]\n", 3, 2},
		{"bare word", "[clean]\nvalidation = tests\n", 2, 14},
		{"garbage", "\n\n\n!!!\n", 4, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u, p := files(t, "", tc.doc)
			cfg, _, err := LoadFiles(u, p)
			if cfg != nil {
				t.Error("a config was returned with invalid TOML")
			}
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v (%T); want *config.Error", err, err)
			}
			if ce.File != p || ce.Line != tc.line || ce.Col != tc.col {
				t.Errorf("error at %s:%d:%d; want %s:%d:%d (%v)", ce.File, ce.Line, ce.Col, p, tc.line, tc.col, err)
			}
			if !strings.HasPrefix(err.Error(), p+":") || !strings.Contains(err.Error(), "invalid TOML") {
				t.Errorf("message %q does not start with the file or say invalid TOML", err)
			}
		})
	}
}

func TestSyntaxErrorInUserFile(t *testing.T) {
	u, p := files(t, "[clean\n", "[clean]\nmode = \"manual\"\n")
	_, _, err := LoadFiles(u, p)
	var ce *Error
	if !errors.As(err, &ce) || ce.File != u || ce.Line != 1 {
		t.Fatalf("err = %v; want an error in the user file at line 1", err)
	}
}

func TestUnknownKeys(t *testing.T) {
	u, p := files(t, "", `[clean]
mode = "manual"
validaton = "tests"
colour = "red"

[wash]
local-only = true

[hooks]
stop = true

[clean.nested]
x = 1
`)
	cfg, warns, err := LoadFiles(u, p)
	if err != nil {
		t.Fatal(err)
	}
	want := []Warning{
		{File: p, Line: 3, Key: "clean.validaton", Msg: `unknown key, ignored; did you mean "validation"?`},
		{File: p, Line: 4, Key: "clean.colour", Msg: "unknown key, ignored"},
		{File: p, Line: 12, Key: "clean.nested", Msg: "unknown key, ignored"},
		{File: p, Line: 7, Key: "wash.local-only", Msg: `unknown key, ignored; did you mean "local_only"?`},
		{File: p, Line: 9, Key: "hooks", Msg: "unknown table, ignored"},
	}
	if !reflect.DeepEqual(warns, want) {
		t.Errorf("warnings:\n%v\nwant:\n%v", warns, want)
	}
	if cfg.Clean.Validation != validate.Syntax || cfg.Wash.LocalOnly {
		t.Error("a misspelt key changed a value")
	}
	if s := warns[0].String(); s != p+`:3: clean.validaton: unknown key, ignored; did you mean "validation"?` {
		t.Errorf("String() = %q", s)
	}
}

func TestTypeErrors(t *testing.T) {
	tests := []struct {
		name string
		doc  string
		line int
		key  string
		msg  string
	}{
		{"timeout as string", "[clean]\nvalidation_timeout = \"600\"\n", 2, "clean.validation_timeout", "want an integer number of seconds, got a string"},
		{"timeout as float", "[clean]\nvalidation_timeout = 1.5\n", 2, "clean.validation_timeout", "got a float"},
		{"timeout zero", "[clean]\nvalidation_timeout = 0\n", 2, "clean.validation_timeout", "got 0; want 1 to 86400"},
		{"mode as bool", "[clean]\n\nmode = true\n", 3, "clean.mode", "want a string, got a boolean"},
		{"unknown mode", "[clean]\nmode = \"auto\"\n", 2, "clean.mode", `got "auto"; want one of automatic, confirm, manual`},
		{"unknown level", "[clean]\nvalidation = \"test\"\n", 2, "clean.validation", "want one of syntax, format, project, tests"},
		{"unknown profile", "[clean]\nprofile = \"paranoid\"\n", 2, "clean.profile", "want one of standard, strict"},
		{"bad pipeline", "[clean]\npipeline = \"mine\"\n", 2, "clean.pipeline", "want safe, full or custom/<id>"},
		{"unknown wash mode", "[wash]\nmode = \"automatic\"\n", 2, "wash.mode", "want one of auto, manual, off"},
		{"local_only as string", "[wash]\nlocal_only = \"yes\"\n", 2, "wash.local_only", "want true or false, got a string"},
		{"include as string", "[clean]\ninclude = \"*.md\"\n", 2, "clean.include", "want an array of patterns, got a string"},
		{"absolute pattern", "[clean]\nexclude = [\"ok/**\", \"/etc/**\"]\n", 2, "clean.exclude", "element 2 \"/etc/**\": patterns are relative"},
		{"escaping pattern", "[clean]\nexclude = [\"../x\"]\n", 2, "clean.exclude", "cannot leave the project root"},
		{"bad pattern", "[clean]\nexclude = [\"a[\"]\n", 2, "clean.exclude", "not a valid doublestar pattern"},
		{"negative stages", "[clean]\nmax_rewrite_stages = -1\n", 2, "clean.max_rewrite_stages", "got -1"},
		{"command with pipe", "[commands]\ntest = \"go test ./... | tee log\"\n", 2, "commands.test", "wrap it in a script your project owns"},
		{"argv with &&", "[commands]\nbuild = [\"go\", \"vet\", \"&&\", \"go\", \"build\"]\n", 2, "commands.build", `"&&": is a shell operator`},
		{"command as number", "[commands]\nformat = 1\n", 2, "commands.format", "got a integer"},
		{"table as value", "clean = 3\n", 1, "clean", "want a table ([clean]), got a integer"},
		{"array of tables", "[[wash]]\nmode = \"off\"\n", 1, "wash", "got a array"},
		{"inline table", "clean = { mode = \"often\" }\n", 1, "clean.mode", "want one of"},
		{"dotted key", "clean.validation_timeout = \"x\"\n", 1, "clean.validation_timeout", "got a string"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u, p := files(t, "", tc.doc)
			cfg, _, err := LoadFiles(u, p)
			if cfg != nil {
				t.Error("a config was returned with an invalid value")
			}
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v; want *config.Error", err)
			}
			if ce.File != p || ce.Line != tc.line || ce.Key != tc.key || !strings.Contains(ce.Msg, tc.msg) {
				t.Errorf("got %s:%d key %q msg %q; want line %d key %q msg containing %q", ce.File, ce.Line, ce.Key, ce.Msg, tc.line, tc.key, tc.msg)
			}
		})
	}
}

func TestAllTypeErrorsReported(t *testing.T) {
	u, p := files(t, "[clean]\nmode = 1\n", "[clean]\nvalidation = 2\n[wash]\nlocal_only = 3\n")
	_, _, err := LoadFiles(u, p)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{u + ":2:1: clean.mode:", p + ":2:1: clean.validation:", p + ":4:1: wash.local_only:"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

func TestPrecedence(t *testing.T) {
	u, p := files(t, `[clean]
pipeline = "full"
profile = "strict"
rewrite_model = "user-model"
validation_timeout = 900
[commands]
test = ["make", "test"]
build = "make"
`, `[clean]
pipeline = "safe"
validation_timeout = 30
[commands]
test = "go test ./..."
build = ""
`)
	cfg, warns, err := LoadFiles(u, p)
	if err != nil || len(warns) != 0 {
		t.Fatalf("err = %v, warnings = %v", err, warns)
	}
	if cfg.Clean.Pipeline != "safe" || cfg.Clean.ValidationTimeout != 30*time.Second {
		t.Errorf("project did not win: %+v", cfg.Clean)
	}
	if cfg.Clean.Profile != carrier.Strict || cfg.Clean.RewriteModel != "user-model" {
		t.Errorf("user value lost where the project is silent: %+v", cfg.Clean)
	}
	if !reflect.DeepEqual(cfg.Commands.Test, []string{"go", "test", "./..."}) {
		t.Errorf("test = %q", cfg.Commands.Test)
	}
	if len(cfg.Commands.Build) != 0 {
		t.Errorf("an empty project command must unset the user's: %q", cfg.Commands.Build)
	}
	if o := cfg.Origin("clean.profile"); o.File != u || o.Line != 3 {
		t.Errorf("origin of profile = %v", o)
	}
	if o := cfg.Origin("clean.pipeline"); o.File != p || o.Line != 2 {
		t.Errorf("origin of pipeline = %v", o)
	}
	if !reflect.DeepEqual(cfg.Sources, []string{u, p}) {
		t.Errorf("sources = %v", cfg.Sources)
	}
}

func TestTightenOnly(t *testing.T) {
	tests := []struct {
		name          string
		user, project string
		check         func(*Config) bool
		warn          string // key of the expected warning, "" for none
	}{
		{"local_only true in user stays", "[wash]\nlocal_only = true\n", "[wash]\nlocal_only = false\n",
			func(c *Config) bool { return c.Wash.LocalOnly }, "wash.local_only"},
		{"local_only true in project wins", "[wash]\nlocal_only = false\n", "[wash]\nlocal_only = true\n",
			func(c *Config) bool { return c.Wash.LocalOnly }, ""},
		{"local_only project only", "", "[wash]\nlocal_only = true\n",
			func(c *Config) bool { return c.Wash.LocalOnly }, ""},
		{"mode cannot be loosened", "[clean]\nmode = \"manual\"\n", "[clean]\nmode = \"automatic\"\n",
			func(c *Config) bool { return c.Clean.Mode == ModeManual }, "clean.mode"},
		{"mode confirm over automatic", "[clean]\nmode = \"confirm\"\n", "[clean]\nmode = \"automatic\"\n",
			func(c *Config) bool { return c.Clean.Mode == ModeConfirm }, "clean.mode"},
		{"mode can be tightened", "[clean]\nmode = \"automatic\"\n", "[clean]\nmode = \"confirm\"\n",
			func(c *Config) bool { return c.Clean.Mode == ModeConfirm }, ""},
		{"mode project only", "", "[clean]\nmode = \"automatic\"\n",
			func(c *Config) bool { return c.Clean.Mode == ModeAutomatic }, ""},
		{"validation floor", "[clean]\nvalidation = \"tests\"\n", "[clean]\nvalidation = \"syntax\"\n",
			func(c *Config) bool { return c.Clean.Validation == validate.Tests }, "clean.validation"},
		{"validation raised", "[clean]\nvalidation = \"format\"\n", "[clean]\nvalidation = \"project\"\n",
			func(c *Config) bool { return c.Clean.Validation == validate.Project }, ""},
		{"rewrite stages cap", "[clean]\nmax_rewrite_stages = 0\n", "[clean]\nmax_rewrite_stages = 1\n",
			func(c *Config) bool { return c.Clean.MaxRewriteStages == 0 }, "clean.max_rewrite_stages"},
		{"rewrite stages lowered", "[clean]\nmax_rewrite_stages = 1\n", "[clean]\nmax_rewrite_stages = 0\n",
			func(c *Config) bool { return c.Clean.MaxRewriteStages == 0 }, ""},
		{"wash off stays off", "[wash]\nmode = \"off\"\n", "[wash]\nmode = \"auto\"\n",
			func(c *Config) bool { return c.Wash.Mode == WashOff }, "wash.mode"},
		{"exclude joined", "[clean]\nexclude = [\"vendor/**\", \"gen/**\"]\n", "[clean]\nexclude = [\"gen/**\", \"third_party/**\"]\n",
			func(c *Config) bool {
				return reflect.DeepEqual(c.Clean.Exclude, []string{"vendor/**", "gen/**", "third_party/**"})
			}, ""},
		{"include replaced", "[clean]\ninclude = [\"**/*.md\"]\n", "[clean]\ninclude = [\"docs/**\"]\n",
			func(c *Config) bool { return reflect.DeepEqual(c.Clean.Include, []string{"docs/**"}) }, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			u, p := files(t, tc.user, tc.project)
			cfg, warns, err := LoadFiles(u, p)
			if err != nil {
				t.Fatal(err)
			}
			if !tc.check(cfg) {
				t.Errorf("wrong effective value: %+v %+v", cfg.Clean, cfg.Wash)
			}
			var keys []string
			for _, w := range warns {
				keys = append(keys, w.Key)
				if w.Key == tc.warn && (w.File != p || w.Line != 2 || !strings.Contains(w.Msg, "may only tighten")) {
					t.Errorf("warning = %v; want it at the project line", w)
				}
			}
			if tc.warn == "" && len(warns) > 0 {
				t.Errorf("unexpected warnings %v", warns)
			}
			if tc.warn != "" && (len(warns) != 1 || warns[0].Key != tc.warn) {
				t.Errorf("warnings for %v; want one for %s", keys, tc.warn)
			}
		})
	}
}

func TestTightenedOriginNamesBoth(t *testing.T) {
	u, p := files(t, "[wash]\nlocal_only = true\n", "[wash]\n\nlocal_only = false\n")
	cfg, _, err := LoadFiles(u, p)
	if err != nil {
		t.Fatal(err)
	}
	o := cfg.Origin("wash.local_only")
	if o.File != u || o.Line != 2 || !strings.Contains(o.Note, p+":3") {
		t.Errorf("origin = %v", o)
	}
}

func TestRewriteStagesWarning(t *testing.T) {
	u, p := files(t, "", "[clean]\nmax_rewrite_stages = 2\n")
	cfg, warns, err := LoadFiles(u, p)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Clean.MaxRewriteStages != 2 {
		t.Errorf("max_rewrite_stages = %d", cfg.Clean.MaxRewriteStages)
	}
	if len(warns) != 1 || warns[0].Key != "clean.max_rewrite_stages" || warns[0].File != p || warns[0].Line != 2 {
		t.Errorf("warnings = %v", warns)
	}
}

func TestHysteresisOrder(t *testing.T) {
	u, p := files(t, "", "[wash]\nfat_arm_tokens = 100\n")
	_, _, err := LoadFiles(u, p)
	var ce *Error
	if !errors.As(err, &ce) || ce.Key != "wash.fat_disarm_tokens" || !strings.Contains(ce.Msg, "must be below wash.fat_arm_tokens (100)") {
		t.Fatalf("err = %v", err)
	}
	// Without an explicit disarm value the error points at the arm line.
	if ce.File != p || ce.Line != 2 {
		t.Errorf("error at %s:%d", ce.File, ce.Line)
	}
}

func TestUnreadable(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, ProjectFile)
	if err := os.Mkdir(p, 0o700); err != nil {
		t.Fatal(err)
	}
	_, _, err := LoadFiles("", p)
	var ce *Error
	if !errors.As(err, &ce) || ce.File != p || !strings.Contains(ce.Msg, "directory") {
		t.Fatalf("err = %v", err)
	}
	big := filepath.Join(dir, "big.toml")
	if err := os.WriteFile(big, make([]byte, maxConfigSize+1), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := LoadFiles(big, ""); err == nil || !strings.Contains(err.Error(), "larger than") {
		t.Fatalf("err = %v", err)
	}
}

func TestUserPath(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	tests := []struct {
		goos string
		env  map[string]string
		home string
		want string
	}{
		{"linux", map[string]string{"XDG_CONFIG_HOME": "/xdg"}, "/home/u", filepath.Join("/xdg", "prosewash", "config.toml")},
		{"linux", map[string]string{"XDG_CONFIG_HOME": "relative"}, "/home/u", filepath.Join("/home/u", ".config", "prosewash", "config.toml")},
		{"darwin", nil, "/Users/u", filepath.Join("/Users/u", ".config", "prosewash", "config.toml")},
		{"linux", nil, "", ""},
		{"windows", map[string]string{"APPDATA": `C:\Users\u\AppData\Roaming`, "XDG_CONFIG_HOME": "/xdg"}, `C:\Users\u`, filepath.Join(`C:\Users\u\AppData\Roaming`, "prosewash", "config.toml")},
		{"windows", nil, "/home/u", filepath.Join("/home/u", "AppData", "Roaming", "prosewash", "config.toml")},
	}
	for _, tc := range tests {
		if got := userPath(tc.goos, env(tc.env), tc.home); got != tc.want {
			t.Errorf("userPath(%s, %v, %q) = %q; want %q", tc.goos, tc.env, tc.home, got, tc.want)
		}
	}
}

func TestLoad(t *testing.T) {
	xdg := t.TempDir()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(xdg, "prosewash"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(xdg, "prosewash", "config.toml"), []byte("[clean]\nprofile = \"strict\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ProjectFile), []byte("[clean]\nvalidation = \"tests\"\n[commands]\ntest = \"go test ./...\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	getenv := func(k string) string {
		if k == "XDG_CONFIG_HOME" {
			return xdg
		}
		return ""
	}
	cfg, warns, err := Load(root, getenv, "/nonexistent-home")
	if err != nil || len(warns) != 0 {
		t.Fatalf("err = %v, warnings = %v", err, warns)
	}
	if cfg.Clean.Profile != carrier.Strict || cfg.Clean.Validation != validate.Tests || len(cfg.Sources) != 2 {
		t.Errorf("config = %+v, sources %v", cfg.Clean, cfg.Sources)
	}
	// The commands feed a validation plan directly.
	plan, err := validate.NewPlan(cfg.Clean.Validation, validate.Syntax, cfg.Commands)
	if err != nil || plan.Applied != validate.Tests {
		t.Errorf("plan = %+v, %v", plan, err)
	}
}

func TestRender(t *testing.T) {
	u, p := files(t, "[wash]\nlocal_only = true\n", "[clean]\nvalidation = \"project\"\n[commands]\nbuild = \"go build ./...\"\n")
	cfg, _, err := LoadFiles(u, p)
	if err != nil {
		t.Fatal(err)
	}
	out := cfg.Render()
	for _, want := range []string{
		"# read: " + u + ", " + p,
		`clean.validation = "project"`, "# " + p + ":2\n",
		`commands.build = ["go", "build", "./..."]`,
		"commands.test = (not set)",
		"wash.local_only = true", "# " + u + ":2\n",
		`clean.mode = "manual"`, "# default\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("render lacks %q:\n%s", want, out)
		}
	}
	if n := strings.Count(out, "\n"); n != len(specs())+1 {
		t.Errorf("render has %d lines; want one per key plus the header", n)
	}
}

func TestKeysDoc(t *testing.T) {
	got := KeysMarkdown()
	for _, s := range specs() {
		_, name, _ := strings.Cut(s.key, ".")
		if !strings.Contains(got, "| `"+name+"` |") {
			t.Errorf("KEYS.md lacks %s", s.key)
		}
	}
	if *update {
		if err := os.WriteFile("KEYS.md", []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile("KEYS.md")
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != got {
		t.Error("KEYS.md is out of date: run go test ./internal/engine/config -run TestKeysDoc -update")
	}
}

// FuzzLoad: no document makes the loader panic, and a document that
// loads renders every key.
func FuzzLoad(f *testing.F) {
	f.Add("[clean]\nmode = \"automatic\"\n[commands]\ntest = \"go test ./...\"\n")
	f.Add("clean = { validation = \"tests\", exclude = [\"a/**\"] }\n")
	f.Add("[wash]\nlocal_only = true\nfat_arm_tokens = 10\nfat_disarm_tokens = 1\n")
	f.Fuzz(func(t *testing.T, doc string) {
		p := filepath.Join(t.TempDir(), ProjectFile)
		if err := os.WriteFile(p, []byte(doc), 0o600); err != nil {
			t.Fatal(err)
		}
		cfg, _, err := LoadFiles("", p)
		if err != nil {
			if cfg != nil {
				t.Fatal("config returned with an error")
			}
			return
		}
		if len(cfg.Settings()) != len(specs()) {
			t.Fatal("a key is missing from the settings")
		}
	})
}

func TestPositionsOfNestedForms(t *testing.T) {
	u, p := files(t, "", `# comment

clean = { mode = "manual",
  colour = "red" }
wash.lokal_only = true
[commands]
test.argv = ["x"]
`)
	_, warns, err := LoadFiles(u, p)
	if err == nil {
		t.Fatal("commands.test as a table was accepted")
	}
	var ce *Error
	if !errors.As(err, &ce) || ce.Key != "commands.test" || ce.Line != 7 || ce.Col != 1 {
		t.Errorf("err = %v; want commands.test at 7:1", err)
	}
	want := []Warning{
		{File: p, Line: 4, Key: "clean.colour", Msg: "unknown key, ignored"},
		{File: p, Line: 5, Key: "wash.lokal_only", Msg: `unknown key, ignored; did you mean "local_only"?`},
	}
	if !reflect.DeepEqual(warns, want) {
		t.Errorf("warnings = %v; want %v", warns, want)
	}
}

// BenchmarkLoad is the cost every hook invocation pays to read both files.
func BenchmarkLoad(b *testing.B) {
	dir := b.TempDir()
	u := filepath.Join(dir, "user.toml")
	p := filepath.Join(dir, ProjectFile)
	os.WriteFile(u, []byte("[clean]\nprofile = \"strict\"\nexclude = [\"vendor/**\"]\n[wash]\nlocal_only = true\n"), 0o600)
	os.WriteFile(p, []byte("[clean]\nmode = \"automatic\"\nvalidation = \"tests\"\n[commands]\ntest = \"go test ./...\"\nbuild = [\"go\", \"build\", \"./...\"]\n"), 0o600)
	for b.Loop() {
		if _, _, err := LoadFiles(u, p); err != nil {
			b.Fatal(err)
		}
	}
}

func TestRewriteEndpointMustBeLoopback(t *testing.T) {
	for endpoint, ok := range map[string]bool{
		"http://127.0.0.1:11500": true,
		"http://localhost:11434": true,
		"http://10.1.2.3:11434":  false,
		"http://ollama.lan":      false,
	} {
		root := t.TempDir()
		os.WriteFile(filepath.Join(root, ".prosewash.toml"), []byte("[clean]\nrewrite_endpoint = \""+endpoint+"\"\n"), 0o644)
		cfg, _, err := Load(root, func(string) string { return "" }, t.TempDir())
		if ok && (err != nil || cfg.Clean.RewriteEndpoint != endpoint) {
			t.Errorf("%s: %v", endpoint, err)
		}
		if !ok && (err == nil || !strings.Contains(err.Error(), "not loopback") || !strings.Contains(err.Error(), ".prosewash.toml:2")) {
			t.Errorf("%s accepted or badly reported: %v", endpoint, err)
		}
	}
}

// Editors on Windows save UTF-8 with a byte order mark; TOML forbids none
// and the file is otherwise valid, so it loads, and a later error still
// points at the column an editor shows (the mark is not a character).
func TestByteOrderMark(t *testing.T) {
	u, p := files(t, "\uFEFF[clean]\nmode = \"confirm\"\n", "\uFEFF[clean]\nprofile = \"strict\"\n")
	cfg, _, err := LoadFiles(u, p)
	if err != nil {
		t.Fatalf("a BOM must be accepted: %v", err)
	}
	if cfg.Clean.Profile != carrier.Strict || cfg.CleanMode() != ModeConfirm {
		t.Fatalf("values lost behind the BOM: profile %v mode %v", cfg.Clean.Profile, cfg.CleanMode())
	}
	_, p = files(t, "", "\uFEFF[clean\n")
	_, _, err = LoadFiles("", p)
	var ce *Error
	if !errors.As(err, &ce) || ce.Line != 1 || strings.Contains(err.Error(), "ï") {
		t.Fatalf("error after a BOM: %v", err)
	}
}

func TestArchiveDirMustBeAbsolute(t *testing.T) {
	u, p := files(t, "", "[wash]\narchive_dir = \"transcripts\"\n")
	if _, _, err := LoadFiles(u, p); err == nil || !strings.Contains(err.Error(), "archive_dir") || !strings.Contains(err.Error(), "absolute") {
		t.Fatalf("relative archive_dir: err = %v", err)
	}
}
