// Package cli is the prosewash command line: it parses arguments, calls the engine and renders its report; it owns the exit codes.
package cli
