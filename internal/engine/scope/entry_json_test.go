package scope

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// FuzzEntryMarshalIsEncodingJSON: an entry's line is the bytes json.Marshal
// writes for it, whatever its strings hold (escapes, HTML characters,
// invalid UTF-8, U+2028) and whenever it was written.
func FuzzEntryMarshalIsEncodingJSON(f *testing.F) {
	f.Add("/a/b.md", "ab01", OpRecord, int64(1764763200123456789))
	f.Add("/<a>&\"b\"\\\n\t\x01\u2028\u2029/\xff\xfe.md", "", OpForget, int64(0))
	f.Add("café/😀", "x", OpCheckout, int64(-62135596800000000))
	f.Fuzz(func(t *testing.T, path, hash, op string, ns int64) {
		e := Entry{Path: path, Hash: hash, Op: op, At: time.Unix(0, ns).UTC()}
		want, werr := json.Marshal(e)
		got, gerr := e.marshal()
		if (werr == nil) != (gerr == nil) || !bytes.Equal(got, want) && werr == nil {
			t.Fatalf("%+v: marshal %s, %v; json.Marshal %s, %v", e, got, gerr, want, werr)
		}
	})
}
