package state

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// Once returns true the first time it is called with key for a state dir
// and false afterwards, also across processes running at the same time:
// the marker is created exclusively, so two hooks racing on one event
// report a thing once between them.
func Once(stateDir, key string) bool {
	dir := filepath.Join(stateDir, "notices")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return true
	}
	sum := sha256.Sum256([]byte(key))
	f, err := os.OpenFile(filepath.Join(dir, hex.EncodeToString(sum[:12])), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return false
	}
	if err != nil {
		// Cannot remember: better to repeat a message than to lose it.
		return true
	}
	f.Close()
	return true
}
