package region

import (
	"bytes"
	"path/filepath"
	"strings"
)

// A .txt file is read as Markdown prose unless it is data that only looks
// like text: a txtar archive (Go's script tests save them as .txt), a text
// in an escape-based encoding (ISO-2022-JP/KR/CN, HZ), whose escape
// sequences are the encoding itself, or a file in a test data directory,
// whose bytes a test compares exactly. Such a file is runtime as a whole,
// with the reason shown by "classify".
func classifyText(path string, src []byte) (*Map, error) {
	if why := textIsData(path, src); why != "" {
		b := NewBuilder(len(src))
		b.Mark(0, len(src), Runtime, why)
		return b.Map("text"), nil
	}
	return classifyMarkdown(src)
}

// testDataDirs are the directory names that hold test fixtures.
var testDataDirs = [...]string{"testdata", "test-data", "test_data", "fixtures", "fixture", "__fixtures__"}

// textIsData returns why a .txt file is not prose, or "".
func textIsData(path string, src []byte) string {
	for _, dir := range strings.Split(filepath.ToSlash(filepath.Dir(path)), "/") {
		for _, d := range testDataDirs {
			if strings.EqualFold(dir, d) {
				return "test data: in a " + d + " directory"
			}
		}
	}
	if isTxtar(src) {
		return "test data: a txtar archive"
	}
	if enc := escapeEncoding(src); enc != "" {
		return "encoded text: " + enc + " escape sequences are the encoding"
	}
	return ""
}

// isTxtar reports whether src holds a txtar file marker line: "-- NAME --".
func isTxtar(src []byte) bool {
	for line := range bytes.Lines(src) {
		line = bytes.TrimRight(line, "\r\n")
		if len(line) > 6 && bytes.HasPrefix(line, []byte("-- ")) && bytes.HasSuffix(line, []byte(" --")) &&
			len(bytes.TrimSpace(line[3:len(line)-3])) > 0 {
			return true
		}
	}
	return false
}

// escapeEncoding names the escape-based encoding src is written in, or "":
// ISO-2022 designations (ESC $ B, ESC ( J, ESC $ ) C, ESC $ A, ...) or HZ's
// "~{" ... "~}".
func escapeEncoding(src []byte) string {
	for i := bytes.IndexByte(src, 0x1b); i >= 0 && i+1 < len(src); {
		switch src[i+1] {
		case '$', '(', ')', '*', '+', '-', '.', '/', 'N', 'O':
			return "ISO-2022"
		}
		j := bytes.IndexByte(src[i+1:], 0x1b)
		if j < 0 {
			break
		}
		i += 1 + j
	}
	if bytes.Contains(src, []byte("~{")) && bytes.Contains(src, []byte("~}")) {
		return "HZ"
	}
	return ""
}
