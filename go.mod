module github.com/prosewash/prosewash

go 1.26.0

require (
	github.com/bmatcuk/doublestar/v4 v4.10.4
	github.com/evanw/esbuild v0.28.2
	github.com/mattn/go-isatty v0.0.20
	github.com/pelletier/go-toml/v2 v2.4.3
	github.com/rogpeppe/go-internal v1.16.0
	github.com/yuin/goldmark v1.8.7
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/net v0.57.0
	golang.org/x/sys v0.50.0
	mvdan.cc/sh/v3 v3.14.1
)

require golang.org/x/tools v0.38.0 // indirect

// goldmark with its regular expressions and case-folding table built on
// first use rather than at package initialisation, which every hook process
// paid for (third_party/goldmark/PROSEWASH.md).
replace github.com/yuin/goldmark => ./third_party/goldmark

// mvdan.cc/sh's syntax and fileutil packages with fileutil's two regular
// expressions compiled on first use rather than at package initialisation,
// which every hook process paid for (third_party/mvdan-sh/PROSEWASH.md).
replace mvdan.cc/sh/v3 => ./third_party/mvdan-sh
