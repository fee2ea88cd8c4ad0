package gate

import "testing"

// TestMergedSwapClasses: list items or table rows condensed into one line, each head keeping
// its own words, pass; the same line giving each head the other's words is a binding swap, in
// every language.
func TestMergedSwapClasses(t *testing.T) {
	for _, c := range []editClass{
		{"en items merged, glosses traded", TypeBindingSwap, "- **stable**: weekly releases, signed builds\n- **nightly**: daily snapshots, unsigned artefacts\n",
			"- stable = daily snapshots, unsigned artefacts; nightly = weekly releases, signed builds\n"},
		{"en items merged, glosses kept", "", "- **stable**: weekly releases, signed builds\n- **nightly**: daily snapshots, unsigned artefacts\n",
			"- stable = weekly releases, signed builds; nightly = daily snapshots, unsigned artefacts\n"},
		{"de rows merged, cells traded", TypeBindingSwap, "| Ziel | Zweck |\n|---|---|\n| `lint` | prüft Formatierung und Stil |\n| `bench` | misst Laufzeit der Parser |\n",
			"`lint`: misst Laufzeit der Parser; `bench`: prüft Formatierung und Stil\n"},
		{"de rows merged, cells kept", "", "| Ziel | Zweck |\n|---|---|\n| `lint` | prüft Formatierung und Stil |\n| `bench` | misst Laufzeit der Parser |\n",
			"`lint`: prüft Formatierung und Stil; `bench`: misst Laufzeit der Parser\n"},
		{"fr items merged, glosses traded", TypeBindingSwap, "- `main` : branche publiée, protégée\n- `develop` : intégration quotidienne des fonctionnalités\n",
			"- `main` : intégration quotidienne des fonctionnalités ; `develop` : branche publiée, protégée\n"},
		{"es items merged, glosses traded", TypeBindingSwap, "- **Alta**: bloquea la entrega, respuesta inmediata\n- **Baja**: mejora cosmética, revisión semanal\n",
			"- Alta: mejora cosmética, revisión semanal; Baja: bloquea la entrega, respuesta inmediata\n"},
		{"pt items merged, glosses traded", TypeBindingSwap, "- `staging`: dados sintéticos, acesso interno\n- `production`: clientes reais, auditoria obrigatória\n",
			"- `staging`: clientes reais, auditoria obrigatória; `production`: dados sintéticos, acesso interno\n"},
		{"ru nested items merged, glosses traded", TypeBindingSwap, "- Сервис собирается в двух режимах:\n  - `debug` (символы отладки, без оптимизаций);\n  - `release` (оптимизированный бинарник для кластера).\n",
			"- Сервис собирается в режимах `debug` (оптимизированный бинарник для кластера) и `release` (символы отладки, без оптимизаций).\n"},
		{"ru nested items merged, glosses kept", "", "- Сервис собирается в двух режимах:\n  - `debug` (символы отладки, без оптимизаций);\n  - `release` (оптимизированный бинарник для кластера).\n",
			"- Сервис собирается в режимах `debug` (символы отладки, без оптимизаций) и `release` (оптимизированный бинарник для кластера).\n"},
		{"zh items merged, glosses traded", TypeBindingSwap, "- **P0**：线上故障，立即处理\n- **P2**：界面瑕疵，排期修复\n",
			"- P0 = 界面瑕疵，排期修复；P2 = 线上故障，立即处理\n"},
		{"ja items merged, glosses traded", TypeBindingSwap, "- **alpha**: 社内検証のみ\n- **beta**: 限定公開で利用者募集\n",
			"- alpha = 限定公開で利用者募集、beta = 社内検証のみ\n"},
		{"ja items merged, glosses kept", "", "- **alpha**: 社内検証のみ\n- **beta**: 限定公開で利用者募集\n",
			"- alpha = 社内検証のみ、beta = 限定公開で利用者募集\n"},
		{"ko rows merged, cells traded", TypeBindingSwap, "| 단계 | 설명 |\n|---|---|\n| **Draft** | 작성자만 편집 가능 |\n| **Review** | 리뷰어 두 명 승인 필요 |\n",
			"Draft: 리뷰어 두 명 승인 필요 / Review: 작성자만 편집 가능\n"},
		{"gloss said before its head", "", "- **stable**: weekly releases, signed builds\n- **nightly**: daily snapshots, unsigned artefacts\n",
			"- weekly releases, signed builds → stable; daily snapshots, unsigned artefacts → nightly\n"},
	} {
		t.Run(c.name, func(t *testing.T) { checkEditClasses(t, []editClass{c}) })
	}
}
