package testtool

import "testing"

func TestCorpusDownload(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	y := Debian(t, YAMLPackages...)
	r := Debian(t, RustPackages...)
	ys := Files(t, y, 0, ".yml", ".yaml")
	rs := Files(t, r, 0, ".rs")
	wf := Files(t, r, 0, ".yml", ".yaml")
	t.Logf("yaml %d, rust %d, crate yaml %d", len(ys), len(rs), len(wf))
	if len(ys) < 500 || len(rs) < 200 {
		t.Errorf("corpus too small: %d YAML files, %d Rust files", len(ys), len(rs))
	}
}
