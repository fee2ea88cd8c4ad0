package gauge

import (
	"io"
	"math"
	"unicode"
	"unicode/utf8"
)

// Features are the character classes the token estimator weighs. BPE vocabularies learned on
// English prose and code turn a common ASCII word (with its leading space) into one token,
// long or rare words into several, and runs of digits into groups of up to three; punctuation
// mostly costs a token per character; scripts without spaces cost about a token per one or two
// characters. A linear model over these classes tracks a real tokenizer far better than
// counting bytes.
type Features struct {
	Words       float64 // runs of ASCII letters
	Letters     float64 // ASCII letters
	DigitGroups float64 // digit runs split in groups of three
	Punct       float64 // ASCII punctuation and symbols
	Newlines    float64
	SpaceRuns   float64 // runs of two or more spaces or tabs (indentation, alignment)
	CJK         float64 // Han, kana, Hangul
	Thai        float64 // Thai, Lao, Khmer, Myanmar (scriptio continua with combining marks)
	OtherLetter float64 // other non-ASCII letters and marks (accented Latin, Cyrillic, Greek...)
	OtherSymbol float64 // other non-ASCII runes (emoji, dashes, quotes, arrows)
}

// Vector returns the features in the order of the estimator's weights: words, letters,
// digit groups, punctuation, newlines, space runs, CJK, Thai, other letters, other symbols.
func (f Features) Vector() []float64 {
	return []float64{f.Words, f.Letters, f.DigitGroups, f.Punct, f.Newlines, f.SpaceRuns, f.CJK, f.Thai, f.OtherLetter, f.OtherSymbol}
}

// weights were fitted by weighted least squares (minimising relative error per file) against
// @anthropic-ai/tokenizer on the corpus described in engine/wash/ESTIMATOR.md; refit with
// `go test ./engine/wash/gauge -run TestEstimatorAgainstBPE -estimator.fit`.
var weights = [...]float64{0.8577, 0.0611, 1.5547, 0.6844, 0.8047, 0.0643, 1.1859, 1.7426, 0.5888, 1.0971}

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
	inWord         bool
	digits, spaces int
	partial        [utf8.UTFMax]byte // the head of a rune the previous write cut
	np             int
}

// Write adds p to the text; it never fails (it satisfies io.Writer).
func (c *Counter) Write(p []byte) (int, error) {
	n := len(p)
	if c.np > 0 {
		// Complete the rune the previous write cut, one byte at a time.
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
	f := c.f
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

func (c *Counter) scan(text []byte) {
	f := &c.f
	inWord, digits, spaces := c.inWord, c.digits, c.spaces
	flushDigits := func() {
		if digits > 0 {
			f.DigitGroups += float64((digits + 2) / 3)
			digits = 0
		}
	}
	for i := 0; i < len(text); {
		ch := text[i]
		if ch < utf8.RuneSelf {
			i++
			isLetter := ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z'
			if ch >= '0' && ch <= '9' {
				digits++
			} else {
				flushDigits()
			}
			if ch == ' ' || ch == '\t' {
				spaces++
			} else {
				if spaces >= 2 {
					f.SpaceRuns++
				}
				spaces = 0
			}
			switch {
			case isLetter:
				f.Letters++
				if !inWord {
					f.Words++
				}
			case ch == '\n':
				f.Newlines++
			case ch >= '0' && ch <= '9', ch == ' ', ch == '\t', ch == '\r':
			default:
				f.Punct++
			}
			inWord = isLetter
			continue
		}
		r, n := utf8.DecodeRune(text[i:])
		i += n
		flushDigits()
		if spaces >= 2 {
			f.SpaceRuns++
		}
		spaces, inWord = 0, false
		switch {
		case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul):
			f.CJK++
		case unicode.In(r, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar):
			f.Thai++
		case unicode.IsLetter(r) || unicode.IsMark(r):
			f.OtherLetter++
		default:
			f.OtherSymbol++
		}
	}
	c.inWord, c.digits, c.spaces = inWord, digits, spaces
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
	v := f.Vector()
	s := 0.0
	for i, x := range v {
		s += x * weights[i]
	}
	return int(math.Round(s))
}

// EstimateCharsOver4 is the classic chars/4 rule, kept for comparison and reports.
func EstimateCharsOver4(text []byte) int {
	return (utf8.RuneCount(text) + 3) / 4
}
