package region

import "bytes"

// Content of <style> and <script> goes to the CSS and JavaScript
// classifiers, shifted to the element's offset. On top of what those
// classifiers decide, a comment whose carriers could, once removed, spell
// the element's end tag (or, in a script, the "<!--" and "<script" that
// change where it ends) stays runtime: the whole-file proof would refuse
// such a clean anyway, and saying so up front keeps check and clean in step.

// classifyEmbeddedScript classifies the content of a <script> element whose
// type makes it JavaScript, with the JavaScript classifier: scriptType is
// "module" for module scripts and "" for classic ones, where "<!--" and
// "-->" also start line comments (Annex B). Browsers read no JSX there.
func classifyEmbeddedScript(path string, src []byte, scriptType string) (*Map, error) {
	d := jsDialect{script: scriptType != "module"}
	m, e := lexJS(src, d, "javascript")
	if e != nil {
		return nil, syntaxError(path, src, e.off, e.reason)
	}
	return m, nil
}

// embedStyle classifies the content body (at offset start) of the <style>
// element whose start tag is tag.
func (h *htmlScanner) embedStyle(tag []byte, start int, body []byte) {
	if t, ok := htmlTypeAttr(tag); ok && len(t) != 0 && !asciiFoldEq(t, "text/css") {
		h.b.Mark(start, start+len(body), Runtime, "style that is not CSS")
		return
	}
	if h.foreignSeen && htmlMarkupAfterRemoval(body) {
		// Covered by the second reading unless only a carrier separates
		// '&' from a character reference.
		h.b.Mark(start, start+len(body), Runtime, "style content (markup when not raw text)")
		return
	}
	m, err := classifyCSS(h.path, body, cssPlain)
	if err != nil {
		h.b.Mark(start, start+len(body), Runtime, "style the CSS classifier refuses")
		return
	}
	h.embed(m, start, body, "css ", []string{"</style"})
}

// embedScript classifies the content body (at offset start) of the <script>
// element whose start tag is tag.
func (h *htmlScanner) embedScript(tag []byte, start int, body []byte) {
	kind, ok := htmlScriptKind(tag)
	if !ok {
		h.b.Mark(start, start+len(body), Runtime, "script data block (not JavaScript)")
		return
	}
	if h.foreignSeen && htmlMarkupAfterRemoval(body) {
		h.b.Mark(start, start+len(body), Runtime, "script content (markup when not raw text)")
		return
	}
	m, err := classifyEmbeddedScript(h.path, body, kind)
	if err != nil {
		h.b.Mark(start, start+len(body), Runtime, "script the JavaScript classifier refuses")
		return
	}
	h.embed(m, start, body, "js ", []string{"</script", "<script", "<!--", "-->"})
}

// embed copies m, the map of body at offset start, into the HTML map.
// Non-runtime regions whose text, once carriers are removed, could contain
// one of the markers (ASCII case ignored) become runtime.
func (h *htmlScanner) embed(m *Map, start int, body []byte, prefix string, markers []string) {
	for _, r := range m.Regions {
		k, why := r.Kind, prefix+r.Why
		if r.Why == "line break" {
			why = r.Why
		}
		if k != Runtime {
			fs := carrierForms(body[r.Start:r.End])
			for _, mk := range markers {
				if fs.containsFold(mk) {
					k, why = Runtime, prefix+"comment that could end the element"
					break
				}
			}
		}
		h.b.Mark(start+r.Start, start+r.End, k, why)
	}
}

// containsFold reports whether any form contains the lower-case ASCII
// word sub, ignoring ASCII case.
func (fs *forms) containsFold(sub string) bool {
	for _, s := range fs.f[:fs.n] {
		if indexFold(s, sub) >= 0 {
			return true
		}
	}
	return false
}

// indexFold returns the first index of the lower-case ASCII word sub in s,
// ignoring ASCII case, or -1.
func indexFold(s []byte, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		k := bytes.IndexByte(s[i:len(s)-len(sub)+1], sub[0])
		if k < 0 {
			return -1
		}
		i += k
		if asciiFoldEq(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

// htmlMarkupAfterRemoval reports whether body holds, or could hold once its
// carriers were removed, a '<' or a character reference ('&' then '#' or a
// letter or digit): where body is parsed as markup instead of raw text,
// those make its text differ from the bytes as written.
func htmlMarkupAfterRemoval(body []byte) bool {
	fs := carrierForms(body)
	for _, f := range fs.f[:fs.n] {
		if bytes.IndexByte(f, '<') >= 0 {
			return true
		}
		for k := bytes.IndexByte(f, '&'); k >= 0 && k+1 < len(f); {
			if c := f[k+1]; c == '#' || isASCIIAlpha(c) || c >= '0' && c <= '9' {
				return true
			}
			next := bytes.IndexByte(f[k+1:], '&')
			if next < 0 {
				break
			}
			k += 1 + next
		}
	}
	return false
}

// htmlTypeAttr returns the raw value of the first type attribute of the
// start tag tag (from '<' to '>'); ok is false when there is none.
func htmlTypeAttr(tag []byte) (value []byte, ok bool) {
	v, found := htmlAttr(tag, "type")
	return v, found
}

// htmlAttr returns the raw value of the first attribute called name (lower
// case) in the start tag tag. Later duplicates are dropped by the
// tokenizer, so the first one counts.
func htmlAttr(tag []byte, name string) (value []byte, ok bool) {
	t := htmlTag(tag, 1)
	htmlAttrs(tag, t.nameEnd, func(n, v []byte) {
		if !ok && asciiFoldEq(n, name) {
			value, ok = v, true
		}
	})
	return value, ok
}

// htmlJSTypes are the JavaScript MIME type essence strings of the HTML
// standard; a script whose type attribute (trimmed) is one of them, in any
// ASCII case, is classic JavaScript. Parameters make it a data block.
var htmlJSTypes = [...]string{
	"application/ecmascript", "application/javascript", "application/x-ecmascript",
	"application/x-javascript", "text/ecmascript", "text/javascript", "text/javascript1.0",
	"text/javascript1.1", "text/javascript1.2", "text/javascript1.3", "text/javascript1.4",
	"text/javascript1.5", "text/jscript", "text/livescript", "text/x-ecmascript", "text/x-javascript",
}

// htmlScriptKind follows "prepare the script element": it returns "" for a
// classic script, "module" for a module script, and ok false for anything
// the browser does not run as JavaScript (data blocks such as
// text/template or application/ld+json, import maps, speculation rules).
// A type written with a character reference is not decoded: it counts as
// not JavaScript, the riskier reading.
func htmlScriptKind(tag []byte) (string, bool) {
	t, ok := htmlAttr(tag, "type")
	if !ok {
		lang, ok := htmlAttr(tag, "language")
		if !ok || len(lang) == 0 {
			return "", true
		}
		t = append([]byte("text/"), lang...)
	}
	if len(t) == 0 {
		return "", true
	}
	t = bytes.TrimFunc(t, func(r rune) bool { return r < 0x80 && isHTMLSpace(byte(r)) })
	if asciiFoldEq(t, "module") {
		return "module", true
	}
	for _, js := range htmlJSTypes {
		if asciiFoldEq(t, js) {
			return "", true
		}
	}
	return "", false
}
