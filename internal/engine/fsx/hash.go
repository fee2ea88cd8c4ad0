package fsx

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
)

// Hash is a SHA-256 digest of a file's content; the zero value means "no content".
type Hash [32]byte

// SHA256 returns the digest of data.
func SHA256(data []byte) Hash { return sha256.Sum256(data) }

// HashReader returns the digest of everything r yields.
func HashReader(r io.Reader) (Hash, error) {
	h := sha256.New()
	if _, err := io.Copy(h, r); err != nil {
		return Hash{}, err
	}
	var out Hash
	h.Sum(out[:0])
	return out, nil
}

// String returns the lowercase hex form, or "-" for the zero hash so that an
// absent file reads as absent in reports rather than as a digest.
func (h Hash) String() string {
	if h.IsZero() {
		return "-"
	}
	return hex.EncodeToString(h[:])
}

// Short returns the first 12 hex digits, enough to tell files apart in a report.
func (h Hash) Short() string {
	s := h.String()
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

// IsZero reports whether h is the zero value.
func (h Hash) IsZero() bool { return h == Hash{} }

// ParseHash is the inverse of [Hash.String]; "" and "-" give the zero hash.
func ParseHash(s string) (Hash, error) {
	var h Hash
	if s == "" || s == "-" {
		return h, nil
	}
	if len(s) != 64 {
		return h, fmt.Errorf("parse hash: want 64 hex digits, got %d characters", len(s))
	}
	if _, err := hex.Decode(h[:], []byte(s)); err != nil {
		return Hash{}, fmt.Errorf("parse hash: %w", err)
	}
	return h, nil
}

// MarshalText makes Hash a hex string in JSON.
func (h Hash) MarshalText() ([]byte, error) {
	if h.IsZero() {
		return []byte{}, nil
	}
	return []byte(h.String()), nil
}

// UnmarshalText is the inverse of [Hash.MarshalText].
func (h *Hash) UnmarshalText(b []byte) error {
	v, err := ParseHash(string(b))
	if err != nil {
		return err
	}
	*h = v
	return nil
}

// hasher is a streaming SHA-256 that yields a Hash.
type hasher struct{ h hash.Hash }

func newHasher() *hasher { return &hasher{h: sha256.New()} }

func (h *hasher) Write(p []byte) (int, error) { return h.h.Write(p) }

func (h *hasher) sum() Hash {
	var out Hash
	h.h.Sum(out[:0])
	return out
}
