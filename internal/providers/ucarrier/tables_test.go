package ucarrier

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/prosewash/prosewash/internal/providers/ucarrier/internal/class"
	"github.com/prosewash/prosewash/internal/providers/ucarrier/internal/ucdgen"
	"github.com/prosewash/prosewash/internal/testtool"
)

// needUCD returns the Unicode Character Database the tables were generated
// from: the installed Debian package unicode-data, else the same package
// downloaded into the test cache, so the checks never quietly skip in CI.
func needUCD(t *testing.T) string {
	t.Helper()
	const installed = "/usr/share/unicode"
	if _, err := os.Stat(filepath.Join(installed, "UnicodeData.txt")); err == nil {
		return installed
	}
	dir := filepath.Join(testtool.Debian(t, "unicode-data"), "usr", "share", "unicode")
	if _, err := os.Stat(filepath.Join(dir, "UnicodeData.txt")); err != nil {
		testtool.Missing(t, "apt", fmt.Sprintf("the unicode-data package holds no UnicodeData.txt: %v", err))
	}
	return dir
}

// TestUnicodeVersionPinned fails when Go's unicode tables move to another
// version than the generated ones: the policy mixes both.
func TestUnicodeVersionPinned(t *testing.T) {
	if unicode.Version != tableVersion {
		t.Fatalf("Go's unicode.Version is %s but tables.go was generated from %s: run go generate with the matching UCD", unicode.Version, tableVersion)
	}
}

// TestTablesUpToDate regenerates tables.go and compares it with the
// committed one.
func TestTablesUpToDate(t *testing.T) {
	ucdDir := needUCD(t)
	want, err := ucdgen.Generate(ucdDir, "ucarrier")
	if err != nil {
		t.Fatalf("generate: %v", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tables.go"), want, 0o600); err != nil {
		t.Fatal(err)
	}
	have, err := os.ReadFile("tables.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(have, want) {
		t.Fatalf("tables.go differs from a fresh generation (%s/tables.go): run go generate ./internal/providers/ucarrier", dir)
	}
}

// TestDefaultIgnorableFormula checks the Default_Ignorable_Code_Point
// formula against DerivedCoreProperties.txt for every code point.
func TestDefaultIgnorableFormula(t *testing.T) {
	ucdDir := needUCD(t)
	set := map[rune]bool{}
	readUCD(t, ucdDir, "DerivedCoreProperties.txt", func(fields []string) {
		if len(fields) >= 2 && fields[1] == "Default_Ignorable_Code_Point" {
			lo, hi := parseUCDRange(t, fields[0])
			for r := lo; r <= hi; r++ {
				set[r] = true
			}
		}
	})
	if len(set) != 4174 {
		t.Errorf("DerivedCoreProperties.txt has %d Default_Ignorable_Code_Point, want 4174 (Unicode 15.0)", len(set))
	}
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if got := class.IsDefaultIgnorable(r); got != set[r] {
			t.Fatalf("IsDefaultIgnorable(U+%04X) = %v, DerivedCoreProperties.txt says %v", r, got, set[r])
		}
		if set[r] && class.Of(r) == class.None {
			t.Fatalf("U+%04X is Default_Ignorable but not a carrier", r)
		}
	}
}

// TestPrefilter checks the generated bitmap against the class function for
// every code point.
func TestPrefilter(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if got, want := isCandidate(r), class.Of(r) != class.None; got != want {
			t.Fatalf("isCandidate(U+%04X) = %v, class %v", r, got, class.Of(r))
		}
	}
	if isCandidate(-1) || isCandidate(unicode.MaxRune+1) {
		t.Fatal("out-of-range runes are candidates")
	}
}

// TestCarrierSetMatchesUCD derives the carrier set from UnicodeData.txt and
// compares it with the class function.
func TestCarrierSetMatchesUCD(t *testing.T) {
	ucdDir := needUCD(t)
	gc := map[rune]string{}
	readUCD(t, ucdDir, "UnicodeData.txt", func(f []string) {
		r, _ := strconv.ParseUint(f[0], 16, 32)
		gc[rune(r)] = f[2]
		if strings.HasSuffix(f[1], ", Last>") {
			for x := rune(r) - 1; gc[x] == ""; x-- {
				gc[x] = f[2]
			}
		}
	})
	di := map[rune]bool{}
	readUCD(t, ucdDir, "DerivedCoreProperties.txt", func(fields []string) {
		if len(fields) >= 2 && fields[1] == "Default_Ignorable_Code_Point" {
			lo, hi := parseUCDRange(t, fields[0])
			for r := lo; r <= hi; r++ {
				di[r] = true
			}
		}
	})
	nonchar := func(r rune) bool { return r >= 0xFDD0 && r <= 0xFDEF || r&0xFFFE == 0xFFFE }
	for r := rune(0); r <= unicode.MaxRune; r++ {
		g := gc[r]
		want := di[r] || g == "Cf" || g == "Zs" && r != ' ' || g == "Zl" || g == "Zp" ||
			g == "Cc" && r != '\t' && r != '\n' && r != '\r' || g == "Co" ||
			r == 0xFFFC || r == 0x2800 || nonchar(r)
		if got := class.Of(r) != class.None; got != want {
			t.Fatalf("U+%04X (gc %q): carrier %v, UCD says %v", r, g, got, want)
		}
	}
}

// TestEmojiSequencesKept runs every sequence of emoji-test.txt (fully,
// minimally and unqualified, components) through the standard profile, which
// must leave it intact.
func TestEmojiSequencesKept(t *testing.T) {
	ucdDir := needUCD(t)
	n := 0
	readUCD(t, ucdDir, "emoji/emoji-test.txt", func(fields []string) {
		seq := parseSeq(t, fields[0])
		for _, ctx := range [][2]string{{"", ""}, {"see ", " here"}} {
			text := []byte(seq)
			out, fs := Clean([]byte(ctx[0]), text, []byte(ctx[1]), std)
			if !bytes.Equal(out, text) {
				t.Errorf("emoji %s (%+q) changed: %+q, findings %v", fields[0], seq, out, fs)
			}
		}
		n++
	})
	if n < 4000 {
		t.Errorf("read %d emoji sequences, want > 4000", n)
	}
}

// TestVariationSequencesKept checks every sequence of
// emoji-variation-sequences.txt and StandardizedVariants.txt.
func TestVariationSequencesKept(t *testing.T) {
	ucdDir := needUCD(t)
	for _, file := range []string{"emoji/emoji-variation-sequences.txt", "StandardizedVariants.txt"} {
		n := 0
		readUCD(t, ucdDir, file, func(fields []string) {
			seq := parseSeq(t, fields[0])
			r := []rune(seq)
			if r[0] >= '0' && r[0] <= '9' || r[0] == '#' || r[0] == '*' {
				seq += "\u20e3" // a selector after a digit is kept in a keycap only
			}
			out, fs := Clean(nil, []byte(seq), nil, std)
			if string(out) != seq {
				t.Errorf("%s: %s (%+q) changed: %+q, findings %v", file, fields[0], seq, out, fs)
			}
			n++
		})
		if n == 0 {
			t.Errorf("%s: no sequences", file)
		}
	}
}

func readUCD(t *testing.T, ucdDir, name string, fn func(fields []string)) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(ucdDir, name))
	if err != nil {
		t.Skipf("%s not readable: %v", name, err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if i := strings.IndexByte(line, '#'); i >= 0 {
			line = line[:i]
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		fields := strings.Split(line, ";")
		for i := range fields {
			fields[i] = strings.TrimSpace(fields[i])
		}
		fn(fields)
	}
}

func parseUCDRange(t *testing.T, s string) (rune, rune) {
	t.Helper()
	lo, hi, ok := strings.Cut(s, "..")
	if !ok {
		hi = lo
	}
	a, err1 := strconv.ParseUint(lo, 16, 32)
	b, err2 := strconv.ParseUint(hi, 16, 32)
	if err1 != nil || err2 != nil {
		t.Fatalf("bad range %q", s)
	}
	return rune(a), rune(b)
}

func parseSeq(t *testing.T, s string) string {
	t.Helper()
	var b strings.Builder
	for _, f := range strings.Fields(s) {
		v, err := strconv.ParseUint(f, 16, 32)
		if err != nil {
			t.Fatalf("bad sequence %q", s)
		}
		b.WriteRune(rune(v))
	}
	return b.String()
}
