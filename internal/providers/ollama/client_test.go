package ollama

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/prosewash/prosewash/internal/testkit/fakeollama"
	"github.com/prosewash/prosewash/internal/testtool"
)

func port(t *testing.T, s *fakeollama.Server) string {
	t.Helper()
	_, p, err := net.SplitHostPort(s.Addr())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestProxyVariablesAreIgnored sets every proxy variable to a second fake
// server and checks the request still goes straight to Ollama.
func TestProxyVariablesAreIgnored(t *testing.T) {
	ollama := fakeollama.Start(t, fakeollama.Options{})
	proxy := fakeollama.Start(t, fakeollama.Options{})
	// The proxy fake does see proxied traffic: without this control the
	// assertion below could not fail.
	pu, _ := url.Parse(proxy.URL)
	control := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(pu)}}
	resp, err := control.Get("http://203.0.113.9:11434/api/version")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := proxy.Requests(); len(got) != 1 || got[0].RequestURI != "http://203.0.113.9:11434/api/version" {
		t.Fatalf("control: the proxy fake did not record the proxied request: %+v", got)
	}
	before := len(proxy.Requests())

	for _, v := range []string{"HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"} {
		t.Setenv(v, proxy.URL)
	}
	t.Setenv("NO_PROXY", "")
	t.Setenv("no_proxy", "")
	for _, endpoint := range []string{ollama.URL, "http://localhost:" + port(t, ollama)} {
		reply, err := call(t, seams{}, args(endpoint), oneRegion("Use it."))
		if err != nil {
			if strings.Contains(err.Error(), "resolve localhost") {
				testtool.Missing(t, "localhost", fmt.Sprintf("localhost does not resolve on this machine: %v", err))
			}
			t.Fatal(err)
		}
		if got := *reply.Files[0].Regions[0].Text; got != "Employ it." {
			t.Fatalf("%s: text %q", endpoint, got)
		}
	}
	var probe bytes.Buffer
	if err := Serve(context.Background(), strings.NewReader(""), &probe, []string{"--probe", "--endpoint", ollama.URL, "--model", "fake"}, os.Getenv); err != nil {
		t.Fatalf("probe: %v", err)
	}
	if got := proxy.Requests(); len(got) != before {
		t.Fatalf("the proxy saw %d requests", len(got)-before)
	}
	if n := len(ollama.Requests()); n != 4 {
		t.Fatalf("ollama saw %d requests, want 4 (2 chats, 2 probe requests)", n)
	}
	reqs := ollama.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("ollama saw %d chat requests, want 2", len(reqs))
	}
	for _, r := range reqs {
		if r.RequestURI != "/api/chat" || r.Header.Get("Via") != "" || r.Header.Get("Proxy-Connection") != "" {
			t.Fatalf("request looks proxied: %s %v", r.RequestURI, r.Header)
		}
	}
}

func TestLocalhostIsAccepted(t *testing.T) {
	srv := fakeollama.Start(t, fakeollama.Options{})
	var log dialLog
	_, err := call(t, log.seams(), args("http://localhost:"+port(t, srv)), oneRegion("Use it."))
	if err != nil {
		if strings.Contains(err.Error(), "resolve localhost") {
			testtool.Missing(t, "localhost", fmt.Sprintf("localhost does not resolve on this machine: %v", err))
		}
		t.Fatal(err)
	}
	for _, a := range log.list() {
		ap := netip.MustParseAddrPort(a)
		if !ap.Addr().IsLoopback() {
			t.Fatalf("dialled %s", a)
		}
	}
	if len(log.list()) == 0 || len(srv.ChatRequests()) != 1 {
		t.Fatalf("dials %v, chat requests %d", log.list(), len(srv.ChatRequests()))
	}
}

func TestLoopbackLiteralsAreAccepted(t *testing.T) {
	srv := fakeollama.Start(t, fakeollama.Options{})
	p := port(t, srv)
	for _, endpoint := range []string{"http://127.0.0.1:" + p, "http://127.0.0.1:" + p + "/", "http://[::ffff:127.0.0.1]:" + p} {
		if _, err := call(t, seams{}, args(endpoint), oneRegion("Use it.")); err != nil {
			t.Fatalf("%s: %v", endpoint, err)
		}
	}
}

// TestNonLoopbackRefusedWithoutDialling checks the endpoint is refused
// before any name is resolved or any socket opened.
func TestNonLoopbackRefusedWithoutDialling(t *testing.T) {
	for _, endpoint := range []string{
		"http://10.0.0.1:11434",
		"http://example.invalid",
		"http://example.invalid:11434/",
		"https://192.168.1.5",
		"http://[2001:db8::1]:11434",
		"http://0.0.0.0:11434",
		"http://localhost.example.com:11434",
		"ftp://127.0.0.1/",
		"unix:///var/run/ollama.sock",
		"http://user:pw@127.0.0.1:11434",
		"127.0.0.1:11434",
	} {
		t.Run(endpoint, func(t *testing.T) {
			lookups := 0
			var log dialLog
			s := log.seams()
			s.lookup = func(context.Context, string) ([]netip.Addr, error) {
				lookups++
				return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
			}
			_, err := call(t, s, args(endpoint), oneRegion("Use it."))
			if err == nil || !strings.HasPrefix(err.Error(), "endpoint refused: ") {
				t.Fatalf("got %v", err)
			}
			if lookups != 0 || len(log.list()) != 0 {
				t.Fatalf("%d lookups and dials %v before the refusal", lookups, log.list())
			}
		})
	}
}

// TestNameResolvingElsewhereRefusedAtDial injects a resolver under which
// "localhost" points away from this machine, the hole the Python original
// left open.
func TestNameResolvingElsewhereRefusedAtDial(t *testing.T) {
	srv := fakeollama.Start(t, fakeollama.Options{})
	for _, addrs := range [][]string{{"10.0.0.1"}, {"127.0.0.1", "192.0.2.7"}, {"2001:db8::5"}} {
		t.Run(strings.Join(addrs, ","), func(t *testing.T) {
			var log dialLog
			s := log.seams()
			var asked []string
			s.lookup = func(_ context.Context, host string) ([]netip.Addr, error) {
				asked = append(asked, host)
				var out []netip.Addr
				for _, a := range addrs {
					out = append(out, netip.MustParseAddr(a))
				}
				return out, nil
			}
			_, err := call(t, s, args("http://localhost:"+port(t, srv)), oneRegion("Use it."))
			if err == nil || !strings.Contains(err.Error(), "not a loopback address") || !strings.Contains(err.Error(), "localhost resolves to") {
				t.Fatalf("got %v", err)
			}
			if len(asked) == 0 || asked[0] != "localhost" || len(log.list()) != 0 {
				t.Fatalf("lookups %v, dials %v", asked, log.list())
			}
		})
	}
	if n := len(srv.Requests()); n != 0 {
		t.Fatalf("server saw %d requests", n)
	}
	// The same seam resolving to loopback works, so the refusal above is
	// about the address, not the seam.
	s := seams{lookup: func(context.Context, string) ([]netip.Addr, error) {
		return []netip.Addr{netip.MustParseAddr("127.0.0.1")}, nil
	}}
	if _, err := call(t, s, args("http://localhost:"+port(t, srv)), oneRegion("Use it.")); err != nil {
		t.Fatal(err)
	}
}

// TestDialerChecksTheDialledAddress drives the dialer and its socket hook
// directly: the URL check is not the only guard.
func TestDialerChecksTheDialledAddress(t *testing.T) {
	var log dialLog
	dial := loopbackDialer(log.seams())
	for _, addr := range []string{"10.0.0.1:80", "[2001:db8::1]:80", "0.0.0.0:80", "[::]:80"} {
		if _, err := dial(context.Background(), "tcp", addr); !errors.Is(err, errNotLoopback) {
			t.Fatalf("%s: got %v", addr, err)
		}
	}
	if _, err := dial(context.Background(), "udp", "127.0.0.1:53"); err == nil {
		t.Fatal("udp dial allowed")
	}
	if len(log.list()) != 0 {
		t.Fatalf("dialled %v", log.list())
	}
	for _, tc := range []struct {
		addr string
		ok   bool
	}{
		{"127.0.0.1:11434", true}, {"127.0.0.2:11434", true}, {"[::1]:11434", true}, {"[::ffff:127.0.0.1]:11434", true},
		{"10.0.0.1:11434", false}, {"[::ffff:10.0.0.1]:11434", false}, {"192.0.2.1:80", false}, {"localhost:80", false}, {"", false},
	} {
		if err := checkDialed("tcp", tc.addr, nil); (err == nil) != tc.ok {
			t.Fatalf("checkDialed(%q) = %v", tc.addr, err)
		}
	}
}

func TestRedirectsRefused(t *testing.T) {
	target := fakeollama.Start(t, fakeollama.Options{})
	for _, tc := range []struct {
		name string
		opts fakeollama.Options
	}{
		{"to another loopback port", fakeollama.Options{Mode: fakeollama.Redirect, RedirectTo: target.URL + "/api/chat"}},
		{"to a non-loopback address", fakeollama.Options{Mode: fakeollama.RedirectRemote}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := fakeollama.Start(t, tc.opts)
			var log dialLog
			_, err := call(t, log.seams(), args(srv.URL), oneRegion("Use it."))
			if err == nil || !strings.Contains(err.Error(), "ollama answered with a redirect: redirect refused") {
				t.Fatalf("got %v", err)
			}
			if len(srv.ChatRequests()) != 1 {
				t.Fatalf("redirecting server saw %d chat requests", len(srv.ChatRequests()))
			}
			for _, a := range log.list() {
				if a != srv.Addr() {
					t.Fatalf("dialled %s after the redirect", a)
				}
			}
		})
	}
	if n := len(target.Requests()); n != 0 {
		t.Fatalf("redirect target saw %d requests", n)
	}
}

func TestBodyBound(t *testing.T) {
	srv := fakeollama.Start(t, fakeollama.Options{})
	// A reply just over a lowered bound is refused; the same reply under it passes.
	_, err := call(t, seams{maxBody: 100}, args(srv.URL), oneRegion("Use it."))
	if err == nil || !strings.Contains(err.Error(), "reply larger than 100 bytes") {
		t.Fatalf("got %v", err)
	}
	if _, err := call(t, seams{maxBody: 4096}, args(srv.URL), oneRegion("Use it.")); err != nil {
		t.Fatal(err)
	}
	// The default bound against a 17 MiB reply is covered by TestServeModes/huge.
}

func TestNothingListening(t *testing.T) {
	srv := fakeollama.Start(t, fakeollama.Options{})
	endpoint := srv.URL
	srv.Close()
	_, err := call(t, seams{}, args(endpoint), oneRegion("Use it."))
	if err == nil || !strings.Contains(err.Error(), "connection refused: is Ollama running?") {
		t.Fatalf("got %v", err)
	}
}
