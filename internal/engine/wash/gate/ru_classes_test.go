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

// TestAbilityNounClasses: a noun naming an ability ("Тестируемость", "Testability",
// "Testbarkeit", "Escalabilidad") said with "can" and its verb ("тестировать можно") states the
// same ability; a plain statement said with "can" and another verb still weakens it.
func TestAbilityNounClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"тестируемость said можно тестировать", "", "- Тестируемость без доступа к сети", "- Тестировать можно без доступа к сети."},
		{"testability said can be tested", "", "- Testability without network access", "- Can be tested without network access."},
		{"Testbarkeit said kann getestet werden", "", "- Testbarkeit ohne echte Datenbank", "- Kann ohne echte Datenbank getestet werden."},
		{"escalabilidad said puede escalar", "", "- Escalabilidad horizontal del servicio", "- El servicio puede escalar horizontalmente."},
		{"another verb with can", TypeModality, "- Testability without network access", "- Can be deployed without network access."},
		{"a plain rule said with можно", TypeModality, "- Каждый модуль покрывается тестами", "- Каждый модуль можно покрыть тестами"},
	})
}
