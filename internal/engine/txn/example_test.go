package txn_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/prosewash/prosewash/internal/engine/fsx"
	"github.com/prosewash/prosewash/internal/engine/txn"
)

// Run writes a set of files as one transaction: each is replaced only if it
// still holds what the caller read (Expect), the new content is validated
// in place, and a failed validation puts every original back.
func ExampleRun() {
	dir, err := os.MkdirTemp("", "txn-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	root, stateDir := filepath.Join(dir, "project"), filepath.Join(dir, "state")
	_ = os.Mkdir(root, 0o700)
	_ = os.Mkdir(stateDir, 0o700)
	path := filepath.Join(root, "notes.md")
	old := []byte("zero\u200bwidth\n")
	_ = os.WriteFile(path, old, 0o644)
	ops := []txn.Op{{Kind: txn.Replace, Path: path, Data: []byte("zerowidth\n"), Expect: fsx.SHA256(old)}}
	opts := txn.Options{Root: root, StateDir: stateDir}

	// A validation that fails: the run rolls back.
	_, err = txn.Run(opts, ops, func(*txn.Validation) error { return errors.New("the build broke") })
	var verr *txn.ValidationError
	b, _ := os.ReadFile(path)
	fmt.Printf("%v (validation error: %t); file %q\n", err, errors.As(err, &verr), b)

	// A validation that passes: the run commits.
	res, err := txn.Run(opts, ops, func(*txn.Validation) error { return nil })
	b, _ = os.ReadFile(path)
	fmt.Printf("%v; %s %s; file %q\n", err, filepath.Base(res.Files[0].Path), res.Files[0].Status, b)
	// Output:
	// validation failed: the build broke (validation error: true); file "zero\u200bwidth\n"
	// <nil>; notes.md committed; file "zerowidth\n"
}
