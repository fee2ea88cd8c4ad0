// Package tomlx decodes TOML strictly, turning every error into one that names the file, line and key.
package tomlx
