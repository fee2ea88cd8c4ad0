package testtool

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRequired(t *testing.T) {
	t.Setenv(EnvRequire, "git, npm")
	if !Required("npm") || !Required("git") || Required("rg") {
		t.Fatalf("Required misreads %q", os.Getenv(EnvRequire))
	}
	t.Setenv(EnvRequire, "all")
	if !Required("anything") {
		t.Fatal("all does not require everything")
	}
	t.Setenv(EnvRequire, "")
	if Required("git") {
		t.Fatal("nothing set, yet git is required")
	}
}

func TestCachedBuildsOnceAndNeverHalf(t *testing.T) {
	t.Setenv(EnvCache, t.TempDir())
	calls := 0
	fail := func(tmp string) error {
		calls++
		os.WriteFile(filepath.Join(tmp, "half"), nil, 0o644)
		return os.ErrInvalid
	}
	if _, err := cached(t, "k", fail); err == nil {
		t.Fatal("a failed fill was reported as success")
	}
	root, _ := CacheDir()
	if _, err := os.Stat(filepath.Join(root, "k")); err == nil {
		t.Fatal("a failed fill left a directory in place")
	}
	fill := func(tmp string) error {
		calls++
		return os.WriteFile(filepath.Join(tmp, "x"), []byte("1"), 0o644)
	}
	for i := 0; i < 2; i++ {
		dir, err := cached(t, "k", fill)
		if err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(filepath.Join(dir, "x")); string(b) != "1" {
			t.Fatalf("cached dir lacks its content")
		}
	}
	if calls != 2 {
		t.Fatalf("fill ran %d times, want 2 (one failure, one build)", calls)
	}
}

func TestNPMInstallsPinnedPackage(t *testing.T) {
	dir := NPM(t, "is-number@7.0.0")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "is-number", "package.json")); err != nil {
		t.Fatalf("is-number not installed under %s: %v", dir, err)
	}
}
