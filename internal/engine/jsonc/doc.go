// Package jsonc turns JSON with comments and trailing commas into strict JSON for validation.
package jsonc
