package gate

import "testing"

// TestRemovedItemClasses: a list item or table row with no value, name or rule of its own,
// removed from a list or table the result keeps, is a lost fact of the list; the same item said
// by another statement of its section, reworded in place, or a table's header row dropped when
// the table becomes a list, is none.
func TestRemovedItemClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"en bullet removed", TypeName, "Ask before:\n\n- deleting branches\n- rewriting history\n- changing billing settings\n", "Ask before:\n\n- deleting branches\n- changing billing settings\n"},
		{"fr bullet removed", TypeName, "Appeler l'architecte pour :\n\n- concevoir les interfaces\n- choisir la stratégie de cache\n- planifier les tests de charge\n", "Appeler l'architecte pour :\n\n- concevoir les interfaces\n- planifier les tests de charge\n"},
		{"es table row removed", TypeName, "| Área | Revisar |\n|---|---|\n| Estilo | nombres claros |\n| Accesibilidad | contraste suficiente |\n| Rendimiento | sin consultas repetidas |\n",
			"| Área | Revisar |\n|---|---|\n| Estilo | nombres claros |\n| Rendimiento | sin consultas repetidas |\n"},
		{"ru bullet removed", TypeName, "Вызывайте ревьюера для:\n\n- проверки миграций\n- разбора логов\n- планирования релиза\n", "Вызывайте ревьюера для:\n\n- проверки миграций\n- планирования релиза\n"},
		{"item merged into its neighbour", "", "Ask before:\n\n- deleting branches\n- rewriting history\n- changing billing settings\n", "Ask before:\n\n- deleting branches or rewriting history\n- changing billing settings\n"},
		{"item reworded in place", "", "Вызывайте ревьюера для:\n\n- проверки миграций\n- разбора логов\n- планирования релиза\n", "Вызывайте ревьюера для:\n\n- проверки миграций\n- анализа журналов ошибок\n- планирования релиза\n"},
		{"header row dropped with the table", "", "| Área | Revisar |\n|---|---|\n| Estilo | nombres claros |\n| Rendimiento | sin consultas repetidas |\n",
			"| Estilo | nombres claros |\n|---|---|\n| Rendimiento | sin consultas repetidas |\n"},
	})
}

// TestCommaListItemClasses: an item left out of a comma list well before the coordinator that
// ends it ("A, B, C, D or E" said without C) is a dropped item, as one right before it is; the
// list kept whole, or cut where it gives examples, is none.
func TestCommaListItemClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"en middle item", TypeName, "Lint, format, vendor, test, or tag a build only on the CI runner.", "Lint, format, test, or tag a build only on the CI runner."},
		{"es middle item", TypeName, "Compila, firma, empaqueta, sube o anuncia la versión solo tras la revisión.", "Compila, empaqueta, sube o anuncia la versión solo tras la revisión."},
		{"de middle item", TypeName, "Bauen, signieren, packen, hochladen und ankündigen nur nach dem Review.", "Bauen, packen, hochladen und ankündigen nur nach dem Review."},
		{"list kept", "", "Lint, format, vendor, test, or tag a build only on the CI runner.", "Lint, format, vendor, test or tag builds only on the CI runner."},
		{"examples cut short", "", "Write short notes in the ticket, such as goals, risks, owners, dates or links.", "Write short notes in the ticket, such as goals, risks, dates or links."},
	})
}

// TestBoundWordItemClasses: the "de" of a number's bound ("menos de", "more than") is no rule
// word in an item: "gere os tipos e confirme de novo o build" cut after "gere os tipos" leaves
// an item out; the item kept, its words moved, is none.
func TestBoundWordItemClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"pt item with de dropped", TypeName, "Depois de editar o schema, gere os tipos e confirme de novo o build.", "Depois de editar o schema, gere os tipos."},
		{"es item with de dropped", TypeName, "Al cambiar la API, regenera el cliente y comprueba de nuevo las rutas.", "Al cambiar la API, regenera el cliente."},
		{"pt item kept", "", "Depois de editar o schema, gere os tipos e confirme de novo o build.", "Depois de editar o schema, gere os tipos e confirme o build de novo."},
	})
}
