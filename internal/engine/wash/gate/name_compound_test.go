package gate

import "testing"

// TestNameInCompound: a name said as the first part of a hyphenated compound is kept; a name
// dropped, or said only as a later part of a compound, is lost.
func TestNameInCompound(t *testing.T) {
	const de = "- Sicherheit: keine Secrets im Code, TLS korrekt, Logging vollständig.\n"
	for _, c := range []editClass{
		{"de name as a compound's first part", "", de, "- Sicherheit: keine Secrets im Code, korrekte TLS-Konfiguration, vollständiges Logging.\n"},
		{"en name as a compound's first part", "", "- Verify CORS on every public route.\n", "- Verify the CORS-related headers on every public route.\n"},
		{"de name dropped", TypeName, de, "- Sicherheit: keine Secrets im Code, korrekte Konfiguration, vollständiges Logging.\n"},
		{"de name only a later part", TypeName, de, "- Sicherheit: keine Secrets im Code, korrekte Server-TLS, vollständiges Logging.\n"},
	} {
		t.Run(c.name, func(t *testing.T) { checkEditClasses(t, []editClass{c}) })
	}
}

// TestAbbreviatedCompound: a hyphenated name said with one of its parts in full or abbreviated
// is one name, in prose and in a code comment; another part, or another name, is a change. The
// sentences are written for this test, not taken from the edit sets.
func TestAbbreviatedCompound(t *testing.T) {
	checkEditClasses(t, []editClass{
		{"de Git-Repo → Git-Repository", "", "- Änderungen direkt im Git-Repo committen.", "- Änderungen direkt im Git-Repository committen."},
		{"en dev-env → dev-environment", "", "- Start the Dev-Env before the Docker-Compose stack.", "- Start the Dev-Environment before the Docker-Compose stack."},
		{"comment Git-Repo → Git-Repository", "", "```sh\nmake sync # Daten ins Git-Repo schreiben\n```", "```sh\nmake sync # Daten ins Git-Repository schreiben\n```"},
		{"de Git-Repo → Git-Branch", TypeName, "- Änderungen direkt im Git-Repo committen.", "- Änderungen direkt im Git-Branch committen."},
	})
}
