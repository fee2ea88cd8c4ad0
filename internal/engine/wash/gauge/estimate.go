package gauge

import (
	"io"
	"math"
	"unicode"
	"unicode/utf8"
)

// Features are the character classes the token estimator weighs. BPE vocabularies learned on
// English prose and code turn a common English word (with its leading space) into one token and
// other words into several, so words are split into the most common English words and the
// rest, whose letters are counted too; a word is a run of Latin letters, accented ones
// included, and each accented letter costs extra (the vocabulary has few merges for them).
// Digit runs go in groups of up to three; punctuation mostly costs a token per character;
// scripts without spaces cost about a token per one or two characters. A linear model over
// these classes tracks a real tokenizer far better than counting bytes, in English and in the
// other languages measured (see internal/engine/wash/ESTIMATOR.md).
type Features struct {
	CommonWords float64 // words among the most common English words
	OtherWords  float64 // every other word (run of Latin letters)
	Letters     float64 // ASCII letters
	Accented    float64 // non-ASCII Latin letters, and marks inside a word
	DigitGroups float64 // digit runs split in groups of three
	Punct       float64 // ASCII punctuation and symbols
	Newlines    float64
	SpaceRuns   float64 // runs of two or more spaces or tabs (indentation, alignment)
	CJK         float64 // Han and kana
	Hangul      float64
	Thai        float64 // Thai, Lao, Khmer, Myanmar (scriptio continua with combining marks)
	OtherLetter float64 // other letters and marks (Cyrillic, Greek, Arabic...)
	OtherSymbol float64 // other non-ASCII runes (emoji, dashes, quotes, arrows)
}

// Vector returns the features in the order of the estimator's weights (the field order).
func (f Features) Vector() []float64 {
	return []float64{f.CommonWords, f.OtherWords, f.Letters, f.Accented, f.DigitGroups, f.Punct, f.Newlines, f.SpaceRuns,
		f.CJK, f.Hangul, f.Thai, f.OtherLetter, f.OtherSymbol}
}

// weights were fitted by non-negative least squares on the relative error per file against
// @anthropic-ai/tokenizer, over the corpus described in internal/engine/wash/ESTIMATOR.md (Markdown in
// English, memory-shaped fixtures in ten languages, Debian's man pages in eight); refit with
// `go test ./internal/engine/wash/gauge -run TestEstimatorAgainstBPE -estimator.fit`.
func weights() [13]float64 {
	return [...]float64{0, 0.5108, 0.1936, 3.1319, 1.5598, 0.5163, 0.8132, 0, 0.9187, 1.5336, 1.7910, 0.5956, 1.5011}
}

// Measure computes the features of text.
func Measure(text []byte) Features {
	var c Counter
	c.Write(text)
	return c.Features()
}

// Counter computes the features of a text fed in pieces of any size, so a file too large to
// read whole is still priced: a rune or a run of letters, digits or spaces split between two
// writes counts as if it were written at once. The zero value is ready to use.
type Counter struct {
	f              Features
	digits, spaces int
	// The word being read: its runes, whether it is still plain lowercase-able ASCII short
	// enough to be a common word, and those bytes.
	wordRunes int
	wordASCII bool
	word      [maxCommon]byte
	nw        int
	partial   [utf8.UTFMax]byte // the head of a rune the previous write cut
	np        int
}

// Write adds p to the text; it never fails (it satisfies io.Writer).
func (c *Counter) Write(p []byte) (int, error) {
	n := len(p)
	if c.np > 0 {
		// Complete the rune the previous write cut, one continuation byte at a time.
		for len(p) > 0 && c.np < utf8.UTFMax && !utf8.FullRune(c.partial[:c.np]) && p[0]&0xC0 == 0x80 {
			c.partial[c.np] = p[0]
			c.np++
			p = p[1:]
		}
		if len(p) == 0 && !utf8.FullRune(c.partial[:c.np]) {
			return n, nil
		}
		buf := c.partial[:c.np]
		c.np = 0
		c.scan(buf)
	}
	// Keep an incomplete rune at the end for the next write.
	tail := len(p)
	for k := 1; k < utf8.UTFMax && k <= len(p); k++ {
		b := p[len(p)-k]
		if b < utf8.RuneSelf {
			break
		}
		if utf8.RuneStart(b) {
			if !utf8.FullRune(p[len(p)-k:]) {
				tail = len(p) - k
			}
			break
		}
	}
	c.scan(p[:tail])
	c.np = copy(c.partial[:], p[tail:])
	return n, nil
}

// Features returns the features of everything written so far.
func (c *Counter) Features() Features {
	d := *c
	d.endWord()
	f := d.f
	// A rune cut by the end of the text is invalid UTF-8: one symbol per byte, as a decoder
	// reads it.
	f.OtherSymbol += float64(c.np)
	if c.digits > 0 {
		f.DigitGroups += float64((c.digits + 2) / 3)
	}
	if c.spaces >= 2 {
		f.SpaceRuns++
	}
	return f
}

// Estimate returns the estimated tokens of everything written so far.
func (c *Counter) Estimate() int { return weigh(c.Features()) }

// letter adds one rune of a word (ASCII holds whether it is an ASCII letter).
func (c *Counter) letter(b byte, ascii bool) {
	if c.wordRunes == 0 {
		c.wordASCII, c.nw = true, 0
	}
	c.wordRunes++
	if !ascii {
		c.wordASCII = false
		c.f.Accented++
		return
	}
	c.f.Letters++
	if c.nw < len(c.word) {
		c.word[c.nw] = b | 0x20 // lower case
		c.nw++
	} else {
		c.wordASCII = false
	}
}

func (c *Counter) endWord() {
	if c.wordRunes == 0 {
		return
	}
	if c.wordASCII && commonWord(string(c.word[:c.nw])) {
		c.f.CommonWords++
	} else {
		c.f.OtherWords++
	}
	c.wordRunes = 0
}

func (c *Counter) scan(text []byte) {
	f := &c.f
	for i := 0; i < len(text); {
		ch := text[i]
		if ch < utf8.RuneSelf {
			i++
			if ch >= '0' && ch <= '9' {
				c.digits++
			} else if c.digits > 0 {
				f.DigitGroups += float64((c.digits + 2) / 3)
				c.digits = 0
			}
			if ch == ' ' || ch == '\t' {
				c.spaces++
			} else {
				if c.spaces >= 2 {
					f.SpaceRuns++
				}
				c.spaces = 0
			}
			if ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' {
				c.letter(ch, true)
				continue
			}
			c.endWord()
			switch {
			case ch == '\n':
				f.Newlines++
			case ch >= '0' && ch <= '9', ch == ' ', ch == '\t', ch == '\r':
			default:
				f.Punct++
			}
			continue
		}
		r, n := utf8.DecodeRune(text[i:])
		i += n
		if c.digits > 0 {
			f.DigitGroups += float64((c.digits + 2) / 3)
			c.digits = 0
		}
		if c.spaces >= 2 {
			f.SpaceRuns++
		}
		c.spaces = 0
		if unicode.Is(unicode.Latin, r) || c.wordRunes > 0 && unicode.IsMark(r) {
			c.letter(0, false)
			continue
		}
		c.endWord()
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana):
			f.CJK++
		case unicode.Is(unicode.Hangul, r):
			f.Hangul++
		case unicode.In(r, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar):
			f.Thai++
		case unicode.IsLetter(r) || unicode.IsMark(r):
			f.OtherLetter++
		default:
			f.OtherSymbol++
		}
	}
}

// maxCommon is the longest common word.
const maxCommon = 8

// commonWord reports one of the most common English words (lower case), which the Claude
// vocabulary holds whole: each costs about one token with its space.
func commonWord(w string) bool {
	switch w {
	case "the", "of", "and", "to", "a", "in", "is", "you", "that", "it", "for", "on", "are", "with", "as", "be", "this", "was",
		"have", "not", "or", "by", "at", "from", "but", "your", "can", "if", "an", "will", "use", "all", "we", "when", "which",
		"their", "there", "one", "do", "more", "also", "so", "about", "what", "has", "any", "its", "may", "how", "only",
		"should", "must", "these", "them", "into", "than", "other", "then", "new", "each", "out", "used", "using", "run",
		"file", "files", "code", "test", "tests", "make", "see", "such", "like", "just", "need", "would", "our", "they",
		"been", "some", "most", "were", "no", "he", "his", "her", "she", "who", "get", "set", "add", "does", "did", "way",
		"want", "because", "before", "after", "while", "where", "here", "over", "both", "same", "through", "between",
		"under", "above", "without", "within", "every", "never", "always", "don", "via", "per":
		return true
	}
	return false
}

// EstimateReader estimates the tokens of everything r yields, reading it in pieces: the
// reading of a memory file too large to hold in memory. It returns the bytes read too.
func EstimateReader(r io.Reader) (tokens int, n int64, err error) {
	var c Counter
	n, err = io.CopyBuffer(&c, r, make([]byte, 256<<10))
	return c.Estimate(), n, err
}

// Estimate returns the estimated number of tokens text costs in a model's context.
func Estimate(text []byte) int { return weigh(Measure(text)) }

func weigh(f Features) int {
	v, w := f.Vector(), weights()
	s := 0.0
	for i, x := range v {
		s += x * w[i]
	}
	return int(math.Round(s))
}
