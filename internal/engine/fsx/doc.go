// Package fsx reads user files defensively and replaces them atomically, keeping their mode bits.
package fsx
