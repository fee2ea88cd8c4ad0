package check_test

import (
	"fmt"
	"os"

	"github.com/prosewash/prosewash/internal/engine/carrier"
	"github.com/prosewash/prosewash/internal/engine/check"
	"github.com/prosewash/prosewash/internal/engine/clean"
	"github.com/prosewash/prosewash/internal/engine/project"
	"github.com/prosewash/prosewash/internal/pipelines"
	"github.com/prosewash/prosewash/internal/providers"
	"github.com/prosewash/prosewash/internal/providers/ucarrier"
)

// File says, carrier by carrier, what clean would do with one file: a zero
// width space in a comment is removed, the same character in a string
// literal only reported, because the program reads it.
func ExampleFile() {
	dir, err := os.MkdirTemp("", "check-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	eng, err := safeEngine(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	opt := check.Options{
		Any: ucarrier.Any,
		Scan: func(data []byte, lang string) []carrier.Finding {
			return ucarrier.Scan(nil, data, nil, ucarrier.Options{Lang: lang, FileStart: true})
		},
		Engine: eng,
	}
	src := []byte("package p\n\n// Hello,\u200b world.\nconst s = \"a\u200bb\"\n")
	res := check.File("p.go", src, opt)
	for _, f := range res.Findings {
		fmt.Printf("%s:%d:%d %s in %s: %s", f.Path, f.Line, f.Col, f.Code, f.Region, f.Action)
		if f.Reason != "" {
			fmt.Printf(" (%s)", f.Reason)
		}
		fmt.Println()
	}
	// Output:
	// p.go:3:10 U+200B in prose: remove
	// p.go:4:13 U+200B in runtime: report (string literal)
}

// safeEngine is the engine "prosewash check" decides with: clean's plan for
// the shipped safe pipeline in an empty project at dir, the carrier policy
// answering in-process.
func safeEngine(dir string) (*clean.Engine, error) {
	env := map[string]string{"HOME": dir, "XDG_CONFIG_HOME": dir}
	p, err := project.Find(project.Options{Root: dir, Home: dir, Getenv: func(k string) string { return env[k] },
		ShippedProviders: providers.Definitions(), ShippedPipelines: pipelines.Definitions()})
	if err != nil {
		return nil, err
	}
	plan, err := clean.Prepare(clean.Request{Project: p, Pipeline: "safe", ShippedOnly: true, Explicit: true,
		Runner: ucarrier.InProcess, Specials: ucarrier.Specials})
	if err != nil {
		return nil, err
	}
	return plan.Engine(), nil
}
