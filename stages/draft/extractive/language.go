package extractive

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/base/lang"
	"github.com/sponge-library/sponge/internal/library/index/keywords"
)

// questionLexicon is the lexicon of the question's language, by which its
// words are weighed: nil for an English question, or one whose language
// is not told, which the English stop list and Porter stems weigh.
func questionLexicon(question string) *lang.Lexicon {
	t := lang.DetectQuestion(question)
	if t == "en" || t == lang.Unknown {
		return nil
	}
	lex := lang.For(t)
	if mostlyLatin(question) && !ownWord(question, lex) {
		// A question mostly in Latin letters is weighed as another language
		// only when it holds a function or question word of that
		// language that English has not: trigrams called 17 of 1,109
		// SciFact claims French, Czech, Polish … ("IL-10 production by
		// monocytes inhibits CD4 + T cell response.": French).
		return nil
	}
	return lex
}

// ownWord reports whether question holds two different words of the lexicon's stop
// list, or one of its questions list, that are not English stop words, nor
// written in capitals (an acronym: "IL-10" holds no French "il"). One stop
// word is not enough: "One in five …" holds a Polish "one", "miR-142" a
// German "mir".
func ownWord(question string, lex *lang.Lexicon) bool {
	own := map[string]bool{}
	for _, w := range lang.Words(question) {
		if !strings.ContainsFunc(w, unicode.IsLower) || english.Has(lang.Stop, w) {
			continue
		}
		if lex.Has(lang.Questions, w) {
			return true
		}
		if lex.Has(lang.Stop, w) {
			own[strings.ToLower(w)] = true
		}
	}
	return len(own) >= 2
}

// mostlyLatin reports whether most of text's letters are Latin: a Chinese
// or Japanese question naming "ONE PIECE" is told by its script.
func mostlyLatin(text string) bool {
	latin, other := 0, 0
	for _, r := range text {
		switch {
		case unicode.Is(unicode.Latin, r):
			latin++
		case unicode.IsLetter(r):
			other++
		}
	}
	return latin > other
}

// withoutAsking returns the question with its function words and the words
// that ask (the lexicon's stop and question lists) blanked out, so that
// they weigh nothing: «Wie», «von», «Сколько» are not words a passage must
// hold. In a script written without spaces, every occurrence of a listed
// word in a run is blanked, longest first, so that no pair of characters
// is made across it ("是多少年" keeps no "是多", "多少" or "少年").
func withoutAsking(question string, lex *lang.Lexicon) string {
	if lex == nil {
		return question
	}
	var b strings.Builder
	last := 0
	lang.Scan(question, func(start, end int) {
		w := question[start:end]
		if keywords.Spaceless(w) {
			return
		}
		if lex.Listed(lang.Stop, w) || lex.Listed(lang.Questions, w) {
			b.WriteString(question[last:start])
			b.WriteByte(' ')
			last = end
		}
	})
	b.WriteString(question[last:])
	return blankSpaceless(b.String(), lex)
}

// blankSpaceless blanks the listed words of the lexicon's stop and question
// lists that are written without spaces wherever they stand in text,
// longest first. A function word is kept where blanking it would leave a
// character of the question alone between blanks (做 in "绿茶是怎么做的":
// "做的" stays): the index pairs characters, so a lone one meets no
// passage, where its pair does.
func blankSpaceless(text string, lex *lang.Lexicon) string {
	type listed struct {
		word string
		stop bool
	}
	var words []listed
	for _, name := range []string{lang.Questions, lang.Stop} {
		for _, w := range lex.Words(name) {
			if keywords.Spaceless(w) {
				words = append(words, listed{w, name == lang.Stop})
			}
		}
	}
	if len(words) == 0 {
		return text
	}
	slices.SortStableFunc(words, func(a, b listed) int { return len(b.word) - len(a.word) })
	// span[i] is the occurrence (1 on) of a listed word that covers byte i,
	// stop whether that occurrence is a function word's.
	span := make([]int, len(text))
	var stop []bool
	for _, w := range words {
		for from := 0; ; {
			i := strings.Index(text[from:], w.word)
			if i < 0 {
				break
			}
			i += from
			from = i + len(w.word)
			if slices.ContainsFunc(span[i:from], func(k int) bool { return k != 0 }) {
				continue
			}
			stop = append(stop, w.stop)
			for k := i; k < from; k++ {
				span[k] = len(stop)
			}
		}
	}
	keepBeside(text, span, stop)
	var b strings.Builder
	for i, r := range text {
		if span[i] != 0 {
			if i == 0 || span[i-1] != span[i] {
				b.WriteByte(' ')
			}
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// keepBeside unblanks the function word after (else before) each
// character of a script written without spaces that the blanking of span
// leaves alone, where the original text had it beside another: 0 in span
// is kept; stop tells which occurrences are function words.
func keepBeside(text string, span []int, stop []bool) {
	type char struct {
		at int
		r  rune
	}
	var cs []char
	for i, r := range text {
		cs = append(cs, char{i, r})
	}
	kept := func(j int) bool {
		return j >= 0 && j < len(cs) && span[cs[j].at] == 0 && unicode.IsLetter(cs[j].r) && keywords.Spaceless(string(cs[j].r))
	}
	unblank := func(j int) bool {
		if j < 0 || j >= len(cs) || span[cs[j].at] == 0 || !stop[span[cs[j].at]-1] {
			return false
		}
		for k, s := 0, span[cs[j].at]; k < len(span); k++ {
			if span[k] == s {
				span[k] = 0
			}
		}
		return true
	}
	for j := range cs {
		if !kept(j) || kept(j-1) || kept(j+1) {
			continue
		}
		if !unblank(j + 1) {
			unblank(j - 1)
		}
	}
}

// sameWord reports whether a question's term t and a text's term u are one
// word in the question's language, with other endings: the same stem by
// its stemmer, or stems alike but for their last letter where they are
// long ("суперкубке" and "суперкубок": a vowel comes and goes); in a
// language written with spaces that has no stemmer (Korean, Bengali,
// Telugu), the same beginning over two thirds of the shorter word and at
// least three letters, a Hangul syllable counting two ("서울에서" and
// "서울은", "ঢাকার" and "ঢাকা"; not "대한민국" and "대한제국", "কলকাতার" and
// "কলম"), or a word and the word with one of the language's endings glued
// on (withEnding: "왕은" and "왕").
func sameWord(lex *lang.Lexicon, t, u string) bool {
	if t == u {
		return true
	}
	if keywords.Spaceless(t) || keywords.Spaceless(u) {
		return false
	}
	if lex.Stems() {
		st, su := lex.Stem(t), lex.Stem(u)
		if st == su {
			return true
		}
		common, shorter := commonPrefix(st, su)
		return shorter >= 5 && common >= shorter-1
	}
	common, shorter := commonPrefix(t, u)
	return common >= 3 && 3*common >= 2*shorter || withEnding(lex, t, u) || withEnding(lex, u, t)
}

// withEnding reports whether long is short with one of the lexicon's
// endings glued on ("왕은" and "왕", "책을" and "책"): a word of one
// syllable too short for sameWord's shared beginning.
func withEnding(lex *lang.Lexicon, long, short string) bool {
	end, ok := strings.CutPrefix(long, short)
	return ok && short != "" && end != "" && lex.Has(lang.Endings, end)
}

// commonPrefix is how many letters a and b begin with alike, and how many
// the shorter has, a Hangul syllable (a block of two or three letters)
// counting two.
func commonPrefix(a, b string) (common, shorter int) {
	width := func(r rune) int {
		if r >= 0xAC00 && r <= 0xD7A3 {
			return 2
		}
		return 1
	}
	count := func(s string) int {
		n := 0
		for _, r := range s {
			n += width(r)
		}
		return n
	}
	shorter = min(count(a), count(b))
	for a != "" && b != "" {
		ra, sa := utf8.DecodeRuneInString(a)
		rb, sb := utf8.DecodeRuneInString(b)
		if ra != rb {
			break
		}
		common += width(ra)
		a, b = a[sa:], b[sb:]
	}
	return common, shorter
}

// capitalNames reports whether a capital letter inside a question marks a
// name in the lexicon's language (not in German, whose nouns all have one).
func capitalNames(lex *lang.Lexicon) bool {
	return lex == nil || !lex.Has(lang.Traits, "nouns-capitalized")
}
