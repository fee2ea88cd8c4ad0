package ucarrier

import (
	"bytes"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/prosewash/prosewash/internal/engine/carrier"
)

var fuzzLangs = []string{"text", "markdown", "python", "go", "yaml"}

// FuzzClean checks the invariants of the policy for arbitrary text and
// context: Clean is idempotent, a text it does not act on comes back
// byte-identical, valid UTF-8 stays valid, no line break is added or
// removed, Scan agrees with Clean, and every finding lies inside text on
// rune boundaries, sorted and without overlap.
func FuzzClean(f *testing.F) {
	for _, tc := range ruleCases {
		f.Add(tc.before, tc.text, tc.after, tc.opt.Profile == carrier.Strict, uint8(0), tc.opt.FileStart)
	}
	f.Add("", "\u05e9\u200f\u2003\u200f\n", "", false, uint8(1), false)
	f.Add("x", "a\u00a0\u00a0\x1b[0m\u2028", "\n", false, uint8(1), true)
	f.Fuzz(func(t *testing.T, before, text, after string, strict bool, lang uint8, fileStart bool) {
		opt := Options{Lang: fuzzLangs[int(lang)%len(fuzzLangs)], FileStart: fileStart}
		if strict {
			opt.Profile = carrier.Strict
		}
		b, x, a := []byte(before), []byte(text), []byte(after)
		out, fs := Clean(b, x, a, opt)

		again, fs2 := Clean(b, out, a, opt)
		if !bytes.Equal(again, out) {
			t.Fatalf("not idempotent: %+q -> %+q -> %+q\nfirst %v\nsecond %v", x, out, again, fs, fs2)
		}
		if actionable(fs2) {
			t.Fatalf("cleaned text still has actionable findings: %v", fs2)
		}
		if !actionable(fs) && !bytes.Equal(out, x) {
			t.Fatalf("no actionable finding but output changed: %+q -> %+q", x, out)
		}
		if len(fs) == 0 && !bytes.Equal(out, x) {
			t.Fatalf("no finding but output changed")
		}
		if Silent(x) && (len(fs) > 0 || !bytes.Equal(out, x)) {
			t.Fatalf("Silent text has findings %v or changed: %+q -> %+q", fs, x, out)
		}
		if utf8.Valid(x) && !utf8.Valid(out) {
			t.Fatalf("output is not valid UTF-8: %+q -> %+q", x, out)
		}
		if utf8.Valid(x) {
			checkReplacedSpaces(t, fs, b, x, out, a, opt.Lang == "markdown")
		}
		for _, nl := range []byte{'\n', '\r'} {
			if bytes.Count(out, []byte{nl}) != bytes.Count(x, []byte{nl}) {
				t.Fatalf("line breaks changed: %+q -> %+q", x, out)
			}
		}
		if scan := Scan(b, x, a, opt); !reflect.DeepEqual(scan, fs) {
			t.Fatalf("Scan %v != Clean findings %v", scan, fs)
		}
		end := 0
		for _, f := range fs {
			if f.Offset < end || f.Len <= 0 || f.Offset+f.Len > len(x) {
				t.Fatalf("finding %+v out of text (len %d) or overlapping (prev end %d)", f, len(x), end)
			}
			end = f.Offset + f.Len
			if utf8.Valid(x) {
				if !utf8.RuneStart(x[f.Offset]) || end < len(x) && !utf8.RuneStart(x[end]) {
					t.Fatalf("finding %+v not on rune boundaries of %+q", f, x)
				}
				if r, _ := utf8.DecodeRune(x[f.Offset:]); r != f.Rune {
					t.Fatalf("finding %+v: rune at offset is U+%04X", f, r)
				}
			}
		}
		if carrier.Plain(x) && len(fs) != 0 {
			t.Fatalf("plain text has findings: %v", fs)
		}
	})
}

// alphabet is what FuzzCleanTokens builds texts from: carriers and the
// neighbours their context rules look at, so the fuzzer explores the rules'
// interactions rather than random bytes.
var alphabet = []string{
	"a", "1", " ", "\t", "\n", "\r", ":", "?", "%", "#", "\x1b", "[", "m", "]", "\x07", "\\", "\f",
	"\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\u061c", "\u202e", "\u2066", "\u2069", "\u2060",
	"\u00a0", "\u202f", "\u2003", "\u3000", "\u2028", "\u0085", "\u00ad", "\u034f", "\ufeff",
	"\ufe0e", "\ufe0f", "\ufe00", "\U000E0100", "\u180b", "\u180e", "\u20e3", "\u0308",
	"\U000E0067", "\U000E0062", "\U000E0065", "\U000E007F", "\U000E0041", "\U0001F3F4",
	"\U0001F468", "\u2764", "\U0001F3FD", "\u2269", "\u845b", "\u65e5", "\u3053",
	"\u0628", "\u0627", "\u064e", "\u05e9", "\u0915", "\u094d", "\u093e", "\u0e01", "\u0e48",
	"\u1820", "\u1100", "\u1161", "\u115f", "\u1160", "\u2800", "\u2801",
	"\u00ab", "\u00bb", "\u0600", "\ue0a0", "\ufdd0", "\U00013000", "\U00013430", "\u0080", "\x00",
}

func decodeTokens(data []byte) string {
	var b bytes.Buffer
	for _, c := range data {
		b.WriteString(alphabet[int(c)%len(alphabet)])
	}
	return b.String()
}

// FuzzCleanTokens is FuzzClean over texts made of the alphabet above.
func FuzzCleanTokens(f *testing.F) {
	f.Add([]byte{0, 17, 1}, []byte{57, 21, 57, 21, 19, 4}, []byte{2}, false, uint8(0), false)
	f.Add([]byte{}, []byte{27, 21, 30, 21, 4}, []byte{}, false, uint8(1), false)
	f.Fuzz(func(t *testing.T, bb, tb, ab []byte, strict bool, lang uint8, fileStart bool) {
		before, text, after := decodeTokens(bb), decodeTokens(tb), decodeTokens(ab)
		opt := Options{Lang: fuzzLangs[int(lang)%len(fuzzLangs)], FileStart: fileStart}
		if strict {
			opt.Profile = carrier.Strict
		}
		b, x, a := []byte(before), []byte(text), []byte(after)
		out, fs := Clean(b, x, a, opt)
		again, fs2 := Clean(b, out, a, opt)
		if !bytes.Equal(again, out) || actionable(fs2) {
			t.Fatalf("not idempotent: before %+q\ntext %+q\nafter %+q\n-> %+q\n-> %+q\nfirst %v\nsecond %v", before, x, after, out, again, fs, fs2)
		}
		if !actionable(fs) && !bytes.Equal(out, x) {
			t.Fatalf("no actionable finding but output changed")
		}
		if !utf8.Valid(out) {
			t.Fatalf("output is not valid UTF-8: %+q", out)
		}
		if bytes.Count(out, []byte{'\n'}) != bytes.Count(x, []byte{'\n'}) || bytes.Count(out, []byte{'\r'}) != bytes.Count(x, []byte{'\r'}) {
			t.Fatalf("line breaks changed: %+q -> %+q", x, out)
		}
		checkReplacedSpaces(t, fs, b, x, out, a, opt.Lang == "markdown")
	})
}

// checkReplacedSpaces: a carrier replaced by U+0020 is never trailing
// whitespace (only spaces and tabs until the line end or the end of
// out+after) and, in Markdown, never leading whitespace.
func checkReplacedSpaces(t *testing.T, fs []carrier.Finding, before, x, out, after []byte, markdown bool) {
	t.Helper()
	full := append(append(append([]byte{}, before...), out...), after...)
	shift := len(before)
	for _, f := range fs {
		switch f.Action {
		case carrier.Remove:
			shift -= f.Len
			continue
		case carrier.Replace:
		default:
			continue
		}
		pos := f.Offset + shift // where the U+0020 sits in full
		shift += 1 - f.Len
		if full[pos] != ' ' {
			t.Fatalf("replacement of %+v is %q in %+q", f, full[pos], out)
		}
		j := pos + 1
		for j < len(full) && (full[j] == ' ' || full[j] == '\t') {
			j++
		}
		if j == len(full) || full[j] == '\n' || full[j] == '\r' {
			t.Fatalf("replacement of %+v made trailing whitespace: %+q -> %+q (after %+q)", f, x, out, after)
		}
		if markdown {
			k := pos - 1
			for k >= 0 && (full[k] == ' ' || full[k] == '\t') {
				k--
			}
			if k < 0 || full[k] == '\n' || full[k] == '\r' {
				t.Fatalf("replacement of %+v made leading whitespace in Markdown: %+q -> %+q (before %+q)", f, x, out, before)
			}
		}
	}
}
