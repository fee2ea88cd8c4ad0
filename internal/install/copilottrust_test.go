package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The Copilot CLI trusts a folder listed in trustedFolders and every
// folder under it (checked against copilot 1.0.102 in the e2e tests);
// these cases pin what install and status make of the file.
func TestCopilotTrust(t *testing.T) {
	base := t.TempDir()
	proj := filepath.Join(base, "work", "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(filepath.Join(base, "work"), link); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, config, root, want, err string
	}{
		{"no file", "", proj, "", ""},
		{"the folder", `{"trustedFolders":["` + proj + `"]}`, proj, proj, ""},
		{"a parent, with comments and a trailing comma", "// managed\n{\"trustedFolders\": [\"" + base + "\",],}", proj, base, ""},
		{"a sibling whose name is a prefix", `{"trustedFolders":["` + proj + `ect"]}`, proj, "", ""},
		{"a child of the folder", `{"trustedFolders":["` + filepath.Join(proj, "sub") + `"]}`, proj, "", ""},
		{"a relative entry", `{"trustedFolders":["work/proj"]}`, proj, "", ""},
		{"through a symbolic link", `{"trustedFolders":["` + link + `"]}`, proj, link, ""},
		{"the project through a link", `{"trustedFolders":["` + filepath.Join(base, "work") + `"]}`, filepath.Join(link, "proj"), filepath.Join(base, "work"), ""},
		{"after a byte order mark", "\xef\xbb\xbf{\"trustedFolders\":[\"" + proj + "\"]}", proj, proj, ""},
		{"other settings only", `{"firstLaunchAt":"2026-03-11T00:00:00.000Z"}`, proj, "", ""},
		{"malformed", `{"trustedFolders":[`, proj, "", "config.json"},
		{"not a list", `{"trustedFolders":"` + proj + `"}`, proj, "", "config.json"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			if tt.config != "" {
				if err := os.WriteFile(filepath.Join(home, "config.json"), []byte(tt.config), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			got, err := CopilotTrust(home, tt.root)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one naming %s", err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("CopilotTrust = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

func TestCopilotHome(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if got := CopilotHome(getenv, "/home/u"); got != "/home/u/.copilot" {
		t.Errorf("default: %s", got)
	}
	env["XDG_CONFIG_HOME"] = "/x"
	if got := CopilotHome(getenv, "/home/u"); got != "/home/u/.copilot" {
		t.Errorf("XDG_CONFIG_HOME is not Copilot's: %s", got)
	}
	env["COPILOT_HOME"] = "/c"
	if got := CopilotHome(getenv, "/home/u"); got != "/c" {
		t.Errorf("COPILOT_HOME: %s", got)
	}
}
