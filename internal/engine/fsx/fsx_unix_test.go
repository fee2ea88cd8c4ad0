//go:build unix

package fsx

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/testtool"
)

func TestReadFileRefusesFIFO(t *testing.T) {
	p := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		testtool.Missing(t, "mkfifo", fmt.Sprintf("mkfifo not available: %v", err))
	}
	if _, _, err := ReadFile(p, 0); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("err = %v", err)
	}
	if _, _, err := HashFile(p); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("HashFile err = %v", err)
	}
}

// within fails the test when fn does not return in time: the point of the
// defensive open is that nothing blocks.
func within(t *testing.T, d time.Duration, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); fn() }()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("still blocked after %v", d)
	}
}

// fifoAndLink makes a directory holding a FIFO and a symbolic link to it.
func fifoAndLink(t *testing.T) (dir, fifo, link string) {
	t.Helper()
	dir = t.TempDir()
	fifo = filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		testtool.Missing(t, "mkfifo", fmt.Sprintf("mkfifo not available: %v", err))
	}
	link = filepath.Join(dir, "link")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	return dir, fifo, link
}

func TestReadRegularNeverBlocks(t *testing.T) {
	dir, fifo, link := fifoAndLink(t)
	for _, p := range []string{fifo, link, "/dev/zero", "/dev/null", dir} {
		within(t, 5*time.Second, func() {
			if _, err := ReadRegular(p, 1<<20, true); !errors.Is(err, ErrNotRegular) {
				t.Errorf("%s: err = %v, want not a regular file", p, err)
			}
		})
	}
	reg := filepath.Join(dir, "a.toml")
	os.WriteFile(reg, []byte("x = 1\n"), 0o600)
	os.Symlink(reg, filepath.Join(dir, "a-link"))
	if b, err := ReadRegular(filepath.Join(dir, "a-link"), 100, true); err != nil || string(b) != "x = 1\n" {
		t.Fatalf("following a link to a regular file: %q %v", b, err)
	}
	if _, err := ReadRegular(filepath.Join(dir, "a-link"), 100, false); !errors.Is(err, ErrSymlink) {
		t.Fatalf("no-follow read of a link: %v", err)
	}
	if _, err := ReadRegular(reg, 3, true); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("over the limit: %v", err)
	}
	// /proc files say size 0 and go on: the limit still bounds the read.
	if _, err := os.Stat("/proc/self/status"); err == nil {
		if _, err := ReadRegular("/proc/self/status", 16, true); !errors.Is(err, ErrTooLarge) {
			t.Fatalf("a zero-size /proc file read past the limit: %v", err)
		}
	}
	if _, err := ReadRegular(filepath.Join(dir, "absent"), 10, true); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("absent: %v", err)
	}
}

func TestRemoveIdentical(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "t.jsonl")
	if err := os.WriteFile(p, []byte("one\ntwo\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	id, err := Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	id.Hash = SHA256([]byte("one\ntwo\n"))
	// Same size and content, another modification time: not the listed file.
	later := id.ModTime.Add(time.Second)
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
	if err := RemoveIdentical(p, id, Swap{}); !errors.Is(err, ErrConflict) {
		t.Fatalf("mtime changed: %v", err)
	}
	if err := os.Chtimes(p, id.ModTime, id.ModTime); err != nil {
		t.Fatal(err)
	}
	// Same size and time, other bytes: the hash decides.
	if err := os.WriteFile(p, []byte("one\nTWO\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, id.ModTime, id.ModTime); err != nil {
		t.Fatal(err)
	}
	if err := RemoveIdentical(p, id, Swap{}); !errors.Is(err, ErrConflict) {
		t.Fatalf("content changed: %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "one\nTWO\n" {
		t.Fatalf("the changed file was not put back: %q", b)
	}
	// Another inode with everything else equal (replaced by a copy).
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("one\ntwo\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, id.ModTime, id.ModTime); err != nil {
		t.Fatal(err)
	}
	if nid, _ := Stat(p); nid.Ino != id.Ino {
		if err := RemoveIdentical(p, id, Swap{}); !errors.Is(err, ErrConflict) {
			t.Fatalf("inode changed: %v", err)
		}
		id.Ino = nid.Ino
	}
	if err := RemoveIdentical(p, id, Swap{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(p); !os.IsNotExist(err) {
		t.Fatalf("not removed: %v", err)
	}
	if l, _ := Leftovers(p); len(l) != 0 {
		t.Fatalf("leftovers %v", l)
	}
}

func TestCreateFrom(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sub", "t.jsonl")
	if err := os.Mkdir(filepath.Dir(p), 0o700); err != nil {
		t.Fatal(err)
	}
	mtime := time.Date(2029, 5, 6, 7, 8, 9, 0, time.UTC)
	want := SHA256([]byte("data\n"))
	if err := CreateFrom(p, strings.NewReader("DATA\n"), want, 0o640, mtime, ""); err == nil {
		t.Fatal("a stream that does not hash to want was written")
	}
	if _, err := os.Lstat(p); !os.IsNotExist(err) {
		t.Fatal("a refused stream left a file")
	}
	if err := CreateFrom(p, strings.NewReader("data\n"), want, 0o640, mtime, ""); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(p)
	if fi.Mode().Perm() != 0o640 || !fi.ModTime().Equal(mtime) {
		t.Errorf("mode %v mtime %v", fi.Mode(), fi.ModTime())
	}
	if err := CreateFrom(p, strings.NewReader("data\n"), want, 0o640, mtime, ""); !errors.Is(err, ErrConflict) {
		t.Errorf("over an existing file: %v", err)
	}
	if l, _ := Leftovers(p); len(l) != 0 {
		t.Fatalf("leftovers %v", l)
	}
}

// A state or record file the next write opens (a session record, a wash
// state slot) that someone replaced with a FIFO, with or without a reader,
// a link to one or a device is refused at once; a regular file is
// created 0600 and appended to. Before, the hooks opened these with a
// plain O_WRONLY open, which waits for a FIFO's reader for ever.
func TestOpenWriteRegularNeverBlocks(t *testing.T) {
	dir, fifo, link := fifoAndLink(t)
	for _, p := range []string{fifo, link, "/dev/null", dir} {
		within(t, 5*time.Second, func() {
			if f, err := OpenWriteRegular(p, os.O_APPEND, true); !errors.Is(err, ErrNotRegular) {
				t.Errorf("%s: err = %v, want not a regular file", p, err)
				if f != nil {
					f.Close()
				}
			}
		})
	}
	// A reader holding the FIFO open: the open would succeed, fstat refuses.
	r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	within(t, 5*time.Second, func() {
		if _, err := openWrite(fifo, os.O_APPEND, true); err != nil {
			t.Fatalf("the raw open with a reader: %v", err)
		}
		if _, err := OpenWriteRegular(fifo, os.O_APPEND, true); !errors.Is(err, ErrNotRegular) {
			t.Errorf("FIFO with a reader: err = %v", err)
		}
	})
	rec := filepath.Join(dir, "rec")
	for i := 0; i < 2; i++ {
		f, err := OpenWriteRegular(rec, os.O_APPEND, false)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("x\n")
		f.Close()
	}
	if b, _ := os.ReadFile(rec); string(b) != "x\nx\n" {
		t.Errorf("record holds %q", b)
	}
	if fi, _ := os.Stat(rec); fi.Mode().Perm() != 0o600 {
		t.Errorf("record mode %v", fi.Mode().Perm())
	}
	recLink := filepath.Join(dir, "reclink")
	os.Symlink(rec, recLink)
	if _, err := OpenWriteRegular(recLink, os.O_APPEND, false); !errors.Is(err, ErrSymlink) {
		t.Errorf("a link with follow=false: err = %v", err)
	}
}
