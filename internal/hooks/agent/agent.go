package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/prosewash/prosewash/internal/engine/jsonfast"
)

// MaxInput bounds what a hook reads: a write payload carries the file's
// content, which may be large, but never unbounded.
const MaxInput = 64 << 20

// payloadBuffer is what ReadPayload reads into first: above the few
// kilobytes of most payloads (a Write's carries its content twice), so
// they are read at once; a larger one grows the buffer as it comes.
const payloadBuffer = 64 << 10

// ReadPayload reads a hook's stdin, bounded; empty input is an error
// naming the platform whose JSON was expected, and every error is fit for
// a one-line message.
func ReadPayload(r io.Reader, title string) ([]byte, error) {
	// One buffer that holds a usual payload whole: io.ReadAll starts at
	// 512 bytes and regrows, an allocation, a copy and a read call at each
	// step (eight reads for a 4 KB payload, two now).
	buf := bytes.NewBuffer(make([]byte, 0, payloadBuffer))
	if _, err := buf.ReadFrom(io.LimitReader(r, MaxInput+1)); err != nil {
		return nil, fmt.Errorf("read hook input: %w", err)
	}
	data := buf.Bytes()
	if len(data) > MaxInput {
		return nil, fmt.Errorf("hook input larger than %d MiB", MaxInput>>20)
	}
	if len(bytes.TrimSpace(data)) == 0 {
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
// answer, sooner. What slim keeps is read by read without encoding/json when
// read reads it whole without a doubt (encoding/json's first decode of a
// type sets up its reflection, 110-220 us of a hook's few milliseconds), and
// by encoding/json otherwise.
func unmarshalKept[T any](data []byte, v *T, keep kept, read func(*jsonfast.Reader, *T)) error {
	if small, ok := slim(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), keep); ok {
		r := jsonfast.NewReader(small)
		var fast T
		read(r, &fast)
		if r.Done() {
			*v = fast
			return nil
		}
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
