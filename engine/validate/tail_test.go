package validate

import (
	"bytes"
	"testing"
	"unicode/utf8"
)

func TestTailBuffer(t *testing.T) {
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
			b := newTailBuffer(tc.n)
			for _, w := range tc.writes {
				b.Write([]byte(w))
			}
			tail, trunc, _ := b.result()
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
		b := newTailBuffer(size)
		for i := 0; i < len(data); i += step {
			b.Write(data[i:min(len(data), i+step)])
		}
		tail, trunc, total := b.result()
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
