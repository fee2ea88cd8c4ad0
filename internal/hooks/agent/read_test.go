package agent

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadPayload reads what stdin holds whole, however the reads split it
// and however it compares with the first buffer, and refuses empty and
// oversized input.
func TestReadPayload(t *testing.T) {
	big := `{"k":"` + strings.Repeat("x", 3*payloadBuffer) + `"}`
	for _, tc := range []struct {
		name, in string
		r        func(io.Reader) io.Reader
		wantErr  string
	}{
		{name: "small", in: `{"session_id":"s"}`},
		{name: "one byte a read", in: `{"session_id":"s"}`, r: iotest.OneByteReader},
		{name: "exactly the first buffer", in: `"` + strings.Repeat("y", payloadBuffer-2) + `"`},
		{name: "larger than the first buffer", in: big},
		{name: "larger, in halves", in: big, r: iotest.HalfReader},
		{name: "blank", in: " \n\t", wantErr: "empty hook input (expected Claude Code's JSON on stdin)"},
		{name: "nothing", in: "", wantErr: "empty hook input"},
		{name: "failing reader", in: "{", r: func(io.Reader) io.Reader { return iotest.ErrReader(io.ErrClosedPipe) }, wantErr: "read hook input: io: read/write on closed pipe"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r io.Reader = strings.NewReader(tc.in)
			if tc.r != nil {
				r = tc.r(r)
			}
			got, err := ReadPayload(r, "Claude Code")
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil || !bytes.Equal(got, []byte(tc.in)) {
				t.Fatalf("got %d bytes, err %v; want the %d bytes given", len(got), err, len(tc.in))
			}
		})
	}
}

// TestReadPayloadBound refuses input over MaxInput and keeps input at it.
func TestReadPayloadBound(t *testing.T) {
	for _, tc := range []struct {
		name string
		n    int64
		ok   bool
	}{
		{name: "at the bound", n: MaxInput, ok: true},
		{name: "one byte over", n: MaxInput + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadPayload(io.LimitReader(repeat('x'), tc.n), "Claude Code")
			if tc.ok != (err == nil) || tc.ok && int64(len(got)) != tc.n {
				t.Fatalf("n=%d: got %d bytes, err %v", tc.n, len(got), err)
			}
			if !tc.ok && !strings.Contains(err.Error(), "hook input larger than 64 MiB") {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

// repeat reads as b without end.
type repeat byte

func (b repeat) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}
