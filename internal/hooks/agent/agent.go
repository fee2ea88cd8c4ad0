package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// MaxInput bounds what a hook reads: a write payload carries the file's
// content, which may be large, but never unbounded.
const MaxInput = 64 << 20

// ReadPayload reads a hook's stdin, bounded; empty input is an error
// naming the platform whose JSON was expected, and every error is fit for
// a one-line message.
func ReadPayload(r io.Reader, title string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxInput+1))
	if err != nil {
		return nil, fmt.Errorf("read hook input: %w", err)
	}
	if len(data) > MaxInput {
		return nil, fmt.Errorf("hook input larger than %d MiB", MaxInput>>20)
	}
	if len(strings.TrimSpace(string(data))) == 0 {
		return nil, fmt.Errorf("empty hook input (expected %s's JSON on stdin)", title)
	}
	return data, nil
}

// unmarshal decodes a payload into v with an error fit for a one-line
// message.
func unmarshal(data []byte, v any) error {
	// A byte order mark a Windows pipe put first is not part of the JSON.
	if err := json.Unmarshal(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), v); err != nil {
		return fmt.Errorf("invalid hook input: %v", err)
	}
	return nil
}

// unmarshalKept is unmarshal of only the members keep names: the same
// answer, without encoding/json reading the rest (slim).
func unmarshalKept(data []byte, v any, keep kept) error {
	if small, ok := slim(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), keep); ok {
		data = small
	}
	return unmarshal(data, v)
}

// WriteJSON prints v as one JSON document on a line of its own: what every
// platform reads from a hook's stdout. Nothing is written when v cannot be
// encoded.
func WriteJSON(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// Safe runs fn and turns a panic into an error: hooks fail open on any
// internal error, a bug included.
func Safe(fn func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("internal error: %v", v)
		}
	}()
	return fn()
}
