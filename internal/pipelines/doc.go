// Package pipelines embeds the shipped pipeline definitions: safe and full.
package pipelines
