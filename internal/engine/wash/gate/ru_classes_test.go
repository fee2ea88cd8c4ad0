package gate

import "testing"

// TestParallelLinesClasses: lines opening with one capitalised word ("Запустите ...\nЗапустите
// ...") are parallel sentences written without marks, and said as one sentence they lose no
// name; a capitalised word opening one line only may be a name a wrapped paragraph carried
// over, and dropped it still blocks.
func TestParallelLinesClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"parallel lines said as one sentence", "", "Запустите `make lint` перед коммитом\nЗапустите `make test` перед пушем",
			"Перед коммитом запускайте `make lint`, перед пушем — `make test`."},
		{"parallel lines in German", "", "Prüfe `go vet` vor jedem Commit\nPrüfe `go test` vor jedem Push",
			"Vor jedem Commit `go vet` prüfen, vor jedem Push `go test`."},
		{"a wrapped name dropped", TypeName, "Логи отправляются в сервис\nGraylog через UDP", "Логи отправляются в сервис через UDP"},
	})
}
