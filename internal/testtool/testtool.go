package testtool

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

// EnvRequire names the variable CI sets to the tools it installed: a comma
// list of tool names, or "all". A required tool that is missing fails the
// test instead of skipping it, so a broken install cannot turn real-tool
// tests into silent skips.
const EnvRequire = "PROSEWASH_REQUIRE_TOOLS"

// EnvCache overrides where installed tools and corpora are cached.
const EnvCache = "PROSEWASH_TOOL_CACHE"

// Required reports whether CI declared tool required.
func Required(tool string) bool {
	for _, v := range strings.Split(os.Getenv(EnvRequire), ",") {
		v = strings.TrimSpace(v)
		if v == "all" || v == tool {
			return true
		}
	}
	return false
}

// Missing ends a test that cannot run without tool: a skip naming what is
// missing and how to get it, or a failure when tool is required.
func Missing(t testing.TB, tool, why string) {
	t.Helper()
	if Required(tool) {
		t.Fatalf("%s is required (%s=%s) but unavailable: %s", tool, EnvRequire, os.Getenv(EnvRequire), why)
	}
	t.Skipf("%s unavailable: %s", tool, why)
}

// LookPath returns the absolute path of the program name, or ends the test
// through Missing with hint (how to install it).
func LookPath(t testing.TB, name, hint string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Missing(t, name, fmt.Sprintf("%v (%s)", err, hint))
	}
	return p
}

// Working is LookPath for a program that may be installed only halfway (a
// rustup proxy without a default toolchain answers every call with an
// error): it also runs the program with probe (e.g. --version) and ends the
// test through Missing, with the program's own message, when that fails.
func Working(t testing.TB, name, hint string, probe ...string) string {
	t.Helper()
	p := LookPath(t, name, hint)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, p, probe...).CombinedOutput()
	if err != nil {
		msg := strings.TrimSpace(string(out))
		if len(msg) > 300 {
			msg = msg[:300] + "..."
		}
		Missing(t, name, fmt.Sprintf("%s is on PATH but '%s %s' fails (%v: %s); %s", p, name, strings.Join(probe, " "), err, msg, hint))
	}
	return p
}

// CacheDir returns the directory tools and corpora are cached in, outside
// any repository: $PROSEWASH_TOOL_CACHE, else
// ${XDG_CACHE_HOME:-$HOME/.cache}/prosewash-ci/tools.
func CacheDir() (string, error) {
	if d := os.Getenv(EnvCache); d != "" {
		if !filepath.IsAbs(d) {
			return "", fmt.Errorf("%s is not absolute: %s", EnvCache, d)
		}
		return d, nil
	}
	base := os.Getenv("XDG_CACHE_HOME")
	if !filepath.IsAbs(base) {
		home, err := os.UserHomeDir()
		if err != nil || !filepath.IsAbs(home) {
			return "", fmt.Errorf("neither XDG_CACHE_HOME nor HOME is an absolute path")
		}
		base = filepath.Join(home, ".cache")
	}
	return filepath.Join(base, "prosewash-ci", "tools"), nil
}

// NPM installs the pinned npm packages (each "name@version", exact versions
// only) into a cache directory keyed by the list and returns that prefix:
// the packages are under prefix/node_modules. It needs node and npm and the
// npm registry; without them the test ends through Missing under the tool
// name "npm". Concurrent tests and processes share one install.
func NPM(t testing.TB, pkgs ...string) string {
	t.Helper()
	if len(pkgs) == 0 {
		t.Fatal("testtool.NPM: no packages named")
	}
	for _, p := range pkgs {
		at := strings.LastIndex(p, "@")
		if at <= 0 || at == len(p)-1 || strings.ContainsAny(p[at+1:], "^~<>*| ") {
			t.Fatalf("testtool.NPM: %q is not name@exact-version", p)
		}
	}
	if _, err := exec.LookPath("node"); err != nil {
		Missing(t, "npm", "node not found on PATH (apt-get install nodejs npm)")
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		Missing(t, "npm", "npm not found on PATH (apt-get install npm)")
	}
	sorted := append([]string(nil), pkgs...)
	sort.Strings(sorted)
	sum := sha256.Sum256([]byte(strings.Join(sorted, "\n")))
	dir, err := cached(t, "npm-"+hex.EncodeToString(sum[:8]), func(tmp string) error {
		args := append([]string{"install", "--prefix", tmp, "--no-audit", "--no-fund", "--no-save",
			"--ignore-scripts", "--loglevel=error", "--fetch-retries=2"}, sorted...)
		cmd := exec.Command(npm, args...)
		cmd.Dir = tmp
		out, err := cmd.CombinedOutput()
		if err != nil {
			return fmt.Errorf("npm install %s: %v\n%s", strings.Join(sorted, " "), err, out)
		}
		return nil
	})
	if err != nil {
		Missing(t, "npm", err.Error())
	}
	return dir
}

// Debian downloads the named Debian packages (apt-get download, no root
// needed) and extracts them into one cache directory, returned; the files
// sit under it as they would under /. Without apt-get, dpkg-deb or the
// archive the test ends through Missing under the tool name "apt".
func Debian(t testing.TB, pkgs ...string) string {
	t.Helper()
	if len(pkgs) == 0 {
		t.Fatal("testtool.Debian: no packages named")
	}
	for _, tool := range []string{"apt-get", "dpkg-deb"} {
		if _, err := exec.LookPath(tool); err != nil {
			Missing(t, "apt", tool+" not found on PATH (a Debian system is needed)")
		}
	}
	sorted := append([]string(nil), pkgs...)
	sort.Strings(sorted)
	sum := sha256.Sum256([]byte(strings.Join(sorted, "\n")))
	dir, err := cached(t, "deb-"+hex.EncodeToString(sum[:8]), func(tmp string) error {
		dl := filepath.Join(tmp, ".debs")
		if err := os.Mkdir(dl, 0o755); err != nil {
			return err
		}
		cmd := exec.Command("apt-get", append([]string{"download", "-q"}, sorted...)...)
		cmd.Dir = dl
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("apt-get download %s: %v\n%s", strings.Join(sorted, " "), err, out)
		}
		debs, _ := filepath.Glob(filepath.Join(dl, "*.deb"))
		if len(debs) == 0 {
			return fmt.Errorf("apt-get download %s fetched nothing", strings.Join(sorted, " "))
		}
		for _, d := range debs {
			if out, err := exec.Command("dpkg-deb", "-x", d, tmp).CombinedOutput(); err != nil {
				return fmt.Errorf("dpkg-deb -x %s: %v\n%s", filepath.Base(d), err, out)
			}
		}
		return os.RemoveAll(dl)
	})
	if err != nil {
		Missing(t, "apt", err.Error())
	}
	return dir
}

// cached returns cache/<key>, building it with fill into a temporary
// directory that is renamed into place only when fill succeeds, so an
// interrupted or failed install never looks complete. A lock file
// serialises concurrent builders.
func cached(t testing.TB, key string, fill func(tmp string) error) (string, error) {
	t.Helper()
	root, err := CacheDir()
	if err != nil {
		return "", err
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", err
	}
	dir := filepath.Join(root, key)
	if ok(dir) {
		markUsed(dir)
		return dir, nil
	}
	unlock, err := lock(filepath.Join(root, key+".lock"))
	if err != nil {
		return "", err
	}
	defer unlock()
	if ok(dir) {
		return dir, nil
	}
	tmp, err := os.MkdirTemp(root, "."+key+".tmp-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	start := time.Now()
	if err := fill(tmp); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(tmp, ".complete"), []byte(time.Now().UTC().Format(time.RFC3339)+"\n"), 0o644); err != nil {
		return "", err
	}
	_ = os.RemoveAll(dir)
	if err := os.Rename(tmp, dir); err != nil {
		return "", err
	}
	markUsed(dir)
	t.Logf("testtool: installed %s in %s", key, time.Since(start).Round(time.Millisecond))
	for _, gone := range pruneStale(root, time.Now().Add(-staleAfter)) {
		t.Logf("testtool: removed %s, unused for %s", gone, staleAfter)
	}
	return dir, nil
}

// staleAfter bounds the cache: an installed set no test has used for this
// long (its pins changed, say) is removed the next time a set is installed,
// so the cache holds about one copy of what the current tests pin.
const staleAfter = 30 * 24 * time.Hour

// markUsed records that a cache entry was used now.
func markUsed(dir string) {
	now := time.Now()
	p := filepath.Join(dir, ".used")
	if err := os.Chtimes(p, now, now); err != nil {
		_ = os.WriteFile(p, nil, 0o644)
	}
}

// pruneStale removes the complete entries of root last used before cutoff
// and returns their names. An entry is first renamed aside, so a test
// that looks it up meanwhile sees it missing (and installs it again), never
// half removed.
func pruneStale(root string, cutoff time.Time) []string {
	ents, err := os.ReadDir(root)
	if err != nil {
		return nil
	}
	var gone []string
	for _, e := range ents {
		dir := filepath.Join(root, e.Name())
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") || !ok(dir) {
			continue
		}
		used, err := os.Stat(filepath.Join(dir, ".used"))
		if err != nil {
			used, err = os.Stat(filepath.Join(dir, ".complete"))
		}
		if err != nil || used.ModTime().After(cutoff) {
			continue
		}
		aside := filepath.Join(root, "."+e.Name()+".stale")
		if os.Rename(dir, aside) == nil {
			_ = os.RemoveAll(aside)
			_ = os.Remove(dir + ".lock")
			gone = append(gone, e.Name())
		}
	}
	return gone
}

func ok(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, ".complete"))
	return err == nil
}

// GOROOT returns the Go installation the go command on PATH uses (its
// sources are a real corpus wherever tests run), or ends the test through
// Missing under the tool name "go".
func GOROOT(t testing.TB) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		Missing(t, "go", "the go command is not on PATH")
	}
	out, err := exec.Command(goBin, "env", "GOROOT").Output()
	if err != nil {
		Missing(t, "go", fmt.Sprintf("go env GOROOT: %v", err))
	}
	return strings.TrimSpace(string(out))
}

// RepoRoot returns the root of the prosewash module the test runs in (the
// directory holding go.mod), for fixtures under testdata/ shared by several
// packages.
func RepoRoot(t testing.TB) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for d := wd; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if d == filepath.Dir(d) {
			t.Fatalf("no go.mod above %s", wd)
		}
	}
}

// MemoryCorpus returns the development corpus of real memory and
// instruction files (testdata/corpus/memory, provenance in its index.tsv),
// or $PROSEWASH_MEMORY_CORPUS when set (another corpus of the same layout).
func MemoryCorpus(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("PROSEWASH_MEMORY_CORPUS"); d != "" {
		return d
	}
	return filepath.Join(RepoRoot(t), "testdata", "corpus", "memory")
}

// GoModule downloads the Go module mod ("path@version", exact version)
// through the module proxy (go mod download) and returns its directory in
// the module cache. Without the go command or the proxy the test ends
// through Missing under the tool name "go-module-proxy".
func GoModule(t testing.TB, mod string) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		Missing(t, "go-module-proxy", "the go command is not on PATH")
	}
	cmd := exec.Command(goBin, "mod", "download", "-json", mod)
	cmd.Dir = os.TempDir()
	cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GO111MODULE=on", "GOWORK=off")
	out, err := cmd.Output()
	var info struct{ Dir, Error string }
	if err == nil {
		err = json.Unmarshal(out, &info)
	}
	if err != nil || info.Dir == "" {
		Missing(t, "go-module-proxy", fmt.Sprintf("go mod download %s: %v %s", mod, err, info.Error))
	}
	return info.Dir
}

// GoTool builds the Go command pkg ("module/path/cmd/name@exact-version")
// with go install into the cache outside the repository and returns the
// binary's path. Without the go command or the module proxy the test ends
// through Missing under the tool name "go-module-proxy".
func GoTool(t testing.TB, pkg string) string {
	t.Helper()
	at := strings.LastIndex(pkg, "@")
	if at <= 0 || !strings.HasPrefix(pkg[at+1:], "v") {
		t.Fatalf("testtool.GoTool: %q is not path@exact-version", pkg)
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		Missing(t, "go-module-proxy", "the go command is not on PATH")
	}
	sum := sha256.Sum256([]byte(pkg))
	dir, err := cached(t, "go-"+path.Base(pkg[:at])+"-"+hex.EncodeToString(sum[:8]), func(tmp string) error {
		cmd := exec.Command(goBin, "install", pkg)
		cmd.Dir = tmp
		cmd.Env = append(os.Environ(), "GOBIN="+tmp, "GOFLAGS=-mod=mod", "GO111MODULE=on", "GOWORK=off", "CGO_ENABLED=0")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go install %s: %v\n%s", pkg, err, out)
		}
		return nil
	})
	if err != nil {
		Missing(t, "go-module-proxy", err.Error())
	}
	return filepath.Join(dir, path.Base(pkg[:at]))
}
