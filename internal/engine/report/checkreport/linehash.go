package checkreport

import (
	"strconv"
	"unicode/utf8"
)

// The line hash GitHub code scanning matches alerts by
// (partialFingerprints.primaryLocationLineHash), computed the way
// github/codeql-action's upload-sarif computes it when a log has none: a
// rolling hash, modulo 2^64, of the 100 UTF-16 code units that start at the
// line, spaces and tabs left out, CR and CRLF read as LF, the end of the
// file marked and padded with zeros; "HASH:N" for the N-th line of the file
// with that hash. Emitting the same value keeps upload-sarif from warning
// about an inconsistent fingerprint and gives uploads through the REST API,
// which compute nothing, the same identity.
const (
	lineHashBlock = 100
	lineHashMod   = 37
	lineHashEOF   = 65535
)

// LineHashes returns the line hash of every line of data, the first line's
// first.
func LineHashes(data []byte) []string {
	h := newLineHasher()
	for len(data) > 0 {
		r, n := utf8.DecodeRune(data)
		data = data[n:]
		if r >= 0x10000 {
			r -= 0x10000
			h.add(0xD800 + uint64(r>>10))
			h.add(0xDC00 + uint64(r&0x3FF))
			continue
		}
		h.add(uint64(r)) // an invalid byte is U+FFFD, as a decoder reads it
	}
	h.add(lineHashEOF)
	for i := 0; i < lineHashBlock; i++ {
		if h.lines[h.index] != 0 {
			h.emit()
		}
		h.roll(0)
	}
	return h.out
}

type lineHasher struct {
	window    [lineHashBlock]uint64
	lines     [lineHashBlock]int // the line that starts at each window slot, 0 for none
	hash      uint64
	firstMod  uint64 // lineHashMod^lineHashBlock, what leaves the window is worth
	index     int
	line      int
	lineStart bool
	prevCR    bool
	counts    map[uint64]int
	out       []string
}

func newLineHasher() *lineHasher {
	h := &lineHasher{lineStart: true, counts: map[uint64]int{}, firstMod: 1}
	for i := 0; i < lineHashBlock; i++ {
		h.firstMod *= lineHashMod
	}
	return h
}

// add takes one UTF-16 code unit of the file.
func (h *lineHasher) add(c uint64) {
	if c == ' ' || c == '\t' || (h.prevCR && c == '\n') {
		h.prevCR = false
		return
	}
	h.prevCR = c == '\r'
	if h.prevCR {
		c = '\n'
	}
	if h.lines[h.index] != 0 {
		// The slot's character started a line and the window now holds
		// the block that follows it: that line's hash is complete.
		h.emit()
	}
	if h.lineStart {
		h.lineStart = false
		h.line++
		h.lines[h.index] = h.line
	}
	if c == '\n' {
		h.lineStart = true
	}
	h.roll(c)
}

func (h *lineHasher) roll(c uint64) {
	begin := h.window[h.index]
	h.window[h.index] = c
	h.hash = lineHashMod*h.hash + c - h.firstMod*begin
	h.index = (h.index + 1) % lineHashBlock
}

func (h *lineHasher) emit() {
	h.counts[h.hash]++
	line := h.lines[h.index]
	for len(h.out) < line {
		h.out = append(h.out, "")
	}
	h.out[line-1] = strconv.FormatUint(h.hash, 16) + ":" + strconv.Itoa(h.counts[h.hash])
	h.lines[h.index] = 0
}
