package checkreport

import "bytes"

// appendIndented appends the compact JSON src (as json.Marshal writes it)
// to dst, indented exactly as json.Indent(dst, src, "", indent) would,
// without json.Indent's scanner state machine stepping through every byte:
// strings and literals are copied in runs. A check of a large tree prints
// thousands of findings and skipped paths, and the scanner was two fifths
// of writing them.
func appendIndented(dst, src []byte, indent string) []byte {
	depth := 0
	open := false // after '{' or '[': the line break waits for the first element
	newline := func() {
		dst = append(dst, '\n')
		for range depth {
			dst = append(dst, indent...)
		}
	}
	for i := 0; i < len(src); {
		c := src[i]
		switch c {
		case '{', '[':
			if open {
				newline()
			}
			dst = append(dst, c)
			depth++
			open = true
			i++
			continue
		case '}', ']':
			depth--
			if !open {
				newline()
			}
			open = false
			dst = append(dst, c)
			i++
			continue
		case ',':
			dst = append(dst, ',')
			newline()
			i++
			continue
		case ':':
			dst = append(dst, ':', ' ')
			i++
			continue
		}
		if open {
			newline()
			open = false
		}
		var end int
		if c == '"' {
			end = stringEnd(src, i)
		} else {
			end = literalEnd(src, i)
		}
		dst = append(dst, src[i:end]...)
		i = end
	}
	return dst
}

// stringEnd returns the offset just after the JSON string starting at
// src[i] (a quote), or len(src) when it is not closed.
func stringEnd(src []byte, i int) int {
	for j := i + 1; j < len(src); {
		k := bytes.IndexByte(src[j:], '"')
		if k < 0 {
			break
		}
		j += k
		// A quote after an odd number of backslashes is escaped.
		bs := 0
		for bs < j-i-1 && src[j-1-bs] == '\\' {
			bs++
		}
		if bs%2 == 0 {
			return j + 1
		}
		j++
	}
	return len(src)
}

// literalEnd returns the offset just after the number or literal (true,
// false, null) starting at src[i].
func literalEnd(src []byte, i int) int {
	for j := i; j < len(src); j++ {
		switch src[j] {
		case ',', ':', ']', '}':
			return j
		}
	}
	return len(src)
}
