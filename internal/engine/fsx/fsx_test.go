package fsx

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testtool"
)

func write(t *testing.T, path, content string, mode fs.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func noLeftovers(t *testing.T, path string) {
	t.Helper()
	l, err := Leftovers(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(l) != 0 {
		t.Fatalf("temporary files left beside %s: %v", path, l)
	}
}

func TestHashRoundTrip(t *testing.T) {
	h := SHA256([]byte("hello"))
	if got := h.String(); got != "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824" {
		t.Fatalf("String = %s", got)
	}
	if h.Short() != "2cf24dba5fb0" {
		t.Fatalf("Short = %s", h.Short())
	}
	back, err := ParseHash(h.String())
	if err != nil || back != h {
		t.Fatalf("ParseHash = %v, %v", back, err)
	}
	var zero Hash
	if zero.String() != "-" || !zero.IsZero() {
		t.Fatalf("zero hash renders %q", zero.String())
	}
	for _, bad := range []string{"abc", strings.Repeat("g", 64)} {
		if _, err := ParseHash(bad); err == nil {
			t.Errorf("ParseHash(%q) accepted", bad)
		}
	}
	type rec struct{ A, B Hash }
	b, err := json.Marshal(rec{A: h})
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"A":"`+h.String()+`","B":""}` {
		t.Fatalf("json = %s", b)
	}
	var r rec
	if err := json.Unmarshal(b, &r); err != nil || r.A != h || !r.B.IsZero() {
		t.Fatalf("unmarshal = %+v, %v", r, err)
	}
	hr, err := HashReader(strings.NewReader("hello"))
	if err != nil || hr != h {
		t.Fatalf("HashReader = %v, %v", hr, err)
	}
}

func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	reg := filepath.Join(dir, "a.txt")
	write(t, reg, "hello\n", 0o640)
	big := filepath.Join(dir, "big.txt")
	write(t, big, strings.Repeat("x", 100), 0o644)
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink(reg, link); err != nil {
		t.Fatal(err)
	}
	hard := filepath.Join(dir, "hard.txt")
	write(t, hard, "h", 0o644)
	if err := os.Link(hard, filepath.Join(dir, "hard2.txt")); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		path  string
		limit int64
		want  error
	}{
		{"regular", reg, 0, nil},
		{"at the limit", big, 100, nil},
		{"over the limit", big, 99, ErrTooLarge},
		{"symlink", link, 0, ErrSymlink},
		{"hard link", hard, 0, ErrHardLinked},
		{"directory", sub, 0, ErrNotRegular},
		{"missing", filepath.Join(dir, "nope"), 0, fs.ErrNotExist},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data, id, err := ReadFile(tc.path, tc.limit)
			if tc.want != nil {
				if !errors.Is(err, tc.want) {
					t.Fatalf("err = %v, want %v", err, tc.want)
				}
				var re *RefusedError
				if errors.As(err, &re) && re.Path != tc.path {
					t.Fatalf("refusal names %q, want %q", re.Path, tc.path)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if id.Hash != SHA256(data) || id.Size != int64(len(data)) {
				t.Fatalf("identity %+v does not match content", id)
			}
			if runtime.GOOS != "windows" && !id.HasID {
				t.Fatal("no dev/inode on a unix system")
			}
		})
	}
	_, id, err := ReadFile(reg, 0)
	if err != nil {
		t.Fatal(err)
	}
	if id.Mode.Perm() != 0o640 || id.Nlink != 1 {
		t.Fatalf("mode %v nlink %d", id.Mode, id.Nlink)
	}
}

func TestRefusedErrorMessages(t *testing.T) {
	for _, e := range []*RefusedError{
		{Path: "/p", Kind: Symlink}, {Path: "/p", Kind: NotRegular}, {Path: "/p", Kind: HardLinked, Links: 2},
		{Path: "/p", Kind: TooLarge, Size: 5, Limit: 4}, {Path: "/p", Kind: Changed},
	} {
		if !strings.HasPrefix(e.Error(), "/p: refused: ") {
			t.Errorf("message %q does not start with the path", e.Error())
		}
	}
	c := &ConflictError{Path: "/p", Expected: SHA256([]byte("a")), Actual: SHA256([]byte("b")), Preserved: "/q"}
	if !errors.Is(c, ErrConflict) || !strings.Contains(c.Error(), "/q") || !strings.HasPrefix(c.Error(), "/p: ") {
		t.Fatalf("conflict message %q", c.Error())
	}
}

func TestReplace(t *testing.T) {
	for _, mode := range []fs.FileMode{0o644, 0o755, 0o600, 0o640} {
		t.Run(mode.String(), func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "f.txt")
			write(t, p, "original", mode)
			if err := ReplaceWith(p, []byte("candidate"), SHA256([]byte("original")), Swap{}); err != nil {
				t.Fatal(err)
			}
			if got := read(t, p); got != "candidate" {
				t.Fatalf("content %q", got)
			}
			fi, err := os.Lstat(p)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != mode {
				t.Fatalf("mode %v, want %v", fi.Mode().Perm(), mode)
			}
			noLeftovers(t, p)
		})
	}
}

func TestReplaceRefusesAndConflicts(t *testing.T) {
	dir := t.TempDir()
	orig := SHA256([]byte("original"))

	changed := filepath.Join(dir, "changed.txt")
	write(t, changed, "human edit", 0o644)
	err := ReplaceWith(changed, []byte("candidate"), orig, Swap{})
	var ce *ConflictError
	if !errors.As(err, &ce) || ce.Actual != SHA256([]byte("human edit")) || ce.Expected != orig || ce.Path != changed {
		t.Fatalf("err = %v", err)
	}
	if read(t, changed) != "human edit" {
		t.Fatal("a changed file was overwritten")
	}
	noLeftovers(t, changed)

	target := filepath.Join(dir, "target.txt")
	write(t, target, "original", 0o644)
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := ReplaceWith(link, []byte("x"), orig, Swap{}); !errors.Is(err, ErrSymlink) {
		t.Fatalf("symlink: err = %v", err)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatal("symlink was replaced")
	}

	h2 := filepath.Join(dir, "h2.txt")
	if err := os.Link(target, h2); err != nil {
		t.Fatal(err)
	}
	if err := ReplaceWith(target, []byte("x"), orig, Swap{}); !errors.Is(err, ErrHardLinked) {
		t.Fatalf("hard link: err = %v", err)
	}
	if read(t, target) != "original" {
		t.Fatal("hard-linked file was replaced")
	}

	if err := ReplaceWith(filepath.Join(dir, "missing"), []byte("x"), orig, Swap{}); !errors.As(err, &ce) || !ce.Actual.IsZero() {
		t.Fatalf("missing: err = %v", err)
	}
}

// replaceBehind puts a new file (a new inode) at p, as an editor that
// saves by rename does.
func replaceBehind(t *testing.T, p, content string) {
	t.Helper()
	n := p + ".editor"
	write(t, n, content, 0o644)
	if err := os.Rename(n, p); err != nil {
		t.Fatal(err)
	}
}

// mustHold holds p as the original of a swap.
func mustHold(t *testing.T, p, content string) *held {
	t.Helper()
	h, err := hold(p, SHA256([]byte(content)), Swap{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.close)
	return h
}

// TestExchangeSwapBack drives the second half of an exchange-based Replace
// as if another process had replaced the file between the check and the
// exchange: the foreign content must end up back in place.
func TestExchangeSwapBack(t *testing.T) {
	if !exchangeSupported {
		testtool.Missing(t, "rename-exchange", "no atomic exchange on "+runtime.GOOS)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "f.txt")
	write(t, p, "original", 0o644)
	h := mustHold(t, p, "original")
	h.unlease() // the editor below must be able to open the directory entry's file
	replaceBehind(t, p, "foreign edit")
	tmp, err := writeTemp(p, "", "tmp", []byte("candidate"), 0o644, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := exchange(tmp, p); err != nil {
		if errors.Is(err, errNoExchange) {
			testtool.Missing(t, "rename-exchange", "the filesystem of "+dir+" cannot exchange names")
		}
		t.Fatal(err)
	}
	err = finishExchange(p, tmp, []byte("candidate"), SHA256([]byte("original")), h)
	var ce *ConflictError
	if !errors.As(err, &ce) || ce.Actual != SHA256([]byte("foreign edit")) || ce.Preserved != "" {
		t.Fatalf("err = %v", err)
	}
	if read(t, p) != "foreign edit" {
		t.Fatal("foreign content not swapped back")
	}
	noLeftovers(t, p)
}

// TestSwapSeesWriteToHeldOriginal: a process that had the file open
// writes into it while the swap is made. The swap is undone and the file
// is what that process wrote, through every path a swap takes.
func TestSwapSeesWriteToHeldOriginal(t *testing.T) {
	for _, how := range []string{"exchange", "rename", "remove"} {
		t.Run(how, func(t *testing.T) {
			if how == "exchange" && !exchangeSupported {
				testtool.Missing(t, "rename-exchange", "no atomic exchange on "+runtime.GOOS)
			}
			dir := t.TempDir()
			p := filepath.Join(dir, "f.txt")
			write(t, p, "original\n", 0o644)
			h := mustHold(t, p, "original\n")
			h.unlease()
			w, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer w.Close()
			tmp, err := writeTemp(p, "", "tmp", []byte("candidate\n"), 0o644, nil)
			if err != nil {
				t.Fatal(err)
			}
			switch how {
			case "exchange":
				if err := exchange(tmp, p); err != nil {
					testtool.Missing(t, "rename-exchange", fmt.Sprintf("exchange: %v", err))
				}
				w.WriteString("late line\n")
				err = finishExchange(p, tmp, []byte("candidate\n"), SHA256([]byte("original\n")), h)
			case "rename":
				// The plain rename happens first; the write lands on the
				// original out of sight and is put back.
				if err := rename(tmp, p); err != nil {
					t.Fatal(err)
				}
				w.WriteString("late line\n")
				err = h.putBack(p, []byte("candidate\n"), h.settled())
			case "remove":
				os.Remove(tmp)
				grave, _ := TempName(p, "del")
				if err := rename(p, grave); err != nil {
					t.Fatal(err)
				}
				w.WriteString("late line\n")
				err = finishRemove(p, grave, SHA256([]byte("original\n")), h)
			}
			var ce *ConflictError
			if !errors.As(err, &ce) || !ce.Written {
				t.Fatalf("err = %v", err)
			}
			if got := read(t, p); got != "original\nlate line\n" {
				t.Fatalf("the writer's line was lost: %q", got)
			}
			noLeftovers(t, p)
		})
	}
}

// TestRenameCheckedFallback covers the path used where exchange is not
// available.
func TestRenameCheckedFallback(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.txt")
	write(t, p, "original", 0o644)
	h := mustHold(t, p, "original")
	h.unlease()
	replaceBehind(t, p, "other")
	tmp, err := writeTemp(p, "", "tmp", []byte("candidate"), 0o644, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := renameChecked(p, tmp, []byte("candidate"), SHA256([]byte("original")), h); !errors.Is(err, ErrConflict) {
		t.Fatalf("err = %v", err)
	}
	if read(t, p) != "other" {
		t.Fatal("overwritten on mismatch")
	}
	noLeftovers(t, p)
	h = mustHold(t, p, "other")
	tmp, err = writeTemp(p, "", "tmp", []byte("candidate"), 0o644, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := renameChecked(p, tmp, []byte("candidate"), SHA256([]byte("other")), h); err != nil {
		t.Fatal(err)
	}
	if read(t, p) != "candidate" {
		t.Fatal("not replaced")
	}
	noLeftovers(t, p)
}

func TestCreate(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "new.txt")
	if err := CreateWith(p, []byte("fresh"), 0o750, Swap{}); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(p)
	if err != nil || fi.Mode().Perm() != 0o750 || read(t, p) != "fresh" {
		t.Fatalf("created %v %v", fi, err)
	}
	err = CreateWith(p, []byte("other"), 0o644, Swap{})
	var ce *ConflictError
	if !errors.As(err, &ce) || ce.Actual != SHA256([]byte("fresh")) {
		t.Fatalf("err = %v", err)
	}
	if read(t, p) != "fresh" {
		t.Fatal("existing file overwritten by Create")
	}
	noLeftovers(t, p)
}

func TestRemove(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.txt")
	write(t, p, "original", 0o644)
	if err := Remove(p, SHA256([]byte("other"))); !errors.Is(err, ErrConflict) {
		t.Fatalf("err = %v", err)
	}
	if read(t, p) != "original" {
		t.Fatal("removed on mismatch")
	}
	if err := Remove(p, SHA256([]byte("original"))); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(p); !os.IsNotExist(err) {
		t.Fatalf("still there: %v", err)
	}
	noLeftovers(t, p)
	if err := Remove(p, SHA256([]byte("original"))); !errors.Is(err, ErrConflict) {
		t.Fatalf("second remove: err = %v", err)
	}
}

// TestRemoveRenameBack drives the second half of Remove as if the file had
// been replaced between the check and the rename aside.
func TestRemoveRenameBack(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.txt")
	write(t, p, "original", 0o644)
	h := mustHold(t, p, "original")
	h.unlease()
	replaceBehind(t, p, "foreign edit")
	grave, err := TempName(p, "del")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(p, grave); err != nil {
		t.Fatal(err)
	}
	if err := finishRemove(p, grave, SHA256([]byte("original")), h); !errors.Is(err, ErrConflict) {
		t.Fatalf("err = %v", err)
	}
	if read(t, p) != "foreign edit" {
		t.Fatal("foreign file not renamed back")
	}
	noLeftovers(t, p)

	// Someone created a new file at p while the old one was aside: both survive.
	if err := os.Rename(p, grave); err != nil {
		t.Fatal(err)
	}
	write(t, p, "newcomer", 0o644)
	err = finishRemove(p, grave, SHA256([]byte("original")), h)
	var ce *ConflictError
	if !errors.As(err, &ce) || ce.Preserved != grave {
		t.Fatalf("err = %v", err)
	}
	if read(t, p) != "newcomer" || read(t, grave) != "foreign edit" {
		t.Fatal("a file was lost")
	}
}

func TestWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "j.json")
	for _, c := range []string{"one", "two"} {
		if err := WriteFileAtomic(p, []byte(c), 0o600); err != nil {
			t.Fatal(err)
		}
		if read(t, p) != c {
			t.Fatal("not written")
		}
	}
	fi, err := os.Lstat(p)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v %v", fi.Mode(), err)
	}
	noLeftovers(t, p)
	// An existing file keeps its mode: perm is only for a new one.
	hook := filepath.Join(dir, "pre-commit")
	write(t, hook, "#!/bin/sh\n", 0o700)
	if err := WriteFileAtomic(hook, []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Lstat(hook); runtime.GOOS != "windows" && fi.Mode().Perm() != 0o700 {
		t.Fatalf("mode %v, want the existing 0700 kept", fi.Mode().Perm())
	}
	noLeftovers(t, hook)
}

func TestLeftoversAndLongNames(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("é", 120) + ".md" // 243 bytes: the temp name must be shortened
	p := filepath.Join(dir, long)
	write(t, p, "original", 0o644)
	if err := ReplaceWith(p, []byte("candidate"), SHA256([]byte("original")), Swap{}); err != nil {
		t.Fatal(err)
	}
	noLeftovers(t, p)
	tmp, err := writeTemp(p, "", "tmp", []byte("x"), 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	l, err := Leftovers(p)
	if err != nil || len(l) != 1 || l[0] != tmp {
		t.Fatalf("Leftovers = %v, %v (want %s)", l, err, tmp)
	}
	// A file that merely looks similar is not ours.
	write(t, filepath.Join(dir, "."+truncName(long)+tempMarker+"notours.tmp"), "y", 0o644)
	if l, _ := Leftovers(p); len(l) != 1 {
		t.Fatalf("Leftovers matched a foreign file: %v", l)
	}
}

func FuzzReplace(f *testing.F) {
	f.Add([]byte("a"), []byte("b"))
	f.Add([]byte(""), []byte("\x00\xff"))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, orig, cand []byte) {
		p := filepath.Join(dir, "f")
		if err := os.WriteFile(p, orig, 0o644); err != nil {
			t.Fatal(err)
		}
		// A wrong expectation never changes the file.
		wrong := SHA256(append([]byte("x"), orig...))
		if err := ReplaceWith(p, cand, wrong, Swap{}); !errors.Is(err, ErrConflict) {
			t.Fatalf("wrong hash: err = %v", err)
		}
		if got, _ := os.ReadFile(p); !bytes.Equal(got, orig) {
			t.Fatal("file changed on a failed compare")
		}
		if err := ReplaceWith(p, cand, SHA256(orig), Swap{}); err != nil {
			t.Fatal(err)
		}
		got, id, err := ReadFile(p, 0)
		if err != nil || !bytes.Equal(got, cand) || id.Hash != SHA256(cand) {
			t.Fatalf("after replace: %v", err)
		}
	})
}

func FuzzParseHash(f *testing.F) {
	f.Add("")
	f.Add(SHA256(nil).String())
	f.Fuzz(func(t *testing.T, s string) {
		h, err := ParseHash(s)
		if err != nil {
			return
		}
		if h.IsZero() {
			return
		}
		if !strings.EqualFold(h.String(), s) {
			t.Fatalf("round trip %q -> %q", s, h.String())
		}
	})
}

func BenchmarkReplace(b *testing.B) {
	dir := b.TempDir()
	p := filepath.Join(dir, "f")
	a, c := bytes.Repeat([]byte("a"), 16<<10), bytes.Repeat([]byte("c"), 16<<10)
	if err := os.WriteFile(p, a, 0o644); err != nil {
		b.Fatal(err)
	}
	ha, hc := SHA256(a), SHA256(c)
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			if err := ReplaceWith(p, c, ha, Swap{}); err != nil {
				b.Fatal(err)
			}
		} else if err := ReplaceWith(p, a, hc, Swap{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReadFile(b *testing.B) {
	dir := b.TempDir()
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, bytes.Repeat([]byte("a"), 64<<10), 0o644); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, _, err := ReadFile(p, 1<<20); err != nil {
			b.Fatal(err)
		}
	}
}

func TestInsideBelow(t *testing.T) {
	for _, tc := range []struct {
		root, p       string
		inside, below bool
	}{
		{"/a/b", "/a/b", true, false},
		{"/a/b", "/a/b/c", true, true},
		{"/a/b", "/a/bc", false, false},
		{"/a/b", "/a", false, false},
		{"/a/b", "/a/b/../c", false, false},
		{"/a/b", "/a/b/..c/d", true, true},
	} {
		if got := Inside(tc.root, filepath.Clean(tc.p)); got != tc.inside {
			t.Errorf("Inside(%s, %s) = %v", tc.root, tc.p, got)
		}
		if got := Below(tc.root, filepath.Clean(tc.p)); got != tc.below {
			t.Errorf("Below(%s, %s) = %v", tc.root, tc.p, got)
		}
	}
}

func TestCause(t *testing.T) {
	_, err := os.Open(filepath.Join(t.TempDir(), "absent"))
	if c := Cause(err); !errors.Is(c, fs.ErrNotExist) || strings.Contains(c.Error(), "absent") {
		t.Fatalf("Cause kept the path: %v", Cause(err))
	}
	wrapped := fmt.Errorf("read config: %w", err)
	if !errors.Is(Cause(wrapped), fs.ErrNotExist) || strings.Contains(Cause(wrapped).Error(), "absent") {
		t.Fatalf("Cause of a wrapped path error: %v", Cause(wrapped))
	}
	plain := errors.New("plain")
	if Cause(plain) != plain {
		t.Fatal("Cause must return other errors unchanged")
	}
}

// What a refused lease and the holders found in /proc make of a file.
func TestBusyOf(t *testing.T) {
	w := Holder{PID: 7, Command: "sh", Access: OpenForWriting}
	r := Holder{PID: 8, Command: "less", Access: OpenForReading}
	m := Holder{PID: 9, Command: "py", Access: MappedForWriting}
	cases := []struct {
		name            string
		got             leaseOutcome
		others          []Holder
		selfToo, refuse bool
		busy            []int // pids named; nil: not busy
		unseen          bool
	}{
		{"a writer", leaseInUse, []Holder{w, r}, false, false, []int{7}, false},
		{"a writing mapping", leaseUnavailable, []Holder{m}, false, false, []int{9}, false},
		{"a reader, interactive", leaseInUse, []Holder{r}, false, false, nil, false},
		{"a reader, unattended", leaseInUse, []Holder{r}, false, true, []int{8}, false},
		{"every holder, unattended", leaseInUse, []Holder{w, r, m}, false, true, []int{7, 8, 9}, false},
		{"in use, nobody seen, interactive", leaseInUse, nil, false, false, nil, false},
		{"in use, nobody seen, unattended", leaseInUse, nil, false, true, nil, true},
		{"in use by this process only", leaseInUse, nil, true, true, nil, false},
		{"no leases here, nobody seen", leaseUnavailable, nil, false, true, nil, false},
	}
	for _, c := range cases {
		err := busyOf("f.md", c.got, c.others, c.selfToo, c.refuse)
		var be *BusyError
		if (c.busy == nil && !c.unseen) != (err == nil) || (err != nil && !errors.As(err, &be)) {
			t.Fatalf("%s: err = %v", c.name, err)
		}
		if err == nil {
			continue
		}
		var pids []int
		for _, h := range be.Holders {
			pids = append(pids, h.PID)
		}
		if be.Unseen != c.unseen || fmt.Sprint(pids) != fmt.Sprint(c.busy) {
			t.Fatalf("%s: %+v, want pids %v unseen %v", c.name, be, c.busy, c.unseen)
		}
	}
}
