package lang

import (
	"slices"
	"strings"
	"testing"
)

func TestLexicon(t *testing.T) {
	en := For("en")
	if en.Tag() != "en" || !en.Knows(Stop) {
		t.Fatalf("For(en): tag %q, knows stop %v", en.Tag(), en.Knows(Stop))
	}
	for _, w := range []string{"the", "The", "WHICH", "how"} {
		if !en.Has(Stop, w) {
			t.Errorf("en: %q is not a stop word", w)
		}
	}
	if en.Has(Stop, "kettle") || en.Has("no such list", "the") {
		t.Error("en: Has says yes to a word not in the list")
	}
	if ws := en.Words(Stop); len(ws) < 100 || ws[0] != "a" {
		t.Errorf("en stop words: %d, first %q", len(ws), ws[0])
	}
	if For("en") != en {
		t.Error("For reads a lexicon again")
	}
	de := For("de")
	if !de.Has(Stop, "wie") || de.Has(Stop, "the") {
		t.Error("de stop words are not German")
	}
}

// Listed and Has in the languages whose refusals issue 40 measured: a
// Bengali word written with য় as one code point (U+09DF) is the listed word
// (NFC), a Korean particle glued to a listed word leaves it listed, and a
// content word, with or without a particle, is not.
func TestListed(t *testing.T) {
	for _, c := range []struct {
		tag        Tag
		list, word string
		want       bool
	}{
		{"bn", Questions, "কো\u09a5া\u09df", true},
		{"bn", Questions, "কোথায়", true},
		{"bn", Stop, "ছিলেন", true},
		{"bn", Stop, "হ\u09df", true},
		{"bn", Stop, "রাজধানী", false},
		{"ru", Questions, "Кем", true},
		{"ru", Questions, "зовут", true},
		{"ru", Stop, "такое", true},
		{"ru", Stop, "атом", false},
		{"ko", Stop, "때는", true},
		{"ko", Stop, "해는", true},
		{"ko", Stop, "것은", true},
		{"ko", Stop, "때", true},
		{"ko", Stop, "건물은", false},
		{"ko", Stop, "는", false},
		{"en", Stop, "thes", false}, // English has no endings: "the" with "s" is no stop word
	} {
		if got := For(c.tag).Listed(c.list, c.word); got != c.want {
			t.Errorf("%s %s: Listed(%q) = %v, want %v", c.tag, c.list, c.word, got, c.want)
		}
	}
}

// Bare takes a Korean particle off a word of two syllables or more, the
// longest that ends it, a Bengali case ending off a Bengali word, and
// leaves a word of a language without endings alone.
func TestBare(t *testing.T) {
	for _, c := range []struct {
		tag        Tag
		word, want string
	}{
		{"ko", "람보르기니가", "람보르기니"},
		{"ko", "서울에서", "서울"},
		{"ko", "서울에서는", "서울"},
		{"ko", "캐나다는", "캐나다"},
		{"ko", "초월주의는", "초월주"}, // 의 ends the noun as a particle would: taken off too
		{"ko", "초월주의", "초월주"},
		{"ko", "옴진리교란", "옴진리교"},
		{"ko", "국가", "국가"}, // one syllable would stay: a noun, not 국 with 가
		{"ko", "왕은", "왕은"},
		{"ko", "미주리주", "미주리주"},
		// A question's copula and a verb of 하다 or 되다 in its forms.
		{"ko", "게임인가요", "게임"},
		{"ko", "사망했는가", "사망"},
		{"ko", "사망하였다", "사망"},
		{"ko", "설립되었는가", "설립"},
		{"ko", "설립된", "설립"},
		{"ko", "제작한", "제작"},
		{"ko", "무한", "무한"}, // one syllable would stay
		{"ko", "태어났나요", "태어났"},
		{"ko", "태어났으며", "태어났"},
		{"ko", "무너졌는가", "무너졌"},
		{"ru", "Одессу", "Одессу"},
		{"en", "cities", "cities"},
		// Bengali: case endings, plural and definite markers.
		{"bn", "ঢাকার", "ঢাকা"},
		{"bn", "পশ্চিমবঙ্গের", "পশ্চিমবঙ্গ"},
		{"bn", "জেলায়", "জেলা"},
		{"bn", "জেলাগুলির", "জেলা"},
		{"bn", "কলকাতাতে", "কলকাতা"},
		{"bn", "ভাই", "ভাই"},         // the emphatic ই is not taken off
		{"bn", "শাস্ত্র", "শাস্ত্র"}, // র after a virama is the word's
		{"te", "భారతదేశంలో", "భారతదేశం"},
		{"te", "రాష్ట్రాలు", "రాష్ట్రా"},
	} {
		if got := For(c.tag).Bare(c.word); got != c.want {
			t.Errorf("%s: Bare(%q) = %q, want %q", c.tag, c.word, got, c.want)
		}
	}
}

func TestNeutralLexicon(t *testing.T) {
	for _, tag := range []Tag{Unknown, "xx", "../en", "neutral"} {
		lx := For(tag)
		if lx.Knows(Stop) || lx.Has(Stop, "the") || lx.Stems() {
			t.Errorf("For(%q) is not the neutral lexicon: knows stop %v, stems %v", tag, lx.Knows(Stop), lx.Stems())
		}
		if got := lx.Stem("Running"); got != "running" {
			t.Errorf("For(%q).Stem(Running) = %q, want the word lower-cased", tag, got)
		}
	}
}

func TestParseList(t *testing.T) {
	got := parseList("# a comment\n\nz. B.\n  usw. \r\n#not a word\nd. h.")
	want := []string{"z. B.", "usw.", "d. h."}
	if !slices.Equal(got, want) {
		t.Errorf("parseList = %q, want %q", got, want)
	}
}

// TestListFiles checks every list of every lexicon: no entry twice, none
// with a comment after it (a "|" or a "#" inside), each of one line.
func TestListFiles(t *testing.T) {
	for _, tag := range append(Tags(), Unknown) {
		lx := For(tag)
		for _, name := range lx.Lists() {
			seen := map[string]bool{}
			for _, w := range lx.Words(name) {
				k := strings.ToLower(w)
				if seen[k] {
					t.Errorf("%s/%s: %q twice", tag, name, w)
				}
				seen[k] = true
				if strings.ContainsAny(w, "|#\t") {
					t.Errorf("%s/%s: %q holds a comment or a tab", tag, name, w)
				}
			}
		}
	}
}

func TestStem(t *testing.T) {
	for _, c := range []struct {
		tag        Tag
		word, want string
	}{
		{"en", "Running", "run"},
		{"en", "studies", "studi"},
		{"de", "Häusern", "haus"},
		{"ru", "Суперкубке", "суперкубк"},
		{"ru", "Суперкубок", "суперкубок"},
		{"fr", "continuellement", "continuel"},
		{"bn", "বাংলাদেশের", "বাংলাদেশের"}, // no stemmer: the word as it is
		{"zh", "北京", "北京"},
	} {
		if got := For(c.tag).Stem(c.word); got != c.want {
			t.Errorf("%s: Stem(%q) = %q, want %q", c.tag, c.word, got, c.want)
		}
	}
}
