package lang

import (
	"slices"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestWords(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"english", "Don't boil green tea, e.g. at 100°C; it costs $1,000.50 (3.14)!",
			[]string{"Don't", "boil", "green", "tea", "e.g", "at", "100", "C", "it", "costs", "1,000.50", "3.14"}},
		{"german", "Über die Straße, z. B. zum Café", []string{"Über", "die", "Straße", "z", "B", "zum", "Café"}},
		{"russian", "Кто выиграл Суперкубок-2016?", []string{"Кто", "выиграл", "Суперкубок", "2016"}},
		// Bengali and Devanagari vowel signs are spacing marks (Mc): inside the word.
		{"bengali", "বাংলা ভাষা কী?", []string{"বাংলা", "ভাষা", "কী"}},
		{"hindi", "हिन्दी भाषा", []string{"हिन्दी", "भाषा"}},
		{"telugu", "తెలుగు భాష", []string{"తెలుగు", "భాష"}},
		{"arabic", "ما هي عاصمة مصر؟", []string{"ما", "هي", "عاصمة", "مصر"}},
		{"persian joiner", "می\u200cخواهم", []string{"می\u200cخواهم"}},
		{"chinese", "北京是中国的首都。", []string{"北", "京", "是", "中", "国", "的", "首", "都"}},
		{"chinese and latin", "iPhone版本2", []string{"iPhone", "版", "本", "2"}},
		{"japanese", "コーヒーを飲みます", []string{"コーヒー", "を", "飲", "み", "ま", "す"}},
		{"korean", "서울은 한국의 수도이다.", []string{"서울은", "한국의", "수도이다"}},
		// A byte of bad UTF-8 at a word's end (FuzzSplit of sentences found it).
		{"bad utf-8", "0A00000AA\x9c", []string{"0A00000AA"}},
		{"bad utf-8 before the end", "ab\x9c.", []string{"ab"}},
	} {
		if got := Words(c.text); !slices.Equal(got, c.want) {
			t.Errorf("%s: Words(%q) = %q, want %q", c.name, c.text, got, c.want)
		}
	}
}

func TestWordLetter(t *testing.T) {
	for _, r := range []rune{'a', 'ß', 'я', 'ব', 'া' /* Mc */, 'ি', '्' /* Mn */, 'ั', '\u200c', '北'} {
		if !WordLetter(r) {
			t.Errorf("WordLetter(%q) = false", r)
		}
	}
	for _, r := range []rune{' ', '.', '1', '।', '؟', '。'} {
		if WordLetter(r) {
			t.Errorf("WordLetter(%q) = true", r)
		}
	}
}

// TestIsWordRuneASCII checks isWordRune's shortcut for ASCII against the
// rule it stands for: letters, digits, marks and "_".
func TestIsWordRuneASCII(t *testing.T) {
	for r := rune(0); r < utf8.RuneSelf; r++ {
		want := unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) || r == '_'
		if got := isWordRune(r); got != want {
			t.Errorf("isWordRune(%q) = %v, want %v", r, got, want)
		}
	}
}
