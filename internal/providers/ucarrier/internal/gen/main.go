package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/prosewash/prosewash/internal/providers/ucarrier/internal/ucdgen"
)

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "gen: %v\n", err)
		os.Exit(1)
	}
}

func run(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("gen", flag.ContinueOnError)
	fs.SetOutput(stderr)
	ucd := fs.String("ucd", "/usr/share/unicode", "directory of the Unicode Character Database")
	out := fs.String("o", "tables.go", "output file")
	pkg := fs.String("pkg", "ucarrier", "package name of the output")
	if err := fs.Parse(args); err != nil {
		return err
	}
	src, err := ucdgen.Generate(*ucd, *pkg)
	if err != nil {
		return err
	}
	tmp := *out + ".tmp"
	if err := os.WriteFile(tmp, src, 0o644); err != nil {
		return fmt.Errorf("write tables: %w", err)
	}
	if err := os.Rename(tmp, *out); err != nil {
		return fmt.Errorf("write tables: %w", err)
	}
	return nil
}
