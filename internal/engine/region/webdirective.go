package region

import "bytes"

// Directive comments of HTML and CSS: comments a tool reads. The tools
// that read comments in every syntax, and HTML comments in HTML and
// Markdown alike, are in the shared vocabulary (see suppressions); the
// lists below are HTML's and CSS's own. Each entry names the tool;
// matching is by prefix of the comment's text after leading whitespace,
// ignoring ASCII case (matching too much only makes the tool more timid).
// Both lists end with the seed's "word:" shape.

// htmlDirectivePrefixes are read by the tool named in each why.
var htmlDirectivePrefixes = [...]struct{ prefix, why string }{
	{"[if", "directive: conditional comment"},              // IE and Outlook: <!--[if IE]>...<![endif]-->
	{"[endif", "directive: conditional comment"},           //
	{"<![endif", "directive: conditional comment"},         // downlevel-revealed closer <!--<![endif]-->
	{"htmlhint", "directive: htmlhint"},                    // HTMLHint inline rules: <!-- htmlhint tag-pair:false -->
	{"htmllint", "directive: htmllint"},                    // htmllint inline config
	{"svelte-ignore", "directive: svelte-ignore"},          // Svelte compiler warnings
	{"biome-ignore", "directive: biome-ignore"},            // Biome
	{"dprint-ignore", "directive: dprint-ignore"},          // dprint markup plugin
	{"deno-fmt-ignore", "directive: deno-fmt-ignore"},      // deno fmt
	{"google_ad_section_", "directive: google_ad_section"}, // AdSense section targeting
	{"saved from url=", "directive: mark of the web"},      // IE zone marker, read by the browser
	{"noindex", "directive: noindex"},                      // Yandex <!--noindex-->
	{"/noindex", "directive: noindex"},                     //
	{"templatebegin", "directive: Dreamweaver template"},   // Dreamweaver editable regions
	{"templateend", "directive: Dreamweaver template"},     //
	{"templateparam", "directive: Dreamweaver template"},   //
	{"templateinfo", "directive: Dreamweaver template"},    //
	{"templateexpr", "directive: Dreamweaver template"},    //
	{"instancebegin", "directive: Dreamweaver template"},   //
	{"instanceend", "directive: Dreamweaver template"},     //
	{"instanceparam", "directive: Dreamweaver template"},   //
}

// htmlDirectiveWords must stand alone as the comment's first word.
var htmlDirectiveWords = [...]struct{ word, why string }{
	{"ko", "directive: knockout"}, // Knockout containerless bindings: <!-- ko if: x --> ... <!-- /ko -->
	{"/ko", "directive: knockout"},
	{"esi", "directive: edge side include"}, // <!--esi <esi:include .../> -->
	// WordPress reads <!--more--> (in the shared vocabulary), <!--nextpage-->, <!--noteaser-->.
	{"nextpage", "directive: WordPress marker"},
	{"noteaser", "directive: WordPress marker"},
}

// htmlBuildWords are the build tools' block markers: build:js ... endbuild
// (usemin, useref, gulp-html-replace, processhtml), inject:css ...
// endinject (gulp-inject), bower:js ... endbower (wiredep), htmlbuild.
var htmlBuildWords = [...]string{"build", "inject", "bower", "htmlbuild", "remove", "ref"}

// htmlDirective classifies an HTML comment's data.
func htmlDirective(body []byte) (string, bool) {
	if why, ok := suppressionDirective(body, inHTML); ok {
		return why, true
	}
	s := trimSpaceLeft(body)
	for _, d := range htmlDirectivePrefixes {
		if hasPrefixFold(s, d.prefix) {
			return d.why, true
		}
	}
	if bytes.Contains(s, []byte("<![endif]")) {
		return "directive: conditional comment", true
	}
	word := s
	for k, c := range s {
		if isSpaceByte(c) {
			word = s[:k]
			break
		}
	}
	for _, d := range htmlDirectiveWords {
		if asciiFoldEq(word, d.word) {
			return d.why, true
		}
	}
	for _, w := range htmlBuildWords {
		if len(word) == 3+len(w) && hasPrefixFold(word, "end") && asciiFoldEq(word[3:], w) {
			return "directive: build marker", true
		}
	}
	if len(s) > 1 && (s[0] == '@' || s[0] == '#') && isASCIIAlpha(s[1]) {
		// @format / @prettier (Prettier pragmas), @if / @endif / @include /
		// @echo (preprocess); #include / #echo / #if (server-side
		// includes), #BeginEditable (Dreamweaver), #region (editors).
		return "directive: " + string(s[:1]) + "word", true
	}
	if len(s) > 1 && s[0] == '/' {
		// Closing markers such as <!-- /wp:paragraph --> (WordPress blocks).
		if w, ok := wordColon(s[1:]); ok {
			return htmlWordWhy(w), true
		}
	}
	if w, ok := wordColon(s); ok {
		return htmlWordWhy(w), true
	}
	return "", false
}

func htmlWordWhy(word string) string {
	for _, w := range htmlBuildWords {
		if asciiFoldEq([]byte(word), w) {
			return "directive: build marker"
		}
	}
	if asciiFoldEq([]byte(word), "wp") {
		return "directive: WordPress block"
	}
	return "directive: word:"
}

// cssDirectivePrefixes are read by the tool named in each why.
var cssDirectivePrefixes = [...]struct{ prefix, why string }{
	{"stylelint-", "directive: stylelint"},                 // stylelint-disable, -enable, -disable-next-line
	{"prettier-ignore", "directive: prettier-ignore"},      // Prettier
	{"purgecss ", "directive: purgecss"},                   // purgecss start ignore / end ignore / ignore current
	{"csslint", "directive: csslint"},                      // CSSLint inline rules
	{"beautify ", "directive: beautify"},                   // js-beautify: beautify ignore:start
	{"clean-css ", "directive: clean-css"},                 // clean-css ignore:start
	{"biome-ignore", "directive: biome-ignore"},            // Biome
	{"dprint-ignore", "directive: dprint-ignore"},          // dprint
	{"deno-fmt-ignore", "directive: deno-fmt-ignore"},      // deno fmt
	{"px-to-viewport-ignore", "directive: px-to-viewport"}, // postcss-px-to-viewport
	{"pxtorem-", "directive: pxtorem"},                     // postcss-pxtorem
	{"noflip", "directive: noflip"},                        // CSSJanus and R2 without the @
	{"#region", "directive: #region"},                      // editor folding markers
	{"#endregion", "directive: #region"},                   //
	{"# sourcemappingurl=", "directive: sourceMappingURL"}, // /*# sourceMappingURL=... */
	{"#sourcemappingurl=", "directive: sourceMappingURL"},  //
	{"@ sourcemappingurl=", "directive: sourceMappingURL"}, // the old /*@ form
	{"# sourceurl=", "directive: sourceMappingURL"},        //
	{"@ sourceurl=", "directive: sourceMappingURL"},        //
}

// cssDirective classifies the text of a CSS comment, markers included:
// "/* ... */", or "// ..." in SCSS and Less.
func cssDirective(text []byte) (string, bool) {
	if len(text) < 2 {
		return "", false
	}
	if why, ok := suppressionDirective(text, inAnyComment); ok {
		return why, true
	}
	body := text[2:]
	if text[1] == '*' {
		if len(body) > 0 && body[0] == '!' {
			return "directive: /*! (kept by minifiers)", true
		}
		body = bytes.TrimSuffix(body, []byte("*/"))
	} else {
		// SassDoc reads "///" comments; their annotations are below.
		body = bytes.TrimLeft(body, "/")
	}
	s := trimSpaceLeft(body)
	for _, d := range cssDirectivePrefixes {
		if hasPrefixFold(s, d.prefix) {
			return d.why, true
		}
	}
	if len(s) > 1 && s[0] == '@' && isASCIIAlpha(s[1]) {
		// @noflip (CSSJanus), @format / @prettier (Prettier pragmas),
		// @license / @preserve, SassDoc annotations (@param, @return, ...).
		return "directive: @word", true
	}
	if w, ok := wordColon(body); ok {
		switch w {
		case "rtl", "autoprefixer", "webpackIgnore", "stylelint", "sass-lint", "scss-lint", "postcss":
			return "directive: " + w + ":", true
		}
		return "directive: word:", true
	}
	return "", false
}
