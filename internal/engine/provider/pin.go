package provider

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/prosewash/prosewash/internal/engine/fsx"
)

// ChangedError refuses to start a program, or refuses what it answered,
// because the file is no longer the one the binding pinned: edited,
// replaced or swapped after the plan was made (after the approval, for an
// unattended run).
type ChangedError struct {
	Path string
	Want string // the bound SHA-256
	Got  string // what is there now ("" when it cannot be read)
	When string // "before it started" or "while it ran"
}

func (e *ChangedError) Error() string {
	if e.Got == "" {
		return fmt.Sprintf("%s changed %s: it is no longer the file that was bound (sha256:%s); not run", e.Path, e.When, short(e.Want))
	}
	return fmt.Sprintf("%s changed %s: bound sha256:%s, now sha256:%s; not run", e.Path, e.When, short(e.Want), short(e.Got))
}

// held is one file a run depends on, opened once and hashed through that
// open descriptor. The descriptor stays open for the whole run: what the
// kernel executes is this very file (see launch), and at the end the same
// descriptor shows whether anything wrote to it meanwhile.
type held struct {
	path string
	f    *os.File
	fi   fs.FileInfo
	hash string
	// shebang is set for a file starting with "#!": the kernel hands such
	// a file to its interpreter by the path it was executed by, so it
	// must be executed by its own path, not through its descriptor.
	shebang bool
}

// hold opens path (never through a final symbolic link, never anything
// but a regular file), hashes what it opened and checks it against want.
func hold(path, want string) (*held, error) {
	f, fi, err := fsx.OpenRegular(path, false)
	if err != nil {
		return nil, &ChangedError{Path: path, Want: want, When: "before it started"}
	}
	h, err := fsx.HashReader(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if h.String() != want {
		f.Close()
		return nil, &ChangedError{Path: path, Want: want, Got: h.String(), When: "before it started"}
	}
	head := make([]byte, 2)
	n, _ := f.ReadAt(head, 0)
	return &held{path: path, f: f, fi: fi, hash: want, shebang: bytes.Equal(head[:n], []byte("#!"))}, nil
}

// samePath reports whether path still names the held file.
func (h *held) samePath() bool {
	fi, err := os.Stat(h.path)
	return err == nil && os.SameFile(fi, h.fi)
}

// intact checks, after the run, that nothing wrote to the held file while
// it ran and that its path still names it: its size, modification and
// change times are as they were (a user cannot set a change time back) and
// it still hashes to the bound value.
func (h *held) intact() error {
	changed := &ChangedError{Path: h.path, Want: h.hash, When: "while it ran"}
	fi, err := h.f.Stat()
	if err != nil || fi.Size() != h.fi.Size() || !fi.ModTime().Equal(h.fi.ModTime()) || !sameChangeTime(fi, h.fi) || !h.samePath() {
		return changed
	}
	got, err := fsx.HashReader(io.NewSectionReader(h.f, 0, fi.Size()))
	if err != nil || got.String() != h.hash {
		changed.Got = got.String()
		return changed
	}
	return nil
}

func (h *held) close() { h.f.Close() }

// launch is what Run starts for a binding: the program to execute, the
// descriptors the child inherits and the files that must stay as bound.
type launch struct {
	path  string     // what execve is given
	extra []*os.File // inherited as descriptors 3, 4, ...
	held  []*held
}

func (l *launch) close() {
	for _, h := range l.held {
		h.close()
	}
}

// intact checks every held file after the run.
func (l *launch) intact() error {
	for _, h := range l.held {
		if err := h.intact(); err != nil {
			return err
		}
	}
	return nil
}

// errNoBinding refuses a call that no plan bound.
var errNoBinding = errors.New("no binding: a provider runs only what a plan bound it to")

// pin opens and checks what b says argv runs. Shipped providers are this
// binary (its version pins them) and an unbound one was confirmed by a
// person for this run: both start as argv says. For a bound program the
// file executed is the file hashed: a binary is executed through the
// descriptor that was hashed (execFile), so replacing or renaming the path
// afterwards cannot change what starts; a script starting with "#!" and a
// script handed to an interpreter are read by path, so their descriptor
// is held and checked again when the run ends (intact).
func pin(b Binding, argv []string, dir string) (*launch, error) {
	switch b.Kind {
	case BoundShipped, Unbound:
		return &launch{path: argv[0]}, nil
	case BoundBinary, BoundScript:
	default:
		return nil, errNoBinding
	}
	l := &launch{}
	prog, progHash := b.File, b.Hash
	if b.Interpreter != nil {
		prog, progHash = b.Interpreter.Path, b.Interpreter.Hash
		s, err := holdScript(b, argv, dir)
		if err != nil {
			return nil, err
		}
		l.held = append(l.held, s)
	}
	p, err := hold(prog, progHash)
	if err != nil {
		l.close()
		return nil, err
	}
	l.held = append(l.held, p)
	l.path = prog
	if !p.shebang {
		if fdPath, ok := execFile(len(l.extra)); ok {
			l.path = fdPath
			l.extra = append(l.extra, p.f)
		}
	}
	if !p.samePath() {
		l.close()
		return nil, &ChangedError{Path: prog, Want: progHash, When: "before it started"}
	}
	return l, nil
}

// holdScript holds the script an interpreter is given: the argument the
// binding found it at must still name the bound file.
func holdScript(b Binding, argv []string, dir string) (*held, error) {
	if b.ScriptArg <= 0 || b.ScriptArg >= len(argv) {
		return nil, &ChangedError{Path: b.File, Want: b.Hash, When: "before it started"}
	}
	arg := argv[b.ScriptArg]
	if !filepath.IsAbs(arg) {
		arg = filepath.Join(dir, arg)
	}
	if real, err := filepath.EvalSymlinks(arg); err != nil || real != b.File {
		return nil, &ChangedError{Path: b.File, Want: b.Hash, When: "before it started"}
	}
	s, err := hold(b.File, b.Hash)
	if err != nil {
		return nil, err
	}
	if !s.samePath() {
		s.close()
		return nil, &ChangedError{Path: b.File, Want: b.Hash, When: "before it started"}
	}
	return s, nil
}
