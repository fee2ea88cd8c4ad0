// Package ucdgen generates the provider's pinned lookup tables from the Unicode Character Database files.
package ucdgen
