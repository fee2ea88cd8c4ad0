// Package iox holds the bounded output buffers that every subprocess the
// engine runs (providers, validation commands, python3) writes into.
package iox
