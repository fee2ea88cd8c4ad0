// Package mode decides which clean mode applies now: the configured mode, kept only while a stored approval matches the pipeline's current fingerprint.
package mode
