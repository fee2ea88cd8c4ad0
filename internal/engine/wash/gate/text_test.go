package gate

import (
	"errors"
	"testing"
)

func TestCheckText(t *testing.T) {
	for _, tt := range []struct {
		name string
		in   string
		want *NotTextError // nil: text
	}{
		{"ascii", "# Rules\n\n- Use pnpm.\n", nil},
		{"utf-8 in nine scripts", "- 必ず テスト\n- 반드시\n- обязательно\n", nil},
		{"empty", "", nil},
		// GBK bytes can read as UTF-8 by chance: C6 AB is U+01AB; BA is a lone continuation.
		{"gbk bytes on line 2", "# T\n- \xc6\xab\xba\xc3\n", &NotTextError{Line: 2, Col: 5}},
		{"a lone continuation byte", "abc\x80", &NotTextError{Line: 1, Col: 4}},
		{"a NUL byte", "a\nb\x00c", &NotTextError{Line: 2, Col: 2, NUL: true}},
		{"the first of a NUL and a bad byte", "\xff\x00", &NotTextError{Line: 1, Col: 1}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckText([]byte(tt.in))
			var nt *NotTextError
			switch {
			case tt.want == nil && err != nil:
				t.Fatalf("CheckText = %v, want nil", err)
			case tt.want != nil && !errors.As(err, &nt):
				t.Fatalf("CheckText = %v, want %+v", err, tt.want)
			case tt.want != nil && *nt != *tt.want:
				t.Fatalf("CheckText = %+v, want %+v", *nt, *tt.want)
			}
		})
	}
}
