// Package config loads and validates the user and project TOML configuration.
package config
