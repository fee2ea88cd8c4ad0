package tomlx

import "testing"

func TestDecodeStrictAcceptsBOM(t *testing.T) {
	var v struct {
		ID string `toml:"id"`
	}
	if err := DecodeStrict("p.toml", []byte("\xef\xbb\xbfid = \"x\"\n"), &v); err != nil || v.ID != "x" {
		t.Fatalf("decode with a BOM: %v %+v", err, v)
	}
	if string(StripBOM([]byte("\xef\xbbx"))) != "\xef\xbbx" {
		t.Fatal("a partial mark is content, not a BOM")
	}
}
