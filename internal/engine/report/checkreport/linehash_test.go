package checkreport

import (
	"strings"
	"testing"
)

// lineHashVectors are files and the line hashes github/codeql-action's own
// fingerprinting code (src/fingerprints.ts, commit f3f1edbed, bundled with
// esbuild and run with node 20) printed for them: an independent oracle.
// They cover CRLF, a lone CR, spaces and tabs, an emoji and a tag character
// (surrogate pairs), invalid UTF-8, a line longer than the block, two
// identical long lines (":1", ":2") and the empty file.
var lineHashVectors = []struct {
	data string
	want []string
}{
	{"hello world\x0a\x09foo\x0d\x0abar\x0dbaz \xf0\x9f\x98\x80 x\x0a\x0ahello world\x0a", []string{"c6417868d2462252:1", "74100c52dcd061c4:1", "9df216c286cab26a:1", "dd0ccd9ed18a94e3:1", "55ac96dfd06c5dbb:1", "69d1a8532088f99d:1", "c129715d7a2bc9a3:1"}},
	{"a\x0a", []string{"243cbaa4685aab12:1", "c129715d7a2bc9a3:1"}},
	{"", []string{"c129715d7a2bc9a3:1"}},
	{"  x\x0d\x0a\x0d\x0a\x09\x0d  \x0a\xff\xfe z\xe2\x80\x8b\xf3\xa0\x80\xa9y\x0aqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq\x0asame\x0asame", []string{"356628f76fc2b842:1", "3f6efac82cace776:1", "32ea18e875dce215:1", "63b5739309cc1b10:1", "71198e3a6b5f5757:1", "99e008eaea8cd3c:1", "ecbdbf3552acd07d:1", "793f1c3a4abeb3f9:1"}},
	{"wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww\x0awwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww\x0aend\x0a", []string{"da8d78a861d84724:1", "da8d78a861d84724:2", "fe2be582c6296f40:1", "c129715d7a2bc9a3:1"}},
}

func TestLineHashesMatchCodeQLAction(t *testing.T) {
	for _, v := range lineHashVectors {
		got := LineHashes([]byte(v.data))
		if strings.Join(got, " ") != strings.Join(v.want, " ") {
			t.Errorf("%.40q:\n got %v\nwant %v", v.data, got, v.want)
		}
	}
}
