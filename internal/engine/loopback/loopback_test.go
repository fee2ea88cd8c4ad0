package loopback

import (
	"net"
	"net/url"
	"strings"
	"testing"
)

var cases = []struct {
	url string
	ok  bool
}{
	{"http://127.0.0.1:11434", true},
	{"http://127.0.0.1", true},
	{"https://127.0.0.1", true},
	{"http://127.255.255.254:1/x", true},
	{"http://localhost:11434/x", true},
	{"http://[::1]:8080", true},
	{"http://[0:0:0:0:0:0:0:1]", true},
	{"http://[::ffff:127.0.0.1]:11434", true},
	{"http://[::ffff:7f00:1]:11434", true},
	{"http://192.168.1.2:11434", false},
	{"http://10.0.0.1", false},
	{"http://0.0.0.0:11434", false},
	{"http://[::]:11434", false},
	{"http://[::ffff:10.0.0.1]", false},
	{"http://[::127.0.0.1]", false},
	{"http://[::1%25lo]:11434", false},
	{"http://[fe80::1%25eth0]", false},
	{"http://127.000.000.001", false},
	{"http://0177.0.0.1", false},
	{"http://2130706433", false},
	{"http://127.1", false},
	{"http://example.com", false},
	{"http://localhost.evil.io", false},
	{"http://LOCALHOST", false},
	{"ftp://127.0.0.1", false},
	{"127.0.0.1:11434", false},
	{"http://%zz", false},
	{"", false},
}

func TestCheckURL(t *testing.T) {
	for _, tc := range cases {
		err := CheckURL(tc.url)
		if (err == nil) != tc.ok {
			t.Errorf("%q: got %v, want ok=%v", tc.url, err, tc.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "URL") {
			t.Errorf("%q: message %q does not name the URL", tc.url, err)
		}
	}
}

// oldIsLoopback is the net.ParseIP check CheckURL used before it moved to
// net/netip: the two must agree on every host.
func oldIsLoopback(host string) bool {
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

func TestIsLoopbackAgreesWithNet(t *testing.T) {
	for _, tc := range cases {
		u, err := url.Parse(tc.url)
		if err != nil {
			continue
		}
		host := u.Hostname()
		if isLoopback(host) != oldIsLoopback(host) {
			t.Errorf("%q: netip says %v, net says %v", host, isLoopback(host), oldIsLoopback(host))
		}
	}
}

func FuzzIsLoopback(f *testing.F) {
	for _, s := range []string{"127.0.0.1", "::1", "::ffff:127.0.0.1", "::1%lo", "fe80::1%eth0", "127.1", "0:0:0:0:0:0:0:1", "::ffff:7f00:1", "1.2.3.4", "::127.0.0.1", "127.0.0.1%x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, host string) {
		if got, want := isLoopback(host), oldIsLoopback(host); got != want {
			t.Fatalf("%q: netip says %v, net says %v", host, got, want)
		}
	})
}
