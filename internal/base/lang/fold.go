package lang

import (
	"strings"
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
