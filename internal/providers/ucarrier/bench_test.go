package ucarrier

import (
	"github.com/prosewash/prosewash/internal/engine/carrier"

	"bytes"
	"testing"
)

const asciiChunk = `// Package demo shows what an agent writes: code, comments and docs.
func (s *Server) handle(w http.ResponseWriter, r *http.Request) error {
	// Parse the request body and reply with a JSON document; errors are
	// wrapped with the path so the caller can report file:line:col.
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		return fmt.Errorf("decode %s: %w", r.URL.Path, err)
	}
	return nil
}
`

// mixedChunk is non-ASCII heavy: Japanese, Chinese, Persian, Hindi and emoji
// with their legitimate joiners and selectors, which the policy must judge
// and keep.
const mixedChunk = "\u65e5\u672c\u8a9e\u306e\u6587\u7ae0\u3067\u3059\u3002\u5168\u89d2\u30b9\u30da\u30fc\u30b9\u3000\u306f\u6b8b\u308a\u307e\u3059\u3002\n" +
	"\u4e2d\u6587\u6ce8\u91ca\uff1a\u8fd9\u4e2a\u51fd\u6570\u8fd4\u56de\u4e00\u4e2a\u9519\u8bef\u3002\n" +
	"\u0627\u06cc\u0646 \u06cc\u06a9 \u0646\u0627\u0645\u0647\u200c\u06cc \u06a9\u0648\u062a\u0627\u0647 \u0627\u0633\u062a \u0648 \u0645\u0627 \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u06cc\u0645 \u0622\u0646 \u0631\u0627 \u0628\u0641\u0631\u0633\u062a\u06cc\u0645.\n" +
	"\u0939\u093f\u0928\u094d\u0926\u0940 \u092e\u0947\u0902 \u0915\u094d\u200d\u0937 \u0914\u0930 \u0938\u0939\u092f\u094b\u0917\u0964\n" +
	"Made by \U0001F469\U0001F3FD\u200d\U0001F4BB and \U0001F468\u200d\U0001F469\u200d\U0001F467 \u2764\ufe0f \U0001F389\U0001F680\u2728\n"

func benchText(chunk string, size int) []byte {
	return bytes.Repeat([]byte(chunk), size/len(chunk)+1)[:size/len(chunk)*len(chunk)]
}

func BenchmarkPlainASCII(b *testing.B) {
	text := benchText(asciiChunk, 1<<20)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if !carrier.Plain(text) {
			b.Fatal("not plain")
		}
	}
}

func BenchmarkScanASCII(b *testing.B) {
	text := benchText(asciiChunk, 1<<20)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if fs := Scan(nil, text, nil, std); len(fs) != 0 {
			b.Fatal(fs)
		}
	}
}

func BenchmarkCleanASCII(b *testing.B) {
	text := benchText(asciiChunk, 1<<20)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Clean(nil, text, nil, std)
	}
}

// BenchmarkScanASCIIOneCarrier defeats the fast path: one carrier at the
// end makes the policy walk every ASCII byte.
func BenchmarkScanASCIIOneCarrier(b *testing.B) {
	text := append(benchText(asciiChunk, 1<<20), "\u200b"...)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if fs := Scan(nil, text, nil, std); len(fs) != 1 {
			b.Fatal(fs)
		}
	}
}

func BenchmarkScanNonASCII(b *testing.B) {
	text := benchText(mixedChunk, 1<<20)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if fs := Scan(nil, text, nil, std); len(fs) != 0 {
			b.Fatal(fs[:1])
		}
	}
}

func BenchmarkCleanNonASCII(b *testing.B) {
	text := benchText(mixedChunk, 1<<20)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Clean(nil, text, nil, std)
	}
}

// BenchmarkCleanDirty cleans text where every line carries junk.
func BenchmarkCleanDirty(b *testing.B) {
	text := benchText("some\u200b text\u00a0with \u202ejunk\u2069 \x1b[31mred\x1b[0m and tags\U000E0041\U000E0042\n"+mixedChunk, 1<<20)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		Clean(nil, text, nil, std)
	}
}
