package checkreport

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// randomJSON builds a random value: objects, arrays (empty ones too),
// strings with quotes, backslashes, escapes and non-ASCII text, numbers,
// literals, nested up to depth.
func randomJSON(rng *rand.Rand, depth int) any {
	switch k := rng.IntN(7); {
	case depth > 0 && k == 0:
		m := map[string]any{}
		for n := rng.IntN(4); n > 0; n-- {
			m[randomString(rng)] = randomJSON(rng, depth-1)
		}
		return m
	case depth > 0 && k == 1:
		a := []any{}
		for n := rng.IntN(4); n > 0; n-- {
			a = append(a, randomJSON(rng, depth-1))
		}
		return a
	case k == 2:
		return rng.NormFloat64() * 1e3
	case k == 3:
		return rng.IntN(3) == 0
	case k == 4:
		return nil
	}
	return randomString(rng)
}

func randomString(rng *rand.Rand) string {
	pieces := []string{"a", "key", `"`, `\`, "\n", "\t", "<&>", "é", "\u200b", "\u2028", ",", ":", "{", "]", " ", "\x01"}
	var b []byte
	for n := rng.IntN(6); n > 0; n-- {
		b = append(b, pieces[rng.IntN(len(pieces))]...)
	}
	return string(b)
}

// TestAppendIndentedIsJSONIndent compares appendIndented with the
// standard library's json.Indent on random documents as json.Marshal
// writes them.
func TestAppendIndentedIsJSONIndent(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for round := 0; round < 5000; round++ {
		doc := []any{}
		for n := rng.IntN(8); n > 0; n-- {
			doc = append(doc, randomJSON(rng, 4))
		}
		src, err := json.Marshal(map[string]any{"findings": doc, "summary": randomJSON(rng, 3)})
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if err := json.Indent(&want, src, "", "  "); err != nil {
			t.Fatal(err)
		}
		if got := appendIndented(nil, src, "  "); !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("appendIndented(%s) =\n%s\nwant\n%s", src, got, want.Bytes())
		}
	}
}

// BenchmarkJSONIndent indents a report of 2,000 findings-like objects with
// appendIndented and with json.Indent, and makes it terminal-safe.
func BenchmarkJSONIndent(b *testing.B) {
	var doc []map[string]any
	for i := range 2000 {
		doc = append(doc, map[string]any{"path": "src/a/b/c.go", "line": i, "col": 7, "code": "U+200B", "name": "ZERO WIDTH SPACE", "reason": "a \"quoted\" reason"})
	}
	src, _ := json.Marshal(map[string]any{"findings": doc})
	b.Run("appendIndented", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			appendIndented(nil, src, "  ")
		}
	})
	// The terminal-safety pass over the same document, which JSON output
	// makes before indenting, against appendIndented.
	b.Run("terminalSafe", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			terminalSafe(src)
		}
	})
	b.Run("json.Indent", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			var out bytes.Buffer
			_ = json.Indent(&out, src, "", "  ")
		}
	})
}
