package clean

import (
	"strings"
	"testing"
)

// TestGFMUnreadable holds the bounds of what is handed to goldmark: deep
// nesting and long blocks of delimiters are named, what people write
// (a thematic break of spaced dashes, a long tight list of links, one
// heading per line) is read. Each block-ending rule is checked against a
// line that only looks like one (an indented or other-numbered marker, a
// '#' without a blank), which a paragraph goes on through.
func TestGFMUnreadable(t *testing.T) {
	rep := strings.Repeat
	for _, tc := range []struct {
		name, src string
		want      string // substring of the reason; "" for readable
	}{
		{"64 deep", rep("- ", 64) + "x\n", ""},
		{"65 deep", rep("- ", 65) + "x\n", "line 1 opens 65"},
		{"65 deep quotes on line 2", "a\n" + rep(">", 65) + "x\n", "line 2 opens 65"},
		{"mixed containers", rep("> 1. * ", 22) + "x\n", "opens 66"},
		{"spaced dashes", rep("- ", 200) + "\n", ""},
		{"runs on a line", rep("*a_ ", 513) + "\n", "lines 1-1 hold more than 1024"},
		{"brackets", rep("[", 1025) + "x\n", "more than 1024"},
		{"tight list of links", rep("- [name](https://x.y) *new* ~~old~~\n", 3000), ""},
		{"headings", rep("# [a] *b*\n", 3000), ""},
		{"blank lines", rep("*a* [b]\n\n", 3000), ""},
		{"lazy indented items", "p\n" + rep("    - *a_ *a_\n", 300), "lines 1-258 hold"},
		{"other numbers", "p\n" + rep("2. *a_ *a_\n", 300), "lines 1-"},
		{"not headings", "p\n" + rep("#x *a_ *a_\n", 300), "lines 1-"},
		{"empty items", "p\n" + rep("- *a*\n-\n", 1), ""},
		{"quoted paragraph", rep("> *a_ *a_\n", 300), "lines 1-"},
		// ansible's vmware_rest README: a table of 108 links to snake_case
		// module pages, no blank line; an intraword '_' is no delimiter.
		{"table of snake_case links", "Name | Description\n--- | ---\n" + rep("[vmware.appliance_access_consolecli_info](https://x.y/docs/appliance_access_consolecli_info_module.rst)|Get the state\n", 200), ""},
		{"intraword runs beside real ones", rep("*a_ snake_case_name\n", 513), "lines 1-"},
	} {
		got := gfmUnreadable([]byte(tc.src))
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}
