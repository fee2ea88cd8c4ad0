package fakeollama

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Main runs a fake server until it is killed: it prints
// "listening on 127.0.0.1:PORT" on stdout and, with -url-file, writes the
// base URL to that file once it accepts connections, so a script that cannot
// read a background process's output can find the port. It returns the exit
// status: 2 for bad flags, 1 when the server cannot start or stops.
func Main(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("fakeollama", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:0", "loopback address to listen on")
	mode := fs.String("mode", string(Paraphrase), "default mode: "+modeList())
	models := fs.String("models", "", "comma-separated models to accept (default: any)")
	delay := fs.Duration("delay", 30*time.Second, "how long the slow mode waits")
	redirect := fs.String("redirect", "", "where the redirect mode points")
	urlFile := fs.String("url-file", "", "write the base URL to this file once listening")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "fakeollama: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	opts := Options{Addr: *addr, Mode: Mode(*mode), Delay: *delay, RedirectTo: *redirect}
	if *models != "" {
		opts.Models = strings.Split(*models, ",")
	}
	s, err := New(opts)
	if err != nil {
		fmt.Fprintf(stderr, "fakeollama: %v\n", err)
		return 1
	}
	defer s.Close()
	fmt.Fprintf(stdout, "listening on %s\n", s.Addr())
	if *urlFile != "" {
		if err := writeFileAtomic(*urlFile, s.URL+"\n"); err != nil {
			fmt.Fprintf(stderr, "fakeollama: %v\n", err)
			return 1
		}
	}
	if err := s.Wait(); err != nil {
		fmt.Fprintf(stderr, "fakeollama: %v\n", err)
		return 1
	}
	return 0
}

func modeList() string {
	names := make([]string, len(Modes()))
	for i, m := range Modes() {
		names[i] = string(m)
	}
	return strings.Join(names, ", ")
}

// writeFileAtomic writes through a temporary file and a rename so a reader
// polling for the file never sees it half written.
func writeFileAtomic(path, content string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".fakeollama-*")
	if err != nil {
		return fmt.Errorf("write url file: %w", err)
	}
	if _, err := tmp.WriteString(content); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return fmt.Errorf("write url file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write url file: %w", err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("write url file: %w", err)
	}
	return nil
}
