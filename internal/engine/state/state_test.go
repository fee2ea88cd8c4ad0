package state

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestDirChoosesBase(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("unix base rules")
	}
	root := t.TempDir()
	tmp := t.TempDir()
	real, _ := filepath.EvalSymlinks(root)
	key := RepoKey(real)
	tests := []struct {
		name string
		env  map[string]string
		want string
	}{
		{"override", map[string]string{EnvStateDir: filepath.Join(tmp, "o"), "XDG_STATE_HOME": filepath.Join(tmp, "x"), "HOME": tmp},
			filepath.Join(tmp, "o", key)},
		{"xdg", map[string]string{"XDG_STATE_HOME": filepath.Join(tmp, "x"), "HOME": tmp},
			filepath.Join(tmp, "x", "prosewash", key)},
		{"relative xdg is ignored", map[string]string{"XDG_STATE_HOME": "rel", "HOME": tmp},
			filepath.Join(tmp, ".local", "state", "prosewash", key)},
		{"home", map[string]string{"HOME": tmp},
			filepath.Join(tmp, ".local", "state", "prosewash", key)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Dir(root, env(tc.env))
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want {
				t.Fatalf("Dir = %s, want %s", got, tc.want)
			}
			fi, err := os.Lstat(got)
			if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
				t.Fatalf("state dir %v %v", fi.Mode(), err)
			}
		})
	}
}

func TestDirRefusals(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("unix permission model")
	}
	root := t.TempDir()
	real, _ := filepath.EvalSymlinks(root)
	key := RepoKey(real)

	t.Run("no environment", func(t *testing.T) {
		if _, err := Dir(root, env(nil)); err == nil {
			t.Fatal("accepted an empty environment")
		}
	})
	t.Run("relative override", func(t *testing.T) {
		if _, err := Dir(root, env(map[string]string{EnvStateDir: "state"})); err == nil {
			t.Fatal("accepted a relative override")
		}
	})
	t.Run("inside the project", func(t *testing.T) {
		_, err := Dir(root, env(map[string]string{EnvStateDir: filepath.Join(root, ".state")}))
		if !errors.Is(err, ErrInsideRepo) {
			t.Fatalf("err = %v", err)
		}
		if _, err := os.Stat(filepath.Join(root, ".state")); !os.IsNotExist(err) {
			t.Fatal("created a directory inside the project before refusing")
		}
	})
	t.Run("inside the project through a symlink", func(t *testing.T) {
		outside := t.TempDir()
		link := filepath.Join(outside, "link")
		if err := os.Symlink(root, link); err != nil {
			t.Fatal(err)
		}
		if _, err := Dir(root, env(map[string]string{EnvStateDir: link})); !errors.Is(err, ErrInsideRepo) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("symlinked state dir", func(t *testing.T) {
		base := t.TempDir()
		elsewhere := t.TempDir()
		if err := os.Symlink(elsewhere, filepath.Join(base, key)); err != nil {
			t.Fatal(err)
		}
		_, err := Dir(root, env(map[string]string{EnvStateDir: base}))
		var ue *UnsafeDirError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), "symbolic link") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("not a directory", func(t *testing.T) {
		base := t.TempDir()
		if err := os.WriteFile(filepath.Join(base, key), nil, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Dir(root, env(map[string]string{EnvStateDir: base})); err == nil {
			t.Fatal("accepted a file as state dir")
		}
	})
	t.Run("world-writable parent", func(t *testing.T) {
		base := filepath.Join(t.TempDir(), "open")
		if err := os.Mkdir(base, 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(base, 0o777); err != nil {
			t.Fatal(err)
		}
		var ue *UnsafeDirError
		if _, err := Dir(root, env(map[string]string{EnvStateDir: base})); !errors.As(err, &ue) {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("owned by someone else", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("chown to another user needs root")
		}
		base := t.TempDir()
		d := filepath.Join(base, key)
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(d, 12345, 12345); err != nil {
			t.Fatal(err)
		}
		var ue *UnsafeDirError
		if _, err := Dir(root, env(map[string]string{EnvStateDir: base})); !errors.As(err, &ue) {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestDirTightensMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("unix permission model")
	}
	root := t.TempDir()
	real, _ := filepath.EvalSymlinks(root)
	base := t.TempDir()
	d := filepath.Join(base, RepoKey(real))
	if err := os.Mkdir(d, 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := Dir(root, env(map[string]string{EnvStateDir: base}))
	if err != nil || got != d {
		t.Fatalf("Dir = %s, %v", got, err)
	}
	if fi, _ := os.Lstat(d); fi.Mode().Perm() != 0o700 {
		t.Fatalf("mode %v", fi.Mode().Perm())
	}
}

func TestDirSameKeyThroughSymlink(t *testing.T) {
	root := t.TempDir()
	link := filepath.Join(t.TempDir(), "alias")
	if err := os.Symlink(root, link); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	e := env(map[string]string{EnvStateDir: t.TempDir()})
	a, err := Dir(root, e)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Dir(link, e)
	if err != nil || a != b {
		t.Fatalf("%s != %s (%v)", a, b, err)
	}
}

func TestRepoKey(t *testing.T) {
	shape := regexp.MustCompile(`^[a-z0-9._-]{1,40}-[0-9a-f]{16}$`)
	tests := []struct{ root, prefix string }{
		{"/home/u/My Proj", "my-proj-"},
		{"/home/u/prosewash", "prosewash-"},
		{"/home/u/日本語", "repo-"},
		{"/home/u/" + strings.Repeat("a", 80), strings.Repeat("a", 40) + "-"},
		{"/home/u/.dotted", "dotted-"},
		{"/", "repo-"},
	}
	seen := map[string]bool{}
	for _, tc := range tests {
		k := RepoKey(tc.root)
		if !strings.HasPrefix(k, tc.prefix) || !shape.MatchString(k) {
			t.Errorf("RepoKey(%q) = %q, want prefix %q", tc.root, k, tc.prefix)
		}
		if seen[k] {
			t.Errorf("duplicate key %s", k)
		}
		seen[k] = true
	}
	if RepoKey("/a/x") == RepoKey("/b/x") {
		t.Fatal("same key for different roots")
	}
}

func TestWriteFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "rec.json")
	for _, c := range []string{"{}", `{"a":1}`} {
		if err := WriteFile(p, []byte(c)); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(p)
		if err != nil || string(b) != c {
			t.Fatalf("read back %q %v", b, err)
		}
	}
	if fi, _ := os.Lstat(p); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", fi.Mode().Perm())
	}
}

func TestMkdirPrivate(t *testing.T) {
	d := filepath.Join(t.TempDir(), "a", "b")
	if err := MkdirPrivate(d); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(d); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o700 {
		t.Fatalf("mode %v", fi.Mode().Perm())
	}
}

func FuzzSlug(f *testing.F) {
	for _, s := range []string{"My Proj", "", "..", "a/b", "日本"} {
		f.Add(s)
	}
	ok := regexp.MustCompile(`^[a-z0-9._-]{1,40}$`)
	f.Fuzz(func(t *testing.T, s string) {
		got := slug(s)
		if !ok.MatchString(got) || strings.HasPrefix(got, "-") || strings.HasPrefix(got, ".") {
			t.Fatalf("slug(%q) = %q", s, got)
		}
	})
}
