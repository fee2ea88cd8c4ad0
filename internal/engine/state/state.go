package state

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/prosewash/prosewash/internal/engine/fsx"
)

// EnvStateDir names the variable that overrides where state lives. Its value
// is a base directory: the per-repository key is appended to it, so one
// setting can serve every repository without mixing their journals.
const EnvStateDir = "PROSEWASH_STATE_DIR"

// appName is the directory under XDG_STATE_HOME / LOCALAPPDATA.
const appName = "prosewash"

// ErrInsideRepo is returned when the state directory would live inside the
// project: journals and backups must never be committed, and a repository
// must never be able to ship a journal that recovery would act on.
var ErrInsideRepo = errors.New("state directory is inside the project")

// UnsafeDirError says the state directory exists but cannot be trusted.
type UnsafeDirError struct {
	Path   string
	Reason string
}

func (e *UnsafeDirError) Error() string {
	return fmt.Sprintf("%s: unsafe state directory: %s", e.Path, e.Reason)
}

// Dir returns the state directory of the project at root, creating it with
// mode 0700 (tightening a looser existing mode). The base is, in order:
// $PROSEWASH_STATE_DIR (must be absolute), %LOCALAPPDATA%\prosewash on
// Windows, $XDG_STATE_HOME/prosewash (when absolute, as the XDG spec
// requires), ~/.local/state/prosewash; the repository key (see RepoKey) is
// always appended. It refuses a directory that is a symlink, is owned by
// another user, sits in a world-writable parent without the sticky bit, or
// resolves inside root.
func Dir(root string, getenv func(string) string) (string, error) {
	real, err := realRoot(root)
	if err != nil {
		return "", err
	}
	base, err := Base(getenv)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(base, RepoKey(real))
	if fsx.Inside(real, fsx.ResolveExisting(dir)) {
		return "", fmt.Errorf("%s: %w %s; set %s to a directory outside it", dir, ErrInsideRepo, real, EnvStateDir)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create state directory: %w", err)
	}
	if err := secure(dir); err != nil {
		return "", err
	}
	resolved, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "", fmt.Errorf("resolve state directory: %w", err)
	}
	if fsx.Inside(real, resolved) {
		return "", fmt.Errorf("%s: %w %s; set %s to a directory outside it", dir, ErrInsideRepo, real, EnvStateDir)
	}
	return dir, nil
}

// Base returns the directory that holds every repository's state directory,
// without creating it.
func Base(getenv func(string) string) (string, error) {
	if v := getenv(EnvStateDir); v != "" {
		if !filepath.IsAbs(v) {
			return "", fmt.Errorf("%s=%q: must be an absolute path", EnvStateDir, v)
		}
		return filepath.Clean(v), nil
	}
	if runtime.GOOS == "windows" {
		if v := getenv("LOCALAPPDATA"); v != "" && filepath.IsAbs(v) {
			return filepath.Join(v, appName), nil
		}
		if v := getenv("USERPROFILE"); v != "" && filepath.IsAbs(v) {
			return filepath.Join(v, "AppData", "Local", appName), nil
		}
		return "", fmt.Errorf("no state directory: set %s or LOCALAPPDATA", EnvStateDir)
	}
	if v := getenv("XDG_STATE_HOME"); v != "" && filepath.IsAbs(v) {
		return filepath.Join(v, appName), nil
	}
	if v := getenv("HOME"); v != "" && filepath.IsAbs(v) {
		return filepath.Join(v, ".local", "state", appName), nil
	}
	return "", fmt.Errorf("no state directory: set %s, XDG_STATE_HOME or HOME", EnvStateDir)
}

// RepoKey names a project's state directory: a readable slug of the root's
// last element plus 16 hex digits of the SHA-256 of the whole path, e.g.
// "myproj-3f9a1c2b4d5e6f70". Pass the realpath so that two spellings of one
// project share a key. On Windows the path is case-folded before hashing.
func RepoKey(realRoot string) string {
	p := filepath.Clean(realRoot)
	if runtime.GOOS == "windows" {
		p = strings.ToLower(p)
	}
	sum := sha256.Sum256([]byte(p))
	return slug(filepath.Base(realRoot)) + "-" + hex.EncodeToString(sum[:8])
}

// slug keeps ASCII letters, digits, '.', '_' and '-', lowercased; anything
// else becomes one '-'.
func slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		ok := r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '_'
		if ok {
			b.WriteRune(r)
			dash = false
			continue
		}
		if !dash && b.Len() > 0 {
			b.WriteByte('-')
			dash = true
		}
	}
	s := strings.Trim(b.String(), "-.")
	if len(s) > 40 {
		s = strings.TrimRight(s[:40], "-.")
	}
	if s == "" {
		return "repo"
	}
	return s
}

// WriteFile replaces path atomically with a private (0600) file: temporary
// file, fsync, rename, directory fsync.
func WriteFile(path string, data []byte) error {
	if err := fsx.WriteFileAtomic(path, data, 0o600); err != nil {
		return fmt.Errorf("write %s: %w", filepath.Base(path), err)
	}
	return nil
}

// MkdirPrivate creates dir (and parents) with mode 0700 and checks it like Dir.
func MkdirPrivate(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	return secure(dir)
}

func realRoot(root string) (string, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return "", fmt.Errorf("project root: %w", err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("project root: %w", err)
	}
	return real, nil
}

// secure refuses a symlinked, foreign-owned or exposed directory and
// tightens a directory of ours that is more open than 0700.
func secure(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return &UnsafeDirError{Path: dir, Reason: "it is a symbolic link"}
	}
	if !fi.IsDir() {
		return &UnsafeDirError{Path: dir, Reason: "it is not a directory"}
	}
	if !ownedByMe(fi) {
		return &UnsafeDirError{Path: dir, Reason: "it is owned by another user"}
	}
	if pfi, err := os.Stat(filepath.Dir(dir)); err == nil && runtime.GOOS != "windows" &&
		pfi.Mode().Perm()&0o002 != 0 && pfi.Mode()&fs.ModeSticky == 0 {
		return &UnsafeDirError{Path: dir, Reason: "its parent is writable by everyone"}
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("make state directory private: %w", err)
		}
	}
	return nil
}
