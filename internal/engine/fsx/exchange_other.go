//go:build unix && !linux && !darwin

package fsx

const exchangeSupported = false

func exchange(a, b string) error { return errNoExchange }

func renameNoReplace(a, b string) error { return linkNoReplace(a, b) }
