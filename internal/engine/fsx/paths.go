package fsx

import (
	"path/filepath"
	"strings"
)

// Inside reports whether p is root or below it, lexically: both must be
// clean absolute paths, already resolved if symlinks matter.
func Inside(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return false
	}
	return rel == "." || (!filepath.IsAbs(rel) && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)))
}

// Below reports whether p is strictly below root (Inside and not root).
func Below(root, p string) bool {
	return Inside(root, p) && filepath.Clean(p) != filepath.Clean(root)
}

// ResolveExisting resolves the longest existing prefix of p through
// symlinks and appends the rest, so containment can be checked for a path
// that does not exist (yet, or any more).
func ResolveExisting(p string) string {
	p = filepath.Clean(p)
	rest := ""
	for {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Join(p, rest)
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}
