//go:build !windows

package cli

import "io"

// enableEscapes does nothing: terminals outside Windows read ANSI sequences.
func enableEscapes(io.Writer) {}
