package loopback

import (
	"fmt"
	"net/netip"
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
	if !isLoopback(host) {
		return fmt.Errorf("URL %q: host %q is not loopback; providers may only talk to this machine", raw, host)
	}
	return nil
}

// isLoopback reports whether host is a loopback IP literal: 127.0.0.0/8,
// ::1, or an IPv4-mapped 127.x address. net/netip rather than net keeps
// the net package (and its resolver) out of this package's dependencies;
// the zone check keeps net.ParseIP's refusal of "::1%eth0".
func isLoopback(host string) bool {
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Zone() == "" && ip.Unmap().IsLoopback()
}
