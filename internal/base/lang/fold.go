package lang

import (
	"strings"
	"sync"
	"unicode"
)

// FoldStress drops the stress marks (the combining acute and grave) of a
// word in Cyrillic letters: Russian writes them in a dictionary's or an
// encyclopedia's first mention only ("Кароли́на Мати́льда", then
// "Каролина Матильда", "Запорожста́ль" then "Запорожсталь"), and a
// question copied from that mention must meet the sentences that write
// the name plain, and a plain question the mention. It writes ё as е, as
// most Russian texts do ("Звездный путь" and "Звёздный путь" are one
// title). Any other word is returned as it is ("й" is a letter, not a
// letter with a mark). The index's analyzer and the drafter fold words
// with it alike.
func FoldStress(w string) string {
	if !strings.ContainsAny(w, "\u0301\u0300ёЁ\u0308") || strings.ContainsFunc(w, func(r rune) bool {
		return unicode.IsLetter(r) && !unicode.Is(unicode.Cyrillic, r)
	}) {
		return w
	}
	return stressMarks.Replace(w)
}

// stressMarks drops the stress marks and writes ё as е (FoldStress).
var stressMarks = strings.NewReplacer("\u0301", "", "\u0300", "", "ё", "е", "Ё", "Е", "е\u0308", "е", "Е\u0308", "Е")

// FoldArabic writes a word in Arabic letters as Arabic search engines
// match it, without the marks and letter forms that writers use or leave
// out at will: the short vowels and shadda (harakat) and the tatweel are
// dropped, an alef with a hamza or madda (أ, إ, آ, ٱ) is a plain alef,
// alef maqsura (ى) is yeh and teh marbuta (ة) is heh. A question typed
// "اين ولدت هيفاء وهبى؟" must meet "أين" and "وهبي" in the text. For
// Arabic; a Persian or Urdu word in Arabic letters is folded alike ("آب"
// is "اب", in the question as in the text). Any other word is returned
// as it is. The index's analyzer and the drafter
// fold words with it alike.
func FoldArabic(w string) string {
	if !strings.ContainsFunc(w, func(r rune) bool { return r >= 0x0622 && r <= 0x0671 }) {
		return w
	}
	return arabicForms().Replace(w)
}

// arabicForms are the replacements of FoldArabic, made on first use.
var arabicForms = sync.OnceValue(func() *strings.Replacer {
	return strings.NewReplacer(
		"\u064B", "", "\u064C", "", "\u064D", "", "\u064E", "", "\u064F", "", "\u0650", "", "\u0651", "", "\u0652", "",
		"\u0670", "", "\u0640", "",
		"أ", "ا", "إ", "ا", "آ", "ا", "ٱ", "ا",
		"ى", "ي", "ة", "ه",
	)
})
