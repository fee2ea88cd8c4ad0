package ollama

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/netip"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// rawServer is a loopback TCP server that reads one HTTP request per
// connection, records its bytes, and answers with whatever its handler
// writes: the replies net/http's server would never send.
type rawServer struct {
	URL  string
	addr string

	mu   sync.Mutex
	reqs [][]byte
	wg   sync.WaitGroup
}

func startRaw(t *testing.T, answer func(conn net.Conn)) *rawServer {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &rawServer{URL: "http://" + ln.Addr().String(), addr: ln.Addr().String()}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			s.wg.Add(1)
			go func() {
				defer s.wg.Done()
				defer conn.Close()
				conn.SetDeadline(time.Now().Add(20 * time.Second))
				var raw bytes.Buffer
				req, err := http.ReadRequest(bufio.NewReader(io.TeeReader(conn, &raw)))
				if err != nil {
					return
				}
				io.Copy(io.Discard, req.Body)
				s.mu.Lock()
				s.reqs = append(s.reqs, raw.Bytes())
				s.mu.Unlock()
				answer(conn)
			}()
		}
	}()
	t.Cleanup(func() { ln.Close(); s.wg.Wait() })
	return s
}

func (s *rawServer) requests() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte(nil), s.reqs...)
}

// reply answers every request with the same bytes and closes.
func reply(raw string) func(net.Conn) {
	return func(conn net.Conn) { io.WriteString(conn, raw) }
}

// stall writes raw and then holds the connection until the client leaves.
func stall(raw string) func(net.Conn) {
	return func(conn net.Conn) {
		io.WriteString(conn, raw)
		io.Copy(io.Discard, conn)
	}
}

func chatReplyJSON(content string) string {
	b, _ := json.Marshal(map[string]any{"model": "llama3.2:3b", "message": map[string]string{"role": "assistant", "content": content}, "done": true, "done_reason": "stop"})
	return string(b)
}

// TestWireRequest checks the bytes the client sends: an origin-form
// request line under the endpoint's path, exactly the documented header
// fields, and the JSON body with its length.
func TestWireRequest(t *testing.T) {
	body := chatReplyJSON("Employ it.")
	srv := startRaw(t, reply("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "+itoa(len(body))+"\r\n\r\n"+body))
	r, err := call(t, seams{}, args(srv.URL+"/base/"), oneRegion("Use it."))
	if err != nil {
		t.Fatal(err)
	}
	if got := *r.Files[0].Regions[0].Text; got != "Employ it." {
		t.Fatalf("text %q", got)
	}
	reqs := srv.requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	head, payload, ok := strings.Cut(string(reqs[0]), "\r\n\r\n")
	if !ok {
		t.Fatalf("no end of header in %q", reqs[0])
	}
	lines := strings.Split(head, "\r\n")
	if lines[0] != "POST /base/api/chat HTTP/1.1" {
		t.Fatalf("request line %q", lines[0])
	}
	fields := append([]string(nil), lines[1:]...)
	sort.Strings(fields)
	want := []string{
		"Accept: application/json", "Connection: close", "Content-Length: " + itoa(len(payload)),
		"Content-Type: application/json", "Host: " + srv.addr, "User-Agent: prosewash-ollama-rewrite",
	}
	if strings.Join(fields, "\n") != strings.Join(want, "\n") {
		t.Fatalf("header fields\n%s\nwant\n%s", strings.Join(fields, "\n"), strings.Join(want, "\n"))
	}
	var chat struct {
		Model    string `json:"model"`
		Stream   *bool  `json:"stream"`
		Messages []struct {
			Content string `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal([]byte(payload), &chat); err != nil || chat.Model != "llama3.2:3b" || chat.Stream == nil || *chat.Stream || len(chat.Messages) != 1 || chat.Messages[0].Content != Prompt("Use it.") {
		t.Fatalf("body %q: %v", payload, err)
	}
}

func TestWireProbeRequests(t *testing.T) {
	srv := startRaw(t, func(conn net.Conn) {
		b := `{"version":"9.9.9","models":[{"name":"m:latest","model":"m:latest"}]}`
		io.WriteString(conn, "HTTP/1.1 200 OK\r\nContent-Length: "+itoa(len(b))+"\r\n\r\n"+b)
	})
	var out bytes.Buffer
	if err := Serve(context.Background(), strings.NewReader(""), &out, []string{"--probe", "--endpoint", srv.URL + "/o", "--model", "m"}, nil); err != nil {
		t.Fatal(err)
	}
	if out.String() != "ollama 9.9.9 at "+srv.URL+"/o has model m\n" {
		t.Fatalf("stdout %q", out.String())
	}
	var got []string
	for _, r := range srv.requests() {
		got = append(got, string(r))
	}
	want := []string{
		"GET /o/api/version HTTP/1.1\r\nHost: " + srv.addr + "\r\nUser-Agent: prosewash-ollama-rewrite\r\nAccept: application/json\r\nConnection: close\r\n\r\n",
		"GET /o/api/tags HTTP/1.1\r\nHost: " + srv.addr + "\r\nUser-Agent: prosewash-ollama-rewrite\r\nAccept: application/json\r\nConnection: close\r\n\r\n",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("requests %q, want %q", got, want)
	}
}

// TestRawReplies drives the whole client (dial, write, parse, decode)
// against replies written byte by byte.
func TestRawReplies(t *testing.T) {
	const version = `{"version":"1.2.3"}`
	tests := []struct {
		name   string
		answer func(net.Conn)
		err    string // "" = the version decodes
	}{
		{"content-length", reply("HTTP/1.1 200 OK\r\nContent-Length: 19\r\n\r\n" + version), ""},
		{"chunked with extensions and trailers", reply("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;x=1\r\n{\"ve\r\nf;y\r\nrsion\":\"1.2.3\"}\r\n0\r\nX-Trailer: t\r\n\r\n"), ""},
		{"100-continue and early hints first", reply("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 19\r\n\r\n" + version), ""},
		{"HTTP/1.0 until the connection closes", reply("HTTP/1.0 200 OK\r\n\r\n" + version), ""},
		{"slow bytes", func(conn net.Conn) {
			for _, b := range []byte("HTTP/1.1 200 OK\r\nContent-Length: 19\r\n\r\n" + version) {
				conn.Write([]byte{b})
			}
		}, ""},
		{"truncated body", reply("HTTP/1.1 200 OK\r\nContent-Length: 40\r\n\r\n" + version), "malformed HTTP reply: truncated body: 19 of 40 bytes (Content-Length)"},
		{"truncated chunk", reply("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n40\r\n" + version), "truncated chunk: 19 of 64 bytes"},
		{"header folding", reply("HTTP/1.1 200 OK\r\nX-A: 1\r\n Content-Length: 19\r\n\r\n" + version), "obsolete line folding"},
		{"malformed status line", reply("HTTP/1.1 OK 200\r\n\r\n" + version), "status code is not three digits"},
		{"not HTTP", reply(version + "\n"), "not an HTTP/1.x status line"},
		{"oversized header", reply("HTTP/1.1 200 OK\r\nX-Big: " + strings.Repeat("b", maxHeaderBytes) + "\r\n\r\n" + version), "header over the size bound"},
		{"301", reply("HTTP/1.1 301 Moved Permanently\r\nLocation: http://127.0.0.1:1/\r\nContent-Length: 0\r\n\r\n"), "ollama answered with a redirect: redirect refused"},
		{"307 with a body", reply("HTTP/1.1 307 Temporary Redirect\r\nLocation: http://10.0.0.1/\r\n\r\n" + version), "ollama answered with a redirect: redirect refused"},
		{"300 without a location", reply("HTTP/1.1 300 Multiple Choices\r\nContent-Length: 0\r\n\r\n"), "redirect refused"},
		{"error with Ollama's message", reply("HTTP/1.1 418 I'm a teapot\r\nContent-Length: 28\r\n\r\n{\"error\":\"short\\nand stout\"}"), "ollama answered 418 I'm a teapot: short and stout"},
		{"error without a reason or body", reply("HTTP/1.1 503\r\nContent-Length: 0\r\n\r\n"), "ollama answered 503"},
		{"200 with an error object", reply("HTTP/1.1 200 OK\r\nContent-Length: 32\r\n\r\n{\"version\":\"1\",\"error\":\"broken\"}"), "ollama error: broken"},
		{"204", reply("HTTP/1.1 204 No Content\r\n\r\n"), "ollama answered 204 No Content"},
		{"closed without a reply", reply(""), "the connection closed without a reply"},
		{"gzip", reply("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: 19\r\n\r\n" + version), "unsupported Content-Encoding"},
		{"over the bound by content-length", reply("HTTP/1.1 200 OK\r\nContent-Length: 101\r\n\r\n"), "reply larger than 100 bytes"},
		{"over the bound by chunks", reply("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n40\r\n" + strings.Repeat("a", 64) + "\r\n40\r\n" + strings.Repeat("a", 64) + "\r\n0\r\n\r\n"), "reply larger than 100 bytes"},
		{"over the bound until EOF", reply("HTTP/1.1 200 OK\r\n\r\n" + strings.Repeat("a", 101)), "reply larger than 100 bytes"},
		{"stalls in the header", stall("HTTP/1.1 200 OK\r\nContent-"), "timed out after 300ms"},
		{"stalls in the body", stall("HTTP/1.1 200 OK\r\nContent-Length: 19\r\n\r\n{\"ver"), "timed out after 300ms"},
		{"stalls between chunks", stall("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{\"ve\r\n"), "timed out after 300ms"},
		{"never answers", stall(""), "timed out after 300ms"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := startRaw(t, tc.answer)
			c, err := newClient(srv.URL, 300*time.Millisecond, seams{maxBody: 100})
			if err != nil {
				t.Fatal(err)
			}
			var v struct {
				Version string `json:"version"`
			}
			err = c.call(context.Background(), "GET", "/api/version", nil, &v)
			if tc.err == "" {
				if err != nil || v.Version != "1.2.3" {
					t.Fatalf("got %q, %v", v.Version, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("got %v, want %q", err, tc.err)
			}
			if len(srv.requests()) != 1 {
				t.Fatalf("%d requests reached the server", len(srv.requests()))
			}
		})
	}
}

// TestRawRepliesNeverQuoteTheBody checks refusals of malformed replies
// name the problem without echoing the server's bytes, which may carry the
// prompt or the model's output.
func TestRawRepliesNeverQuoteTheBody(t *testing.T) {
	const secret = "SECRET-REGION-TEXT"
	for _, raw := range []string{
		"HTTP/1.1 200 OK\r\nX-A: 1\r\n " + secret + "\r\n\r\n",
		secret + " 200 OK\r\n\r\n",
		"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + secret + "\r\n",
		"HTTP/1.1 200 OK\r\nContent-Length: 999\r\n\r\n" + secret,
		"HTTP/1.1 200 OK\r\n\r\n{\"message\":\"" + secret,
		"HTTP/1.1 500 Oops\r\n\r\n" + secret,
	} {
		srv := startRaw(t, reply(raw))
		_, err := call(t, seams{}, args(srv.URL), oneRegion("Use it."))
		if err == nil || strings.Contains(err.Error(), secret) {
			t.Fatalf("%q: got %v", raw, err)
		}
	}
}

// TestHTTPSEndpointRefused: TLS to loopback is not offered, and the
// refusal comes before any lookup or dial.
func TestHTTPSEndpointRefused(t *testing.T) {
	for _, endpoint := range []string{"https://127.0.0.1:11434", "https://localhost:11434/", "https://[::1]"} {
		lookups := 0
		var log dialLog
		s := log.seams()
		s.lookup = func(context.Context, string) ([]netip.Addr, error) {
			lookups++
			return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
		}
		_, err := call(t, s, args(endpoint), oneRegion("Use it."))
		if err == nil || !strings.HasPrefix(err.Error(), "endpoint refused: ") || !strings.Contains(err.Error(), "only http:// is supported; TLS to a loopback address protects nothing") {
			t.Fatalf("%s: got %v", endpoint, err)
		}
		if lookups != 0 || len(log.list()) != 0 {
			t.Fatalf("%s: %d lookups and dials %v", endpoint, lookups, log.list())
		}
	}
	// The plain http:// form of the same endpoint is accepted.
	if _, err := newClient("http://127.0.0.1:11434", time.Second, seams{}); err != nil {
		t.Fatal(err)
	}
}

// TestEndpointForms checks what is dialled and sent as Host for each
// accepted endpoint spelling.
func TestEndpointForms(t *testing.T) {
	for _, tc := range []struct{ endpoint, addr, host, path string }{
		{"http://127.0.0.1:11434", "127.0.0.1:11434", "127.0.0.1:11434", ""},
		{"http://127.0.0.1:11434/", "127.0.0.1:11434", "127.0.0.1:11434", ""},
		{"http://127.0.0.1", "127.0.0.1:80", "127.0.0.1", ""},
		{"http://127.0.0.1:", "127.0.0.1:80", "127.0.0.1", ""},
		{"http://localhost:8080/ollama//", "localhost:8080", "localhost:8080", "/ollama"},
		{"http://[::1]:11434/a%20b", "[::1]:11434", "[::1]:11434", "/a b"},
	} {
		c, err := newClient(tc.endpoint, time.Second, seams{})
		if err != nil {
			t.Fatalf("%s: %v", tc.endpoint, err)
		}
		if c.addr != tc.addr || c.hostport != tc.host || c.basePath != tc.path {
			t.Fatalf("%s: addr %q host %q path %q", tc.endpoint, c.addr, c.hostport, c.basePath)
		}
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
