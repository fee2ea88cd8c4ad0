package region

import (
	"bytes"
	"sort"
)

// The HTML classifier. Comments are prose: they are never rendered, and
// pages hide instructions there. Everything rendered or read by a program is
// runtime: text, tags and attribute values (event handlers, URLs, titles),
// doctypes, bogus comments (<?xml ...?>, <!x>), CDATA sections. The content
// of <style> goes to the CSS classifier and that of <script> to the
// JavaScript one (classifyEmbeddedScript); other raw text elements
// (<textarea>, <title>, <noscript>, ...) are runtime.
//
// Where several readings of the markup are plausible, a byte is prose only
// if all of them call it a comment. The tokenizer switches to raw text after
// <style>, <script> and friends only in HTML content: inside <svg> and
// <math> those are ordinary elements (but raw text again inside an HTML
// integration point such as <svg><title>), and so is <noscript> when
// scripting is off. After such an element (once <svg>, <math> or <frameset>
// has been seen, and always for <noscript>) other readings run from the
// element's content, each raw text element and CDATA section they meet
// splitting them in two (raw and not, CDATA and bogus comment), until every
// reading stands on the same token boundary; everything in between is
// runtime. <![CDATA[ starts the same: a bogus comment up to '>' in HTML
// content, a CDATA section up to "]]>" in foreign content.

type htmlScanner struct {
	path string
	src  []byte
	b    *Builder
	// foreignSeen is set once a start tag for <svg>, <math> or <frameset>
	// has been read by either reading: from then on a raw text element may
	// be parsed as ordinary markup.
	foreignSeen bool
	alt         htmlAlt
}

// htmlAlt tracks the other readings while they disagree with the first.
type htmlAlt struct {
	active bool
	start  int // first byte the readings may disagree on
	force  int // bytes before force are runtime while active
	why    string
	// readings are the other readings' positions, each at a '<' or at
	// the end of the input: between two '<' every reading sees text.
	readings []int
	// work counts the bytes the other readings scanned for raw text ends;
	// past a multiple of the input's size the rest is runtime, which keeps
	// adversarial input (thousands of unclosed <style> in <svg>) linear.
	work int
	// rawEnd caches the last end found per raw text element name: the
	// first end tag after any start up to it is the same one.
	rawFrom, rawTo map[string]int
}

// maxHTMLReadings bounds the readings followed at once; beyond it the rest of
// the file is runtime.
const maxHTMLReadings = 64

// altWorkFactor bounds the other readings' scanning to this many times the
// input's size (plus a constant).
const altWorkFactor = 4

func classifyHTML(path string, src []byte) (*Map, error) {
	h := &htmlScanner{path: path, src: src, b: NewBuilder(len(src))}
	h.b.SetGapWhy("markup or text")
	if err := h.run(); err != nil {
		return nil, err
	}
	return h.b.Map("html"), nil
}

func (h *htmlScanner) run() error {
	src := h.src
	n := len(src)
	for i := 0; i < n; {
		if src[i] != '<' {
			j := n
			if k := bytes.IndexByte(src[i:], '<'); k >= 0 {
				j = i + k
			}
			h.advance(j)
			i = j
			continue
		}
		t := htmlTokenAt(src, i, false)
		forced := h.alt.active && i < h.alt.force
		switch t.kind {
		case hkComment:
			if t.eof {
				return syntaxError(h.path, src, i, "comment never closes (no \"-->\")")
			}
			if !forced {
				h.comment(i, t)
			}
		case hkBogus:
			if bytes.HasPrefix(src[i:], []byte("<![CDATA[")) {
				h.startAlt(i, "CDATA section (read differently inside svg and math)")
			}
		case hkStartTag:
			name := src[t.nameStart:t.nameEnd]
			if asciiFoldEq(name, "svg") || asciiFoldEq(name, "math") || asciiFoldEq(name, "frameset") {
				h.foreignSeen = true
			}
			if raw := htmlRawKind(name); raw != "" {
				h.advance(t.end)
				i = h.rawElement(i, t, raw)
				continue
			}
		}
		h.advance(t.end)
		i = t.end
	}
	if h.alt.active {
		h.b.Mark(h.alt.start, n, Runtime, h.alt.why)
		h.alt.active = false
	}
	return nil
}

// htmlRawKind returns the lower-case name of an element whose content the
// tokenizer reads as raw text, or "".
func htmlRawKind(name []byte) string {
	for _, r := range [...]string{"script", "style", "textarea", "title", "xmp", "iframe", "noembed", "noframes", "noscript", "plaintext"} {
		if asciiFoldEq(name, r) {
			return r
		}
	}
	return ""
}

// rawElement classifies the content of the raw text element whose start tag
// t starts at i, and returns where its content ends.
func (h *htmlScanner) rawElement(i int, t htmlToken, name string) int {
	src := h.src
	start := t.end
	var end int
	switch name {
	case "script":
		end = htmlScriptEnd(src, start)
	case "plaintext":
		end = len(src) // nothing ends it
	default:
		end = htmlRawEnd(src, start, name)
	}
	if start == end {
		return end
	}
	body := src[start:end]
	forced := h.alt.active && start < h.alt.force
	lt := bytes.IndexByte(body, '<') >= 0
	switch {
	case forced:
	case lt && (h.foreignSeen || name == "noscript"):
		// Markup inside: the reading without raw text may see a tag or a
		// comment here that runs past this element's end tag.
		h.startAlt(start, name+" content (markup when not raw text)")
	case name == "style":
		h.embedStyle(src[i:t.end], start, body)
	case name == "script":
		h.embedScript(src[i:t.end], start, body)
	}
	h.advance(end)
	return end
}

// startAlt starts the other readings at start, unless they run already.
func (h *htmlScanner) startAlt(start int, why string) {
	if h.alt.active {
		return
	}
	h.alt.active, h.alt.start, h.alt.force, h.alt.why = true, start, start, why
	h.alt.readings = append(h.alt.readings[:0], h.nextLT(start))
}

// nextLT returns the offset of the first '<' at or after i, or len(src).
func (h *htmlScanner) nextLT(i int) int {
	if k := bytes.IndexByte(h.src[i:], '<'); k >= 0 {
		return i + k
	}
	return len(h.src)
}

// advance tells the other readings that the first one's token ends at
// end: they move on until all of them and end stand on the same boundary.
func (h *htmlScanner) advance(end int) {
	a := &h.alt
	if !a.active {
		return
	}
	n := len(h.src)
	a.force = max(a.force, end)
	for {
		for i := 0; i < len(a.readings); i++ {
			for a.readings[i] < a.force {
				next, fork := h.altStep(a.readings[i])
				a.readings[i] = next
				if fork >= 0 {
					a.readings = append(a.readings, fork)
				}
			}
		}
		sort.Ints(a.readings)
		a.readings = dedupInts(a.readings)
		if len(a.readings) > maxHTMLReadings || a.work > altWorkFactor*n+1<<20 {
			a.readings = append(a.readings[:0], n)
		}
		if last := a.readings[len(a.readings)-1]; last > a.force {
			a.force = last
			continue
		}
		break
	}
	if len(a.readings) == 1 && end == a.force {
		h.b.Mark(a.start, a.force, Runtime, a.why)
		a.active = false
	}
}

// altStep reads the token at p (a '<') in the other readings and returns
// where the reading goes on, and where a second reading forks off (or -1):
// at a raw text element, one reading takes its content as markup and one as
// raw text; at "<![CDATA[", one reads a CDATA section and one a bogus
// comment.
func (h *htmlScanner) altStep(p int) (next, fork int) {
	src := h.src
	t := htmlTokenAt(src, p, true)
	fork = -1
	switch t.kind {
	case hkStartTag:
		name := src[t.nameStart:t.nameEnd]
		if asciiFoldEq(name, "svg") || asciiFoldEq(name, "math") || asciiFoldEq(name, "frameset") {
			h.foreignSeen = true
		}
		switch raw := htmlRawKind(name); raw {
		case "":
		case "script":
			fork = htmlScriptEnd(src, t.end)
			h.alt.work += fork - t.end
		case "plaintext":
			fork = len(src)
		default:
			fork = h.altRawEnd(t.end, raw)
		}
	case hkCDATA:
		bogus, _ := htmlUntilGT(src, p)
		fork = h.nextLT(bogus)
		h.alt.work += bogus - p
	}
	if t.end >= len(src) {
		return len(src), fork
	}
	return h.nextLT(t.end), fork
}

// altRawEnd is htmlRawEnd with the last answer per name remembered.
func (h *htmlScanner) altRawEnd(start int, name string) int {
	a := &h.alt
	if a.rawFrom == nil {
		a.rawFrom, a.rawTo = map[string]int{}, map[string]int{}
	}
	if from, ok := a.rawFrom[name]; ok && from <= start && start <= a.rawTo[name] {
		return a.rawTo[name]
	}
	end := htmlRawEnd(h.src, start, name)
	a.work += end - start
	a.rawFrom[name], a.rawTo[name] = start, end
	return end
}

// comment classifies the comment token t starting at i.
func (h *htmlScanner) comment(i int, t htmlToken) {
	src := h.src
	body := src[t.bodyStart:t.bodyEnd]
	// A carrier whose removal would let "-->", "--!>" or "<!-->" end the
	// comment early is prose like the rest: the engine classifies the file
	// again without it, sees the rest become markup or text, and keeps that
	// one carrier while the others go.
	fs := carrierForms(body)
	kind, why := Prose, commentWhy(body)
	if w, ok := fs.match(htmlDirective); ok {
		kind, why = Directive, w
	}
	markLines(h.b, src, i, t.end, kind, why)
}
