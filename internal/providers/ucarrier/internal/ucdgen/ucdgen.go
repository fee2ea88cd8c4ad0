package ucdgen

import (
	"bufio"
	"bytes"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/prosewash/prosewash/internal/providers/ucarrier/internal/class"
)

// Generate reads the Unicode Character Database in dir (the layout of the
// Debian unicode-data package: UnicodeData.txt at the top, emoji/ below) and
// returns the gofmt'ed source of tables.go for package pkg.
//
// It refuses a database whose version differs from Go's unicode.Version,
// because the policy mixes generated tables with Go's own.
func Generate(dir, pkg string) ([]byte, error) {
	version, err := ucdVersion(dir)
	if err != nil {
		return nil, err
	}
	if version != unicode.Version {
		return nil, fmt.Errorf("ucd %s is version %s, but Go's unicode tables are %s", dir, version, unicode.Version)
	}
	ud, err := readUnicodeData(filepath.Join(dir, "UnicodeData.txt"))
	if err != nil {
		return nil, err
	}
	aliases, err := readAliases(filepath.Join(dir, "NameAliases.txt"))
	if err != nil {
		return nil, err
	}
	if err := checkDefaultIgnorable(dir); err != nil {
		return nil, err
	}
	g := &gen{pkg: pkg, version: version}
	g.addCandidates(ud, aliases)
	for _, read := range []func(dir string) error{g.readEmoji, g.readVariants, g.readJoining, g.readIndicHangul} {
		if err := read(dir); err != nil {
			return nil, err
		}
	}
	if err := g.addCharProps(ud); err != nil {
		return nil, err
	}
	return g.source()
}

// addCandidates fills the candidate prefilter (a bitmap of the BMP, ranges
// above it) and the names of every carrier class.Of knows.
func (g *gen) addCandidates(ud *unicodeData, aliases map[rune][]alias) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if class.Of(r) == class.None {
			continue
		}
		if r < 0x10000 {
			g.bmp[r>>8][(r&0xFF)>>6] |= 1 << (uint(r) & 63)
		} else {
			g.supp = addRange(g.supp, r)
		}
		if n := carrierName(r, ud, aliases); n != "" {
			g.names = append(g.names, nameEntry{r, n})
		}
	}
}

// readEmoji reads the emoji properties (Extended_Pictographic,
// Emoji_Modifier) and the bases of the emoji variation sequences.
func (g *gen) readEmoji(dir string) error {
	props, err := readProps(filepath.Join(dir, "emoji", "emoji-data.txt"))
	if err != nil {
		return err
	}
	g.extPict = props["Extended_Pictographic"]
	g.emojiModifier = props["Emoji_Modifier"]
	if len(g.extPict) == 0 || len(g.emojiModifier) == 0 {
		return fmt.Errorf("emoji-data.txt: Extended_Pictographic or Emoji_Modifier missing")
	}
	evs, err := readSequences(filepath.Join(dir, "emoji", "emoji-variation-sequences.txt"))
	if err != nil {
		return err
	}
	seen := map[rune]bool{}
	for _, s := range evs {
		if len(s) != 2 || (s[1] != 0xFE0E && s[1] != 0xFE0F) {
			return fmt.Errorf("emoji-variation-sequences.txt: unexpected sequence %X", s)
		}
		if !seen[s[0]] {
			seen[s[0]] = true
			g.emojiVSBase = append(g.emojiVSBase, s[0])
		}
	}
	sort.Slice(g.emojiVSBase, func(i, j int) bool { return g.emojiVSBase[i] < g.emojiVSBase[j] })
	return nil
}

// readVariants reads the standardized variation sequences, sorted and
// without repeats.
func (g *gen) readVariants(dir string) error {
	sv, err := readSequences(filepath.Join(dir, "StandardizedVariants.txt"))
	if err != nil {
		return err
	}
	for _, s := range sv {
		if len(s) != 2 || !unicode.Is(unicode.Variation_Selector, s[1]) {
			return fmt.Errorf("StandardizedVariants.txt: unexpected sequence %X", s)
		}
		g.stdVariants = append(g.stdVariants, [2]rune{s[0], s[1]})
	}
	sort.Slice(g.stdVariants, func(i, j int) bool {
		a, b := g.stdVariants[i], g.stdVariants[j]
		return a[0] < b[0] || a[0] == b[0] && a[1] < b[1]
	})
	g.stdVariants = dedupPairs(g.stdVariants)
	return nil
}

// readJoining reads the Arabic joining types.
func (g *gen) readJoining(dir string) error {
	jt, err := readJoiningTypes(filepath.Join(dir, "ArabicShaping.txt"))
	g.joining = jt
	return err
}

// readIndicHangul reads the dependent vowels of Indic scripts and the
// Hangul leading consonant and vowel jamo.
func (g *gen) readIndicHangul(dir string) error {
	isc, err := readProps(filepath.Join(dir, "IndicSyllabicCategory.txt"))
	if err != nil {
		return err
	}
	g.vowelDependent = isc["Vowel_Dependent"]
	hst, err := readProps(filepath.Join(dir, "HangulSyllableType.txt"))
	if err != nil {
		return err
	}
	g.jamoL, g.jamoV = hst["L"], hst["V"]
	if len(g.vowelDependent) == 0 || len(g.jamoL) == 0 || len(g.jamoV) == 0 {
		return fmt.Errorf("ucd %s: Vowel_Dependent or Hangul jamo types missing", dir)
	}
	return nil
}

// addCharProps collects from UnicodeData.txt the viramas, the combining
// marks and the right-to-left letters.
func (g *gen) addCharProps(ud *unicodeData) error {
	for _, c := range ud.chars {
		if c.ccc == 9 {
			g.viramas = append(g.viramas, c.r)
		}
		if c.ccc != 0 {
			g.cccNonZero = addRange(g.cccNonZero, c.r)
		}
		if (c.bidi == "R" || c.bidi == "AL") && strings.HasPrefix(c.gc, "L") {
			g.rtlLetters = addRange(g.rtlLetters, c.r)
		}
	}
	if len(g.viramas) == 0 || len(g.rtlLetters) == 0 {
		return fmt.Errorf("UnicodeData.txt: no viramas or no right-to-left letters")
	}
	return nil
}

// rng is an inclusive code point range.
type rng struct{ lo, hi rune }

func addRange(rs []rng, r rune) []rng {
	if n := len(rs); n > 0 && rs[n-1].hi+1 == r {
		rs[n-1].hi = r
		return rs
	}
	return append(rs, rng{r, r})
}

func dedupPairs(ps [][2]rune) [][2]rune {
	out := ps[:0]
	for i, p := range ps {
		if i > 0 && p == ps[i-1] {
			continue
		}
		out = append(out, p)
	}
	return out
}

type nameEntry struct {
	r    rune
	name string
}

type jtRange struct {
	lo, hi rune
	t      byte
}

type gen struct {
	pkg, version   string
	bmp            [256][4]uint64
	supp           []rng
	names          []nameEntry
	extPict        []rng
	emojiModifier  []rng
	emojiVSBase    []rune
	stdVariants    [][2]rune
	joining        []jtRange
	viramas        []rune
	cccNonZero     []rng
	vowelDependent []rng
	rtlLetters     []rng
	jamoL, jamoV   []rng
}

func (g *gen) source() ([]byte, error) {
	var b bytes.Buffer
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("// Code generated by internal/gen from the Unicode Character Database %s; DO NOT EDIT.\n\n", g.version)
	w("package %s\n\n", g.pkg)
	w("// tableVersion is the Unicode version every table in this file was generated from.\n")
	w("const tableVersion = %q\n\n", g.version)

	// Two-level BMP prefilter: blocks of 256 code points that hold no
	// carrier map to 0; the others index a 256-bit set.
	var blocks [][4]uint64
	var index [256]uint8
	blocks = append(blocks, [4]uint64{})
	for i, blk := range g.bmp {
		if blk == ([4]uint64{}) {
			continue
		}
		found := -1
		for j, have := range blocks {
			if have == blk {
				found = j
				break
			}
		}
		if found < 0 {
			found = len(blocks)
			blocks = append(blocks, blk)
		}
		if found > 255 {
			return nil, fmt.Errorf("bmp prefilter: more than 255 distinct blocks")
		}
		index[i] = uint8(found)
	}
	w("// candBMPIndex maps the high byte of a BMP code point to its 256-bit set in\n")
	w("// candBMPBits; set 0 is empty. A code point is a candidate carrier when its bit is set.\n")
	w("var candBMPIndex = [256]uint8{")
	for i, v := range index {
		if i%16 == 0 {
			w("\n\t")
		} else {
			w(" ")
		}
		w("%d,", v)
	}
	w("\n}\n\n")
	w("var candBMPBits = [...][4]uint64{\n")
	for _, blk := range blocks {
		w("\t{%#016x, %#016x, %#016x, %#016x},\n", blk[0], blk[1], blk[2], blk[3])
	}
	w("}\n\n")

	writeRanges := func(name, doc string, rs []rng) {
		w("// %s %s\n", name, doc)
		w("var %s = [...]rng{", name)
		for i, r := range rs {
			if i%4 == 0 {
				w("\n\t")
			} else {
				w(" ")
			}
			w("{0x%04X, 0x%04X},", r.lo, r.hi)
		}
		w("\n}\n\n")
	}
	writeRunes := func(name, doc string, rs []rune) {
		w("// %s %s\n", name, doc)
		w("var %s = [...]rune{", name)
		for i, r := range rs {
			if i%8 == 0 {
				w("\n\t")
			} else {
				w(" ")
			}
			w("0x%04X,", r)
		}
		w("\n}\n\n")
	}

	writeRanges("candSupp", "lists the candidate carriers outside the BMP.", g.supp)

	w("// carrierNames holds the Unicode name of every named carrier, sorted by code\n")
	w("// point: the control alias for controls (NameAliases.txt), else the\n")
	w("// UnicodeData.txt name. Unnamed carriers get a code point label at run time.\n")
	w("var carrierNames = [...]nameEntry{\n")
	for _, n := range g.names {
		w("\t{0x%04X, %q},\n", n.r, n.name)
	}
	w("}\n\n")

	writeRanges("extPict", "is Extended_Pictographic (emoji-data.txt).", g.extPict)
	writeRanges("emojiModifier", "is Emoji_Modifier (emoji-data.txt): the skin tones.", g.emojiModifier)
	writeRunes("emojiVSBase", "lists the bases of emoji-variation-sequences.txt; each takes U+FE0E or U+FE0F.", g.emojiVSBase)

	w("// stdVariants lists the base and variation selector of every sequence in\n")
	w("// StandardizedVariants.txt, sorted.\n")
	w("var stdVariants = [...][2]rune{")
	for i, p := range g.stdVariants {
		if i%4 == 0 {
			w("\n\t")
		} else {
			w(" ")
		}
		w("{0x%04X, 0x%04X},", p[0], p[1])
	}
	w("\n}\n\n")

	w("// joiningTypes is the explicit Joining_Type of ArabicShaping.txt (D, L, R, C, T, U).\n")
	w("var joiningTypes = [...]jtRange{")
	for i, j := range g.joining {
		if i%4 == 0 {
			w("\n\t")
		} else {
			w(" ")
		}
		w("{0x%04X, 0x%04X, '%c'},", j.lo, j.hi, j.t)
	}
	w("\n}\n\n")

	writeRunes("viramas", "lists the code points with Canonical_Combining_Class 9 (Virama).", g.viramas)
	writeRanges("cccNonZero", "is Canonical_Combining_Class != 0 (UnicodeData.txt).", g.cccNonZero)
	writeRanges("vowelDependent", "is Indic_Syllabic_Category=Vowel_Dependent.", g.vowelDependent)
	writeRanges("rtlLetters", "lists the letters with Bidi_Class R or AL (UnicodeData.txt).", g.rtlLetters)
	writeRanges("jamoL", "is Hangul_Syllable_Type=L (leading consonants, with the choseong filler).", g.jamoL)
	writeRanges("jamoV", "is Hangul_Syllable_Type=V (vowels, with the jungseong filler).", g.jamoV)

	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("format generated tables: %w", err)
	}
	return src, nil
}

// ucdVersion reads the version from the header of DerivedCoreProperties.txt,
// e.g. "# DerivedCoreProperties-15.0.0.txt".
func ucdVersion(dir string) (string, error) {
	path := filepath.Join(dir, "DerivedCoreProperties.txt")
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("read ucd version: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if sc.Scan() {
		line := sc.Text()
		const prefix = "# DerivedCoreProperties-"
		if strings.HasPrefix(line, prefix) && strings.HasSuffix(line, ".txt") {
			return strings.TrimSuffix(strings.TrimPrefix(line, prefix), ".txt"), nil
		}
	}
	if err := sc.Err(); err != nil {
		return "", fmt.Errorf("read ucd version: %w", err)
	}
	return "", fmt.Errorf("%s:1: no version header", path)
}

type ucdChar struct {
	r    rune
	name string
	gc   string
	ccc  int
	bidi string
}

type unicodeData struct {
	chars  []ucdChar
	byRune map[rune]int
}

func readUnicodeData(path string) (*unicodeData, error) {
	ud := &unicodeData{byRune: map[rune]int{}}
	err := eachLine(path, func(lineNo int, fields []string) error {
		if len(fields) < 15 {
			return fmt.Errorf("%s:%d: want 15 fields, have %d", path, lineNo, len(fields))
		}
		r, err := parseRune(fields[0])
		if err != nil {
			return fmt.Errorf("%s:%d: %w", path, lineNo, err)
		}
		ccc, err := strconv.Atoi(fields[3])
		if err != nil {
			return fmt.Errorf("%s:%d: bad combining class: %w", path, lineNo, err)
		}
		c := ucdChar{r: r, name: fields[1], gc: fields[2], ccc: ccc, bidi: fields[4]}
		if strings.HasSuffix(c.name, ", Last>") {
			// Ranges (ideographs, Hangul, private use) have no individual
			// names, and none of their members is a named carrier.
			first := ud.chars[len(ud.chars)-1]
			for x := first.r + 1; x <= r; x++ {
				cc := c
				cc.r, cc.name = x, ""
				ud.byRune[x] = len(ud.chars)
				ud.chars = append(ud.chars, cc)
			}
			return nil
		}
		if strings.HasSuffix(c.name, ", First>") {
			c.name = ""
		}
		ud.byRune[r] = len(ud.chars)
		ud.chars = append(ud.chars, c)
		return nil
	})
	return ud, err
}

type alias struct{ name, kind string }

func readAliases(path string) (map[rune][]alias, error) {
	m := map[rune][]alias{}
	err := eachLine(path, func(lineNo int, fields []string) error {
		if len(fields) != 3 {
			return fmt.Errorf("%s:%d: want 3 fields, have %d", path, lineNo, len(fields))
		}
		r, err := parseRune(fields[0])
		if err != nil {
			return fmt.Errorf("%s:%d: %w", path, lineNo, err)
		}
		m[r] = append(m[r], alias{fields[1], fields[2]})
		return nil
	})
	return m, err
}

// carrierName is the name reported for r: for controls the first "control"
// alias (else the first "figment", for the four C1 codes that never had a
// control name); for others the last "correction" alias, else the name.
func carrierName(r rune, ud *unicodeData, aliases map[rune][]alias) string {
	i, ok := ud.byRune[r]
	if !ok {
		return ""
	}
	c := ud.chars[i]
	as := aliases[r]
	if c.gc == "Cc" {
		for _, kind := range []string{"control", "figment"} {
			for _, a := range as {
				if a.kind == kind {
					return a.name
				}
			}
		}
		return ""
	}
	name := c.name
	for _, a := range as {
		if a.kind == "correction" {
			name = a.name
		}
	}
	return name
}

// readProps reads a property file of the form "XXXX..YYYY ; Value # comment"
// into ranges per value.
func readProps(path string) (map[string][]rng, error) {
	m := map[string][]rng{}
	err := eachLine(path, func(lineNo int, fields []string) error {
		if len(fields) < 2 {
			return fmt.Errorf("%s:%d: want 2 fields, have %d", path, lineNo, len(fields))
		}
		lo, hi, err := parseRange(fields[0])
		if err != nil {
			return fmt.Errorf("%s:%d: %w", path, lineNo, err)
		}
		v := fields[1]
		rs := m[v]
		if n := len(rs); n > 0 && rs[n-1].hi+1 == lo {
			rs[n-1].hi = hi
		} else {
			rs = append(rs, rng{lo, hi})
		}
		m[v] = rs
		return nil
	})
	for v, rs := range m {
		sort.Slice(rs, func(i, j int) bool { return rs[i].lo < rs[j].lo })
		m[v] = mergeRanges(rs)
	}
	return m, err
}

func mergeRanges(rs []rng) []rng {
	out := rs[:0]
	for _, r := range rs {
		if n := len(out); n > 0 && out[n-1].hi+1 >= r.lo {
			if r.hi > out[n-1].hi {
				out[n-1].hi = r.hi
			}
			continue
		}
		out = append(out, r)
	}
	return out
}

// readSequences reads the first field of a sequence file ("XXXX YYYY ; ...").
func readSequences(path string) ([][]rune, error) {
	var seqs [][]rune
	err := eachLine(path, func(lineNo int, fields []string) error {
		var seq []rune
		for _, f := range strings.Fields(fields[0]) {
			r, err := parseRune(f)
			if err != nil {
				return fmt.Errorf("%s:%d: %w", path, lineNo, err)
			}
			seq = append(seq, r)
		}
		if len(seq) == 0 {
			return fmt.Errorf("%s:%d: empty sequence", path, lineNo)
		}
		seqs = append(seqs, seq)
		return nil
	})
	return seqs, err
}

func readJoiningTypes(path string) ([]jtRange, error) {
	var out []jtRange
	err := eachLine(path, func(lineNo int, fields []string) error {
		if len(fields) < 4 {
			return fmt.Errorf("%s:%d: want 4 fields, have %d", path, lineNo, len(fields))
		}
		r, err := parseRune(fields[0])
		if err != nil {
			return fmt.Errorf("%s:%d: %w", path, lineNo, err)
		}
		t := fields[2]
		if len(t) != 1 || !strings.Contains("DLRCTU", t) {
			return fmt.Errorf("%s:%d: unknown joining type %q", path, lineNo, t)
		}
		if n := len(out); n > 0 && out[n-1].hi+1 == r && out[n-1].t == t[0] {
			out[n-1].hi = r
		} else {
			out = append(out, jtRange{r, r, t[0]})
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].lo < out[j].lo })
	return out, err
}

// checkDefaultIgnorable refuses to generate when the class package's
// Default_Ignorable formula disagrees with DerivedCoreProperties.txt.
func checkDefaultIgnorable(dir string) error {
	path := filepath.Join(dir, "DerivedCoreProperties.txt")
	props, err := readProps(path)
	if err != nil {
		return err
	}
	di := props["Default_Ignorable_Code_Point"]
	if len(di) == 0 {
		return fmt.Errorf("%s: no Default_Ignorable_Code_Point", path)
	}
	i := 0
	for r := rune(0); r <= unicode.MaxRune; r++ {
		for i < len(di) && di[i].hi < r {
			i++
		}
		want := i < len(di) && di[i].lo <= r
		if class.IsDefaultIgnorable(r) != want {
			return fmt.Errorf("%s: Default_Ignorable_Code_Point of U+%04X is %v, the formula says %v", path, r, want, !want)
		}
	}
	return nil
}

// eachLine calls fn with the ';'-separated, trimmed fields of every
// non-comment line of the file.
func eachLine(path string, fn func(lineNo int, fields []string) error) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read ucd: %w", err)
	}
	for n, line := range strings.Split(string(data), "\n") {
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
		if err := fn(n+1, fields); err != nil {
			return err
		}
	}
	return nil
}

func parseRune(s string) (rune, error) {
	v, err := strconv.ParseUint(strings.TrimSpace(s), 16, 32)
	if err != nil || v > unicode.MaxRune {
		return 0, fmt.Errorf("bad code point %q", s)
	}
	return rune(v), nil
}

func parseRange(s string) (rune, rune, error) {
	lo, hi, ok := strings.Cut(s, "..")
	if !ok {
		r, err := parseRune(s)
		return r, r, err
	}
	a, err := parseRune(lo)
	if err != nil {
		return 0, 0, err
	}
	b, err := parseRune(hi)
	if err != nil {
		return 0, 0, err
	}
	if b < a {
		return 0, 0, fmt.Errorf("bad range %q", s)
	}
	return a, b, nil
}
