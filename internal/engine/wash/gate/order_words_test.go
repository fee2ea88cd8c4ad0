package gate

import "testing"

// TestOrderWordClasses: two spans that trade places across a before or after word of each
// language (orderText) are a reversed order; the same spans reordered across a plain
// coordinator stay a free reordering.
func TestOrderWordClasses(t *testing.T) {
	for _, c := range []editClass{
		{"en prior", TypeOrder, "Run the backup prior to the upgrade.", "Run the upgrade prior to the backup."},
		{"de nach", TypeOrder, "Den Cache leeren nach dem Deploy.", "Den Deploy leeren nach dem Cache."},
		{"de vor", TypeOrder, "Immer auf Staging vor Produktion testen.", "Immer auf Produktion vor Staging testen."},
		{"fr avant", TypeOrder, "Toujours valider sur recette avant production.", "Toujours valider sur production avant recette."},
		{"fr après", TypeOrder, "Publier la doc après la release.", "Publier la release après la doc."},
		{"es antes", TypeOrder, "Probar siempre en staging antes de producción.", "Probar siempre en producción antes de staging."},
		{"pt depois", TypeOrder, "Atualizar o changelog depois do merge.", "Atualizar o merge depois do changelog."},
		{"ru перед", TypeOrder, "Проверяйте на стенде перед продом.", "Проверяйте на проде перед стендом."},
		{"ru после", TypeOrder, "Обновляйте схему после миграции.", "Обновляйте миграции после схемы."},
		{"fr coordinated", "", "Toujours valider la recette et la production.", "Toujours valider la production et la recette."},
	} {
		t.Run(c.name, func(t *testing.T) { checkEditClasses(t, []editClass{c}) })
	}
}
