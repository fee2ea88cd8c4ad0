package gauge

import (
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
	var f Features
	inWord, digits, spaces := false, 0, 0
	flushDigits := func() {
		if digits > 0 {
			f.DigitGroups += float64((digits + 2) / 3)
			digits = 0
		}
	}
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			i++
			isLetter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
			if c >= '0' && c <= '9' {
				digits++
			} else {
				flushDigits()
			}
			if c == ' ' || c == '\t' {
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
			case c == '\n':
				f.Newlines++
			case c >= '0' && c <= '9', c == ' ', c == '\t', c == '\r':
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
	flushDigits()
	if spaces >= 2 {
		f.SpaceRuns++
	}
	return f
}

// Estimate returns the estimated number of tokens text costs in a model's context.
func Estimate(text []byte) int {
	v := Measure(text).Vector()
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
