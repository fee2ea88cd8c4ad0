package gate

import "testing"

// TestPermittedClasses: an item a prohibition forbade, taken out of it and put under a
// permission of its own, is a polarity drop; the prohibition shortened with the item left out
// altogether is another pass's business, and a permission the original already gave is none.
func TestPermittedClasses(t *testing.T) {
	checkEachClass(t, []editClass{
		{"pt nenhum … podem", TypePolarity, "- Nenhum log de depuração ou segredo no commit.", "- Nenhum segredo no commit (logs de depuração podem ir)."},
		{"en no … may", TypePolarity, "- No debug logs or secrets in the commit.", "- No secrets in the commit (debug logs may stay)."},
		{"ru никаких … можно", TypePolarity, "- Никаких отладочных логов и секретов в коммите.", "- Никаких секретов в коммите (отладочные логи можно)."},
		{"en permission already given", "", "- No secrets in the commit; debug logs may stay.", "- No secrets in the commit (debug logs may stay)."},
		{"zh a verb of omission describes", "", "- 部署脚本会检测已有的镜像并跳过。", "- 部署脚本不用改：检测到已有镜像就会跳过。"},
		{"en prohibition kept, permission of another item", "", "- No debug logs or secrets in the commit.", "- No debug logs or secrets in the commit (screenshots may stay)."},
	})
}
