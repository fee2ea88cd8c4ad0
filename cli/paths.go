package cli

import (
	"os"
	"path/filepath"
)

// userPath resolves a path the user typed. Under a git alias ("git
// clean-prose") git runs us from the top of the work tree and says in
// GIT_PREFIX where the user was.
func userPath(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	if prefix := os.Getenv("GIT_PREFIX"); prefix != "" {
		return filepath.Join(prefix, p)
	}
	return p
}
