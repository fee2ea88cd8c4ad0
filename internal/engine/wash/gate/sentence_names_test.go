package gate

import (
	"slices"
	"testing"
)

// namesOf returns the name keys the sentence reader finds in one line.
func namesOf(s string) []string {
	var out []string
	for _, n := range readSentences(s).names {
		out = append(out, n.tok.Value)
	}
	return out
}

func TestNamesByShape(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		// inner capitals, letters with digits, a short acronym, a dotted capitalised name
		{"The build uses TypeScript and ES2022 through the API of Node.js", []string{"typescript", "es2022", "api", "node.js"}},
		// a capitalised word at a sentence start is no name; in mid-sentence it is
		{"Deploy with Vite", []string{"vite"}},
		// emphasis in capitals is no acronym
		{"NEVER commit the secrets", nil},
		// a lowercase tool-shaped word after "use" or before "for"
		{"We use vue-router and esbuild-kit for the library", []string{"vue-router", "esbuild-kit"}},
		// a title's capitals are no names
		{"Build And Release The Packages", nil},
		// a language name in Chinese text
		{"提交信息使用英文", []string{"英文"}},
	} {
		if got := namesOf(c.in); !slices.Equal(got, c.want) {
			t.Errorf("names of %q: got %q, want %q", c.in, got, c.want)
		}
	}
}

func TestKeyValueLineIsAName(t *testing.T) {
	// The value of a short "Key: value" line is a named value in any case.
	if got := namesOf("Quote style: single quotes"); !slices.Contains(got, "single") || !slices.Contains(got, "quotes") {
		t.Errorf("got %q", got)
	}
}

// A bold label may close over its colon ("**Telegram:** grammy"): its short value is a named
// value as after "Telegram: grammy"; a value opening with a function word of any of the
// languages is a sentence, whose words are no names.
func TestKeyValueAfterABoldLabel(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"- Telegram: grammy", []string{"grammy"}},
		{"- **Telegram:** grammy", []string{"grammy"}},
		{"- __Telegram:__ grammy", []string{"grammy"}},
		{"- **Im Zweifel:** Als Personalunion einstufen.", nil},
		{"- **En cas de doute :** la version longue", nil},
		{"- **If unsure:** the default", nil},
	} {
		if got := namesOf(c.in); !slices.Equal(got, c.want) {
			t.Errorf("names of %q: got %q, want %q", c.in, got, c.want)
		}
	}
}

// An acronym's capitals make no title: "Serveur HTTP : Express (rendu Pug + API JSON)" names
// Express and Pug. A label's value glossed by a parenthesis names it even when the value is
// long enough to read as a sentence.
func TestNamesBesideAcronyms(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"- **Serveur HTTP** : Express (rendu Pug côté serveur + API JSON).", []string{"http", "express", "pug", "api", "json"}},
		{"- **HTTP server**: Express (server-side Pug rendering and a JSON API).", []string{"http", "express", "pug", "json", "api"}},
		{"Build And Release The API Packages", []string{"api"}},
		{"- **Fix:** Move the export into the utils package.", nil},
	} {
		if got := namesOf(c.in); !slices.Equal(got, c.want) {
			t.Errorf("names of %q: got %q, want %q", c.in, got, c.want)
		}
	}
}
