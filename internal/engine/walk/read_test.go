package walk

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testtool"
)

// fakeFile serves content through read calls of at most chunk bytes and can
// grow by extra bytes after the first read, as a file being appended to.
type fakeFile struct {
	content []byte
	extra   []byte
	chunk   int
	off     int
	reads   int
	failAt  int
}

func (f *fakeFile) read(p []byte) (int, error) {
	f.reads++
	if f.failAt > 0 && f.reads == f.failAt {
		return 0, errors.New("device error")
	}
	if f.reads == 2 && f.extra != nil {
		f.content = append(f.content, f.extra...)
	}
	n := copy(p, f.content[f.off:])
	if f.chunk > 0 && n > f.chunk {
		n = f.chunk
	}
	f.off += n
	return n, nil
}

func TestLoad(t *testing.T) {
	text := []byte(strings.Repeat("line of text\n", 100))
	large := bytes.Repeat([]byte("z"), probeThreshold+100)
	largeBin := append(bytes.Repeat([]byte("z"), 100), 0)
	largeBin = append(largeBin, bytes.Repeat([]byte("z"), probeThreshold)...)
	tests := []struct {
		name      string
		file      fakeFile
		size, max int64
		want      []byte
		reason    SkipReason
		reads     int // read calls, 0 = do not check
		err       bool
	}{
		{name: "one read", file: fakeFile{content: text}, size: int64(len(text)), max: 1 << 20, want: text, reads: 1},
		{name: "empty", file: fakeFile{}, size: 0, max: 10, want: []byte{}, reads: 1},
		{name: "short reads", file: fakeFile{content: text, chunk: 7}, size: int64(len(text)), max: 1 << 20, want: text},
		{name: "grew after the read", file: fakeFile{content: text, extra: []byte("late")}, size: int64(len(text)), max: 1 << 20, want: text, reads: 1},
		{name: "shrunk", file: fakeFile{content: text[:10]}, size: int64(len(text)), max: 1 << 20, want: text[:10]},
		{name: "grew during short reads", file: fakeFile{content: text, extra: []byte("more"), chunk: 50}, size: int64(len(text)), max: 1 << 20, want: append(append([]byte{}, text...), "more"...)},
		{name: "grew past stat", file: fakeFile{content: append(append([]byte{}, text...), "tail"...)}, size: int64(len(text)), max: 1 << 20, want: append(append([]byte{}, text...), "tail"...)},
		{name: "grew too large", file: fakeFile{content: text, extra: bytes.Repeat([]byte("g"), 100), chunk: 10}, size: int64(len(text)), max: int64(len(text)) + 50, reason: SkipTooLarge},
		{name: "too large", file: fakeFile{content: text}, size: int64(len(text)), max: 10, reason: SkipTooLarge, reads: 0},
		{name: "binary", file: fakeFile{content: []byte("ab\x00c")}, size: 4, max: 10, reason: SkipBinary},
		{name: "large text in two reads", file: fakeFile{content: large}, size: int64(len(large)), max: 1 << 20, want: large, reads: 2},
		{name: "large binary stops at the probe", file: fakeFile{content: largeBin}, size: int64(len(largeBin)), max: 1 << 20, reason: SkipBinary, reads: 1},
		{name: "read error", file: fakeFile{content: text, failAt: 1}, size: int64(len(text)), max: 1 << 20, reason: SkipError, err: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ws workerState
			f := tt.file
			data, reason, _, err := load(f.read, tt.size, tt.max, &ws)
			if reason != tt.reason || (err != nil) != tt.err {
				t.Fatalf("reason %q err %v, want %q err=%v", reason, err, tt.reason, tt.err)
			}
			if reason == "" && !bytes.Equal(data, tt.want) {
				t.Errorf("data %d bytes, want %d", len(data), len(tt.want))
			}
			if tt.reads > 0 && f.reads != tt.reads {
				t.Errorf("%d read calls, want %d", f.reads, tt.reads)
			}
		})
	}
}

// TestLoadNULText: with nulText, a file whose only non-text bytes are NULs
// is text (one NUL cannot hide a file from a scan), also when the probe of
// a large file cuts a character in two; a NUL with invalid UTF-8 is still
// binary, and so are the real binaries on this machine.
func TestLoadNULText(t *testing.T) {
	cut := append(append([]byte{0}, bytes.Repeat([]byte("a"), BinaryPrefix-2)...), "\u00e9"...) // é straddles the probe
	cut = append(cut, bytes.Repeat([]byte("t"), probeThreshold)...)
	cases := []struct {
		name   string
		data   []byte
		reason SkipReason
	}{
		{"NUL in Markdown", []byte("# T\x00itle\n\nHello\u200bworld\n"), ""},
		{"NUL at the start of a large file, a character cut by the probe", cut, ""},
		{"NUL and invalid UTF-8", []byte("a\x00\xff\xfe"), SkipBinary},
		{"invalid UTF-8 after the probe", append(append([]byte{0}, bytes.Repeat([]byte("x"), probeThreshold)...), 0xc3, 'x'), SkipBinary},
	}
	for _, c := range cases {
		ws := workerState{nulText: true}
		f := fakeFile{content: c.data}
		if _, reason, _, _ := load(f.read, int64(len(c.data)), -1, &ws); reason != c.reason {
			t.Errorf("%s: reason %q, want %q", c.name, reason, c.reason)
		}
		ws = workerState{}
		f = fakeFile{content: c.data}
		if _, reason, _, _ := load(f.read, int64(len(c.data)), -1, &ws); reason != SkipBinary {
			t.Errorf("%s without nulText: reason %q, want binary (git's rule)", c.name, reason)
		}
	}
	n := 0
	for _, pattern := range []string{"/usr/bin/*", "/usr/lib/x86_64-linux-gnu/*.so*", "/usr/share/locale/*/LC_MESSAGES/*.mo"} {
		paths, _ := filepath.Glob(pattern)
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil || len(b) > 32<<20 || bytes.IndexByte(b[:min(len(b), BinaryPrefix)], 0) < 0 {
				continue
			}
			n++
			ws := workerState{nulText: true}
			f := fakeFile{content: b}
			if _, reason, _, _ := load(f.read, int64(len(b)), -1, &ws); reason != SkipBinary {
				t.Errorf("%s is a binary but was handed over as text", p)
			}
			if n == 300 {
				return
			}
		}
	}
	if n == 0 {
		testtool.Missing(t, "real binaries", "no ELF or .mo file under /usr with a NUL byte")
	}
}

// TestLoadBinaryDoesNotGrowBuffer: a large binary costs a probe-sized
// buffer, not a buffer of its size.
func TestLoadBinaryDoesNotGrowBuffer(t *testing.T) {
	var ws workerState
	bin := append([]byte{0}, bytes.Repeat([]byte("b"), 1<<20)...)
	f := fakeFile{content: bin}
	if _, reason, _, _ := load(f.read, int64(len(bin)), -1, &ws); reason != SkipBinary {
		t.Fatalf("reason %q, want binary", reason)
	}
	if cap(ws.buf) > minBuffer {
		t.Errorf("buffer grew to %d bytes for a binary file", cap(ws.buf))
	}
}

// TestLoadReusesBuffer: the worker's buffer grows to the largest file and is
// then reused, which is what bounds memory by Workers x largest file.
func TestLoadReusesBuffer(t *testing.T) {
	var ws workerState
	big := bytes.Repeat([]byte("a"), 5000)
	f := fakeFile{content: big}
	if _, _, _, err := load(f.read, int64(len(big)), -1, &ws); err != nil {
		t.Fatal(err)
	}
	first := &ws.buf[0]
	small := fakeFile{content: []byte("abc")}
	data, _, _, err := load(small.read, 3, -1, &ws)
	if err != nil || string(data) != "abc" {
		t.Fatalf("got %q, %v", data, err)
	}
	if &ws.buf[0] != first || &data[0] != first {
		t.Error("buffer not reused for a smaller file")
	}
}
