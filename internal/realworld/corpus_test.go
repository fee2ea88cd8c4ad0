package realworld

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/engine/region"
	"github.com/prosewash/prosewash/internal/testtool"
)

// The corpora are real third-party files from the registries CI reaches,
// chosen to differ from the ones each classifier's own tests read
// (internal/engine/region/*_test.go: GOROOT, the Python stdlib, TypeScript's lib,
// React, a TSX router, RxJS, jQuery, BuildKit, bash-completion, debhelper,
// devscripts, dash, a dozen Rust crates' manifests, toml-test).

// npmCorpus are JavaScript and TypeScript packages: sources with JSDoc,
// compiled and bundled dist files, .d.ts, package.json and the READMEs and
// docs they ship.
var npmCorpus = []string{
	"vue@3.5.45", "svelte@5.57.3", "lodash-es@4.18.1", "date-fns@4.4.0", "zod@4.6.7",
	"three@0.187.0", "@angular/core@22.2.6", "prettier@3.10.1",
}

// debianPython ship pure-Python libraries (pygments' lexers are full of
// non-ASCII text in strings and comments).
var debianPython = []string{
	"python3-pygments", "python3-jinja2", "python3-docutils", "python3-setuptools", "python3-requests",
}

// debianShell ship shell scripts: git's shell commands and merge tools,
// initramfs hooks, xdg-utils, ucf and neofetch (one 10,000-line bash script).
var debianShell = []string{"git", "initramfs-tools-core", "xdg-utils", "ucf", "neofetch"}

// debianCrates ship Rust crates: their sources and manifests (Cargo.toml
// and the commented original, Cargo.toml.orig), other crates than the
// TOML and Rust classifiers' tests read.
var debianCrates = []string{
	"librust-itertools-dev", "librust-bytes-dev", "librust-once-cell-dev",
	"librust-thiserror-dev", "librust-chrono-dev", "librust-serde-json-dev", "librust-indexmap-dev",
	"librust-hashbrown-dev", "librust-bitflags-dev", "librust-smallvec-dev", "librust-cfg-if-dev",
	"librust-proc-macro2-dev", "librust-quote-dev", "librust-num-traits-dev", "librust-base64-dev",
	"librust-getrandom-dev", "librust-unicode-ident-dev", "librust-crossbeam-utils-dev",
	"librust-rayon-dev", "librust-semver-dev", "librust-walkdir-dev", "librust-tempfile-dev",
}

// debianDocAttrCrates ship Rust sources that build their docs from
// #[doc = "..."], #[cfg_attr(..., doc = "...")] (nix, paste, textwrap,
// zerocopy, clap's derive and completion crates) and #![doc =
// include_str!(...)]: crates no classifier test reads.
var debianDocAttrCrates = []string{
	"librust-nix-dev", "librust-clap-derive-dev", "librust-clap-complete-dev", "librust-paste-dev",
	"librust-textwrap-dev", "librust-zerocopy-dev",
}

// goModules are Go modules fetched through the module proxy: Go sources
// (golang.org/x/text's are rich in non-ASCII), kaniko's integration
// Dockerfiles, Prometheus's configuration YAML (valid and deliberately
// broken) and the modules' workflows and docs.
var goModules = []string{
	"github.com/GoogleContainerTools/kaniko@v1.23.2", "golang.org/x/text@v0.41.0",
	"github.com/spf13/cobra@v1.10.1", "github.com/stretchr/testify@v1.11.1",
	"github.com/prometheus/prometheus@v0.54.1",
}

// entry is one corpus file: where it is and the path it gets in the test
// repository (its last directories and name, so name-based rules such as
// tsconfig.json, .vscode/ or testdata/ still apply).
type entry struct {
	src, name string
}

// files returns the regular files under root accepted by keep, named by
// their path relative to root.
func files(root string, keep func(rel string) bool) []entry {
	var out []entry
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err == nil && keep(filepath.ToSlash(rel)) {
			out = append(out, entry{src: p, name: tail(rel)})
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].src < out[j].src })
	return out
}

// tail keeps the last three elements of a relative path.
func tail(rel string) string {
	parts := strings.Split(filepath.ToSlash(rel), "/")
	if len(parts) > 3 {
		parts = parts[len(parts)-3:]
	}
	return strings.Join(parts, "/")
}

func langOf(rel string) string { return region.Language(rel, nil) }

func npmRoot(t *testing.T) string {
	return filepath.Join(testtool.NPM(t, npmCorpus...), "node_modules")
}

func goModuleFiles(t *testing.T, keep func(rel string) bool) []entry {
	var out []entry
	for _, m := range goModules {
		out = append(out, files(testtool.GoModule(t, m), keep)...)
	}
	return out
}

func corpusPython(t *testing.T) []entry {
	return files(testtool.Debian(t, debianPython...), func(rel string) bool {
		return strings.HasPrefix(rel, "usr/lib/python3/") && langOf(rel) == "python"
	})
}

func corpusGo(t *testing.T) []entry {
	return goModuleFiles(t, func(rel string) bool { return langOf(rel) == "go" })
}

func corpusMarkdown(t *testing.T) []entry {
	isDoc := func(rel string) bool { return langOf(rel) == "markdown" }
	out := files(npmRoot(t), isDoc)
	out = append(out, files(testtool.Debian(t, debianPython...), isDoc)...)
	return append(out, goModuleFiles(t, isDoc)...)
}

func corpusJS(t *testing.T) []entry {
	return files(npmRoot(t), func(rel string) bool {
		l := langOf(rel)
		return l == "javascript" || l == "typescript"
	})
}

func corpusJSON(t *testing.T) []entry {
	return files(npmRoot(t), func(rel string) bool {
		l := langOf(rel)
		return l == "json" || l == "jsonc"
	})
}

func corpusShell(t *testing.T) []entry {
	root := testtool.Debian(t, debianShell...)
	return files(root, func(rel string) bool {
		if strings.HasPrefix(rel, "usr/share/doc/") || strings.HasPrefix(rel, "usr/share/man/") {
			return false
		}
		if langOf(rel) == "shell" {
			return true
		}
		head := make([]byte, 128)
		f, err := os.Open(filepath.Join(root, rel))
		if err != nil {
			return false
		}
		n, _ := f.Read(head)
		f.Close()
		return region.Language(rel, head[:n]) == "shell"
	})
}

func corpusTOML(t *testing.T) []entry {
	out := files(testtool.Debian(t, debianCrates...), func(rel string) bool {
		return langOf(rel) == "toml" || strings.HasSuffix(rel, "/Cargo.toml.orig")
	})
	for i, e := range out {
		// Cargo.toml.orig is the manifest as written, comments and all.
		if strings.HasSuffix(e.name, ".orig") {
			out[i].name = strings.TrimSuffix(e.name, "Cargo.toml.orig") + "orig/Cargo.toml"
		}
	}
	return append(out, goModuleFiles(t, func(rel string) bool { return langOf(rel) == "toml" })...)
}

// corpusDockerfile takes every Dockerfile of the Go modules; kaniko's
// integration files are named Dockerfile_test_*, so each gets a directory
// of its own and the name Dockerfile.
func corpusDockerfile(t *testing.T) []entry {
	out := goModuleFiles(t, func(rel string) bool {
		base := strings.ToLower(filepath.Base(rel))
		return langOf(rel) == "dockerfile" || (strings.HasPrefix(base, "dockerfile") && !strings.HasSuffix(base, ".go"))
	})
	for i, e := range out {
		if langOf(e.name) != "dockerfile" {
			out[i].name = e.name + "/Dockerfile"
		}
	}
	return out
}

func corpusYAML(t *testing.T) []entry {
	return goModuleFiles(t, func(rel string) bool { return langOf(rel) == "yaml" })
}

func corpusRust(t *testing.T) []entry {
	return files(testtool.Debian(t, debianCrates...), func(rel string) bool { return langOf(rel) == "rust" })
}

// corpusRustDocAttr is every Rust file of debianDocAttrCrates that holds a
// doc attribute with a value.
func corpusRustDocAttr(t *testing.T) []entry {
	docAttr := regexp.MustCompile(`#!?\[(doc\s*=|cfg_attr\(.*\bdoc\s*=)`)
	var out []entry
	for _, e := range files(testtool.Debian(t, debianDocAttrCrates...), func(rel string) bool { return langOf(rel) == "rust" }) {
		if b, err := os.ReadFile(e.src); err == nil && docAttr.Match(b) {
			out = append(out, e)
		}
	}
	return out
}
