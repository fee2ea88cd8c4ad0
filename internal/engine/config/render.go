package config

import (
	"fmt"
	"strings"
)

// Setting is one effective value, for `prosewash status`.
type Setting struct {
	Key    string `json:"key"`
	Value  string `json:"value"` // rendered as TOML
	Origin Origin `json:"origin"`
}

// Settings returns every key's effective value and origin, in the order of
// the key reference.
func (c *Config) Settings() []Setting {
	var out []Setting
	for _, s := range specs() {
		out = append(out, Setting{Key: s.key, Value: s.show(c), Origin: c.origins[s.key]})
	}
	return out
}

// Render returns the effective configuration as text, one key per line
// with where its value came from.
func (c *Config) Render() string {
	var b strings.Builder
	if len(c.Sources) == 0 {
		b.WriteString("# no configuration file: built-in defaults\n")
	} else {
		b.WriteString("# read: " + strings.Join(c.Sources, ", ") + "\n")
	}
	settings := c.Settings()
	width := 0
	for _, s := range settings {
		width = max(width, len(s.Key)+3+len(s.Value))
	}
	for _, s := range settings {
		line := s.Key + " = " + s.Value
		fmt.Fprintf(&b, "%-*s  # %s\n", width, line, s.Origin)
	}
	return b.String()
}
