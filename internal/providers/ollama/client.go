package ollama

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"

	"github.com/prosewash/prosewash/internal/engine/provider"
)

// MaxResponseBytes bounds one /api/chat reply body.
const MaxResponseBytes = 16 << 20

// seams are the test hooks of the network layer. Production code uses the
// zero value, which means the system resolver and the default bound.
type seams struct {
	// lookup resolves a host name; nil means net.DefaultResolver.
	lookup func(ctx context.Context, host string) ([]netip.Addr, error)
	// dialing, when set, is told every address the client is about to
	// connect to, after the loopback checks passed.
	dialing func(addr string)
	// maxBody overrides MaxResponseBytes when positive.
	maxBody int64
}

// errNotLoopback marks every refusal of a non-loopback destination.
var errNotLoopback = errors.New("not a loopback address; the rewrite provider only talks to this machine")

// errRedirect is returned for any redirect: a redirect could point anywhere,
// and following it would send the prompt (the user's text) there.
var errRedirect = errors.New("redirect refused")

// client talks to one Ollama endpoint over loopback only, one plain
// HTTP/1.1 request per connection (see http1.go). It has no proxy support
// to switch off: proxy variables are never read.
type client struct {
	// hostport is the endpoint's authority, sent as Host.
	hostport string
	// addr is what is dialled: host and port, the port defaulting to 80.
	addr string
	// basePath is the endpoint's path without its trailing slash.
	basePath string
	dial     func(ctx context.Context, network, addr string) (net.Conn, error)
	timeout  time.Duration
	maxBody  int64
}

// newClient checks the endpoint (scheme http, host a loopback literal or
// "localhost", no user, query or fragment) before anything touches the
// network. https is refused: TLS to a server on this machine protects
// nothing the loopback interface does not, and would need the TLS stack
// this client exists to avoid.
func newClient(endpoint string, timeout time.Duration, s seams) (*client, error) {
	if err := provider.CheckLoopbackURL(endpoint); err != nil {
		return nil, err
	}
	u, err := url.Parse(endpoint)
	if err != nil {
		return nil, fmt.Errorf("invalid endpoint: %w", err)
	}
	if u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return nil, fmt.Errorf("endpoint %q: only scheme, host, port and path are allowed", endpoint)
	}
	if u.Scheme != "http" {
		return nil, fmt.Errorf("endpoint %q: only http:// is supported; TLS to a loopback address protects nothing, use http://%s", endpoint, u.Host)
	}
	maxBody := int64(MaxResponseBytes)
	if s.maxBody > 0 {
		maxBody = s.maxBody
	}
	port := u.Port()
	if port == "" {
		port = "80"
	}
	return &client{
		hostport: strings.TrimSuffix(u.Host, ":"),
		addr:     net.JoinHostPort(u.Hostname(), port),
		basePath: strings.TrimRight(u.Path, "/"),
		dial:     loopbackDialer(s),
		timeout:  timeout,
		maxBody:  maxBody,
	}, nil
}

// loopbackDialer resolves the host itself, refuses unless every address is
// loopback, and dials those addresses literally so nothing re-resolves the
// name between the check and the connection. The socket's Control hook
// checks the address once more at connect time.
func loopbackDialer(s seams) func(ctx context.Context, network, addr string) (net.Conn, error) {
	lookup := s.lookup
	if lookup == nil {
		lookup = func(ctx context.Context, host string) ([]netip.Addr, error) {
			return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
		}
	}
	d := &net.Dialer{Timeout: 10 * time.Second, Control: checkDialed}
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		if network != "tcp" && network != "tcp4" && network != "tcp6" {
			return nil, fmt.Errorf("dial %s: network %s refused", addr, network)
		}
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, fmt.Errorf("dial %s: %w", addr, err)
		}
		var ips []netip.Addr
		if ip, err := netip.ParseAddr(host); err == nil {
			ips = []netip.Addr{ip}
		} else {
			if ips, err = lookup(ctx, host); err != nil {
				return nil, fmt.Errorf("resolve %s: %w", host, err)
			}
			if len(ips) == 0 {
				return nil, fmt.Errorf("resolve %s: no addresses", host)
			}
		}
		for _, ip := range ips {
			if !ip.Unmap().IsLoopback() {
				return nil, fmt.Errorf("dial %s: %s resolves to %s: %w", addr, host, ip, errNotLoopback)
			}
		}
		var firstErr error
		for _, ip := range ips {
			target := net.JoinHostPort(ip.Unmap().String(), port)
			if s.dialing != nil {
				s.dialing(target)
			}
			conn, err := d.DialContext(ctx, network, target)
			if err == nil {
				return conn, nil
			}
			if firstErr == nil {
				firstErr = err
			}
		}
		return nil, firstErr
	}
}

// checkDialed runs on the socket just before connect with the address
// actually being dialled: the last word on where the prompt goes.
func checkDialed(network, address string, _ syscall.RawConn) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil || !ap.Addr().Unmap().IsLoopback() {
		return fmt.Errorf("dial %s: %w", address, errNotLoopback)
	}
	return nil
}

// chatRequest is the body of POST /api/chat.
type chatRequest struct {
	Model    string      `json:"model"`
	Stream   bool        `json:"stream"`
	Messages []message   `json:"messages"`
	Options  chatOptions `json:"options"`
	// Format "json" asks Ollama to constrain the reply to JSON (the memory judge).
	Format string `json:"format,omitempty"`
}

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type chatOptions struct {
	Temperature float64 `json:"temperature"`
}

// chatResponse is the part of Ollama's non-streaming reply we use.
type chatResponse struct {
	Model      string  `json:"model"`
	Message    message `json:"message"`
	Done       bool    `json:"done"`
	DoneReason string  `json:"done_reason"`
}

// chat sends one non-streaming chat request. Errors never include the
// prompt or the reply text.
func (c *client) chat(ctx context.Context, req chatRequest) (*chatResponse, error) {
	var out chatResponse
	if err := c.call(ctx, "POST", "/api/chat", req, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// call sends one request to the API path and decodes exactly one JSON
// object from a 200 reply into out. in, when not nil, is the JSON body.
func (c *client) call(ctx context.Context, method, path string, in, out any) error {
	var body []byte
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			return fmt.Errorf("encode request: %w", err)
		}
		body = b
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	target := (&url.URL{Path: c.basePath + path}).EscapedPath()
	resp, err := c.roundTrip(ctx, buildRequest(method, target, c.hostport, body))
	if err != nil {
		return c.describe(ctx, err)
	}
	if resp.code >= 300 && resp.code < 400 {
		return fmt.Errorf("ollama answered with a redirect: %w", errRedirect)
	}
	var apiErr struct {
		Error string `json:"error"`
	}
	json.Unmarshal(resp.body, &apiErr)
	if resp.code != 200 {
		if apiErr.Error != "" {
			return fmt.Errorf("ollama answered %s: %s", resp.status, oneLine(apiErr.Error))
		}
		return fmt.Errorf("ollama answered %s", resp.status)
	}
	dec := json.NewDecoder(bytes.NewReader(resp.body))
	if err := dec.Decode(out); err != nil {
		return fmt.Errorf("malformed reply (not one JSON object): %v", firstWords(err))
	}
	if dec.More() {
		return errors.New("malformed reply: more than one JSON object (a streamed answer?)")
	}
	if apiErr.Error != "" {
		return fmt.Errorf("ollama error: %s", oneLine(apiErr.Error))
	}
	return nil
}

// roundTrip dials, writes the request and reads the reply on a connection
// whose deadline is the context's and which a cancelled context unblocks.
func (c *client) roundTrip(ctx context.Context, req []byte) (*response, error) {
	conn, err := c.dial(ctx, "tcp", c.addr)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	if d, ok := ctx.Deadline(); ok {
		conn.SetDeadline(d)
	}
	// Set after the context's deadline so a context already done still
	// wins: a deadline in the past fails every blocked read and write.
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	_, werr := conn.Write(req)
	// A server may answer (an error, say) and close before reading the
	// whole request: its reply, when there is one, says more than the
	// write error.
	resp, err := readResponse(bufio.NewReader(conn), c.maxBody)
	switch {
	case err == nil:
		return resp, nil
	case werr != nil:
		return nil, fmt.Errorf("send request: %w", werr)
	case errors.Is(err, errTooLarge):
		return nil, fmt.Errorf("reply larger than %d bytes", c.maxBody)
	}
	return nil, err
}

// probe asks the server for its version and whether it has the model.
func (c *client) probe(ctx context.Context, model string) (string, error) {
	var v struct {
		Version string `json:"version"`
	}
	if err := c.call(ctx, "GET", "/api/version", nil, &v); err != nil {
		return "", err
	}
	var tags struct {
		Models []struct {
			Name  string `json:"name"`
			Model string `json:"model"`
		} `json:"models"`
	}
	if err := c.call(ctx, "GET", "/api/tags", nil, &tags); err != nil {
		return "", err
	}
	for _, m := range tags.Models {
		for _, name := range []string{m.Name, m.Model} {
			// Ollama resolves a name without a tag to ":latest".
			if name == model || (!strings.Contains(model, ":") && name == model+":latest") {
				return oneLine(v.Version), nil
			}
		}
	}
	return "", fmt.Errorf("model %q is not available in ollama %s (run: ollama pull %s)", model, oneLine(v.Version), model)
}

// describe names timeouts, cancellation and refused connections plainly;
// checked against the context first, since a cancelled context surfaces as
// a deadline error on the connection.
func (c *client) describe(ctx context.Context, err error) error {
	switch {
	case errors.Is(ctx.Err(), context.Canceled):
		return errors.New("cancelled")
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) || isTimeout(err):
		return fmt.Errorf("timed out after %s", c.timeout)
	case errors.Is(err, syscall.ECONNREFUSED):
		return errors.New("connection refused: is Ollama running? (start it with: ollama serve)")
	}
	return err
}

func isTimeout(err error) bool {
	var t interface{ Timeout() bool }
	return errors.As(err, &t) && t.Timeout()
}

// oneLine bounds a server-supplied message so it cannot flood a report.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}

// firstWords keeps a JSON syntax error's message but not the bytes it
// quotes from the reply, which could be model output.
func firstWords(err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Sprintf("invalid JSON at byte %d", se.Offset)
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Sprintf("unexpected %s for field %q", te.Value, te.Field)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return "truncated JSON"
	}
	return "invalid JSON"
}
