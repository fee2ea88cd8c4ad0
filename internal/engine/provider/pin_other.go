//go:build !linux

package provider

import "io/fs"

// execFile: without /proc the program is executed by its path, and the
// descriptor held open is checked when the run ends.
func execFile(int) (string, bool) { return "", false }

// sameChangeTime: the size, modification time and hash still are compared.
func sameChangeTime(a, b fs.FileInfo) bool { return true }
