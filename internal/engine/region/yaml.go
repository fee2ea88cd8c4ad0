package region

import (
	"bytes"
	"strings"
)

// The YAML classifier is a hand-written scanner: no Go YAML library reports
// comments with exact byte offsets. Only comments can be prose; every scalar
// (plain, quoted, block: a `run: |` body is a shell script that runs), key,
// anchor, alias, tag, flow indicator and document marker is runtime.
//
// Two families of readers disagree on what ends a line. libyaml and its
// ports (PyYAML, go.yaml.in/yaml/v3, Ruby's Psych) treat U+0085, U+2028 and
// U+2029 as line breaks everywhere, YAML 1.2 readers (npm yaml, tree-sitter)
// treat them as ordinary characters; so `a: 1 # c<U+2028>b: 2` holds a live
// key b for the first family and a comment for the second. They also size
// block scalars differently (libyaml counts the spaces of leading blank lines
// and never allows column 0). The scanner follows each family in its own
// pass when the file gives them a chance to disagree, and a byte is prose
// only if it lies in a comment for both. The three separators are each
// their own runtime region: never cleaned, always reported.

// yamlComment is a comment as one reading sees it, from '#' to the line end.
type yamlComment struct {
	start, end int
	// tight is set when nothing separates the '#' from the token before it:
	// libyaml reads a comment there, YAML 1.2 readers reject the file.
	tight bool
}

type yamlScanner struct {
	src []byte
	// lib follows libyaml: U+0085, U+2028 and U+2029 end lines, and block
	// scalars are sized the libyaml way.
	lib        bool
	wantLabels bool

	pos       int
	lineStart int
	lineFirst bool // no token seen yet on this line
	colPos    int  // column cache: colVal runes lie in [lineStart, colPos)
	colVal    int

	flow    int   // flow collection depth
	indents []int // columns of the open block collections
	keyCol  int   // column of the simple key candidate on this line, or -1
	keyOK   bool  // a simple key may start here

	// diverged is set when the libyaml reading could differ from this
	// (YAML 1.2) one in a way that is not visible in the bytes alone.
	diverged bool

	comments []yamlComment
	labels   []Region
	err      *RefusedError
}

func classifyYAML(path string, src []byte) (*Map, error) {
	// Whether a file is a template is not read from its directory: a Helm
	// template has "{{" where a YAML node starts ("{{- if .Values.x }}"),
	// which the scanner refuses; a file the YAML readers load (Argo CD's
	// notification templates hold "{{ }}" in plain scalars only) is YAML,
	// its "{{" in scalars runtime and in comments runtime too (Helm
	// renders comments).
	spec := &yamlScanner{src: src, wantLabels: true}
	spec.run()
	if spec.err != nil {
		spec.err.Path = path
		return nil, spec.err
	}
	comments := spec.comments
	var libComments []yamlComment
	seps := hasYAMLSeparators(src)
	if seps || spec.diverged {
		lib := &yamlScanner{src: src, lib: true}
		lib.run()
		if lib.err != nil {
			lib.err.Path = path
			return nil, lib.err
		}
		libComments = lib.comments
	} else {
		libComments = comments
	}

	b := NewBuilder(len(src))
	// Plain scalars, keys, anchors, aliases, tags and indicators share one
	// label: a region per token would cost more memory than the file.
	b.SetGapWhy("yaml: keys, plain scalars, indicators")
	li := 0
	mark := func(start, end int, a, c yamlComment) {
		for li < len(spec.labels) && spec.labels[li].Start < start {
			l := spec.labels[li]
			b.Mark(l.Start, l.End, l.Kind, l.Why)
			li++
		}
		k, why := yamlCommentKind(src, a, c)
		b.Mark(start, end, k, why)
	}
	// Intersect the two readings' comments: a byte is a comment byte only
	// when both readings say so.
	for i, j := 0, 0; i < len(comments) && j < len(libComments); {
		a, c := comments[i], libComments[j]
		if lo, hi := max(a.start, c.start), min(a.end, c.end); lo < hi {
			mark(lo, hi, a, c)
		}
		if a.end < c.end {
			i++
		} else {
			j++
		}
	}
	for ; li < len(spec.labels); li++ {
		l := spec.labels[li]
		b.Mark(l.Start, l.End, l.Kind, l.Why)
	}
	m := b.Map("yaml")
	if seps {
		m.Regions = splitYAMLSeparators(m.Regions, src)
	}
	return m, nil
}

// yamlCommentKind classifies one piece of comment that two readings share;
// a and c are the whole comments holding it in each reading.
func yamlCommentKind(src []byte, a, c yamlComment) (Kind, string) {
	if a.tight || c.tight {
		return Runtime, "comment with no space before it (libyaml reads one, YAML 1.2 readers reject it)"
	}
	if fs := carrierForms(src[a.start:a.end]); fs.containsFold("{{") || fs.containsFold("}}") {
		// A comment may also be the tail of an action the YAML reader
		// cut short: 'a{{ default " #x" }}'.
		return Runtime, "a {{ template action in a comment: a template engine (Helm, Go templates) renders comments too"
	}
	if why, ok := matchAfterRemoval(src[a.start:a.end], yamlDirective); ok {
		return Directive, why
	}
	if c != a {
		if why, ok := matchAfterRemoval(src[c.start:c.end], yamlDirective); ok {
			return Directive, why
		}
	}
	// The label that opens it, if any, is in the reason: a carrier whose
	// removal would make one appear changes it, and the engine keeps it.
	if a.end > a.start && src[a.start] == '#' {
		return Prose, commentWhy(src[a.start+1 : a.end])
	}
	return Prose, "comment"
}

// yamlKeywords are directive words that need no colon, matched
// case-insensitively as a prefix of a '#' segment.
var yamlKeywords = [...]struct{ prefix, why string }{
	{"yamllint", "directive: # yamllint"},
	{"prettier-ignore", "directive: # prettier-ignore"},
	{"noqa", "directive: # noqa"},
	{"nosec", "directive: # nosec"},
	{"kics-scan", "directive: # kics-scan"},
	{"checkov", "directive: # checkov"},
	{"tfsec", "directive: # tfsec"},
	{"trivy", "directive: # trivy"},
	{"gitleaks", "directive: # gitleaks"},
	{"shellcheck", "directive: # shellcheck"},
	{"actionlint", "directive: # actionlint"},
	{"zizmor", "directive: # zizmor"},
	{"eslint-", "directive: # eslint-"},
	{"trunk-ignore", "directive: # trunk-ignore"},
	{"language=", "directive: # language="},
	{"pragma", "directive: # pragma"},
	{"$schema", "directive: # $schema"},
	{"cspell", "directive: # cspell"},
	{"spell-checker", "directive: # spell-checker"},
	{"codespell", "directive: # codespell"},
	{"editorconfig-checker", "directive: # editorconfig-checker"},
}

// yamlDirective checks every '#'-introduced segment of a comment, so that
// "# why  # yamllint disable-line" is a directive too.
func yamlDirective(t []byte) (string, bool) {
	if why, ok := suppressionDirective(t, inAnyComment); ok {
		return why, true
	}
	for k := 0; k < len(t); k++ {
		if t[k] != '#' {
			continue
		}
		seg := t[k+1:]
		if e := bytes.IndexByte(seg, '#'); e >= 0 {
			seg = seg[:e]
		}
		body := trimSpaceLeft(seg)
		for _, kw := range yamlKeywords {
			if hasPrefixFold(body, kw.prefix) {
				return kw.why, true
			}
		}
		if len(body) > 1 && body[0] == '@' && isWordStart(body[1]) {
			return "directive: # @annotation", true
		}
		if word, ok := wordColon(seg); ok {
			switch strings.ToLower(word) {
			case "yaml-language-server", "renovate", "checkov", "zizmor", "type", "pragma", "vim", "cspell":
				return "directive: # " + word + ":", true
			}
			return "directive: word:", true
		}
	}
	return "", false
}

// hasYAMLSeparators reports whether src holds U+0085, U+2028 or U+2029.
func hasYAMLSeparators(src []byte) bool {
	return bytes.Contains(src, []byte("\u0085")) || bytes.Contains(src, []byte("\u2028")) || bytes.Contains(src, []byte("\u2029"))
}

// yamlSeparatorLen returns the length of the U+0085, U+2028 or U+2029 at
// i, or 0.
func yamlSeparatorLen(src []byte, i int) int {
	switch {
	case src[i] == 0xc2 && i+1 < len(src) && src[i+1] == 0x85:
		return 2
	case src[i] == 0xe2 && i+2 < len(src) && src[i+1] == 0x80 && (src[i+2] == 0xa8 || src[i+2] == 0xa9):
		return 3
	}
	return 0
}

const yamlSeparatorWhy = "line separator (a line break for libyaml readers: structure, never cleaned)"

// splitYAMLSeparators gives each U+0085, U+2028 and U+2029 a runtime region
// of its own.
func splitYAMLSeparators(regions []Region, src []byte) []Region {
	out := make([]Region, 0, len(regions)+8)
	add := func(r Region) {
		if r.End <= r.Start {
			return
		}
		if n := len(out); n > 0 && out[n-1].Kind == r.Kind && out[n-1].Why == r.Why && out[n-1].End == r.Start {
			out[n-1].End = r.End
			return
		}
		out = append(out, r)
	}
	for _, r := range regions {
		from := r.Start
		for i := r.Start; i < r.End; i++ {
			if c := src[i]; c != 0xc2 && c != 0xe2 {
				continue
			}
			if n := yamlSeparatorLen(src, i); n > 0 {
				add(Region{Start: from, End: i, Kind: r.Kind, Why: r.Why})
				add(Region{Start: i, End: i + n, Kind: Runtime, Why: yamlSeparatorWhy})
				from = i + n
				i += n - 1
			}
		}
		add(Region{Start: from, End: r.End, Kind: r.Kind, Why: r.Why})
	}
	return out
}

func (s *yamlScanner) fail(off int, reason string) {
	if s.err == nil {
		s.err = syntaxErrorAt("", s.src, off, reason)
	}
}

func (s *yamlScanner) label(start, end int, k Kind, why string) {
	if s.wantLabels && end > start {
		s.labels = append(s.labels, Region{Start: start, End: end, Kind: k, Why: why})
	}
}

// breakAt returns the length of the line break at i, or 0.
func (s *yamlScanner) breakAt(i int) int {
	src := s.src
	if i >= len(src) {
		return 0
	}
	switch src[i] {
	case '\n':
		return 1
	case '\r':
		if i+1 < len(src) && src[i+1] == '\n' {
			return 2
		}
		return 1
	case 0xc2, 0xe2:
		if s.lib {
			return yamlSeparatorLen(src, i)
		}
	}
	return 0
}

// lineEnd returns the offset of the first line break at or after i.
func (s *yamlScanner) lineEnd(i int) int {
	src := s.src
	for ; i < len(src); i++ {
		switch src[i] {
		case '\n', '\r':
			return i
		case 0xc2, 0xe2:
			if s.breakAt(i) > 0 {
				return i
			}
		}
	}
	return len(src)
}

// blankz reports a space, tab, line break or the end of input at i.
func (s *yamlScanner) blankz(i int) bool {
	return i >= len(s.src) || s.src[i] == ' ' || s.src[i] == '\t' || s.breakAt(i) > 0
}

func isFlowIndicator(c byte) bool {
	return c == ',' || c == '[' || c == ']' || c == '{' || c == '}'
}

func (s *yamlScanner) newLine(p int) {
	s.lineStart, s.colPos, s.colVal = p, p, 0
	s.lineFirst = true
	s.keyCol = -1
	if s.flow == 0 {
		s.keyOK = true
	}
}

// col returns the column (in characters, as libyaml counts) of p on the
// current line; calls with growing p cost linear time in total.
func (s *yamlScanner) col(p int) int {
	if p < s.colPos {
		s.colPos, s.colVal = s.lineStart, 0
	}
	for ; s.colPos < p; s.colPos++ {
		if s.src[s.colPos]&0xc0 != 0x80 {
			s.colVal++
		}
	}
	return s.colVal
}

func (s *yamlScanner) top() int {
	if n := len(s.indents); n > 0 {
		return s.indents[n-1]
	}
	return -1
}

func (s *yamlScanner) roll(col int) {
	if s.flow == 0 && col > s.top() {
		s.indents = append(s.indents, col)
	}
}

func (s *yamlScanner) unroll(col int) {
	for s.flow == 0 && len(s.indents) > 0 && s.indents[len(s.indents)-1] > col {
		s.indents = s.indents[:len(s.indents)-1]
	}
}

func (s *yamlScanner) saveKey(p int) {
	if s.flow == 0 && s.keyOK {
		s.keyCol = s.col(p)
	}
	s.keyOK = false
}

// docMarker reports "---" or "..." at the line start i, followed by a blank.
func (s *yamlScanner) docMarker(i int) bool {
	src := s.src
	if i+3 > len(src) {
		return false
	}
	c := src[i]
	return (c == '-' || c == '.') && src[i+1] == c && src[i+2] == c && s.blankz(i+3)
}

func (s *yamlScanner) run() {
	src := s.src
	n := len(src)
	if bytes.HasPrefix(src, []byte("\ufeff")) {
		s.label(0, 3, Runtime, "byte order mark")
		s.pos = 3
	}
	s.newLine(s.pos)
	for s.pos < n && s.err == nil {
		c := src[s.pos]
		if c == ' ' || c == '\t' {
			s.pos++
			continue
		}
		if bl := s.breakAt(s.pos); bl > 0 {
			s.pos += bl
			s.newLine(s.pos)
			continue
		}
		if c == '#' {
			tight := s.pos > s.lineStart && src[s.pos-1] != ' ' && src[s.pos-1] != '\t'
			end := s.lineEnd(s.pos)
			s.comments = append(s.comments, yamlComment{start: s.pos, end: end, tight: tight})
			s.pos = end
			continue
		}
		if s.pos == s.lineStart {
			if s.docMarker(s.pos) {
				s.flow, s.indents, s.keyCol, s.keyOK = 0, s.indents[:0], -1, false
				s.label(s.pos, s.pos+3, Runtime, "document marker")
				s.pos += 3
				s.lineFirst = false
				continue
			}
			if c == '%' {
				end := s.lineEnd(s.pos)
				s.label(s.pos, end, Directive, "directive: %"+yamlDirectiveName(src[s.pos+1:end]))
				s.pos = end
				continue
			}
		}
		if s.lineFirst {
			s.lineFirst = false
			s.unroll(s.col(s.pos))
		}
		s.token()
	}
}

// yamlDirectiveName returns the name of a %NAME directive line.
func yamlDirectiveName(rest []byte) string {
	n := 0
	for n < len(rest) && n < 16 && rest[n] > ' ' && rest[n] < 0x7f && rest[n] != '#' {
		n++
	}
	return string(rest[:n])
}

// token scans one token starting at s.pos (not a space, break or comment).
func (s *yamlScanner) token() {
	src := s.src
	p := s.pos
	c := src[p]
	switch {
	case c == '[' || c == '{':
		if c == '{' && p+1 < len(src) && src[p+1] == '{' {
			s.fail(p, "a {{ template action where a YAML node starts: a template (Helm, Go), not YAML; refused")
			return
		}
		s.saveKey(p)
		s.flow++
		s.keyOK = true
		s.pos++
	case c == ']' || c == '}':
		if s.flow > 0 {
			s.flow--
		}
		s.keyOK = false
		s.pos++
	case c == ',':
		s.keyOK = true
		s.pos++
	case (c == '-' || c == '?') && s.blankz(p+1):
		if s.flow == 0 {
			s.roll(s.col(p))
			s.keyOK = true
		}
		s.keyCol = -1
		s.pos++
	case c == ':' && (s.blankz(p+1) || s.flow > 0):
		if s.flow == 0 {
			if s.keyCol >= 0 {
				s.roll(s.keyCol)
			} else {
				s.roll(s.col(p))
			}
			s.keyOK = true
		}
		s.keyCol = -1
		s.pos++
	case c == '&' || c == '*' || c == '!':
		s.saveKey(p)
		s.pos = s.propertyEnd(p)
	case (c == '|' || c == '>') && s.flow == 0:
		s.keyOK = false
		s.blockScalar(p)
	case c == '\'' || c == '"':
		s.saveKey(p)
		s.quoted(p)
	default:
		s.saveKey(p)
		s.plain(p)
	}
}

// propertyEnd returns the end of the anchor, alias or tag at p.
func (s *yamlScanner) propertyEnd(p int) int {
	src := s.src
	i := p + 1
	if src[p] == '!' && i < len(src) && src[i] == '<' {
		for i < len(src) && src[i] != '>' && s.breakAt(i) == 0 {
			i++
		}
	}
	for i < len(src) && !s.blankz(i) && !(s.flow > 0 && isFlowIndicator(src[i])) {
		i++
	}
	return i
}

// crossLine moves the scanner to the line starting at ls, reached inside a
// multi-line scalar: no simple key spans lines.
func (s *yamlScanner) crossLine(ls int) {
	s.lineStart, s.colPos, s.colVal = ls, ls, 0
	s.lineFirst = false
	s.keyCol = -1
}

// quoted scans a single- or double-quoted scalar starting at p.
func (s *yamlScanner) quoted(p int) {
	src := s.src
	q := src[p]
	for i := p + 1; i < len(src); {
		c := src[i]
		switch {
		case c == q:
			if q == '\'' && i+1 < len(src) && src[i+1] == '\'' {
				i += 2
				continue
			}
			s.label(p, i+1, Runtime, "quoted scalar")
			s.pos = i + 1
			return
		case c == '\\' && q == '"':
			i++
			if i < len(src) && s.breakAt(i) == 0 {
				i++
			}
			continue
		}
		if bl := s.breakAt(i); bl > 0 {
			i += bl
			s.crossLine(i)
			if s.docMarker(i) {
				s.fail(i, "document marker inside a quoted scalar")
				return
			}
			continue
		}
		i++
	}
	s.fail(p, "unterminated quoted scalar")
}

// plain scans a plain scalar starting at p, with its continuation lines.
func (s *yamlScanner) plain(p int) {
	src := s.src
	n := len(src)
	minCol := s.top() + 1
	i, end := p, p
scan:
	for {
		for i < n {
			c := src[i]
			if c == ' ' || c == '\t' {
				j := i
				for j < n && (src[j] == ' ' || src[j] == '\t') {
					j++
				}
				if j < n && src[j] == '#' {
					break scan // " #" starts a comment
				}
				i = j
				continue
			}
			if s.breakAt(i) > 0 {
				break
			}
			if c == ':' && (s.blankz(i+1) || (s.flow > 0 && isFlowIndicator(src[i+1]))) {
				break scan
			}
			if s.flow > 0 && isFlowIndicator(c) {
				break scan
			}
			i++
			end = i
		}
		if i >= n {
			break
		}
		// A line break: the scalar goes on if the next non-blank line is
		// indented enough and is neither a comment nor a document marker.
		j, ls := i, i
		for {
			bl := s.breakAt(j)
			if bl == 0 {
				break
			}
			j += bl
			ls = j
			for j < n && (src[j] == ' ' || src[j] == '\t') {
				j++
			}
		}
		if j >= n || src[j] == '#' || (j == ls && s.docMarker(j)) || (s.flow == 0 && j-ls < minCol) {
			break
		}
		s.crossLine(ls)
		i = j
	}
	s.pos = end
}

// blockScalar scans a literal or folded block scalar whose indicator is at
// p: its header, the header's comment and the indented body.
func (s *yamlScanner) blockScalar(p int) {
	src := s.src
	n := len(src)
	i := p + 1
	explicit, chomp := 0, false
	for k := 0; k < 2 && i < n; k++ {
		c := src[i]
		switch {
		case c == '0' && explicit == 0:
			s.fail(i, "block scalar indentation indicator 0")
			return
		case c >= '1' && c <= '9' && explicit == 0:
			explicit = int(c - '0')
		case (c == '+' || c == '-') && !chomp:
			chomp = true
		default:
			k = 2
			continue
		}
		i++
	}
	hdrEnd := i
	s.label(p, hdrEnd, Runtime, "block scalar header")
	for i < n && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	if i < n && src[i] == '#' {
		e := s.lineEnd(i)
		s.comments = append(s.comments, yamlComment{start: i, end: e, tight: i == hdrEnd})
		i = e
	}
	if i >= n {
		s.pos = n
		return
	}
	bl := s.breakAt(i)
	if bl == 0 {
		s.fail(i, "block scalar header not followed by a comment or a line break")
		return
	}
	body := i + bl
	parent := s.top()
	indent := 0
	if explicit > 0 {
		indent = parent + explicit
		if s.lib && parent < 0 {
			indent = explicit
		}
		if parent < 0 {
			s.diverged = true
		}
	} else {
		maxLead := 0
		j := body
		for {
			ls := j
			for j < n && src[j] == ' ' {
				j++
			}
			maxLead = max(maxLead, j-ls)
			if j < n && src[j] == '\t' {
				s.fail(j, "tab where a block scalar's indentation space is expected")
				return
			}
			if j >= n {
				// Only blank lines up to the end of the file.
				s.label(body, n, Runtime, "block scalar")
				s.pos = n
				return
			}
			if b := s.breakAt(j); b > 0 {
				j += b
				continue
			}
			first := j - ls
			libIndent := max(maxLead, parent+1, 1)
			specIndent := first
			if first <= parent {
				specIndent = parent + 1
			}
			if libIndent != specIndent {
				s.diverged = true
			}
			indent = specIndent
			if s.lib {
				indent = libIndent
			}
			break
		}
	}
	j := body
	for j < n {
		ls := j
		for j < n && src[j] == ' ' && j-ls < indent {
			j++
		}
		if j-ls >= indent && !(indent == 0 && s.docMarker(ls)) {
			j = s.lineEnd(j)
			j += s.breakAt(j)
			continue
		}
		if b := s.breakAt(j); b > 0 {
			j += b
			continue
		}
		if j < n && src[j] == '\t' {
			s.fail(j, "tab where a block scalar's indentation space is expected")
			return
		}
		j = ls
		break
	}
	s.label(body, j, Runtime, "block scalar")
	s.pos = j
	if j < n {
		s.newLine(j)
	}
}
