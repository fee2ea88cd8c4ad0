package region_test

import (
	"bytes"
	"fmt"

	"github.com/prosewash/prosewash/internal/engine/region"
)

// Classify splits a file into regions: only prose (narrative comments,
// documentation text) may be cleaned; a directive a tool reads and the
// code and literals the program runs are never touched.
func ExampleClassify() {
	src := []byte("//go:build linux\n\n// Package p says hello.\npackage p\n\nconst greeting = \"hi\" // the greeting\n")
	m, err := region.Classify("p.go", src)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range m.Regions {
		if r.Kind != region.Runtime { // skip the code between the comments
			fmt.Printf("%s %q (%s)\n", r.Kind, src[r.Start:r.End], r.Why)
		}
	}
	fmt.Println("the literal is", m.At(bytes.Index(src, []byte("hi"))).Kind)
	// Output:
	// directive "//go:build linux" (directive: go:)
	// prose "// Package p says hello." (comment)
	// prose "// the greeting" (comment)
	// the literal is runtime
}
