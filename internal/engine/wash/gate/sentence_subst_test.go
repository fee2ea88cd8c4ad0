package gate

import (
	"strings"
	"testing"
)

// TestSubstitutionClasses: one content word or short span of an otherwise unchanged statement
// exchanged for another is a drop, also where the old and the new word are said elsewhere (so
// no count per section changes); a word exchanged for its equivalent (an inflection, a prefix
// abbreviation, an acronym, a unit written short, a synonym) is none, nor is a word deleted or
// added beside one.
func TestSubstitutionClasses(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"adjective exchanged, new word said in the statement", TypeName,
			"Staging deploys use the blue pool; production deploys use the green pool.",
			"Staging deploys use the green pool; production deploys use the green pool."},
		{"noun exchanged", TypeName, "Les fichiers de configuration vivent dans le dossier racine du projet.",
			"Les fichiers de configuration vivent dans le dossier parent du projet."},
		{"es noun exchanged", TypeName, "Los ficheros de configuración viven en la carpeta raíz del proyecto.",
			"Los ficheros de configuración viven en la carpeta padre del proyecto."},
		{"article said as a number word", TypeNumber, "Open a pull request per feature branch.", "Open two pull requests per feature branch."},
		{"han number exchanged", TypeNumber, "项目使用两级缓存：内存和磁盘。", "项目使用三级缓存：内存和磁盘。"},
		{"ja katakana word exchanged", TypeName, "設定ファイルはルートディレクトリに置き、ログは別の場所に置く。", "設定ファイルはホームディレクトリに置き、ログは別の場所に置く。"},
		{"ko folder exchanged", TypeName, "하위 폴더의 설정 파일을 사용합니다.", "루트 폴더의 설정 파일을 사용합니다."},
		{"ru adjective exchanged", TypeName, "Комментарии в коде пишем короткими фразами на английском.", "Комментарии в коде пишем длинными фразами на английском."},
		{"two compounds sharing a part", TypeCode, "Bootstrap runs `cluster-up.sh` and `platform-up.sh`; then `platform-up.sh` installs the ingress.",
			"Bootstrap runs `cluster-up.sh` and `platform-up.sh`; then `cluster-up.sh` installs the ingress."},
		{"synonym", "", "Run the linter before each commit of the module.", "Execute the linter before each commit of the module."},
		{"prefix abbreviation", "", "Store the configuration of every service in the repository.", "Store the config of every service in the repo."},
		{"acronym", "", "Open a pull request for each change of the schema.", "Open a PR for each change of the schema."},
		{"unit written short", "", "Wait two minutes before retrying the upload job.", "Wait two min before retrying the upload job."},
		{"inflection", "", "Запускай тесты перед каждым коммитом.", "Запускайте тесты перед каждым коммитом."},
		{"compound said by its part", "", "- Minor-Updates (wöchentlich zusammenführen)", "- Minors (wöchentlich zusammenführen)"},
		{"one big said for a huge", "", "Keep a huge table of routes in `router.go`.", "Keep one big table of routes in `router.go`."},
		{"word deleted beside an equivalent", "", "Use a 30s fixed backoff for every fetch.", "Use a 30 seconds backoff for every fetch."},
	})
}

// TestSubstitutionMessage: the block names the exchanged span and its replacement.
func TestSubstitutionMessage(t *testing.T) {
	drops := Check([]byte("Les revues portent sur plusieurs centaines de lignes au plus.\n"),
		[]byte("Les revues portent sur plusieurs dizaines de lignes au plus.\n"))
	if len(drops) != 1 || drops[0].Note != "centaines -> dizaines" || drops[0].Statement == "" || drops[0].Result == "" {
		t.Fatalf("drops %v", drops)
	}
}

// TestSynonymEntries: each group of synonymText is free word for word in a statement that
// another content word exchanged in the same place blocks.
func TestSynonymEntries(t *testing.T) {
	tmpl := func(lang, w string) string {
		switch lang {
		case "ja", "zh":
			return "毎日 `make lint` と `make test` を" + w + "する。\n"
		case "ko":
			return "매일 `make lint` 및 `make test`를 " + w + "합니다.\n"
		}
		return "Daily " + strings.ReplaceAll(w, "_", " ") + " `make lint` and `make test`.\n"
	}
	for lang, groups := range synonymText() {
		for _, g := range strings.Fields(groups) {
			words := strings.Split(g, "|")
			for _, w := range words[1:] {
				if drops := Check([]byte(tmpl(lang, words[0])), []byte(tmpl(lang, w))); len(drops) > 0 {
					t.Errorf("%s: %s -> %s blocked: %v", lang, words[0], w, drops)
				}
			}
			other := "zqxv"
			if lang == "ja" || lang == "zh" {
				other = "削除"
			} else if lang == "ko" {
				other = "삭제"
			}
			if drops := Check([]byte(tmpl(lang, words[0])), []byte(tmpl(lang, other))); len(drops) == 0 {
				t.Errorf("%s: %s -> %s passes: the template cannot block", lang, words[0], other)
			}
		}
	}
}

// TestDiffHunks: the diff reads inflections as one word and cuts where the statements differ.
func TestDiffHunks(t *testing.T) {
	o := diffUnits(readClauses([]stmtLine{{text: "Run the tests before committing the change"}}, false))
	r := diffUnits(readClauses([]stmtLine{{text: "Run tests before you commit the changes"}}, false))
	var got []string
	for _, h := range diffHunks(o, r) {
		got = append(got, unitsText(h.del)+">"+unitsText(h.ins))
	}
	if strings.Join(got, ",") != "the>,>you" {
		t.Fatalf("hunks %q", got)
	}
}
