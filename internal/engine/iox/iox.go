package iox

import (
	"bytes"
	"unicode/utf8"
)

// Limited keeps at most Max bytes and remembers that more came. It never
// fails the writer, so a chatty child cannot block on a full pipe or die
// of a broken one. It deliberately has no ReadFrom: os/exec copies a
// child's output with io.Copy, which would use a ReadFrom (bytes.Buffer's,
// if one were embedded) and bypass the limit.
type Limited struct {
	Max  int
	buf  bytes.Buffer
	over bool
}

// Write keeps p if it fits under the limit, else marks the overflow.
func (b *Limited) Write(p []byte) (int, error) {
	if b.over || b.buf.Len()+len(p) > b.Max {
		b.over = true
		return len(p), nil
	}
	return b.buf.Write(p)
}

// Bytes is what was kept.
func (b *Limited) Bytes() []byte { return b.buf.Bytes() }

// Overflowed reports whether output beyond Max arrived (and was dropped).
func (b *Limited) Overflowed() bool { return b.over }

// Tail keeps the last n bytes written to it, and counts them all.
type Tail struct {
	n     int
	buf   []byte
	total int64
}

// NewTail keeps the last n bytes (n > 0).
func NewTail(n int) *Tail {
	if n <= 0 {
		n = 1
	}
	return &Tail{n: n, buf: make([]byte, 0, 2*n)}
}

// Write keeps the end of what arrives.
func (t *Tail) Write(p []byte) (int, error) {
	t.total += int64(len(p))
	if len(p) >= t.n {
		t.buf = append(t.buf[:0], p[len(p)-t.n:]...)
		return len(p), nil
	}
	if len(t.buf)+len(p) > cap(t.buf) {
		keep := t.n - len(p)
		t.buf = append(t.buf[:0], t.buf[len(t.buf)-keep:]...)
	}
	t.buf = append(t.buf, p...)
	return len(p), nil
}

// Result returns the kept tail starting at a character boundary, whether
// anything was dropped, and the total size written.
func (t *Tail) Result() (string, bool, int64) {
	b := t.buf
	if len(b) > t.n {
		b = b[len(b)-t.n:]
	}
	truncated := t.total > int64(len(b))
	if truncated {
		for i := 0; i < utf8.UTFMax-1 && len(b) > 0 && !utf8.RuneStart(b[0]); i++ {
			b = b[1:]
		}
	}
	return string(b), truncated, t.total
}

// String is the kept tail.
func (t *Tail) String() string {
	s, _, _ := t.Result()
	return s
}
