package cli

import (
	"io"
	"os"

	"golang.org/x/sys/windows"
)

// enableEscapes turns on the console's reading of ANSI sequences for w, as
// fatih/color did at start-up for stdout (the console stderr shares): older
// Windows consoles print them as text otherwise.
func enableEscapes(w io.Writer) {
	f, ok := w.(*os.File)
	if !ok {
		return
	}
	var mode uint32
	h := windows.Handle(f.Fd())
	if windows.GetConsoleMode(h, &mode) != nil {
		return
	}
	_ = windows.SetConsoleMode(h, mode|windows.ENABLE_PROCESSED_OUTPUT|windows.ENABLE_VIRTUAL_TERMINAL_PROCESSING)
}
