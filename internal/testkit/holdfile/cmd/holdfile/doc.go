//go:build linux

// Command holdfile holds a file as a lost write needs it held (see package holdfile).
package main
