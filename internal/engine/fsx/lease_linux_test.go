package fsx

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/testtool"
	"golang.org/x/sys/unix"
)

// waitUntil polls cond for up to d.
func waitUntil(d time.Duration, cond func() bool) bool {
	for end := time.Now().Add(d); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return cond()
}

// A shell job that holds the file open for writing and writes again later
// ("( echo a; sleep; echo b ) > f &"): Replace refuses the file and names
// the writer, and every line the job writes ends up in the file.
func TestReplaceRefusesAFileOpenForWriting(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		testtool.Missing(t, "sh", "sh not found")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "notes.md")
	job := exec.Command("sh", "-c", `( echo a; sleep 1; echo b ) > "$1"`, "sh", p)
	if err := job.Start(); err != nil {
		t.Fatal(err)
	}
	defer job.Wait()
	if !waitUntil(5*time.Second, func() bool { b, _ := os.ReadFile(p); return string(b) == "a\n" }) {
		t.Fatal("the job did not write its first line")
	}
	err := ReplaceWith(p, []byte("cleaned\n"), SHA256([]byte("a\n")), Swap{})
	var be *BusyError
	if !errors.As(err, &be) || !errors.Is(err, ErrBusy) || len(be.Holders) == 0 || be.Holders[0].Command != "sh" {
		t.Fatalf("err = %v (%+v)", err, be)
	}
	if err := job.Wait(); err != nil {
		t.Fatal(err)
	}
	if got := read(t, p); got != "a\nb\n" {
		t.Fatalf("the writer lost a line: %q", got)
	}
	noLeftovers(t, p)
	// Closed now: the same replace goes through.
	if err := ReplaceWith(p, []byte("cleaned\n"), SHA256([]byte("a\nb\n")), Swap{}); err != nil {
		t.Fatal(err)
	}
	// Remove refuses a busy file the same way.
	job = exec.Command("sh", "-c", `exec 3>>"$1"; sleep 1`, "sh", p)
	if err := job.Start(); err != nil {
		t.Fatal(err)
	}
	defer job.Wait()
	if !waitUntil(5*time.Second, func() bool { o, _, _ := openersOf(p, statOf(t, p), ^uintptr(0)); return len(o) > 0 }) {
		t.Fatal("the job did not open the file")
	}
	if err := Remove(p, SHA256([]byte("cleaned\n"))); !errors.Is(err, ErrBusy) {
		t.Fatalf("remove of a busy file: %v", err)
	}
	if read(t, p) != "cleaned\n" {
		t.Fatal("removed")
	}
}

// A reader keeps the lease from being taken but is no writer: the swap
// goes ahead.
func TestReplaceWithAReaderOpen(t *testing.T) {
	if _, err := exec.LookPath("sleep"); err != nil {
		testtool.Missing(t, "sleep", "sleep not found")
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "f.md")
	write(t, p, "text\n", 0o644)
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	reader := exec.Command("sleep", "2")
	reader.Stdin = f
	if err := reader.Start(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	defer reader.Process.Kill()
	if err := ReplaceWith(p, []byte("clean\n"), SHA256([]byte("text\n")), Swap{}); err != nil {
		t.Fatal(err)
	}
	if read(t, p) != "clean\n" {
		t.Fatal("not replaced")
	}
}

// While the lease is held, another process opening the file waits, and
// the holder sees it (this process survives the SIGIO that comes with it);
// once the lease is given back the opener goes on.
func TestLeaseSeesAnOpenDuringTheSwap(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.md")
	write(t, p, "text\n", 0o644)
	h, err := hold(p, SHA256([]byte("text\n")), Swap{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.close()
	needLease(t, h)
	opener := exec.Command("sh", "-c", `echo more >> "$1"`, "sh", p)
	if err := opener.Start(); err != nil {
		t.Fatal(err)
	}
	if !waitUntil(5*time.Second, h.opened) {
		t.Fatal("the open during the lease went unseen")
	}
	var be *BusyError
	if err := h.settled(); !errors.As(err, &be) || !be.During {
		t.Fatalf("settled = %v", err)
	}
	h.close()
	if err := opener.Wait(); err != nil {
		t.Fatal(err)
	}
	if read(t, p) != "text\nmore\n" {
		t.Fatalf("content %q", read(t, p))
	}
}

// needLease ends a test that needs the write lease hold takes: on a
// filesystem without leases (or with /proc/sys/fs/leases-enable 0) it is
// missing the "write-lease" capability, which CI requires.
func needLease(t *testing.T, h *held) {
	t.Helper()
	if !h.leased {
		testtool.Missing(t, "write-lease", fmt.Sprintf("no write lease (F_SETLEASE) on the filesystem of %s", h.path))
	}
}

func statOf(t *testing.T, p string) os.FileInfo {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi
}

// A reader that opens the file while the lease is held can lose nothing
// (once the lease is given back it reads the original as it was): the
// break it starts asks only for a read lease, and the swap goes on.
func TestLeaseLetsAReaderThrough(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.md")
	write(t, p, "text\n", 0o644)
	h, err := hold(p, SHA256([]byte("text\n")), Swap{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.close()
	needLease(t, h)
	reader := exec.Command("cat", p)
	if err := reader.Start(); err != nil {
		t.Fatal(err)
	}
	// The reader's open is pending once the lease is breaking.
	breaking := func() bool {
		lt, err := unix.FcntlInt(h.f.Fd(), unix.F_GETLEASE, 0)
		return err == nil && lt == unix.F_RDLCK
	}
	if !waitUntil(5*time.Second, breaking) {
		t.Fatal("the reader's open did not start a break to a read lease")
	}
	if h.opened() {
		t.Fatal("a reader counted as an opener that may write")
	}
	if err := h.settled(); err != nil {
		t.Fatalf("settled with only a reader waiting: %v", err)
	}
	h.close()
	if err := reader.Wait(); err != nil {
		t.Fatal(err)
	}
}
