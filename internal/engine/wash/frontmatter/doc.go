// Package frontmatter reads a leading YAML front matter block conservatively, so that a pin can never be missed: what it cannot read with certainty it reports as unverifiable.
package frontmatter
