package loopback

import (
	"fmt"
	"net"
	"net/url"
)

// CheckURL refuses any URL that is not http(s) to a loopback address
// literal or "localhost". It is a load-time check; providers also check the
// address they actually dial.
func CheckURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("invalid URL %q: %v", raw, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("URL %q: only http and https are allowed", raw)
	}
	host := u.Hostname()
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("URL %q: host %q is not loopback; providers may only talk to this machine", raw, host)
	}
	return nil
}
