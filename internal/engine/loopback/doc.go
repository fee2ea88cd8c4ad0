// Package loopback decides whether a URL stays on this machine: the only place a provider may send text.
package loopback
