package install

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"
)

func TestSetMode(t *testing.T) {
	tests := []struct {
		name   string
		before string // "-" means no file
		mode   string
		after  string
		act    Action
	}{
		{"no file", "-", "automatic", "[clean]\nmode = \"automatic\"\n", Installed},
		{"empty file", "", "manual", "[clean]\nmode = \"manual\"\n", Updated},
		{"other tables", "# mine\n[wash]\nmode = \"auto\"\n", "confirm",
			"# mine\n[wash]\nmode = \"auto\"\n\n[clean]\nmode = \"confirm\"\n", Updated},
		{"no trailing newline", "[wash]\nmode = \"off\"", "manual",
			"[wash]\nmode = \"off\"\n\n[clean]\nmode = \"manual\"\n", Updated},
		{"replace keeps comment and layout", "[clean]\n  mode   =   'manual'   # asked\ninclude = [\"a\"]\n", "automatic",
			"[clean]\n  mode   =   \"automatic\"   # asked\ninclude = [\"a\"]\n", Updated},
		{"insert under header", "top = 1\n[clean] # lane\npipeline = \"safe\"\n\n[wash]\nmode = \"auto\"\n", "confirm",
			"top = 1\n[clean] # lane\nmode = \"confirm\"\npipeline = \"safe\"\n\n[wash]\nmode = \"auto\"\n", Updated},
		{"spaced header", "[ clean ]\nmode = \"manual\"\n", "confirm", "[ clean ]\nmode = \"confirm\"\n", Updated},
		{"dotted key", "clean.mode = \"manual\"\n[wash]\nmode = \"auto\"\n", "automatic",
			"clean.mode = \"automatic\"\n[wash]\nmode = \"auto\"\n", Updated},
		{"crlf", "[clean]\r\npipeline = \"safe\"\r\n", "manual", "[clean]\r\nmode = \"manual\"\r\npipeline = \"safe\"\r\n", Updated},
		{"multi-line string is not a table", "note = \"\"\"\n[clean]\nmode = \"x\"\n\"\"\"\n", "manual",
			"note = \"\"\"\n[clean]\nmode = \"x\"\n\"\"\"\n\n[clean]\nmode = \"manual\"\n", Updated},
		{"mode in a multi-line string", "[clean]\nx = '''\nmode = \"y\"\n'''\n", "automatic",
			"[clean]\nmode = \"automatic\"\nx = '''\nmode = \"y\"\n'''\n", Updated},
		{"unchanged", "[clean]\nmode = \"confirm\"\n", "confirm", "[clean]\nmode = \"confirm\"\n", Unchanged},
		{"byte order mark kept", "\ufeff[clean]\nmode = \"manual\"\n", "confirm", "\ufeff[clean]\nmode = \"confirm\"\n", Updated},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			p := filepath.Join(root, ConfigFile)
			if tt.before != "-" {
				os.WriteFile(p, []byte(tt.before), 0o640)
			}
			act, err := SetMode(root, tt.mode)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(p)
			if string(got) != tt.after || act != tt.act {
				t.Errorf("got %s %q, want %s %q", act, got, tt.act, tt.after)
			}
			if tt.before != "-" && tt.act != Unchanged {
				if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o640 {
					t.Errorf("mode bits %v, want 0640 kept", fi.Mode().Perm())
				}
			}
		})
	}
}

func TestSetModeRefuses(t *testing.T) {
	for name, before := range map[string]string{
		"invalid TOML":    "[clean\nmode = 1\n",
		"inline table":    "clean = { mode = \"manual\" }\n",
		"clean not table": "clean = 3\n",
	} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			p := filepath.Join(root, ConfigFile)
			os.WriteFile(p, []byte(before), 0o644)
			act, err := SetMode(root, "automatic")
			got, _ := os.ReadFile(p)
			if string(got) != before {
				t.Fatalf("file changed to %q (act %s, err %v)", got, act, err)
			}
			if err == nil {
				// Allowed only when the edit was provably right.
				t.Fatalf("no error for %q", before)
			}
		})
	}
}

// FuzzSetMode: whatever the file, SetMode either leaves it untouched with
// an error, or changes exactly [clean] mode (checked by parsing both) and a
// second call changes nothing.
func FuzzSetMode(f *testing.F) {
	for _, s := range []string{"", "[clean]\nmode = \"manual\"\n", "a = 1\n[clean]\n", "clean.mode='x'\n", "[wash]\nmode=\"auto\"\n[clean]\r\n", "s = \"\"\"\n[clean]\n\"\"\"\n"} {
		f.Add(s, uint8(0))
	}
	modes := []string{"automatic", "confirm", "manual"}
	f.Fuzz(func(t *testing.T, before string, m uint8) {
		mode := modes[int(m)%3]
		root := t.TempDir()
		p := filepath.Join(root, ConfigFile)
		if err := os.WriteFile(p, []byte(before), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := SetMode(root, mode)
		got, _ := os.ReadFile(p)
		if err != nil {
			if string(got) != before {
				t.Fatalf("error %v but the file changed", err)
			}
			return
		}
		var b, a map[string]any
		if toml.Unmarshal([]byte(before), &b) != nil || toml.Unmarshal(got, &a) != nil {
			t.Fatalf("accepted unparsable TOML: before %q after %q", before, got)
		}
		c, _ := a["clean"].(map[string]any)
		if c == nil || c["mode"] != mode {
			t.Fatalf("mode not set: %q", got)
		}
		delete(c, "mode")
		if len(c) == 0 {
			delete(a, "clean")
		}
		if bc, ok := b["clean"].(map[string]any); ok {
			delete(bc, "mode")
			if len(bc) == 0 {
				delete(b, "clean")
			}
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("other keys changed: before %q after %q", before, got)
		}
		if !strings.Contains(string(got), mode) {
			t.Fatalf("mode missing in text: %q", got)
		}
		act, err := SetMode(root, mode)
		if err != nil || act != Unchanged {
			t.Fatalf("second SetMode: %s %v, want unchanged", act, err)
		}
	})
}
