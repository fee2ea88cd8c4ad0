package provider

import (
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/prosewash/prosewash/internal/engine/tomlx"
)

const goodDef = `
schema = "prosewash-provider/1"
id = "custom/shout"
version = "1.0"
command = ["python3", "${provider_dir}/shout.py"]

[operations.clean]
role = "transform"
capability = "unicode"
regions = "prose"
deterministic = true
`

func TestParseDefinitionAccepts(t *testing.T) {
	d, err := ParseDefinition(".prosewash/providers/shout.toml", []byte(goodDef), false)
	if err != nil {
		t.Fatal(err)
	}
	if d.IO != "stdio" || d.Timeout != 120 || d.Locality != "local" {
		t.Errorf("defaults not applied: io=%q timeout=%d locality=%q", d.IO, d.Timeout, d.Locality)
	}
	op := d.Operations["clean"]
	if op == nil || op.Name != "clean" || d.Ref(op) != "custom/shout:clean" {
		t.Fatalf("operation not named: %+v", op)
	}
}

func TestParseDefinitionRefuses(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(string) string
		shipped bool
		want    string // substring of the error, which must also name the file
	}{
		{"wrong schema", repl(`prosewash-provider/1`, `prosewash-provider/9`), false, "schema: must be"},
		{"custom without namespace", repl(`custom/shout`, `shout`), false, "must be custom/<name>"},
		{"shipped with namespace", func(s string) string { return s }, true, "invalid id"},
		{"missing version", repl(`version = "1.0"`, ``), false, "version: missing"},
		{"remote locality", repl(`version = "1.0"`, "version = \"1\"\nlocality = \"remote\""), false, "only local providers"},
		{"bad io", repl(`version = "1.0"`, "version = \"1\"\nio = \"socket\""), false, "io: must be stdio or files"},
		{"timeout too long", repl(`version = "1.0"`, "version = \"1\"\ntimeout = 99999"), false, "timeout: must be"},
		{"no command", repl(`command = ["python3", "${provider_dir}/shout.py"]`, ``), false, "command: missing"},
		{"shell pipe", repl(`"${provider_dir}/shout.py"]`, `"x.py", "|", "tee"]`), false, "shell operator"},
		{"shell and", repl(`"${provider_dir}/shout.py"]`, `"x.py", "&&", "rm"]`), false, "shell operator"},
		{"command substitution", repl(`"${provider_dir}/shout.py"]`, `"$(whoami)"]`), false, "command substitution"},
		{"allow remote", repl(`"${provider_dir}/shout.py"]`, `"x.py", "--allow-remote"]`), false, "--allow-remote is refused"},
		{"unknown variable", repl(`${provider_dir}`, `${home}`), false, "unknown variable ${home}"},
		{"remote url in argv", repl(`"${provider_dir}/shout.py"]`, `"x.py", "--base-url", "http://10.0.0.5:11434"]`), false, "not loopback"},
		{"remote endpoint", repl(`version = "1.0"`, "version = \"1\"\nendpoint = \"http://example.com:11434\""), false, "endpoint: URL"},
		{"no operations", cut(`[operations.clean]`), false, "at least one operation"},
		{"bad role", repl(`role = "transform"`, `role = "rewrite"`), false, "role: must be inspect, transform or validate"},
		{"unknown capability", repl(`capability = "unicode"`, `capability = "unicod"`), false, "unknown capability \"unicod\""},
		{"bad regions", repl(`regions = "prose"`, `regions = "comments"`), false, "regions: must be prose, runtime or any"},
		{"missing regions", repl(`regions = "prose"`, ``), false, "regions: missing"},
		{"unknown field", repl(`deterministic = true`, "deterministic = true\ncolour = \"red\""), false, "unknown key"},
		{"wrong type", repl(`deterministic = true`, `deterministic = "yes"`), false, "expected a boolean"},
		{"malformed toml", repl(`version = "1.0"`, `version = `), false, ".toml:4:"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseDefinition(".prosewash/providers/shout.toml", []byte(tc.edit(goodDef)), tc.shipped)
			if err == nil {
				t.Fatal("accepted")
			}
			if !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "shout.toml") {
				t.Fatalf("error %q does not contain %q and the file name", err, tc.want)
			}
		})
	}
}

func TestParseDefinitionUnknownKeyNamesLine(t *testing.T) {
	_, err := ParseDefinition("p.toml", []byte(goodDef+"\nbogus = 1\n"), false)
	var te tomlx.Errors
	if !errors.As(err, &te) || len(te) != 1 || te[0].Line != 13 || te[0].Key != "operations.clean.bogus" {
		t.Fatalf("want one unknown-key error at line 13 naming operations.clean.bogus, got %v", err)
	}
}

func TestLoadSetRefusesCollisions(t *testing.T) {
	shipped := fstest.MapFS{"shout.toml": {Data: []byte(strings.ReplaceAll(goodDef, "custom/shout", "shout"))}}
	custom := fstest.MapFS{"shout.toml": {Data: []byte(goodDef)}}
	if _, err := LoadSet(shipped, custom, ".prosewash/providers"); err == nil || !strings.Contains(err.Error(), "collides with the shipped provider") {
		t.Fatalf("collision not refused: %v", err)
	}
	dup := fstest.MapFS{"a.toml": {Data: []byte(goodDef)}, "b.toml": {Data: []byte(goodDef)}}
	if _, err := LoadSet(nil, dup, ".prosewash/providers"); err == nil || !strings.Contains(err.Error(), "already defined") {
		t.Fatalf("duplicate not refused: %v", err)
	}
	s, err := LoadSet(shipped, fstest.MapFS{"other.toml": {Data: []byte(strings.ReplaceAll(goodDef, "custom/shout", "custom/other"))}}, "p")
	if err != nil {
		t.Fatal(err)
	}
	if d, ok := s.Lookup("custom/other"); !ok || d.Shipped {
		t.Fatal("custom provider not loaded as custom")
	}
	if d, ok := s.Lookup("shout"); !ok || !d.Shipped || d.Source != "shipped" {
		t.Fatal("shipped provider not loaded as shipped")
	}
}

func TestCheckLoopbackURL(t *testing.T) {
	for u, ok := range map[string]bool{
		"http://127.0.0.1:11434":   true,
		"http://localhost:11434/x": true,
		"http://[::1]:8080":        true,
		"http://127.0.0.2":         true,
		"https://127.0.0.1":        true,
		"http://192.168.1.2:11434": false,
		"http://example.com":       false,
		"ftp://127.0.0.1":          false,
		"http://localhost.evil.io": false,
		"http://0.0.0.0:11434":     false,
	} {
		if err := CheckLoopbackURL(u); (err == nil) != ok {
			t.Errorf("%s: got %v, want ok=%v", u, err, ok)
		}
	}
}

func TestExpand(t *testing.T) {
	got, err := Expand([]string{"${prosewash}", "provider", "--profile=${profile}"}, map[string]string{"prosewash": "/bin/pw", "profile": "strict"})
	if err != nil || strings.Join(got, " ") != "/bin/pw provider --profile=strict" {
		t.Fatalf("got %q, %v", got, err)
	}
	if _, err := Expand([]string{"${model}"}, map[string]string{}); err == nil || !strings.Contains(err.Error(), "${model}") {
		t.Fatalf("unset variable not refused: %v", err)
	}
}

func repl(old, new string) func(string) string {
	return func(s string) string {
		if !strings.Contains(s, old) {
			panic("test edit does not apply: " + old)
		}
		return strings.Replace(s, old, new, 1)
	}
}

func cut(from string) func(string) string {
	return func(s string) string { return s[:strings.Index(s, from)] }
}
