package region

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestRustKinds(t *testing.T) {
	cases := []struct {
		name, src, needle string
		want              Kind
	}{
		{"line comment", "fn f() {} // note\n", "// note", Prose},
		{"block comment", "/* note */ fn f() {}\n", "/* note", Prose},
		{"nested block", "/* a /* b */ c */ fn f() {}\n", "c */", Prose},
		{"code after nested", "/* a /* b */ c */ fn f() {}\n", "fn f", Runtime},
		{"string", "let s = \"// not\";\n", "// not", Runtime},
		{"escaped quote", "let s = \"\\\" // not\";\n", "// not", Runtime},
		{"raw string", "let s = r#\"\" // not\"#;\n", "// not", Runtime},
		{"raw string many hashes", "let s = r###\"\"## // not\"###; // yes\n", "// not", Runtime},
		{"after raw string", "let s = r###\"\"## // not\"###; // yes\n", "// yes", Prose},
		{"byte string", "let s = b\"/* not\"; // yes\n", "/* not", Runtime},
		{"raw byte string", "let s = br#\"/* not\"#; // yes\n", "// yes", Prose},
		{"c string", "let s = c\"// not\"; // yes\n", "// not", Runtime},
		{"raw c string", "let s = cr#\"// not\"#; // yes\n", "// yes", Prose},
		{"raw identifier", "let r#match = 1; // yes\n", "// yes", Prose},
		{"char quote", "let c = '\"'; // yes\n", "// yes", Prose},
		{"char slash", "let c = '/'; // yes\n", "// yes", Prose},
		{"lifetime", "fn f<'a>(x: &'a str) -> &'a str { x } // yes\n", "// yes", Prose},
		{"static lifetime", "const S: &'static str = \"x\"; // yes\n", "// yes", Prose},
		{"unicode char", "let c = '\\u{1F600}'; // yes\n", "// yes", Prose},
		{"escaped char quote", "let c = '\\''; // yes\n", "// yes", Prose},
		{"byte char", "let c = b'\\''; // yes\n", "// yes", Prose},
		{"label", "'outer: loop { break 'outer; } // yes\n", "// yes", Prose},
		{"raw lifetime", "fn f<'r#a>() {} // yes\n", "// yes", Prose},
		{"doc line", "/// Docs here.\nfn f() {}\n", "/// Docs", Prose},
		{"inner doc", "//! Crate docs.\n", "//! Crate", Prose},
		{"four slashes", "//// not doc\n", "//// not", Prose},
		{"doctest", "/// ```\n/// let x = 1;\n/// ```\nfn f() {}\n", "let x", Runtime},
		{"doctest fence line", "/// ```\n/// let x = 1;\n/// ```\nfn f() {}\n", "/// ```", Runtime},
		{"ignore doctest", "/// ```ignore\n/// x\n/// ```\nfn f() {}\n", "/// x", Runtime},
		{"no_run", "/// ```no_run\n/// x\n/// ```\nfn f() {}\n", "/// x", Runtime},
		{"compile_fail", "/// ```compile_fail\n/// x\n/// ```\nfn f() {}\n", "/// x", Runtime},
		{"should_panic", "/// ```should_panic\n/// x\n/// ```\nfn f() {}\n", "/// x", Runtime},
		{"tilde fence", "/// ~~~\n/// x\n/// ~~~\nfn f() {}\n", "/// x", Runtime},
		{"hidden line", "/// ```\n/// # use a::b;\n/// ```\nfn f() {}\n", "# use", Runtime},
		{"prose after fence", "/// ```\n/// x\n/// ```\n/// after\nfn f() {}\n", "/// after", Prose},
		{"unclosed fence runs to block end", "/// ```\n/// x\n/// still code\nfn f() {}\n", "still", Runtime},
		{"unclosed fence stops at item", "/// ```\n/// x\nfn f() {}\n/// next item\nfn g() {}\n", "/// next", Prose},
		{"fence across comment and attr", "/// ```\n// plain\n#[inline]\n/// x\n/// ```\nfn f() {}\n", "/// x", Runtime},
		{"fence across blank line", "/// ```\n\n/// x\n/// ```\nfn f() {}\n", "/// x", Runtime},
		{"indented code", "/// Text.\n///\n///     let x = 1;\nfn f() {}\n", "let x", Runtime},
		{"unindent", "///   Text.\n///\n///       let x = 1;\nfn f() {}\n", "let x", Runtime},
		{"unindent not code", "///   Text.\n///   more\n///     not code\nfn f() {}\n", "not code", Prose},
		{"closer with relative indent 3", "///  ```\n///  a\n///     ```\n///  b\n///  ```\n///  c\n///  ```\nfn f() {}\n", "///  c", Runtime},
		{"code span", "/// Use `x // y`.\nfn f() {}\n", "x // y", Runtime},
		{"doc attr opens a fence", "/// a\n#[doc = \"```\"]\n/// b\nfn f() {}\n", "/// b", Runtime},
		{"doc attr before a fence", "/// a\n#[doc = \"```\"]\n/// b\nfn f() {}\n", "/// a", Prose},
		{"doc attr text joins", "/// a\n#[doc = \"x\"]\n/// b\nfn f() {}\n", "/// b", Prose},
		{"doc attr literal is runtime", "/// a\n#[doc = \"x y\"]\n/// b\nfn f() {}\n", "x y", Runtime},
		{"doc attr closes a fence", "/// a\n#[doc = \"```\"]\n/// b\n#[doc = \"```\"]\n/// c\nfn f() {}\n", "/// c", Prose},
		{"doc attr fence closed by a line", "/// ```\n/// code\n#[doc = \"```\"]\n/// after\nfn f() {}\n", "/// after", Prose},
		{"doc attr raw string fence", "/// a\n#[doc = r#\"```\"#]\n/// b\nfn f() {}\n", "/// b", Runtime},
		{"doc attr escaped fence", "/// a\n#[doc = \"\\x60\\x60\\x60\"]\n/// b\nfn f() {}\n", "/// b", Runtime},
		{"doc attr escaped text", "/// a\n#[doc = \"\\x60\\x60x\"]\n/// b\nfn f() {}\n", "/// b", Prose},
		// rustdoc counts an attribute's line one column deeper when the
		// fragments mix: "a\n  b\n\n    code?\n    c" (rustdoc 1.95).
		{"doc attr unindent", "/// a\n#[doc = \"  b\\n\\n    code?\"]\n///     c\nfn f() {}\n", "c", Runtime},
		{"doc attr unindent prose", "/// a\n#[doc = \"  b\\n\\n    code?\"]\n///     c\nfn f() {}\n", "/// a", Prose},
		{"doc attr blank then indented", "/// a\n#[doc = \"b\"]\n///\n///     c\nfn f() {}\n", "c", Runtime},
		{"doc attr empty string", "/// a\n#[doc = \"\"]\n///     c\nfn f() {}\n", "c", Runtime},
		{"cfg_attr doc fence", "/// a\n#[cfg_attr(x, doc = \"```\")]\n/// b\nfn f() {}\n", "/// b", Runtime},
		{"cfg_attr doc fence before", "/// a\n#[cfg_attr(x, doc = \"```\")]\n/// b\nfn f() {}\n", "/// a", Prose},
		{"cfg_attr pair opens a fence", "/// a\n#[cfg_attr(not(unix), doc = \" ```ignore\")]\n#[cfg_attr(unix, doc = \" ```\")]\n/// b\n/// ```\n/// c\nfn f() {}\n", "/// b", Runtime},
		{"cfg_attr pair closed", "/// a\n#[cfg_attr(not(unix), doc = \" ```ignore\")]\n#[cfg_attr(unix, doc = \" ```\")]\n/// b\n/// ```\n/// c\nfn f() {}\n", "/// c", Prose},
		{"cfg_attr pair before", "/// a\n#[cfg_attr(not(unix), doc = \" ```ignore\")]\n#[cfg_attr(unix, doc = \" ```\")]\n/// b\n/// ```\n/// c\nfn f() {}\n", "/// a", Prose},
		{"cfg_attr unpaired", "/// a\n#[cfg_attr(not(unix), doc = \" ```ignore\")]\n#[cfg_attr(windows, doc = \" ```\")]\n/// b\n/// ```\n/// c\nfn f() {}\n", "/// c", Runtime},
		{"cfg_attr doc text", "/// a\n#[cfg_attr(x, doc = \"x\")]\n/// b\nfn f() {}\n", "/// b", Prose},
		{"doc hidden does not join", "/// a\n#[doc(hidden)]\n/// b\nfn f() {}\n", "/// b", Prose},
		{"inner doc attr fence", "//! a\n#![doc = \"```\"]\n//! b\n", "//! b", Runtime},
		{"inner doc attr text", "//! a\n#![doc = \"x\"]\n//! b\n", "//! b", Prose},
		{"include_str before", "//! Intro.\n#![doc = include_str!(\"../README.md\")]\n//! After.\n", "//! Intro", Prose},
		{"include_str after", "//! Intro.\n#![doc = include_str!(\"../README.md\")]\n//! After.\n", "//! After", Runtime},
		{"include_str continues a code span", "//! Use `x\n#![doc = include_str!(\"r.md\")]\n", "//! Use", Runtime},
		{"include_str after a blank line", "//! Use `x\n//!\n#![doc = include_str!(\"r.md\")]\n", "//! Use", Prose},
		{"include_str could lower the indent", "///   a\n#[doc = include_str!(\"x.md\")]\nfn f() {}\n", "a", Runtime},
		{"include_str in cfg_attr", "/// a\n#[cfg_attr(docsrs, doc = include_str!(\"x.md\"))]\n/// b\nfn f() {}\n", "/// b", Runtime},
		{"include_str in cfg_attr before", "/// a\n///\n#[cfg_attr(docsrs, doc = include_str!(\"x.md\"))]\n/// b\nfn f() {}\n", "/// a", Prose},
		{"macro attribute", "macro_rules! m { ($(#[$m:meta])*) => { $(#[$m])*\n/// b\nfn f() {} } }\n", "/// b", Runtime},
		{"doc attr next item", "#[doc = \"```\"]\nfn f() {}\n/// b\nfn g() {}\n", "/// b", Prose},
		{"single-line block doc", "/** Docs. */\nfn f() {}\n", "/** Docs", Prose},
		{"multi-line block doc", "/**\n * Docs.\n */\nfn f() {}\n", "Docs", Prose},
		{"crate block doc", "/*!\nThis crate parses.\n\nIt is `fast`.\n*/\n", "It is", Prose},
		{"block doc code span", "/*!\nThis crate parses.\n\nIt is `fast`.\n*/\n", "`fast`", Runtime},
		{"block doc indented code", "/*!\nText.\n\n    let x = 1;\n*/\n", "Text", Runtime},
		{"block doc star indented code", "/**\n * Text.\n *\n *     let x = 1;\n */\nfn f() {}\n", "Text", Runtime},
		{"block doc fence", "/*!\nText.\n```\nx\n```\n*/\n", "Text", Runtime},
		{"block doc directive", "/**\n * Result: later\n */\nfn f() {}\n", "Result", Directive},
		{"block doc label", "/**\n * TODO: later\n */\nfn f() {}\n", "TODO", Prose},
		{"not doc: /***", "/*** x */\n", "/*** x", Prose},
		{"not doc: /**/", "/**/ fn f() {}\n", "/**/", Prose},
		{"bare cr in doc", "/// a\rb\nfn f() {}\n", "/// a", Runtime},
		{"crlf", "// note\r\nfn f() {}\r\n", "// note", Prose},
		{"bare cr in comment", "// a\rb\n", "\r", Runtime},
		{"u2028 is whitespace in a comment", "// a\u2028b\n", "b", Prose},
		{"safety", "// SAFETY: the pointer is valid\nunsafe { f() }\n", "// SAFETY", Directive},
		{"safety after removal", "// SAF\u200bETY: x\nunsafe { f() }\n", "// SAF", Directive},
		{"rustfmt", "// rustfmt::skip\nfn f() {}\n", "// rustfmt", Directive},
		{"compiletest", "let x = 1; //~ ERROR mismatched\n", "//~", Directive},
		{"compiletest header", "//@ compile-flags: -O\n", "//@", Directive},
		{"generated", "// @generated by build.rs\n", "// @generated", Directive},
		{"word colon", "// Result: later\n", "// Result", Directive},
		{"doc word colon", "/// Result: this\nfn f() {}\n", "/// Result", Directive},
		{"prose label", "// TODO: later\n", "// TODO", Prose},
		{"doc prose label", "/// Note: this\nfn f() {}\n", "/// Note", Prose},
		{"shebang", "#!/usr/bin/env run-cargo-script\nfn main() {}\n", "#!/usr", Directive},
		{"inner attribute is no shebang", "#![allow(x)] // c\n", "#![", Runtime},
		{"closing could be created", "/* a *\u200b/ b */ fn f() {}\n", "/* a", Runtime},
		{"opening could be created", "/* a /\u200b* b */ fn f() {}\n", "/* a", Runtime},
		{"could become doc", "//\u200b/ x\nfn f() {}\n", "//\u200b/", Runtime},
		{"could stop being doc", "///\u200b/ x\nfn f() {}\n", "///\u200b/", Runtime},
		{"doc in macro", "macro_rules! m { () => { /// ```\n/// x\n/// ```\nfn f() {} } }\n", "/// x", Runtime},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := kindAt(t, "f.rs", c.src, c.needle)
			if r.Kind != c.want {
				m, _ := Classify("f.rs", []byte(c.src))
				t.Errorf("%q in %q is %s (%s), want %s\n%s", c.needle, c.src, r.Kind, r.Why, c.want, m)
			}
		})
	}
}

func TestRustErrors(t *testing.T) {
	cases := []struct{ src, pos, reason string }{
		{"fn f() {}\n/* a /* b */\n", "2:1", "unterminated block comment"},
		{"let s = \"abc\n", "1:9", "unterminated double quote string"},
		{"let s = r#\"abc\"\n", "1:9", "unterminated raw string"},
		{"let s = br\"abc\n", "1:9", "unterminated raw string"},
		{"let c = '\\n\n", "1:9", "unterminated character literal"},
		{"let c = b'x\n", "1:9", "unterminated byte literal"},
		{"\r\nlet s = \"", "2:9", "unterminated double quote string"},
	}
	for _, c := range cases {
		_, err := Classify("src/f.rs", []byte(c.src))
		var se *RefusedError
		if !errors.As(err, &se) {
			t.Errorf("%q: error %v, want a RefusedError", c.src, err)
			continue
		}
		if want := "src/f.rs:" + c.pos + ": " + c.reason + "; refused"; !strings.HasSuffix(err.Error(), want) {
			t.Errorf("%q: error %q, want %q", c.src, err, want)
		}
	}
}

// TestRustLinear: deeply nested comments, long doc blocks and long lines
// cost time proportional to their size.
func TestRustLinear(t *testing.T) {
	gens := map[string]func(n int) string{
		"nested":   func(n int) string { return strings.Repeat("/* ", n) + strings.Repeat(" */", n) + "\n" },
		"unclosed": func(n int) string { return strings.Repeat("/* ", n) + strings.Repeat(" */", n-1) + "\n" },
		"doc": func(n int) string {
			return strings.Repeat("/// text `code` [link](x)\n/// ```\n/// let x = 1;\n/// ```\n", n/4) + "fn f() {}\n"
		},
		"blockdoc": func(n int) string {
			return "/*!\n" + strings.Repeat(" * Text with `code` and [a link](x).\n", n/4) + " */\n"
		},
		"tokens":    func(n int) string { return strings.Repeat("'a 'b' \"s\" r#\"r\"# x // c\n", n/4) },
		"lifetimes": func(n int) string { return "fn f" + strings.Repeat("<'a", n) + "\n" },
	}
	for name, gen := range gens {
		checkLinear(t, "rust "+name, []byte(gen(10000)), []byte(gen(100000)), func(src []byte) error {
			_, err := classifyRust("f.rs", src)
			if name == "unclosed" {
				if err == nil {
					return errors.New("an unclosed comment was accepted")
				}
				return nil
			}
			return err
		})
	}
}

func FuzzClassifyRust(f *testing.F) {
	addFixtureSeeds(f, ".rs")
	for _, s := range []string{
		"", "/*", "//", "'", "'a", "'a'", "r#\"", "br##\"x\"#", "/* /* */", "/// ```\n/// x\n",
		"/// a\n#[doc = \"x\"]\n/// b\nfn f() {}\n", "/* *\u200b/ */", "// a\rb\n", "#!/bin/x\n#![a]\n",
		"/// a\n#[cfg_attr(not(unix), doc = \" ```ignore\")]\n#[cfg_attr(unix, doc = \" ```\")]\n/// b\n/// ```\nfn f() {}\n",
		"//! a `b\n#![doc = include_str!(\"../README.md\")]\n//! c\n", "#[doc = r#\"```\"#]\n///     x\n", "#[doc = \"\\u{60}\\x60\\\n  `\"]\n/// y\n",
		"macro_rules! m { ($(#[$m:meta])*) => { $(#[$m])*\n/// b\nfn f() {} } }\n", "#[doc = \"\\u{\"]\n/// y\n", "#[cfg_attr(a, doc = \"x\", doc = \"```\")]\n/// y\n",
		"fn f<'r#a>() {}", "let c = '\\u{0}';", "//!\u200b ```\n//! x\n", "/**\n * a\n */\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if _, err := Classify("f.rs", src); err != nil {
			var se *RefusedError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is not a RefusedError", err)
			}
			return
		}
		m := classifyChecked(t, "f.rs", src)
		doc := false
		for _, marker := range []string{"///", "//!", "/**", "/*!"} {
			doc = doc || bytes.Contains(src, []byte(marker))
		}
		for _, r := range m.Regions {
			if r.Kind == Runtime || doc {
				continue
			}
			if !bytes.HasPrefix(src[r.Start:], []byte("//")) && !bytes.HasPrefix(src[r.Start:], []byte("/*")) &&
				(r.Start == 0 || src[r.Start-1] != '\r') && r.Why != "directive: shebang" {
				t.Fatalf("%s region %d-%d %q does not start a comment", r.Kind, r.Start, r.End, src[r.Start:r.End])
			}
		}
		if !doc {
			// Doc comments are Markdown: removing a carrier may change
			// their structure, which the engine's re-classification
			// proof refuses. Other comments must keep every class.
			checkRemovalStable(t, "f.rs", src, m)
		}
	})
}
