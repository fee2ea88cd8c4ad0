// Package ucarrier is the built-in unicode provider: a context-aware policy that finds and removes invisible Unicode carriers in prose while keeping their legitimate uses.
//
// The provider runs as "prosewash provider unicode" and speaks the JSON
// protocol of internal/engine/provider through [Serve]; [Scan], [Clean] and [Plain]
// are the policy itself. Its tables are generated from the Unicode Character
// Database 15.0.0 (go generate; see internal/gen) and pinned to the version of
// Go's own unicode package, which supplies every property it has (general
// categories, scripts, Variation_Selector, Unified_Ideograph, ...).
//
// # Carriers and classes
//
// A carrier is a code point that renders as nothing (or as a plain blank)
// and can therefore hide text, steer a reader or smuggle bits. Each finding
// names its class:
//
//	control             C0 controls but TAB, LF, CR; DEL; C1 but U+0085
//	ansi-escape         a whole escape sequence from ESC (CSI, OSC/DCS/SOS/PM/APC
//	                    strings ended by BEL or ST, nF, two-byte ESC x) or from
//	                    a C1 introducer (U+009B CSI; U+009D OSC, U+0090 DCS,
//	                    U+0098 SOS, U+009E PM, U+009F APC strings ended by BEL,
//	                    ESC \ or U+009C ST)
//	line-separator      U+0085 NEL, U+2028 LS, U+2029 PS
//	space               Zs but U+0020: U+00A0, U+1680, U+2000..U+200A, U+202F,
//	                    U+205F, U+3000
//	soft-hyphen         U+00AD
//	bidi-control        U+202A..U+202E embeddings/overrides, U+2066..U+2069 isolates
//	bidi-mark           U+200E LRM, U+200F RLM, U+061C ALM
//	zero-width          U+200B ZWSP, U+2060 WJ
//	joiner              U+200C ZWNJ, U+200D ZWJ, U+034F CGJ
//	variation-selector  U+180B..U+180D, U+180F, U+FE00..U+FE0F, U+E0100..U+E01EF
//	tag                 U+E0000..U+E007F
//	filler              U+115F, U+1160, U+3164, U+FFA0 (Hangul), U+2800 (Braille blank)
//	format              every other Cf: U+0600..U+0605, U+06DD, U+070F,
//	                    U+0890..U+0891, U+08E2, U+110BD, U+110CD (prepended
//	                    concatenation marks), U+180E, U+2061..U+2064,
//	                    U+206A..U+206F, U+FFF9..U+FFFB, U+13430..U+1343F,
//	                    U+1BCA0..U+1BCA3, U+1D173..U+1D17A
//	object-replacement  U+FFFC
//	default-ignorable   the rest of Default_Ignorable_Code_Point: U+17B4, U+17B5
//	                    and the reserved U+2065, U+FFF0..U+FFF8, U+E0080..U+E00FF,
//	                    U+E01F0..U+E0FFF
//	noncharacter        U+FDD0..U+FDEF and U+xFFFE, U+xFFFF of every plane
//	private-use         U+E000..U+F8FF, planes 15 and 16
//	bom                 U+FEFF
//
// # Actions
//
// Everything above is removed, except: private use is only reported (Nerd
// Font and Powerline icons live there), and so is a soft hyphen between two
// letters of a word (see below); spaces and line separators are
// replaced by U+0020, or removed where a space would be trailing whitespace
// (only spaces, tabs and invisible carriers until the line end or the end of
// text+after: a Markdown hard line break) or, in Markdown, leading whitespace
// (an indented code block); U+2028 and U+2029 never become a line break.
// Where a language ends lines at them they are line terminators and are
// reported only: U+2028 and U+2029 in JavaScript, TypeScript, JSON, JSONC
// and JSON5 (ECMAScript's LineTerminator, which also counts inside a block
// comment for automatic semicolon insertion), and U+0085 too in YAML (as
// libyaml-family readers read it) and C#. A U+FEFF at byte 0 of the file
// is a byte order mark and is kept by every profile. Text that is not valid
// UTF-8 is never changed: its findings are all Report. A carrier at one of
// Options.Keep is left in place and reported.
//
// A run of tag characters is one finding whose Hidden field is the ASCII
// text it spells; so is a run of two or more variation selectors, whose
// Hidden field is the bytes they encode (U+FE00..U+FE0F for 0..15,
// U+E0100..U+E01EF for 16..255).
//
// # Severity
//
// high for tag characters anywhere, variation-selector payloads, line
// terminators of the language, bidi controls outside prose (code, literals,
// a whole file) and any carrier in a directive; low for exotic spaces,
// private use and a soft hyphen kept in a word; medium for the rest.
//
// # Legitimate uses kept by the standard profile
//
// "prev" and "next" are the neighbouring code points, read through before and
// after at the edges of the text; a neighbour that is itself a carrier never
// justifies keeping one.
//
//	U+200D ZWJ      emoji ZWJ sequence: Extended_Pictographic (then at most a
//	                skin tone U+1F3FB..U+1F3FF and U+FE0F) ZWJ Extended_Pictographic
//	U+200C, U+200D  cursive joining (UAX #31 A1): a Joining_Type D or L letter,
//	                transparent marks, the joiner, transparent marks, a D or R letter
//	U+200C ZWNJ     after a virama (UAX #31 A2): letter, marks, virama (ccc 9),
//	                ccc!=0 marks, ZWNJ, ccc!=0 marks, letter
//	U+200D ZWJ      after a virama (UAX #31 B), not followed by a dependent vowel
//	U+034F CGJ      before a combining mark, after a mark or a letter
//	U+FE0E, U+FE0F  one, after a base of emoji-variation-sequences.txt; after
//	                0-9, # and * only in a keycap (U+20E3 follows)
//	U+FE00..U+FE0F  one, forming a sequence of StandardizedVariants.txt
//	U+E0100..E01EF  one, after a Unified_Ideograph (ideographic variation)
//	U+180B..U+180F  after a Mongolian letter (free variation selectors)
//	U+180E MVS      between a Mongolian letter and a final U+1820 or U+1821
//	U+E0020..E007F  a subdivision flag: U+1F3F4, tags of a subdivision id (two
//	                letters or three digits, then one to four letters or
//	                digits), U+E007F; any other tag run is removed whole
//	U+200B ZWSP     between two letters or marks of Thai, Lao, Khmer, Myanmar,
//	                Tai Tham, Tai Viet or New Tai Lue (Line_Break=SA)
//	U+200E, U+200F, a single mark (no mark next to it) in a paragraph (Markdown,
//	U+061C          text: lines up to a blank line) or a line (other languages:
//	                a comment line) that holds a strong right-to-left letter
//	                (Bidi_Class R/AL), as far as before and after reach; bidi
//	                embeddings, overrides and isolates are always removed
//	U+00A0, U+202F  French typography: after U+00AB or U+2039, before U+00BB,
//	                U+203A, ':', ';', '!', '?'; between digits (1 000); between
//	                a number and a unit (10 km, 20 %, 5 U+20AC, 3 h)
//	U+3000          a run touching Han, Hiragana, Katakana or CJK punctuation
//	U+115F          before a real Hangul vowel jamo (Hangul_Syllable_Type V)
//	U+1160          after a real Hangul leading consonant jamo (type L)
//	U+2800          a run touching another Braille pattern U+2801..U+28FF
//	U+0600..U+0605, always: prepended concatenation marks are visible
//	U+06DD, U+070F,
//	U+0890, U+0891,
//	U+08E2, U+110BD,
//	U+110CD
//	U+13430..1343F  next to an Egyptian hieroglyph
//	U+1BCA0..1BCA3  next to a Duployan letter
//	U+1D173..1D17A  next to a musical symbol U+1D100..U+1D1FF
//	U+000C FF       at the start of a line (a page break)
//
// The strict profile keeps none of these: it removes every carrier
// regardless of context, still reporting private use only and keeping a byte
// order mark at byte 0 of the file.
//
// Deliberately not kept: U+17B4 and U+17B5 (Khmer inherent vowels, which
// Unicode says not to use), U+3164 and U+FFA0 (compatibility fillers), runs of
// U+00A0 used for alignment (policy: NBSP only in French punctuation, number
// and unit contexts).
//
// Removing one carrier can change another's neighbours, so [Clean] judges
// again, in the text it produced, what it kept, until nothing changes; this
// is what makes it idempotent.
package ucarrier
