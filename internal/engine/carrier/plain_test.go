package carrier

import (
	"strings"
	"testing"
)

// indexRef is the byte-at-a-time definition IndexSpecial must agree with.
func indexRef(data []byte) int {
	for i, c := range data {
		if c >= 0x7f || c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
			return i
		}
	}
	return -1
}

func plainRef(data []byte) bool { return indexRef(data) < 0 }

func TestPlain(t *testing.T) {
	long := strings.Repeat("func main() {\n\tx := 1\r\n}\n", 10)
	tests := []struct {
		in   string
		want bool
	}{
		{"", true},
		{"hello, world\n", true},
		{"\t\n\r ~", true},
		{long, true},
		{long + "\u200b", false},
		{"\u200b" + long, false},
		{long[:37] + "\x7f" + long[37:], false},
		{long[:64] + "\x00" + long[64:], false},
		{long[:9] + "\x1b[31m" + long[9:], false},
		{long[:31] + "\x0b" + long[31:], false},
		{long[:8] + "\x0c", false},
		{"caf\xc3\xa9", false},
		{"\x85", false},
		{"\x08", false},
		{"\x0e", false},
		{"\x1f", false},
	}
	for _, tt := range tests {
		if got := Plain([]byte(tt.in)); got != tt.want {
			t.Errorf("Plain(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
	// Every byte value at every position of a word and of the tail.
	base := []byte(strings.Repeat("x", 45))
	for pos := range base {
		for c := range 256 {
			b := append([]byte(nil), base...)
			b[pos] = byte(c)
			if got, want := Plain(b), plainRef(b); got != want {
				t.Fatalf("byte %#x at %d: Plain = %v, want %v", c, pos, got, want)
			}
			if got, want := IndexSpecial(b), indexRef(b); got != want {
				t.Fatalf("byte %#x at %d: IndexSpecial = %d, want %d", c, pos, got, want)
			}
		}
	}
}

// Every pair of byte values side by side, at each lane boundary of a
// word: a carry or borrow from one lane into the next would show here.
func TestIndexSpecialLanePairs(t *testing.T) {
	base := []byte(strings.Repeat("x", 40))
	for _, pos := range []int{0, 3, 7, 31, 38} {
		for c1 := range 256 {
			for c2 := range 256 {
				b := append([]byte(nil), base...)
				b[pos], b[pos+1] = byte(c1), byte(c2)
				if got, want := IndexSpecial(b), indexRef(b); got != want {
					t.Fatalf("bytes %#x %#x at %d: IndexSpecial = %d, want %d", c1, c2, pos, got, want)
				}
			}
		}
	}
}

func FuzzIndexSpecial(f *testing.F) {
	f.Add([]byte("plain text\n"))
	f.Add([]byte("tab\there\r\n\x7f"))
	f.Add([]byte("\xe2\x80\x8b zero width"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := IndexSpecial(data), indexRef(data); got != want {
			t.Errorf("IndexSpecial(%q) = %d, want %d", data, got, want)
		}
	})
}

// Every byte value at every position of buffers long enough for the
// vector code's 64-byte steps, its 32- and 16-byte steps and the portable
// tail, with the buffer starting at every alignment; each vector
// implementation on its own (IndexSpecial runs only the one the processor
// suits best), and the portable loop on its own, which amd64 uses only for
// tails.
func TestIndexSpecialVectorSteps(t *testing.T) {
	code := vectorCode(t)
	backing := []byte(strings.Repeat("x\tyz \n", 60))
	for _, n := range []int{15, 16, 17, 63, 64, 65, 127, 128, 130, 200} {
		for align := 0; align < 16; align += 5 {
			base := backing[align : align+n]
			for pos := range base {
				for c := range 256 {
					b := append([]byte(nil), base...)
					b[pos] = byte(c)
					if got, want := IndexSpecial(b), indexRef(b); got != want {
						t.Fatalf("len %d, byte %#x at %d: IndexSpecial = %d, want %d", n, c, pos, got, want)
					}
					if got, want := indexSpecialWords(b), indexRef(b); got != want {
						t.Fatalf("len %d, byte %#x at %d: indexSpecialWords = %d, want %d", n, c, pos, got, want)
					}
					checkVectorCode(t, code, b)
				}
			}
			// Two special bytes: the first one is the answer.
			b := append([]byte(nil), base...)
			b[n-1], b[n/2] = 0x80, 0x01
			if got, want := IndexSpecial(b), indexRef(b); got != want {
				t.Fatalf("len %d, two specials: IndexSpecial = %d, want %d", n, got, want)
			}
			checkVectorCode(t, code, b)
		}
	}
}

// checkVectorCode holds each vector implementation to the definition on
// the whole blocks of 16 of b.
func checkVectorCode(t *testing.T, code map[string]func([]byte) int, b []byte) {
	t.Helper()
	blocks := b[:len(b)&^15]
	want := indexRef(blocks)
	if want < 0 {
		want = len(blocks)
	}
	for name, f := range code {
		if got := f(blocks); got != want {
			t.Fatalf("%s on %q: %d, want %d", name, blocks, got, want)
		}
	}
}

// BenchmarkIndexSpecial scans 64 KiB of plain ASCII source with the code
// IndexSpecial uses (vector, then words), with each vector implementation
// alone and with the portable loop alone.
func BenchmarkIndexSpecial(b *testing.B) {
	data := []byte(strings.Repeat("func main() {\n\tx := 1 // a comment\r\n}\n", 1800))[:64<<10]
	impls := []struct {
		name string
		f    func([]byte) int
	}{{"IndexSpecial", IndexSpecial}, {"words", indexSpecialWords}}
	for name, f := range vectorCode(b) {
		impls = append(impls, struct {
			name string
			f    func([]byte) int
		}{name, func(d []byte) int {
			if i := f(d); i < len(d) {
				return i
			}
			return -1
		}})
	}
	for _, c := range impls {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if c.f(data) != -1 {
					b.Fatal("special byte in plain data")
				}
			}
		})
	}
}
