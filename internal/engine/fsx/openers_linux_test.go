package fsx

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prosewash/prosewash/internal/testkit/holdfile"
	"github.com/prosewash/prosewash/internal/testtool"
)

// slotted is a file with n places a mapping holder can fill.
func slotted(n int) string {
	var b strings.Builder
	b.WriteString("# Notes\n\nSome\u200b prose.\n")
	for range n {
		b.WriteString("- slot " + holdfile.Slot + "\n")
	}
	return b.String()
}

// busyWith checks err is a BusyError naming pid with access a.
func busyWith(t *testing.T, err error, pid int, a Access) {
	t.Helper()
	var be *BusyError
	if !errors.As(err, &be) || !errors.Is(err, ErrBusy) {
		t.Fatalf("err = %v, want the file busy", err)
	}
	for _, h := range be.Holders {
		if h.PID == pid && h.Access == a {
			return
		}
	}
	t.Fatalf("holders %+v, want pid %d %s (%v)", be.Holders, pid, a, err)
}

// A process that maps the file shared and writable, closes its descriptor
// and writes through the mapping after the swap would write into the
// replaced file: no descriptor names it, its mapping does. Replace (and
// Remove) refuse the file, in every mode, and the write lands in it.
func TestReplaceRefusesAMappedWriter(t *testing.T) {
	for _, mode := range []holdfile.Mode{holdfile.MapWrite, holdfile.MapProtect} {
		for _, readers := range []bool{false, true} {
			t.Run(string(mode)+map[bool]string{false: "", true: "/refuse-other-openers"}[readers], func(t *testing.T) {
				p := filepath.Join(t.TempDir(), "notes.md")
				content := slotted(1)
				write(t, p, content, 0o644)
				h := holdfile.Start(t, mode, p)
				sw := Swap{RefuseOtherOpeners: readers}
				err := ReplaceWith(p, []byte("# Notes\n\nSome prose.\n"), SHA256([]byte(content)), sw)
				busyWith(t, err, h.PID(), MappedForWriting)
				if !strings.Contains(err.Error(), "mapped for writing by pid") {
					t.Fatalf("message %q does not say what holds the file", err)
				}
				busyWith(t, RemoveWith(p, SHA256([]byte(content)), sw), h.PID(), MappedForWriting)
				h.WriteNow(t)
				if got := read(t, p); got != strings.Replace(content, holdfile.Slot, holdfile.Filled, 1) {
					t.Fatalf("the write through the mapping was lost: %q", got)
				}
				noLeftovers(t, p)
			})
		}
	}
}

// A shared mapping from a read-only descriptor can never write the file:
// it does not stop an interactive swap. An unattended one (any other
// opener refused) leaves the file alone.
func TestReplaceWithAReadOnlyMapping(t *testing.T) {
	p := filepath.Join(t.TempDir(), "notes.md")
	content := slotted(1)
	write(t, p, content, 0o644)
	h := holdfile.Start(t, holdfile.MapRead, p)
	busyWith(t, ReplaceWith(p, []byte("x\n"), SHA256([]byte(content)), Swap{RefuseOtherOpeners: true}), h.PID(), Mapped)
	if err := ReplaceWith(p, []byte("x\n"), SHA256([]byte(content)), Swap{}); err != nil {
		t.Fatalf("a read-only mapping stopped an interactive swap: %v", err)
	}
	if read(t, p) != "x\n" {
		t.Fatal("not replaced")
	}
}

// A process holding a read-only descriptor can reopen it for appending
// through /proc/self/fd/N after the swap, into the replaced file. With
// RefuseOtherOpeners the file is refused, naming the reader and why it
// counts, and its later line lands in the file.
func TestReplaceRefusesAReaderWhenAsked(t *testing.T) {
	p := filepath.Join(t.TempDir(), "notes.md")
	content := "# Notes\n\nSome\u200b prose.\n"
	write(t, p, content, 0o644)
	h := holdfile.Start(t, holdfile.Reopen, p)
	sw := Swap{RefuseOtherOpeners: true}
	err := ReplaceWith(p, []byte("# Notes\n\nSome prose.\n"), SHA256([]byte(content)), sw)
	busyWith(t, err, h.PID(), OpenForReading)
	if !strings.Contains(err.Error(), "open for reading by pid") || !strings.Contains(err.Error(), "reopen it for writing") {
		t.Fatalf("message %q", err)
	}
	busyWith(t, RemoveWith(p, SHA256([]byte(content)), sw), h.PID(), OpenForReading)
	h.WriteNow(t)
	if got := read(t, p); got != content+holdfile.Line(1) {
		t.Fatalf("the reopened descriptor's line was lost: %q", got)
	}
	noLeftovers(t, p)
}

// With RefuseOtherOpeners, a reader that opens the file while the lease is
// held undoes the swap as a writer does: once in, it could reopen the
// original for writing.
func TestLeaseCountsAReaderWhenAsked(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f.md")
	write(t, p, "text\n", 0o644)
	h, err := hold(p, SHA256([]byte("text\n")), Swap{RefuseOtherOpeners: true})
	if err != nil {
		t.Fatal(err)
	}
	defer h.close()
	needLease(t, h)
	reader := exec.Command("cat", p)
	if err := reader.Start(); err != nil {
		testtool.Missing(t, "cat", err.Error())
	}
	if !waitUntil(5*time.Second, h.opened) {
		t.Fatal("a reader's open during the lease went unseen")
	}
	var be *BusyError
	if err := h.settled(); !errors.As(err, &be) || !be.During {
		t.Fatalf("settled = %v", err)
	}
	h.close()
	if err := reader.Wait(); err != nil {
		t.Fatal(err)
	}
}

// This process's own other descriptor of the file keeps the lease from
// being taken, but it is no other opener: the swap goes on.
func TestOwnDescriptorIsNoOtherOpener(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f.md")
	write(t, p, "text\n", 0o644)
	f, err := os.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := ReplaceWith(p, []byte("clean\n"), SHA256([]byte("text\n")), Swap{RefuseOtherOpeners: true}); err != nil {
		t.Fatal(err)
	}
}
