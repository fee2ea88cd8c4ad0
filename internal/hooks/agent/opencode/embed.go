package opencode

import _ "embed"

//go:embed prosewash.js
var plugin string

// Plugin returns the plugin's source, as install writes it.
func Plugin() string { return plugin }
