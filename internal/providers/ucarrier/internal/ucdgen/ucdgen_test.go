package ucdgen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGenerateRefusesOtherVersion(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "DerivedCoreProperties.txt"), []byte("# DerivedCoreProperties-14.0.0.txt\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Generate(dir, "x")
	if err == nil || !strings.Contains(err.Error(), "14.0.0") {
		t.Fatalf("Generate = %v, want a version refusal", err)
	}
}

func TestGenerateMissingDatabase(t *testing.T) {
	if _, err := Generate(filepath.Join(t.TempDir(), "none"), "x"); err == nil {
		t.Fatal("Generate succeeded without a database")
	}
}

func TestParseRange(t *testing.T) {
	for _, tc := range []struct {
		in     string
		lo, hi rune
		ok     bool
	}{
		{"0041", 0x41, 0x41, true},
		{"0041..005A", 0x41, 0x5A, true},
		{"005A..0041", 0, 0, false},
		{"XYZ", 0, 0, false},
		{"110000", 0, 0, false},
	} {
		lo, hi, err := parseRange(tc.in)
		if (err == nil) != tc.ok || tc.ok && (lo != tc.lo || hi != tc.hi) {
			t.Errorf("parseRange(%q) = %X, %X, %v", tc.in, lo, hi, err)
		}
	}
}
