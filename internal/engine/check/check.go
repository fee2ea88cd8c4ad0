package check

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/prosewash/prosewash/internal/engine/carrier"
	"github.com/prosewash/prosewash/internal/engine/clean"
	"github.com/prosewash/prosewash/internal/engine/region"
	"github.com/prosewash/prosewash/internal/engine/textpos"
)

// Scanner finds the carriers of a whole file. The caller passes the carrier
// provider's scanner, so the engine never imports a provider. lang is the
// file's language ("" when it has none).
type Scanner func(data []byte, lang string) []carrier.Finding

// Options say how check decides. The engine never imports a provider: the
// caller passes the provider's scanners and an engine whose runner calls
// the provider in-process.
type Options struct {
	// Any reports whether data holds a carrier at all, whatever its
	// context: only such files are classified and decided, so it must
	// never miss one the decision could act on.
	Any func(data []byte) bool
	// Scan reports the carriers of files the engine cannot decide (no
	// classifier, invalid UTF-8, a NUL byte): all reported, never cleaned.
	Scan Scanner
	// Engine decides every other file with clean's own code: the same
	// stages, regions, context, keep rules and structure proof, so what
	// check prints is what clean does.
	Engine *clean.Engine
	// Rel gives the project-relative path that [clean] allow patterns
	// match; nil means the path as given.
	Rel func(path string) string
}

// Finding is one carrier, where it sits and what clean would do with it.
type Finding struct {
	Path     string `json:"path"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Code     string `json:"code"`
	Name     string `json:"name"`
	Class    string `json:"class"`
	Region   string `json:"region"` // prose, directive, runtime or unclassified
	Action   string `json:"action"` // remove, replace, report, or keep (people asked to keep it)
	Severity string `json:"severity"`
	// Len is the carrier's length in bytes (a whole escape sequence or
	// payload run counts as one carrier).
	Len int `json:"len"`
	// Reason says why a carrier stays: not prose, unsafe to remove (and
	// what would change), kept by [clean] allow or a keep marker.
	Reason string `json:"reason,omitempty"`
	// Hidden is what a payload spells: the text of a run of tag
	// characters, the bytes of a run of variation selectors.
	Hidden string `json:"hidden,omitempty"`
	// Offset is the carrier's byte offset in the file.
	Offset int `json:"offset"`
}

// Result is what check found in one file.
type Result struct {
	Findings []Finding
	// Note says why the findings are report-only for the whole file
	// (invalid UTF-8, a classifier error), or is empty.
	Note string
}

// File finds the carriers of one file, places each in its region and says
// what clean would do with it. A file of plain ASCII has none and costs
// one fast pass; only a file holding a carrier is classified and decided,
// because that is the expensive part and most non-ASCII files carry
// nothing. Instruction files are always classified: a long HTML comment is
// hidden from the rendered page but not from the agent. It keeps no
// reference to data, so walkers may reuse their buffers.
func File(path string, data []byte, opt Options) *Result {
	instr := isInstructionFile(path)
	hasCarrier := opt.Any(data)
	if !hasCarrier && !instr {
		return nil
	}
	lang := region.Language(path, data)
	res := &Result{}
	rel := path
	if opt.Rel != nil {
		rel = opt.Rel(path)
	}
	var f *clean.File
	if lang != "" {
		f = opt.Engine.NewFile(path, rel, data)
		f.ProjectRel = rel
	}
	if f == nil || !f.Alive() {
		if f != nil {
			res.Note = f.Reason
		}
		if !utf8.Valid(data) && res.Note == "" {
			res.Note = "invalid UTF-8: carriers are reported, never cleaned"
		}
		if res.Note == "" && bytes.IndexByte(data, 0) >= 0 {
			res.Note = "contains NUL bytes: carriers are reported, never cleaned"
		}
		if !onlyNULs(data, opt.Any) {
			res.Findings = reportOnly(path, data, lang, opt.Scan, true)
		}
		for i := range res.Findings {
			// Prose that would be cleaned in a readable file: say why not.
			if f := &res.Findings[i]; f.Region == "prose" && res.Note != "" {
				f.Reason = "not cleaned: " + res.Note
			}
		}
		if len(res.Findings) == 0 && res.Note == "" {
			return nil
		}
		return res
	}
	if hasCarrier {
		opt.Engine.RunStages(context.Background(), []*clean.File{f})
		for _, c := range f.Carriers {
			res.Findings = append(res.Findings, Finding{
				Path: path, Line: c.Line, Col: c.Col, Code: c.Finding.Code(), Name: c.Finding.Name, Class: c.Finding.Class,
				Region: c.Region.Kind.String(), Action: c.Action, Severity: string(c.Finding.Severity), Len: c.Finding.Len,
				Reason: c.Reason, Hidden: c.Finding.Hidden, Offset: c.Offset,
			})
		}
		if !f.Alive() {
			// The engine refused the file: nothing would be cleaned, and
			// a stage that failed may have recorded none of its carriers.
			// Every carrier of the file is listed, each in its region,
			// all reported.
			res.Note = f.Reason
			res.Findings = reportOnly(path, data, lang, opt.Scan, false)
			for i := range res.Findings {
				res.Findings[i].Reason = "the file is refused: " + f.Reason
			}
		}
	}
	if instr {
		res.Findings = append(res.Findings, hiddenComments(path, data, f.Map())...)
	}
	// The inspect stage reports what is not prose, the transform what is:
	// put them back in file order.
	sort.SliceStable(res.Findings, func(i, j int) bool { return res.Findings[i].Offset < res.Findings[j].Offset })
	if len(res.Findings) == 0 && res.Note == "" {
		return nil
	}
	return res
}

// reportOnly lists the carriers of a file the engine cannot decide: each
// in its region when the file can be classified, all reported. noNUL
// leaves out the NUL bytes of a file read despite them: the file's note
// already says it holds them, and a tar archive of text has thousands
// (GOROOT/src: 157,000 findings from 35 files, before). They are left out
// before anything is built for them, and a file with nothing else is not
// classified.
func reportOnly(path string, data []byte, lang string, scan Scanner, noNUL bool) []Finding {
	fs := scan(data, lang)
	if noNUL {
		fs = dropNULs(fs)
	}
	if len(fs) == 0 {
		return nil
	}
	var m *region.Map
	if lang != "" {
		m, _ = region.Classify(path, data)
	}
	lc := textpos.NewCounter(data)
	out := make([]Finding, 0, len(fs))
	for _, f := range fs {
		kind, why := "unclassified", "no classifier for this file type"
		if m != nil {
			r := m.At(f.Offset)
			kind, why = r.Kind.String(), r.Why
		} else if lang != "" {
			why = "the file cannot be classified"
		}
		line, col := lc.At(f.Offset)
		out = append(out, Finding{
			Path: path, Line: line, Col: col, Code: f.Code(), Name: f.Name, Class: f.Class,
			Region: kind, Action: string(carrier.Report), Severity: string(f.Severity), Len: f.Len,
			Reason: why, Hidden: f.Hidden, Offset: f.Offset,
		})
	}
	return out
}

// instructionFiles are the names agent platforms load as instructions or
// memory (see internal/engine/wash for where each platform looks).
var instructionNames = [...]string{
	"claude.md", "claude.local.md", "agents.md", "agent.md", "gemini.md", "memory.md",
	"copilot-instructions.md", "skill.md", ".cursorrules", ".windsurfrules", ".clinerules",
}

func isInstructionFile(path string) bool {
	base := strings.ToLower(filepath.Base(path))
	for _, n := range instructionNames {
		if base == n {
			return true
		}
	}
	return strings.HasSuffix(base, ".instructions.md") || strings.HasSuffix(base, ".prompt.md") ||
		strings.HasSuffix(base, ".mdc") && strings.Contains(filepath.ToSlash(path), ".cursor/rules/")
}

// minHiddenComment is the length from which an HTML comment in an
// instruction file is reported: long enough to carry instructions, longer
// than the usual markers and notes.
const minHiddenComment = 100

// hiddenComments reports the long HTML comments of an instruction file: a
// rendered page hides them, the agent reads them.
func hiddenComments(path string, data []byte, m *region.Map) []Finding {
	if m == nil {
		return nil
	}
	var out []Finding
	for _, c := range region.HTMLComments(m, data) {
		inner := data[c.Start+len("<!--") : c.End]
		inner = bytes.TrimSuffix(inner, []byte("-->"))
		n := utf8.RuneCount(inner)
		if n < minHiddenComment {
			continue
		}
		line, col := textpos.LineCol(data, c.Start)
		out = append(out, Finding{
			Path: path, Line: line, Col: col, Code: "HTML", Name: "HIDDEN HTML COMMENT", Class: "hidden-comment",
			Region: c.Kind.String(), Action: string(carrier.Report), Severity: string(carrier.Medium), Len: c.End - c.Start,
			Reason: fmt.Sprintf("an HTML comment of %d characters in an instruction file: hidden when rendered, read by the agent", n),
			Offset: c.Start,
		})
	}
	return out
}

// onlyNULs reports whether data can hold no carrier but NUL bytes, by
// asking any about each stretch between them: a file read despite its
// NULs that holds nothing else (a tar archive of text, UTF-16 text) then
// needs no scan at all. Only the file's first stretch starts at the file's
// start, where a byte order mark is no carrier.
func onlyNULs(data []byte, any func([]byte) bool) bool {
	for first := true; ; first = false {
		i := bytes.IndexByte(data, 0)
		seg := data
		if i >= 0 {
			seg = data[:i]
		}
		if any(seg) || !first && bytes.HasPrefix(seg, []byte("\uFEFF")) {
			return false
		}
		if i < 0 {
			return true
		}
		// A run of NULs holds only empty stretches: step over it whole
		// (a file of 64 KiB of NULs cost a search and a scan a byte).
		for i++; i < len(data) && data[i] == 0; i++ {
		}
		data = data[i:]
	}
}

// dropNULs leaves out the NUL bytes of fs, in place.
func dropNULs(fs []carrier.Finding) []carrier.Finding {
	out := fs[:0]
	for _, f := range fs {
		if f.Rune != 0 {
			out = append(out, f)
		}
	}
	return out
}
