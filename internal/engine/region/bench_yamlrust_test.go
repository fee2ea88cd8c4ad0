package region

import (
	"fmt"
	"testing"
)

func benchYAML(t benchText) []byte {
	return repeatTo("# yaml-language-server: $schema=https://json.schemastore.org/github-workflow.json\nname: ci\non: [push, pull_request]\njobs:\n", func(i int) string {
		return fmt.Sprintf(`  job%[1]d:  # %[3]s
    runs-on: ubuntu-latest
    env: {NAME: "%[4]s", MODE: '%[4]s'}
    steps:
      # %[2]s
      - uses: actions/checkout@v4 # yamllint disable-line rule:line-length
      - name: "%[4]s"
        run: |  # %[3]s
          echo "%[4]s" # shell comment
          go test ./... # not a directive: shell
      - &step%[1]d
        with:
          text: >-
            %[2]s
          plain: %[3]s
      - *step%[1]d
`, i, t.doc, t.comment, t.str)
	})
}

func benchRust(t benchText) []byte {
	return repeatTo("//! Crate docs: "+t.doc+"\n\nuse std::fmt;\n\n", func(i int) string {
		return fmt.Sprintf(`/// %[2]s
///
/// # Examples
///
/// `+"```"+`
/// let l = Loader%[1]d::new(); // %[3]s
/// `+"```"+`
#[derive(Debug, Clone)]
pub struct Loader%[1]d<'a> {
    path: &'a str, // %[3]s
}

impl<'a> Loader%[1]d<'a> {
    /* %[3]s */
    pub fn load(&self) -> Result<String, fmt::Error> {
        // SAFETY: %[3]s
        let raw = r#"%[4]s"#;
        let c = '\''; let b = b"%[1]d";
        Ok(format!("{}{}{:?}{}", "%[4]s", raw, b, c))
    }
}

`, i, t.doc, t.comment, t.str)
	})
}

func BenchmarkClassifyYAML(b *testing.B) {
	b.Run("ascii", func(b *testing.B) { benchClassify(b, "bench.yaml", benchYAML(asciiText)) })
	b.Run("nonascii", func(b *testing.B) { benchClassify(b, "bench.yaml", benchYAML(intlText)) })
}

func BenchmarkClassifyRust(b *testing.B) {
	b.Run("ascii", func(b *testing.B) { benchClassify(b, "bench.rs", benchRust(asciiText)) })
	b.Run("nonascii", func(b *testing.B) { benchClassify(b, "bench.rs", benchRust(intlText)) })
}
