package keywords

import (
	"bytes"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	bunicode "github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/registry"
	"github.com/sponge-library/sponge/internal/base/lang"
	"github.com/sponge-library/sponge/internal/base/thai"
)

// The analyzer's own parts, registered with bleve by name so that an index's
// stored mapping finds them again when it is reopened for writing.
const (
	wordsTokenizerName = "sponge_words"
	endingsFilterName  = "sponge_endings"
)

func init() {
	registry.RegisterTokenizer(wordsTokenizerName, func(map[string]any, *registry.Cache) (analysis.Tokenizer, error) {
		return &wordsTokenizer{uni: bunicode.NewUnicodeTokenizer()}, nil
	})
	registry.RegisterTokenFilter(endingsFilterName, func(map[string]any, *registry.Cache) (analysis.TokenFilter, error) {
		return endingsFilter{}, nil
	})
}

// wordsTokenizer splits text at Unicode word boundaries, as bleve's unicode
// tokenizer does, except in runs of Thai, Lao, Khmer and Myanmar, which that
// tokenizer drops whole: those scripts put no spaces between words. A Thai
// run is cut into the words of a Thai dictionary where one is installed
// (internal/base/thai); what no dictionary covers is given as one token per
// character (with its marks), typed ideographic, so that the CJK bigram
// filter after it pairs them as it pairs Han and kana.
type wordsTokenizer struct {
	uni analysis.Tokenizer
}

func (t *wordsTokenizer) Tokenize(input []byte) analysis.TokenStream {
	if plainASCII(input) {
		return asciiTokens(input)
	}
	var out analysis.TokenStream
	rest := 0
	plain := func(end int) { out = t.lineTokens(input, rest, end, out) }
	for i := 0; i < len(input); {
		if input[i] < utf8.RuneSelf {
			i++ // no ASCII letter is Thai: most text goes no further
			continue
		}
		r, size := utf8.DecodeRune(input[i:])
		if !thai.Letter(r) {
			i += size
			continue
		}
		j := i + size
		for j < len(input) {
			r2, s2 := utf8.DecodeRune(input[j:])
			if !thai.Letter(r2) && !(unicode.Is(unicode.Mn, r2) || unicode.Is(unicode.Mc, r2)) {
				break
			}
			j += s2
		}
		plain(i)
		out = append(out, southEastAsianTokens(input, i, j)...)
		rest, i = j, j
	}
	plain(len(input))
	for k, tok := range out {
		tok.Position = k + 1
	}
	return out
}

// lineTokens appends the tokens of the Unicode tokenizer in input[from:to],
// cut by asciiTokens in the runs of lines that are all ASCII: no word goes
// on past the end of a line (UAX #29 WB3a, WB3b), so each run is cut alone.
func (t *wordsTokenizer) lineTokens(input []byte, from, to int, out analysis.TokenStream) analysis.TokenStream {
	for from < to {
		end, ascii := lineRun(input, from, to)
		var toks analysis.TokenStream
		if ascii {
			toks = asciiTokens(input[from:end])
		} else {
			toks = t.uni.Tokenize(input[from:end])
		}
		for _, tok := range toks {
			tok.Start += from
			tok.End += from
			out = append(out, tok)
		}
		from = end
	}
	return out
}

// lineRun finds the run of whole lines from input[from:] up to to that are
// all ASCII, or all not: it ends at end, after a newline or at to.
func lineRun(input []byte, from, to int) (end int, ascii bool) {
	end = from
	for end < to {
		next := to
		if nl := bytes.IndexByte(input[end:to], '\n'); nl >= 0 {
			next = end + nl + 1
		}
		a := plainASCII(input[end:next])
		if end > from && a != ascii {
			break
		}
		end, ascii = next, a
	}
	return end, ascii
}

// plainASCII reports whether text is all ASCII, which asciiTokens cuts.
func plainASCII(text []byte) bool {
	for _, c := range text {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// ASCII classes of Unicode's word break rules (UAX #29), as the segmenter
// of bleve's Unicode tokenizer has them.
const (
	asciiOther   = iota
	asciiLetter  // ALetter
	asciiDigit   // Numeric
	asciiJoin    // ExtendNumLet: "_"
	asciiMidLet  // MidLetter: ":"
	asciiMidNum  // MidNum: "," ";"
	asciiMidBoth // MidNumLet and Single_Quote: "." "'"
)

var asciiClass = func() (c [128]byte) {
	for b := 'a'; b <= 'z'; b++ {
		c[b], c[b-'a'+'A'] = asciiLetter, asciiLetter
	}
	for b := '0'; b <= '9'; b++ {
		c[b] = asciiDigit
	}
	c['_'], c[':'], c[','], c[';'], c['.'], c['\''] = asciiJoin, asciiMidLet, asciiMidNum, asciiMidNum, asciiMidBoth, asciiMidBoth
	return c
}()

// asciiTokens cuts ASCII text into the tokens bleve's Unicode tokenizer
// gives, several times faster (nextASCIIWord). TestASCIITokens checks it
// against the Unicode tokenizer.
func asciiTokens(input []byte) analysis.TokenStream {
	var out analysis.TokenStream
	var toks []analysis.Token // allocated in blocks, as the Unicode tokenizer does
	for i := 0; ; {
		start, end, typ := nextASCIIWord(input, i)
		if start == end {
			return out
		}
		i = end
		if len(toks) == 0 {
			toks = make([]analysis.Token, min(256, 1+len(input)/8))
		}
		tok := &toks[0]
		toks = toks[1:]
		*tok = analysis.Token{Term: input[start:end], Start: start, End: end, Position: len(out) + 1, Type: typ}
		out = append(out, tok)
	}
}

// nextASCIIWord finds the first word of ASCII text at or after from, as
// bleve's Unicode tokenizer cuts it: words are runs of letters, digits and
// "_", joined by ":" "." "'" between two letters and by "," ";" "." "'"
// between two digits (UAX #29 WB5–WB13b); a word without letters but with a
// digit is a number; the rest of the text gives no tokens. start == end:
// there is none.
func nextASCIIWord(input []byte, from int) (start, end int, typ analysis.TokenType) {
	i := from
	for i < len(input) {
		c := asciiClass[input[i]]
		if c == asciiLetter || c == asciiDigit || c == asciiJoin {
			break
		}
		i++
	}
	if i == len(input) {
		return i, i, 0
	}
	start = i
	letters, digits := false, false
	for i < len(input) {
		switch asciiClass[input[i]] {
		case asciiLetter:
			letters = true
			i++
			continue
		case asciiDigit:
			digits = true
			i++
			continue
		case asciiJoin:
			i++
			continue
		case asciiMidLet, asciiMidNum, asciiMidBoth:
			if i > start && i+1 < len(input) {
				m, prev, next := asciiClass[input[i]], asciiClass[input[i-1]], asciiClass[input[i+1]]
				if prev == asciiLetter && next == asciiLetter && m != asciiMidNum ||
					prev == asciiDigit && next == asciiDigit && m != asciiMidLet {
					i += 2
					if next == asciiLetter {
						letters = true
					} else {
						digits = true
					}
					continue
				}
			}
		}
		break
	}
	typ = analysis.AlphaNumeric
	if !letters && digits {
		typ = analysis.Numeric
	}
	return start, i, typ
}

// southEastAsianTokens cuts input[i:j], one run of such a script, into tokens.
func southEastAsianTokens(input []byte, i, j int) analysis.TokenStream {
	run := input[i:j]
	var out analysis.TokenStream
	add := func(a, b int, typ analysis.TokenType) {
		out = append(out, &analysis.Token{Term: run[a:b:b], Start: i + a, End: i + b, Type: typ})
	}
	for _, p := range thai.Words(run) {
		if p.Known {
			add(p.Start, p.End, analysis.AlphaNumeric)
			continue
		}
		for a := p.Start; a < p.End; {
			b := thai.NextCluster(run, a)
			add(a, b, analysis.Ideographic)
			a = b
		}
	}
	return out
}

// endingsFilter drops common English endings from words of plain ASCII
// letters, after the plural filter: "brewing" and "brewed" meet "brew",
// "stored" and "storing" meet "store", "steeped" meets "steep". It is far
// lighter than Porter's stemmer (only -ed and -ing, with Porter's step 1b
// tidying of what is left, and the "e" the stem lost put back: "caused"
// meets "cause", "used" meets "use", "died" and "dying" meet "die"), so
// "general" stays apart from "generate". A noun of AgeNouns is its verb:
// "How should I store green tea?" meets the paragraph under "Storage".
type endingsFilter struct{}

// AgeNouns are English nouns made from a verb with "-age" that name the
// verb's act ("storage" is storing), each with its verb. A list, not a
// rule: "-age" also ends words not made so ("passage" is no passing, nor
// "package" packing, "message", "village", "image").
var AgeNouns = map[string]string{
	"storage": "store", "usage": "use", "shortage": "short", "leakage": "leak", "coverage": "cover",
	"drainage": "drain", "blockage": "block", "spillage": "spill", "breakage": "break", "wastage": "waste",
	"seepage": "seep", "shrinkage": "shrink", "stoppage": "stop", "mileage": "mile",
}

func (endingsFilter) Filter(input analysis.TokenStream) analysis.TokenStream {
	for _, tok := range input {
		if tok.Type != analysis.AlphaNumeric {
			continue
		}
		if s := lang.FoldArabic(string(tok.Term)); s != string(tok.Term) {
			tok.Term = []byte(s) // Arabic, short words too: no harakat, one alef, ى as ي, ة as ه
		}
		if len(tok.Term) < 4 {
			continue
		}
		w := string(tok.Term)
		if s := lang.FoldStress(w); s != w {
			w = s // Cyrillic: no stress mark, ё as е
			tok.Term = []byte(s)
		}
		if s := russianStem(w); s != w {
			tok.Term = []byte(s)
			continue
		}
		if s := lang.BareHangul(w); s != w {
			tok.Term = []byte(s)
			continue
		}
		if s := lang.BareGlued(w); s != w {
			tok.Term = []byte(s)
			continue
		}
		if s := dropEnding(w); s != w {
			tok.Term = []byte(s)
		}
	}
	return input
}

// russianStem returns a word of Cyrillic letters as Russian's Snowball
// stemmer stems it ("Одессу" and "Одесса" are "одесс", "топологии" and
// "топология" are "тополог"), so that a question meets a paragraph that
// writes its word in another case: Russian inflects every noun, and a
// question asks in the case its grammar needs ("Кто основал Одессу?").
// Cyrillic is stemmed as Russian, the language of most texts in it; a word
// with a letter of another script is returned as it is.
func russianStem(w string) string {
	if w == "" || strings.ContainsFunc(w, func(r rune) bool { return unicode.IsLetter(r) && !isCyrillic(r) }) || !strings.ContainsFunc(w, isCyrillic) {
		return w
	}
	return russian().Stem(w)
}

func isCyrillic(r rune) bool { return unicode.Is(unicode.Cyrillic, r) }

// russian is the lexicon whose stemmer russianStem uses.
var russian = sync.OnceValue(func() *lang.Lexicon { return lang.For("ru") })

// dropEnding returns the word without an -ed or -ing ending; words of other
// alphabets and words too short to hold an ending are left as they are.
func dropEnding(w string) string {
	if len(w) < 4 {
		return w
	}
	if verb, ok := AgeNouns[w]; ok {
		return verb
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return w
		}
	}
	switch {
	case strings.HasSuffix(w, "eed"):
		// "agreed" is "agree", but "seed", "need" and "speed" are words.
		if measure(w[:len(w)-3]) > 0 {
			return w[:len(w)-1]
		}
		return w
	case len(w) == 4 && strings.HasSuffix(w, "ied"):
		return w[:2] + "e" // "died", "tied", "lied"
	case len(w) == 5 && strings.HasSuffix(w, "ying") && isConsonant(w, 0):
		return w[:1] + "ie" // "dying", "tying", "lying"
	case strings.HasSuffix(w, "ied"):
		return w[:len(w)-3] + "y" // "studied" as "studies" gives "study"
	case strings.HasSuffix(w, "ed"):
		return tidyStem(w[:len(w)-2], w)
	case strings.HasSuffix(w, "ing"):
		return tidyStem(w[:len(w)-3], w)
	}
	return w
}

// tidyStem is what is left of w once its ending is gone, mended as Porter's
// step 1b mends it: "hoping" is "hope", "running" is "run", "creating" is
// "create". A stem with no vowel means the ending was part of the word:
// "sing", "bring", "red", "shed". Porter's stemmer then drops a final "e"
// from every word; the index keeps "cause" and "use" as they are written,
// so the "e" a stem lost is put back where English spells one (lostE).
func tidyStem(stem, w string) string {
	if !hasVowel(stem) {
		return w
	}
	n := len(stem)
	switch {
	case strings.HasSuffix(stem, "at") && !strings.HasSuffix(stem, "oat") && (!strings.HasSuffix(stem, "eat") || strings.HasSuffix(stem, "creat")),
		strings.HasSuffix(stem, "bl"), strings.HasSuffix(stem, "iz"):
		// "created", "evaluated", but not "treated", "floated"
		return stem + "e"
	case n >= 4 && stem[n-1] == stem[n-2] && isConsonant(stem, n-1) && !strings.ContainsRune("lszf", rune(stem[n-1])):
		// "running", "hopped"; not "adding", "stuffed"
		return stem[:n-1]
	case doubledL(stem):
		return stem[:n-1]
	case measure(stem) == 1 && endsCVC(stem), lostE(stem):
		return stem + "e"
	}
	return stem
}

// lostE reports whether a stem whose -ed or -ing is gone, and which Porter's
// short-syllable rule does not mend, ends as English words end only before
// an "e": in "v" or "u" ("involved", "continued"), "c", "s" or "z"
// ("produced", "caused", "analyzed"), a consonant and "l" ("handled"), "dg",
// "rg", "ang", "eng" ("judged", "merged", "changed", "challenged"), or a
// short syllable that English spells with an "e" after it ("decided",
// "compared", "computed", "invoked", "assumed"; not "visited", "offered",
// "opened", "questioned"). On the -ed and -ing forms of a word list's words
// it meets the word in 93% of pairs, where Porter's step 1b alone met 75%.
func lostE(stem string) bool {
	n := len(stem)
	if n == 2 {
		return !isConsonant(stem, 0) && isConsonant(stem, 1) // "used", "aged", "owing"
	}
	if n < 2 {
		return false
	}
	last, prev := stem[n-1], stem[n-2]
	switch last {
	case 'v', 'u':
		return true
	case 'c', 'z':
		return prev != last && !strings.HasSuffix(stem, "sync")
	case 's':
		if prev == 's' {
			return false
		}
		for _, w := range noLostE {
			if strings.HasSuffix(stem, w) {
				return false
			}
		}
		return true
	case 'l':
		if isConsonant(stem, n-2) && !strings.ContainsRune("lrw", rune(prev)) {
			return true
		}
	case 'g':
		switch {
		case prev == 'd', prev == 'r', prev == 'l', strings.HasSuffix(stem, "eng"), strings.HasSuffix(stem, "ung"):
			return true
		case strings.HasSuffix(stem, "ang"):
			return !slices.Contains(noLostE, stem)
		}
	case 'r':
		if strings.HasSuffix(stem, "uir") {
			return true // "required", "acquired"
		}
	case 'h':
		if strings.HasSuffix(stem, "cach") {
			return true // "cached"; not "reached", "attached"
		}
	case 'm':
		if strings.HasSuffix(stem, "com") {
			return true // "becoming", "welcomed"
		}
	case 't':
		if strings.HasSuffix(stem, "plet") || strings.HasSuffix(stem, "elet") || strings.HasSuffix(stem, "compet") {
			return true // "completed", "deleted", "competing"
		}
	}
	if !endsCVC(stem) {
		return false
	}
	return strings.Contains(" ar ir ur ad ed id od ud in ut ot ak ek ik ok uk am em im um ib ob ag eg ig ug il ol ul ap yp ", " "+stem[n-2:]+" ")
}

// doubledL reports whether a stem's "ll" is the word's "l" doubled before
// -ed or -ing: "controlled", "compelled", and the British "cancelled",
// "modelled", "travelled" (an "-el" word of two syllables or more); not
// "installed", "called", "spelled" or "retelling".
func doubledL(stem string) bool {
	n := len(stem)
	switch {
	case strings.HasSuffix(stem, "controll"), strings.HasSuffix(stem, "patroll"):
		return true
	case !strings.HasSuffix(stem, "ell") || measure(stem[:n-1]) < 2:
		return false
	}
	for _, w := range []string{"tell", "sell", "spell", "dwell", "swell", "smell", "shell", "quell"} {
		if strings.HasSuffix(stem, w) {
			return false
		}
	}
	return true
}

// noLostE are stems that lostE would give an "e" that they do not have.
var noLostE = []string{"focus", "bias", "canvas", "alias", "atlas", "chorus", "bus", "gas", "hang", "bang", "clang", "fang", "twang"}

// isConsonant reports whether w[i] is a consonant in Porter's sense: not a
// vowel, and "y" only after a vowel or at the start.
func isConsonant(w string, i int) bool {
	switch w[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		return i == 0 || !isConsonant(w, i-1)
	}
	return true
}

func hasVowel(w string) bool {
	for i := range len(w) {
		if !isConsonant(w, i) {
			return true
		}
	}
	return false
}

// measure is Porter's m: how many vowel-consonant sequences w has.
func measure(w string) int {
	m := 0
	prevVowel := false
	for i := range len(w) {
		c := isConsonant(w, i)
		if c && prevVowel {
			m++
		}
		prevVowel = !c
	}
	return m
}

// endsCVC reports whether w ends consonant-vowel-consonant, the last not w, x
// or y: a short syllable that lost its "e" ("hop(e)", "stor(e)").
func endsCVC(w string) bool {
	n := len(w)
	if n < 3 || !isConsonant(w, n-3) || isConsonant(w, n-2) || !isConsonant(w, n-1) {
		return false
	}
	return !strings.ContainsRune("wxy", rune(w[n-1]))
}

// Spaceless reports whether a word (a run of letters, as a plain scan finds
// them) is in a script written without spaces between words, so that the
// analyzer makes several terms of it: Han, kana, Thai and their neighbours.
func Spaceless(word string) bool {
	for _, r := range word {
		if r >= 0x0E01 && isSpacelessRune(r) {
			return true
		}
	}
	return false
}

func isSpacelessRune(r rune) bool {
	return thai.Letter(r) || unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || (r >= 0xFF00 && r <= 0xFFEF)
}

// MayGive reports whether Terms(word) can hold term, for a word of a script
// with spaces, lower-cased: the filters only drop endings, and at most put
// back an "e" ("stored" gives "store"), turn "-ies"/"-ied" into "y", or
// "dying" into "die". A
// caller that scans many words puts only these through the analyzer.
func MayGive(word, term string) bool {
	if strings.HasPrefix(word, term) {
		return true
	}
	n := len(term)
	if n > 1 && (term[n-1] == 'e' || term[n-1] == 'y') && strings.HasPrefix(word, term[:n-1]) {
		return true
	}
	// "dying" gives "die"
	return n == 3 && strings.HasSuffix(term, "ie") && len(word) > 1 && word[0] == term[0] && word[1] == 'y'
}

// ScanWords calls word with each word of text, found as the index's
// tokenizer finds them (Unicode word boundaries) but with a plain scan, many
// times faster than the analyzer: letters with their marks (WordLetter),
// digits and "_", joined by word-internal punctuation ("john's", "e.g",
// "3.5", "1,000"). Ranking
// counts words this way, and puts through the analyzer (Terms) only the
// words it needs.
func ScanWords(text string, word func(w string)) {
	lang.Runs(text, func(start, end int) { word(text[start:end]) })
}

// WordLetter reports whether r is a letter of a word, in any script
// (lang.WordLetter: letters, every mark, the joiners). The index's
// tokenizer (Unicode's word boundaries) keeps all of these inside a word;
// the word scan, rank and the drafter decide what a word is with this one
// rule.
func WordLetter(r rune) bool { return lang.WordLetter(r) }
