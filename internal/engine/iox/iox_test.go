package iox

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"unicode/utf8"
)

func TestTail(t *testing.T) {
	tests := []struct {
		name      string
		n         int
		writes    []string
		tail      string
		truncated bool
	}{
		{"empty", 4, nil, "", false},
		{"fits", 4, []string{"ab", "cd"}, "abcd", false},
		{"one big write", 4, []string{"abcdefgh"}, "efgh", true},
		{"many small", 4, []string{"a", "b", "c", "d", "e", "f"}, "cdef", true},
		{"big then small", 4, []string{"abcdef", "g"}, "defg", true},
		{"cut at a character boundary", 4, []string{"xx\u00e9\u00e9"}, "\u00e9\u00e9", true},
		{"cut leaves a continuation byte", 3, []string{"x\u00e9\u00e9"}, "\u00e9", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := NewTail(tc.n)
			for _, w := range tc.writes {
				b.Write([]byte(w))
			}
			tail, trunc, _ := b.Result()
			if tail != tc.tail || trunc != tc.truncated {
				t.Errorf("got %q %v; want %q %v", tail, trunc, tc.tail, tc.truncated)
			}
		})
	}
}

// FuzzTailBuffer compares the buffer with the suffix of everything written.
func FuzzTailBuffer(f *testing.F) {
	f.Add([]byte("hello world, this is output"), uint8(7), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, n, chunk uint8) {
		size := int(n%64) + 1
		step := int(chunk%16) + 1
		b := NewTail(size)
		for i := 0; i < len(data); i += step {
			b.Write(data[i:min(len(data), i+step)])
		}
		tail, trunc, total := b.Result()
		if total != int64(len(data)) {
			t.Fatalf("total = %d; want %d", total, len(data))
		}
		want := data[max(0, len(data)-size):]
		if !bytes.HasSuffix(want, []byte(tail)) || len(want)-len(tail) > utf8.UTFMax-1 {
			t.Fatalf("tail %q is not the suffix %q", tail, want)
		}
		if trunc != (len(tail) < len(data)) {
			t.Fatalf("truncated = %v with %d of %d bytes", trunc, len(tail), len(data))
		}
	})
}

// The limit holds when os/exec copies a real child's output into the
// buffer: a buffer that embedded bytes.Buffer would hand io.Copy its
// ReadFrom and take all 10 MB through a 1 KiB cap.
func TestLimitedThroughExecCmd(t *testing.T) {
	if os.Getenv("IOX_HELPER_CHATTER") != "" {
		n, _ := strconv.Atoi(os.Getenv("IOX_HELPER_CHATTER"))
		chunk := bytes.Repeat([]byte("x"), 64<<10)
		for n > 0 {
			w := min(n, len(chunk))
			os.Stdout.Write(chunk[:w])
			n -= w
		}
		os.Exit(0)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run=^TestLimitedThroughExecCmd$")
	cmd.Env = append(os.Environ(), "IOX_HELPER_CHATTER=10000000")
	out := &Limited{Max: 1024}
	tail := NewTail(16)
	cmd.Stdout = out
	cmd.Stderr = tail
	if err := cmd.Run(); err != nil {
		t.Fatalf("helper: %v (stderr %q)", err, tail.String())
	}
	if len(out.Bytes()) > 1024 || !out.Overflowed() {
		t.Fatalf("kept %d bytes of 10 MB through a 1 KiB cap (overflowed %v)", len(out.Bytes()), out.Overflowed())
	}
}

func TestLimited(t *testing.T) {
	b := &Limited{Max: 5}
	for _, w := range []string{"ab", "cd", "ef", "g"} {
		if n, err := b.Write([]byte(w)); n != len(w) || err != nil {
			t.Fatalf("Write(%q) = %d, %v; a full buffer must not fail the writer", w, n, err)
		}
	}
	if string(b.Bytes()) != "abcd" || !b.Overflowed() {
		t.Fatalf("kept %q overflowed %v", b.Bytes(), b.Overflowed())
	}
}
