package providers

import (
	"embed"
	"io/fs"
)

//go:embed *.toml
var definitions embed.FS

// Definitions returns the shipped provider definitions (*.toml at the root).
func Definitions() fs.FS { return definitions }
