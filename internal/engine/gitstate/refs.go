package gitstate

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/prosewash/prosewash/internal/engine/fsx"
)

// symrefMaxDepth is git's SYMREF_MAXDEPTH: HEAD and the refs it leads to,
// read one after another, must reach a hash within this many reads.
const symrefMaxDepth = 5

// refFileLimit bounds a loose ref or HEAD file: a hash or "ref: " and a
// name fit in far less, and a larger file is not a ref git would read.
const refFileLimit = 64 << 10

// resolveHead follows HEAD through loose refs and packed-refs as git's
// files backend does. A HEAD that is not a regular file (a FIFO, on which
// git itself waits for ever) is refused at once.
func (r *Repo) resolveHead() (Head, error) {
	name := "HEAD"
	var head Head
	for depth := range symrefMaxDepth {
		v, ok, err := r.readRef(name)
		if err != nil {
			return Head{}, err
		}
		if !ok { // only a ref HEAD leads to can be missing: HEAD is checked by readRef
			head.Unborn = true
			return head, nil
		}
		target, symbolic := strings.CutPrefix(v, "ref:")
		if !symbolic {
			hash, err := parseHash(name, v)
			if err != nil {
				return Head{}, err
			}
			head.Hash, head.Detached = hash, depth == 0
			return head, nil
		}
		name = strings.TrimSpace(target)
		if !validRefName(name) {
			return Head{}, fmt.Errorf("resolve HEAD: invalid ref name %q", name)
		}
		head.Ref = name
	}
	return Head{}, fmt.Errorf("resolve HEAD: symbolic refs nested deeper than %d", symrefMaxDepth)
}

// parseHash reads the object name at the start of a ref file, as git does:
// 40 (SHA-1) or 64 (SHA-256) hex digits, then nothing or white space.
func parseHash(name, v string) (string, error) {
	hash, _, _ := strings.Cut(v, " ")
	hash, _, _ = strings.Cut(hash, "\t")
	if !isHex(hash) {
		return "", fmt.Errorf("resolve HEAD: %s holds no object name", name)
	}
	return strings.ToLower(hash), nil
}

// validRefName accepts the names a symbolic ref may lead to: under refs/,
// without a component that could climb out of the git dir.
func validRefName(name string) bool {
	if !strings.HasPrefix(name, "refs/") || strings.HasSuffix(name, "/") || strings.ContainsAny(name, "\\\x00") {
		return false
	}
	for _, c := range strings.Split(name, "/") {
		if c == "" || c == "." || c == ".." {
			return false
		}
	}
	return true
}

// readRef returns a ref's content: "ref: NAME" for a symbolic ref, else the
// hash. HEAD is read from the per-worktree git dir and must exist; other
// refs from their loose file, else from packed-refs, and may be missing
// (ok false).
func (r *Repo) readRef(name string) (string, bool, error) {
	v, ok, err := readLoose(filepath.Join(r.refDir(name), filepath.FromSlash(name)))
	if err != nil {
		return "", false, fmt.Errorf("read %s: %w", name, err)
	}
	if ok {
		return v, true, nil
	}
	if name == "HEAD" {
		return "", false, fmt.Errorf("read HEAD: %w", fs.ErrNotExist)
	}
	return r.readPacked(name)
}

// refDir is where git's files backend keeps a ref: HEAD and the
// per-worktree namespaces in the worktree's own git dir, every other ref
// in the common dir (a stray refs/heads file under a linked worktree's git
// dir is not read by git, nor here).
func (r *Repo) refDir(name string) string {
	if name == "HEAD" {
		return r.gitDir
	}
	for _, p := range []string{"refs/bisect/", "refs/worktree/", "refs/rewritten/"} {
		if strings.HasPrefix(name, p) {
			return r.gitDir
		}
	}
	return r.commonDir
}

// readLoose reads one loose ref file. A symbolic link to a name under
// refs/ is a symbolic ref (core.preferSymlinkRefs), as git reads it. A
// missing file, or a directory (refs/heads/a when refs/heads/a/b exists),
// is no loose ref; anything else that is not a regular file is refused.
func readLoose(path string) (string, bool, error) {
	if target, err := os.Readlink(path); err == nil && validRefName(target) {
		return "ref: " + target, true, nil
	}
	b, err := fsx.ReadRegular(path, refFileLimit, true)
	if err == nil {
		return strings.TrimSpace(string(b)), true, nil
	}
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) || isDir(path) {
		return "", false, nil
	}
	return "", false, err
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// readPacked looks name up in the common dir's packed-refs: "HASH NAME"
// lines, a "# pack-refs" header and "^HASH" peeled lines.
func (r *Repo) readPacked(name string) (string, bool, error) {
	f, _, err := fsx.OpenRegular(filepath.Join(r.commonDir, "packed-refs"), true)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read packed-refs: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 4<<10), 1<<20)
	for sc.Scan() {
		hash, ref, ok := strings.Cut(sc.Text(), " ")
		if ok && strings.TrimRight(ref, "\r") == name && isHex(hash) {
			return strings.ToLower(hash), true, nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", false, fmt.Errorf("read packed-refs: %w", err)
	}
	return "", false, nil
}

func isHex(s string) bool {
	if len(s) != 40 && len(s) != 64 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}
