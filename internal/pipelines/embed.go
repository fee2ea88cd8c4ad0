package pipelines

import (
	"embed"
	"io/fs"
)

//go:embed *.toml
var definitions embed.FS

// Definitions returns the shipped pipeline definitions.
func Definitions() fs.FS { return definitions }
