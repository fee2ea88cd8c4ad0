package gate

import "testing"

// TestTranslatedComment: a code comment translated word for word in place, its paths and
// numbers kept, is a rewording; a translation that changes a path or a number is not.
func TestTranslatedComment(t *testing.T) {
	const open, end = "```bash\n", "```\n"
	for _, c := range []editClass{
		{"one word translated", "", open + "make dist # build into dist/\n" + end, open + "make dist # сборка into dist/\n" + end},
		{"two words translated", "", open + "make docs # render the pages\n" + end, open + "make docs # 生成 the 页面\n" + end},
		{"translated, path changed", TypeFenced, open + "make dist # build into dist/\n" + end, open + "make dist # сборка into out/\n" + end},
		{"translated, number changed", TypeFenced, open + "make wait # sleep 5 seconds\n" + end, open + "make wait # ждать 3 seconds\n" + end},
	} {
		t.Run(c.name, func(t *testing.T) { checkEditClasses(t, []editClass{c}) })
	}
}

// TestTranslatedInPlace: each entry's two comments, read as a word-for-word translation or not.
func TestTranslatedInPlace(t *testing.T) {
	for _, c := range []struct {
		o, r string
		want bool
	}{
		{"build в out/", "сборка в out/", true},
		{"run the tests", "запуск the тестов", true},
		{"build в out/", "build в out/", false},
		{"build в out/", "сборка в dist/", false},
		{"build the app", "сборка приложения", false},
		{"build v2", "сборка v3", false},
		{"сборка в out/", "build в out/", false},
	} {
		t.Run(c.o+" → "+c.r, func(t *testing.T) {
			if got := translatedInPlace(c.o, c.r); got != c.want {
				t.Errorf("translatedInPlace = %v, want %v", got, c.want)
			}
		})
	}
}
