package cli

import (
	"fmt"
	"unicode/utf8"

	"github.com/prosewash/prosewash/internal/engine/region"
	"github.com/prosewash/prosewash/internal/engine/textpos"
)

const classifyHelp = `Without --show, prints one summary line per region kind to standard error.
--show prints the region map on standard output, one region per line:

  START-END  LINE:COL  KIND       WHY        TEXT (first 60 characters, escaped)

--json prints the map as JSON. Offsets are bytes; END is exclusive.`

func runClassify(e *env, args []string) error {
	fs := newFlags("classify")
	show := fs.Bool("show", false, "")
	asJSON := fs.Bool("json", false, "")
	paths, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(paths) != 1 {
		return usagef("classify takes exactly one FILE")
	}
	data, err := readInput(paths[0])
	if err != nil {
		return err
	}
	m, err := region.Classify(paths[0], data)
	if err != nil {
		return err
	}
	switch {
	case *asJSON:
		type reg struct {
			Start int    `json:"start"`
			End   int    `json:"end"`
			Kind  string `json:"kind"`
			Why   string `json:"why"`
		}
		out := struct {
			File     string `json:"file"`
			Language string `json:"language"`
			Size     int    `json:"size"`
			Regions  []reg  `json:"regions"`
		}{paths[0], m.Lang, m.Size, []reg{}}
		for _, r := range m.Regions {
			out.Regions = append(out.Regions, reg{r.Start, r.End, r.Kind.String(), r.Why})
		}
		return writeJSON(e, out)
	case *show:
		for _, r := range m.Regions {
			line, col := textpos.LineCol(data, r.Start)
			fmt.Fprintf(e.stdout, "%d-%d\t%d:%d\t%-9s\t%s\t%s\n", r.Start, r.End, line, col, r.Kind, r.Why, preview(data[r.Start:r.End], 60))
		}
		return nil
	}
	counts := map[region.Kind][2]int{}
	for _, r := range m.Regions {
		c := counts[r.Kind]
		counts[r.Kind] = [2]int{c[0] + 1, c[1] + r.Len()}
	}
	e.ui.infof("%s: %s, %d bytes", paths[0], m.Lang, m.Size)
	for _, k := range []region.Kind{region.Prose, region.Directive, region.Runtime} {
		e.ui.infof("  %-9s %4d regions %8d bytes", k, counts[k][0], counts[k][1])
	}
	return nil
}

// preview renders text for one line of "classify --show": invisible and
// non-ASCII characters are escaped so the map itself carries no carriers.
func preview(b []byte, max int) string {
	var out []byte
	n := 0
	for len(b) > 0 && n < max {
		r, size := utf8.DecodeRune(b)
		b = b[size:]
		n++
		switch {
		case r == utf8.RuneError && size == 1:
			out = append(out, `\x??`...)
		case r == '\\':
			out = append(out, `\\`...)
		case r >= 0x20 && r < 0x7f:
			out = append(out, byte(r))
		case r == '\n':
			out = append(out, `\n`...)
		case r == '\t':
			out = append(out, `\t`...)
		case r == '\r':
			out = append(out, `\r`...)
		case r < 0x10000:
			out = append(out, fmt.Sprintf(`\u%04X`, r)...)
		default:
			out = append(out, fmt.Sprintf(`\U%08X`, r)...)
		}
	}
	s := string(out)
	if len(b) > 0 {
		s += "..."
	}
	return s
}
