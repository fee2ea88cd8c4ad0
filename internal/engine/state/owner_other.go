//go:build !unix

package state

import "io/fs"

// ownedByMe cannot compare owners without ACL inspection on Windows; the
// directory lives under the user's own LOCALAPPDATA, which is private.
func ownedByMe(fs.FileInfo) bool { return true }
