package testtool

import (
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// Files returns up to n regular files under root whose names end in one of
// exts (".yml", ".rs"), spread evenly over the sorted list so a sample is
// stable across runs; n <= 0 means all of them. Symlinks are not followed.
func Files(t testing.TB, root string, n int, exts ...string) []string {
	t.Helper()
	var all []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		for _, e := range exts {
			if strings.HasSuffix(p, e) {
				all = append(all, p)
				break
			}
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walk %s: %v", root, err)
	}
	sort.Strings(all)
	if n <= 0 || len(all) <= n {
		return all
	}
	sample := make([]string, 0, n)
	for i := range n {
		sample = append(sample, all[i*len(all)/n])
	}
	return sample
}

// YAMLPackages are Debian packages that ship much real YAML (Ansible's
// collections: playbooks, roles, module metadata).
var YAMLPackages = []string{"ansible"}

// RustPackages are Debian packages of Rust crate sources (under
// usr/share/cargo/registry), chosen for their doc comments, doctests and
// literals; several ship their GitHub workflow files too.
var RustPackages = []string{
	"librust-anyhow-dev", "librust-log-dev", "librust-memchr-dev", "librust-nom-dev",
	"librust-regex-syntax-dev", "librust-serde-dev", "librust-syn-dev",
}
