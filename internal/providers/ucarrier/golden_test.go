package ucarrier

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/prosewash/prosewash/internal/engine/carrier"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// goldenLang is the language of each golden input; others are "text".
var goldenLang = map[string]string{
	"emoji-readme":  "markdown",
	"trojan-source": "go",
}

// TestGolden cleans realistic mixed texts with both profiles. Inputs and
// golden files write every carrier as \u{XXXX}, so they stay reviewable.
func TestGolden(t *testing.T) {
	ins, err := filepath.Glob(filepath.Join("testdata", "golden", "*.in"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ins) < 10 {
		t.Fatalf("found %d golden inputs, want at least 10", len(ins))
	}
	for _, in := range ins {
		name := strings.TrimSuffix(filepath.Base(in), ".in")
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			text := []byte(unescape(string(raw)))
			var got bytes.Buffer
			for _, prof := range []carrier.Profile{carrier.Standard, carrier.Strict} {
				opt := Options{Profile: prof, Lang: goldenLang[name], FileStart: true}
				if opt.Lang == "" {
					opt.Lang = "text"
				}
				out, fs := Clean(nil, text, nil, opt)
				fmt.Fprintf(&got, "== %s %s: clean\n%s", prof, opt.Lang, escape(string(out)))
				fmt.Fprintf(&got, "== %s: %d findings\n", prof, len(fs))
				for _, f := range fs {
					line, col := position(text, f.Offset)
					fmt.Fprintf(&got, "%d:%d %s %s %s %s %s", line, col, f.Code(), f.Name, f.Class, f.Action, f.Severity)
					if f.Hidden != "" {
						fmt.Fprintf(&got, " hidden %q", f.Hidden)
					}
					got.WriteByte('\n')
				}
			}
			path := strings.TrimSuffix(in, ".in") + ".golden"
			if *update {
				if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got.Bytes(), want) {
				t.Errorf("%s differs; got:\n%s", path, got.Bytes())
			}
		})
	}
}

// position is the 1-based line and rune column of byte offset off.
func position(text []byte, off int) (int, int) {
	line := 1 + bytes.Count(text[:off], []byte{'\n'})
	start := bytes.LastIndexByte(text[:off], '\n') + 1
	return line, 1 + utf8.RuneCount(text[start:off])
}

var escapeRE = regexp.MustCompile(`\\u\{([0-9A-Fa-f]{1,6})\}`)

func unescape(s string) string {
	return escapeRE.ReplaceAllStringFunc(s, func(m string) string {
		v, _ := strconv.ParseUint(escapeRE.FindStringSubmatch(m)[1], 16, 32)
		return string(rune(v))
	})
}

// escape writes every carrier as \u{XXXX}; line breaks stay.
func escape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r != '\n' && isCarrierRune(r) {
			fmt.Fprintf(&b, `\u{%04X}`, r)
			continue
		}
		b.WriteRune(r)
	}
	if !strings.HasSuffix(s, "\n") {
		b.WriteString("\\no newline at end\n")
	}
	return b.String()
}

func isCarrierRune(r rune) bool {
	if r < 0x80 {
		return !(r >= 0x20 && r <= 0x7E || r == '\t' || r == '\n' || r == '\r')
	}
	return isCandidate(r)
}
