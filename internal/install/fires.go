package install

import (
	"fmt"
	"path/filepath"
)

// Installed reports whether root's configuration file for the platform
// holds prosewash's hooks.
func (a Agent) Installed(root string) bool {
	cur, existed, err := readConfig(filepath.Join(root, filepath.FromSlash(a.File())))
	return err == nil && existed && a.holdsOurs(cur)
}

// Silenced says why the platform will not run the hooks installed in
// root, where its own configuration can tell (a folder it does not trust),
// or "" when nothing known stops them. getenv and home locate the
// platform's user configuration.
func (a Agent) Silenced(getenv func(string) string, home, root string) string {
	switch a.Name {
	case "copilot":
		ch := CopilotHome(getenv, home)
		by, err := CopilotTrust(ch, root)
		if err != nil {
			return fmt.Sprintf("cannot tell whether Copilot CLI trusts this folder: %v", err)
		}
		if by == "" {
			return fmt.Sprintf("Copilot CLI loads .github/hooks only in a trusted folder, and %s is not under any of trustedFolders in %s: "+
				"accept its trust prompt when it starts here (or pass --trust-folder to one 'copilot -p' run)", root, filepath.Join(ch, "config.json"))
		}
	case "codex":
		ch := CodexHome(getenv, home)
		if !CodexProjectTrusted(ch, root) {
			return fmt.Sprintf("Codex loads .codex/ only in a trusted project, and %s is not trusted in %s: accept its trust prompt when it starts here",
				root, filepath.Join(ch, "config.toml"))
		}
	}
	return ""
}
