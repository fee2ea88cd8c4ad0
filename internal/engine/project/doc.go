// Package project finds the project a command runs in and loads, on demand, what both lanes share: configuration, state directory, repository and definitions.
package project
