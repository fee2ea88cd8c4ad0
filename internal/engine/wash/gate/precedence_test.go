package gate

import "testing"

// TestPrecedenceClasses: the winner of a precedence verb (precedenceLen), in each language,
// put after the verb by the result is a reversed order; the precedence reworded with its winner
// first is none.
func TestPrecedenceClasses(t *testing.T) {
	for _, c := range []editClass{
		{"en wins", TypeOrder, "`config.local.toml` is read last. A command-line flag still wins.", "`config.local.toml` is read last. It still wins over a command-line flag."},
		{"en takes precedence", TypeOrder, "The workspace setting takes precedence over the user setting.", "The user setting takes precedence over the workspace setting."},
		{"en kept", "", "The workspace setting takes precedence over the user setting.", "The workspace setting overrides the user setting."},
		{"de hat Vorrang", TypeOrder, "Die Projektkonfiguration hat Vorrang vor der globalen Konfiguration.", "Die globale Konfiguration hat Vorrang vor der Projektkonfiguration."},
		{"fr prime", TypeOrder, "La configuration locale prime sur la configuration partagée.", "La configuration partagée prime sur la configuration locale."},
		{"es tiene prioridad", TypeOrder, "La variable de entorno tiene prioridad sobre el archivo de ajustes.", "El archivo de ajustes tiene prioridad sobre la variable de entorno."},
		{"pt prevalece", TypeOrder, "A regra do repositório prevalece sobre a regra global.", "A regra global prevalece sobre a regra do repositório."},
		{"ru имеет приоритет", TypeOrder, "Локальный конфиг имеет приоритет над общим конфигом.", "Общий конфиг имеет приоритет над локальным конфигом."},
	} {
		t.Run(c.name, func(t *testing.T) { checkEditClasses(t, []editClass{c}) })
	}
}
