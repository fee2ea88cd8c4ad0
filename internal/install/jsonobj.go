package install

import (
	"bytes"
	"encoding/json"
	"errors"
)

// bom is a UTF-8 byte order mark: editors put one at the start of JSON
// files, which JSON itself does not allow. It is read past and kept where
// it was.
const bom = "\xef\xbb\xbf"

// member is one key of a JSON object, value kept verbatim.
type member struct {
	key string
	val json.RawMessage
}

// object is a JSON object that keeps its key order, so a merge changes
// only what it means to.
type object []member

// parseObject reads one JSON object, past a leading byte order mark.
func parseObject(data []byte) (object, error) {
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimPrefix(data, []byte(bom))))
	dec.UseNumber()
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := t.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	var o object
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		o = append(o, member{k, v})
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("data after the JSON object")
	}
	return o, nil
}

func (o object) get(k string) (json.RawMessage, bool) {
	for _, m := range o {
		if m.key == k {
			return m.val, true
		}
	}
	return nil, false
}

func (o object) set(k string, v json.RawMessage) object {
	for i, m := range o {
		if m.key == k {
			o[i].val = v
			return o
		}
	}
	return append(o, member{k, v})
}

func (o object) del(k string) object {
	out := o[:0:0]
	for _, m := range o {
		if m.key != k {
			out = append(out, m)
		}
	}
	return out
}

func (o object) marshal() json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := marshal(m.key)
		b.Write(k)
		b.WriteByte(':')
		b.Write(m.val)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// marshal encodes without HTML escaping: a command's "&&" or ">" stays
// readable in the user's file.
func marshal(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// render is an object as install writes it: indented by two spaces, one
// newline at the end, and the byte order mark the file had, if any.
func render(o object, withBOM bool) ([]byte, error) {
	var b bytes.Buffer
	if withBOM {
		b.WriteString(bom)
	}
	if err := json.Indent(&b, o.marshal(), "", "  "); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// sameJSON compares two documents ignoring whitespace and a byte order
// mark.
func sameJSON(a, b []byte) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, bytes.TrimPrefix(a, []byte(bom))) != nil || json.Compact(&cb, bytes.TrimPrefix(b, []byte(bom))) != nil {
		return false
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}
