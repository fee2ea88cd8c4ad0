package install

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/jsonc"
)

// The Copilot CLI loads a project's .github/hooks only in a trusted
// folder: nothing fires elsewhere, and nothing says so. A folder is trusted
// when it or one of its parents is listed in trustedFolders of the config
// file the CLI manages, $COPILOT_HOME/config.json (default
// ~/.copilot/config.json; JSON with comments), or for one prompt-mode
// session by --trust-folder. Verified against copilot 1.0.102 offline:
// trustedFolders in settings.json is ignored ("unknown top-level key"),
// the folder itself and a parent both trust it (internal/hooks/agent/e2e).

// CopilotHome is the Copilot CLI's configuration directory:
// $COPILOT_HOME, else ~/.copilot (XDG_CONFIG_HOME is not read).
func CopilotHome(getenv func(string) string, home string) string {
	if d := getenv("COPILOT_HOME"); d != "" {
		return d
	}
	return filepath.Join(home, ".copilot")
}

// CopilotTrust reports whether the Copilot CLI trusts root, reading
// copilotHome's config.json: the trusted folder that covers root, or ""
// when none does (a missing file trusts nothing). An unreadable or
// malformed file is an error naming it: the answer is then unknown.
func CopilotTrust(copilotHome, root string) (by string, err error) {
	path := filepath.Join(copilotHome, "config.json")
	data, err := fsx.ReadRegular(path, maxConfig, true)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	strict, err := jsonc.ToJSON(data)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	var cfg struct {
		TrustedFolders []string `json:"trustedFolders"`
	}
	if err := json.Unmarshal(strict, &cfg); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	for _, dir := range folderForms(root) {
		for _, f := range cfg.TrustedFolders {
			for _, t := range folderForms(f) {
				if within(dir, t) {
					return f, nil
				}
			}
		}
	}
	return "", nil
}

// folderForms is a folder as written and with its symbolic links
// resolved: either spelling may be the one in the list.
func folderForms(p string) []string {
	if !filepath.IsAbs(p) {
		return nil
	}
	out := []string{filepath.Clean(p)}
	if r, err := filepath.EvalSymlinks(p); err == nil && r != out[0] {
		out = append(out, r)
	}
	return out
}

// within reports whether dir is parent or below it.
func within(dir, parent string) bool {
	rel, err := filepath.Rel(parent, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
