package ollama

// A deliberately small HTTP/1.1 client, one request per connection, for the
// one server this package talks to: Ollama on loopback. It exists so the
// prosewash binary does not link net/http, whose dependency tree (crypto/tls,
// x509, http2) costs every hook process start-up time for a client that never
// needs TLS, proxies, redirects, keep-alive or compression.
//
// What it sends: one request with "Connection: close" and, for a body,
// Content-Length. What it accepts (RFC 9112): an "HTTP/1.0" or "HTTP/1.1"
// status line, header fields without obsolete line folding, any number of
// 1xx interim responses up to maxInterim, and a body framed by chunked
// transfer coding, Content-Length, or the end of the connection. Everything
// is bounded: header bytes and fields, chunk framing, and the body.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Bounds of one reply's framing. Ollama sends a handful of short header
// fields; these leave generous room and stop a misbehaving server from
// making the client buffer without limit.
const (
	// maxHeaderBytes bounds the status lines and header sections of a reply,
	// interim responses and trailers included.
	maxHeaderBytes = 64 << 10
	// maxHeaderFields bounds the header fields of a reply, interim responses
	// and trailers included.
	maxHeaderFields = 128
	// maxInterim bounds the 1xx responses before the final one.
	maxInterim = 8
	// maxChunkLine bounds one chunk-size line, extensions included.
	maxChunkLine = 4096
	// userAgent names the client in Ollama's logs.
	userAgent = "prosewash-ollama-rewrite"
)

// framingBudget bounds the chunk framing (size lines, extensions, the CRLF
// after each chunk, trailers) of a body of at most maxBody bytes: a fixed
// allowance plus one eighth of the body, so a body of tiny chunks is refused
// long before its framing dwarfs the bound.
func framingBudget(maxBody int64) int64 { return 64<<10 + maxBody/8 }

// errMalformed marks every reply that does not parse as HTTP/1.x.
var errMalformed = errors.New("malformed HTTP reply")

// errTooLarge marks a body over the bound; the message is the caller's.
var errTooLarge = errors.New("reply too large")

// malformed builds an errMalformed error; the message names the problem,
// never the bytes, which could echo the prompt.
func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errMalformed, fmt.Sprintf(format, args...))
}

// buildRequest is the whole request: request line, header fields and body.
// target must already be an escaped origin-form path; hostport is the
// endpoint's authority.
func buildRequest(method, target, hostport string, body []byte) []byte {
	var b bytes.Buffer
	b.Grow(256 + len(body))
	b.WriteString(method + " " + target + " HTTP/1.1\r\n")
	b.WriteString("Host: " + hostport + "\r\n")
	b.WriteString("User-Agent: " + userAgent + "\r\n")
	b.WriteString("Accept: application/json\r\n")
	if body != nil {
		b.WriteString("Content-Type: application/json\r\n")
		b.WriteString("Content-Length: " + strconv.Itoa(len(body)) + "\r\n")
	}
	b.WriteString("Connection: close\r\n\r\n")
	b.Write(body)
	return b.Bytes()
}

// response is a parsed final reply.
type response struct {
	// code is the status code, 200..999 (1xx are consumed as interim).
	code int
	// status is the code and reason phrase, for messages: "404 Not Found".
	status string
	// body is the decoded body, at most the bound; nil when the reply was
	// not read past its header section (3xx).
	body []byte
}

// header is the part of a header section the client acts on.
type header struct {
	contentLength    int64 // -1 when absent
	contentLengthRaw string
	chunked          bool
	transferEncoding bool
}

// readResponse reads one reply to a non-HEAD request from br: interim 1xx
// responses are skipped, a 3xx is returned without reading its body (it is
// refused anyway), any other body is read whole. It never consumes more
// than maxHeaderBytes + framingBudget(maxBody) + maxBody + 1 bytes from br,
// and never returns a body longer than maxBody: a longer one is an error
// wrapping errTooLarge.
func readResponse(br *bufio.Reader, maxBody int64) (*response, error) {
	headerBudget := int64(maxHeaderBytes)
	fields := maxHeaderFields
	for interim := 0; ; interim++ {
		code, status, http10, err := readStatusLine(br, &headerBudget, interim == 0)
		if err != nil {
			return nil, err
		}
		h, err := readHeader(br, &headerBudget, &fields, false)
		if err != nil {
			return nil, err
		}
		if h.transferEncoding && http10 {
			// RFC 9112 6.1: HTTP/1.0 has no transfer codings; such a
			// message's framing is faulty.
			return nil, malformed("Transfer-Encoding in an HTTP/1.0 reply")
		}
		if code == 101 {
			return nil, malformed("unexpected %s to a request that asked for no upgrade", status)
		}
		if code < 200 {
			// An interim response has no body (RFC 9110 15.2), whatever
			// its header says.
			if interim == maxInterim {
				return nil, malformed("more than %d interim responses", maxInterim)
			}
			continue
		}
		resp := &response{code: code, status: status}
		if code >= 300 && code < 400 {
			return resp, nil
		}
		if code == 204 {
			resp.body = []byte{}
			return resp, nil
		}
		resp.body, err = readBody(br, h, maxBody)
		if err != nil {
			return nil, err
		}
		return resp, nil
	}
}

// readStatusLine parses "HTTP/1.x SP 3DIGIT [SP reason-phrase]" and says
// whether the version is 1.0.
func readStatusLine(br *bufio.Reader, budget *int64, first bool) (code int, status string, http10 bool, err error) {
	line, err := readLine(br, budget, false)
	if err != nil {
		if first && errors.Is(err, io.EOF) {
			return 0, "", false, errors.New("the connection closed without a reply")
		}
		return 0, "", false, lineError("status line", err)
	}
	if len(line) < 12 || (string(line[:9]) != "HTTP/1.1 " && string(line[:9]) != "HTTP/1.0 ") {
		return 0, "", false, malformed("not an HTTP/1.x status line")
	}
	for _, c := range line[9:12] {
		if c < '0' || c > '9' {
			return 0, "", false, malformed("status code is not three digits")
		}
		code = code*10 + int(c-'0')
	}
	if code < 100 {
		return 0, "", false, malformed("status code %d", code)
	}
	reason := line[12:]
	if len(reason) > 0 {
		if reason[0] != ' ' {
			return 0, "", false, malformed("status code is not three digits")
		}
		reason = reason[1:]
	}
	for _, c := range reason {
		if isCTL(c) && c != '\t' {
			return 0, "", false, malformed("control character in the reason phrase")
		}
	}
	status = strconv.Itoa(code)
	if r := oneLine(string(reason)); r != "" {
		status += " " + r
	}
	return code, status, line[7] == '0', nil
}

// readHeader reads a header section (or a trailer section, where framing
// fields mean nothing) up to its empty line.
func readHeader(br *bufio.Reader, budget *int64, fields *int, trailer bool) (header, error) {
	h := header{contentLength: -1}
	what := "header"
	if trailer {
		what = "trailer"
	}
	for {
		// A trailer section is chunked framing, where bare LF is refused
		// like in chunk-size lines.
		line, err := readLine(br, budget, trailer)
		if err != nil {
			return h, lineError(what, err)
		}
		if len(line) == 0 {
			return h, nil
		}
		if line[0] == ' ' || line[0] == '\t' {
			// RFC 9112 5.2: obs-fold is obsolete; a client may reject it,
			// and accepting it would let one field hide inside another.
			return h, malformed("obsolete line folding in the %s", what)
		}
		*fields--
		if *fields < 0 {
			return h, malformed("more than %d header fields", maxHeaderFields)
		}
		name, value, ok := bytes.Cut(line, []byte{':'})
		if !ok || len(name) == 0 {
			return h, malformed("%s line without a field name", what)
		}
		for _, c := range name {
			if !isTchar(c) {
				return h, malformed("invalid character in a %s field name", what)
			}
		}
		for _, c := range value {
			if isCTL(c) && c != '\t' {
				return h, malformed("control character in a %s field value", what)
			}
		}
		value = bytes.Trim(value, " \t")
		if trailer {
			continue
		}
		switch {
		case asciiEqualFold(name, "Content-Length"):
			n, err := parseContentLength(value)
			if err != nil {
				return h, err
			}
			// Repeats must be identical, not merely equal in value.
			if h.contentLength >= 0 && h.contentLengthRaw != string(value) {
				return h, malformed("conflicting Content-Length fields")
			}
			h.contentLength, h.contentLengthRaw = n, string(value)
		case asciiEqualFold(name, "Transfer-Encoding"):
			// Only "chunked", alone: the request asked for no transfer
			// coding, and a coding the client cannot undo would be misread.
			if h.transferEncoding || !asciiEqualFold(value, "chunked") {
				return h, malformed("unsupported Transfer-Encoding")
			}
			h.transferEncoding, h.chunked = true, true
		case asciiEqualFold(name, "Content-Encoding"):
			// The request sends no Accept-Encoding: a compressed body is a
			// reply the client cannot read.
			if len(value) > 0 && !asciiEqualFold(value, "identity") {
				return h, malformed("unsupported Content-Encoding")
			}
		}
	}
}

// parseContentLength accepts 1*DIGIT and nothing else (no sign, no list).
func parseContentLength(v []byte) (int64, error) {
	if len(v) == 0 || len(v) > 18 {
		return 0, malformed("invalid Content-Length")
	}
	var n int64
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, malformed("invalid Content-Length")
		}
		n = n*10 + int64(c-'0')
	}
	return n, nil
}

// readBody reads the body framed as RFC 9112 6.3 says for a response:
// chunked, then Content-Length, then until the connection closes.
func readBody(br *bufio.Reader, h header, maxBody int64) ([]byte, error) {
	switch {
	case h.chunked && h.contentLength >= 0:
		// RFC 9112 6.3: a sign of smuggling or splitting; refused rather
		// than resolved.
		return nil, malformed("both Transfer-Encoding and Content-Length")
	case h.chunked:
		return readChunked(br, maxBody)
	case h.contentLength >= 0:
		if h.contentLength > maxBody {
			return nil, errTooLarge
		}
		body, err := io.ReadAll(io.LimitReader(br, h.contentLength))
		if err != nil {
			return nil, err
		}
		if int64(len(body)) < h.contentLength {
			return nil, malformed("truncated body: %d of %d bytes (Content-Length)", len(body), h.contentLength)
		}
		return body, nil
	default:
		body, err := io.ReadAll(io.LimitReader(br, maxBody+1))
		if err != nil {
			return nil, err
		}
		if int64(len(body)) > maxBody {
			return nil, errTooLarge
		}
		return body, nil
	}
}

// readChunked decodes a chunked body (RFC 9112 7.1), discarding chunk
// extensions and trailers.
func readChunked(br *bufio.Reader, maxBody int64) ([]byte, error) {
	framing := framingBudget(maxBody)
	var body bytes.Buffer
	for {
		line, err := readChunkLine(br, &framing)
		if err != nil {
			return nil, err
		}
		size, err := parseChunkSize(line)
		if err != nil {
			return nil, err
		}
		if size == 0 {
			// Trailer fields are framing: they draw on its budget, and
			// are counted like a header section's fields.
			fields := maxHeaderFields
			if _, err := readHeader(br, &framing, &fields, true); err != nil {
				return nil, err
			}
			return body.Bytes(), nil
		}
		if size > maxBody-int64(body.Len()) {
			return nil, errTooLarge
		}
		n, err := io.CopyN(&body, br, size)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil, malformed("truncated chunk: %d of %d bytes", n, size)
			}
			return nil, err
		}
		if framing < 2 {
			return nil, malformed("chunk framing over its size bound")
		}
		crlf, err := br.Peek(2)
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil, malformed("truncated chunked body")
			}
			return nil, err
		}
		if crlf[0] != '\r' || crlf[1] != '\n' {
			return nil, malformed("chunk data not followed by CRLF")
		}
		br.Discard(2)
		framing -= 2
	}
}

// readChunkLine reads one chunk-size line, which must end in CRLF (RFC
// 9112 errata 7633: no bare LF in chunked framing).
func readChunkLine(br *bufio.Reader, budget *int64) ([]byte, error) {
	b := min(*budget, maxChunkLine)
	line, err := readLine(br, &b, true)
	if errors.Is(err, errLineTooLong) && *budget < maxChunkLine {
		return nil, malformed("chunk framing over its size bound")
	}
	if err != nil {
		return nil, lineError("chunk-size line", err)
	}
	*budget -= min(*budget, maxChunkLine) - b
	return line, nil
}

// parseChunkSize parses 1*HEXDIG [ ";" chunk-ext ] with optional trailing
// whitespace; the extension is validated only for control characters and
// otherwise ignored, as RFC 9112 7.1.1 lets a recipient do.
func parseChunkSize(line []byte) (int64, error) {
	hex, ext, hasExt := bytes.Cut(line, []byte{';'})
	if !hasExt {
		hex = bytes.TrimRight(hex, " \t")
	}
	if len(hex) == 0 {
		return 0, malformed("empty chunk size")
	}
	if len(hex) > 15 {
		return 0, malformed("chunk size too large")
	}
	var n int64
	for _, c := range hex {
		var d byte
		switch {
		case '0' <= c && c <= '9':
			d = c - '0'
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, malformed("invalid chunk size")
		}
		n = n<<4 | int64(d)
	}
	for _, c := range ext {
		if isCTL(c) && c != '\t' {
			return 0, malformed("control character in a chunk extension")
		}
	}
	return n, nil
}

// errLineTooLong is readLine's refusal of a line over its budget.
var errLineTooLong = errors.New("line too long")

// readLine returns one line without its terminator, charging the bytes
// consumed (terminator included) to *budget; a line that would exceed the
// budget is refused before it is consumed. A line ends in CRLF, or in a bare
// LF unless crlf is set; a CR anywhere else is refused.
func readLine(br *bufio.Reader, budget *int64, crlf bool) ([]byte, error) {
	var line []byte
	for {
		if br.Buffered() == 0 {
			if _, err := br.Peek(1); err != nil {
				if len(line) > 0 && errors.Is(err, io.EOF) {
					return nil, io.ErrUnexpectedEOF
				}
				return nil, err
			}
		}
		buf, _ := br.Peek(br.Buffered())
		i := bytes.IndexByte(buf, '\n')
		take := len(buf)
		if i >= 0 {
			take = i + 1
		}
		if int64(take) > *budget {
			return nil, errLineTooLong
		}
		line = append(line, buf[:take]...)
		br.Discard(take)
		*budget -= int64(take)
		if i < 0 {
			continue
		}
		line = line[:len(line)-1]
		if n := len(line); n > 0 && line[n-1] == '\r' {
			line = line[:n-1]
		} else if crlf {
			return nil, malformed("line ends in a bare LF")
		}
		if bytes.IndexByte(line, '\r') >= 0 {
			return nil, malformed("bare CR in a line")
		}
		return line, nil
	}
}

// lineError names where a line could not be read.
func lineError(what string, err error) error {
	switch {
	case errors.Is(err, errLineTooLong):
		return malformed("%s over the size bound", what)
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return malformed("truncated %s", what)
	case errors.Is(err, errMalformed):
		return fmt.Errorf("%w (%s)", err, what)
	}
	return err
}

func isCTL(c byte) bool { return c < 0x20 || c == 0x7f }

// isTchar reports whether c may appear in a field name (RFC 9110 5.6.2).
func isTchar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return c != 0 && strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

func asciiEqualFold(b []byte, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range len(b) {
		x, y := b[i], s[i]
		if 'A' <= x && x <= 'Z' {
			x += 'a' - 'A'
		}
		if 'A' <= y && y <= 'Z' {
			y += 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}
