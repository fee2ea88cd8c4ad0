module github.com/prosewash/prosewash

go 1.26.0

require (
	github.com/bmatcuk/doublestar/v4 v4.10.4
	github.com/evanw/esbuild v0.28.2
	github.com/fatih/color v1.19.0
	github.com/go-git/go-billy/v5 v5.9.2
	github.com/go-git/go-git/v5 v5.19.3
	github.com/mattn/go-isatty v0.0.20
	github.com/pelletier/go-toml/v2 v2.4.3
	github.com/rogpeppe/go-internal v1.16.0
	github.com/yuin/goldmark v1.8.7
	go.yaml.in/yaml/v3 v3.0.6
	golang.org/x/net v0.57.0
	golang.org/x/sys v0.50.0
	mvdan.cc/sh/v3 v3.14.1
)

require (
	github.com/cyphar/filepath-securejoin v0.6.1 // indirect
	github.com/go-git/gcfg v1.5.1-0.20230307220236-3a3c6141e376 // indirect
	github.com/jbenet/go-context v0.0.0-20150711004518-d14ea06fba99 // indirect
	github.com/mattn/go-colorable v0.1.14 // indirect
	github.com/pjbgf/sha1cd v0.7.0 // indirect
	golang.org/x/tools v0.38.0 // indirect
	gopkg.in/warnings.v0 v0.1.2 // indirect
)

// goldmark with its regular expressions and case-folding table built on
// first use rather than at package initialisation, which every hook process
// paid for (third_party/goldmark/PROSEWASH.md).
replace github.com/yuin/goldmark => ./third_party/goldmark
