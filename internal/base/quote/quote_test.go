package quote

import (
	"strings"
	"testing"
)

const tea = "Green tea is steeped at a lower temperature than black tea, usually around eighty degrees, so the leaves do not turn bitter."

func TestSameWords(t *testing.T) {
	for _, c := range []struct {
		name, saved, quote string
	}{
		{"exact", tea, "so the leaves do not turn bitter"},
		{"whitespace runs", tea, "so  the\n leaves\tdo not\r\nturn bitter"},
		{"no-break space", tea, "so the\u00a0leaves do not turn bitter"},
		{"ends trimmed", tea, "  so the leaves do not turn bitter \n"},
		{"first letter upper", tea, "So the leaves do not turn bitter"},
		{"first letter lower", tea, "green tea is steeped"},
		{"line-end hyphen in quote", "The international committee met in May.", "the inter- national committee met"},
		{"line-end hyphen and newline in quote", "The international committee met in May.", "the inter-\nnational committee met"},
		{"line-end hyphen in saved", "The inter-\nnational committee met in May.", "the international committee met"},
		{"unicode hyphen at line end", "The inter\u2010\nnational committee met.", "the international committee"},
		{"soft hyphen at line end", "The inter\u00ad\nnational committee met.", "the international committee"},
		{"curly apostrophe", "The leaves don’t turn bitter at all.", "The leaves don't turn bitter"},
		{"straight apostrophe saved", "The leaves don't turn bitter at all.", "The leaves don’t turn bitter"},
		{"curly quotes", `He called it "the best tea" that day.`, "called it “the best tea” that"},
		{"low quotes", "Er sagte „guter Tee“ dazu.", `Er sagte "guter Tee" dazu`},
		{"em dash vs hyphen", "The leaves—which are delicate—turn bitter.", "leaves - which are delicate - turn"},
		{"em dash spaced", "The leaves—which are delicate—turn bitter.", "leaves — which are delicate — turn bitter"},
		{"double hyphen", "The leaves — which are delicate — turn bitter.", "leaves--which are delicate--turn bitter"},
		{"en dash range", "Steep it for 2–3 minutes only.", "for 2-3 minutes only"},
		{"minus sign", "It froze at −5 degrees last night.", "froze at -5 degrees"},
		{"ellipsis", "And then… the tea was cold.", "And then... the tea"},
		{"three dots saved", "And then... the tea was cold.", "And then… the tea"},
		{"nfd quote", "The café serves green tea daily.", "The cafe\u0301 serves green"},
		{"nfd saved", "The cafe\u0301 serves green tea daily.", "The café serves green"},
		{"soft hyphen in saved only", "The inter\u00adnational committee met.", "The international committee"},
		{"zero width space in saved only", "The inter\u200bnational committee met.", "The international committee"},
		{"invisible in both", "The inter\u00adnational committee met.", "The inter\u00adnational committee"},
		{"apostrophe word boundary", "The leaves' colour is green here.", "the leaves' colour is"},
		{"starts after em dash", "The leaves—which are delicate—turn bitter.", "which are delicate"},
		{"han no spaces", "绿茶的冲泡温度比红茶低。", "冲泡温度比红茶"},
		{"punctuation start", "He said: (green tea is best) today.", "(green tea is best)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, ok := NewText(c.saved).Find(NewQuote(c.quote)); !ok {
				t.Errorf("quote %q not found in %q", c.quote, c.saved)
			}
		})
	}
}

func TestNotSameWords(t *testing.T) {
	for _, c := range []struct {
		name, saved, quote string
	}{
		{"changed word", tea, "so the leaves do not turn sour"},
		{"added word", tea, "so the green leaves do not turn bitter"},
		{"dropped word", tea, "so the leaves do turn bitter"},
		{"swapped words", tea, "so the leaves not do turn bitter"},
		{"inside a word at start", tea, "ea is steeped"},
		{"inside a word at end", tea, "Green tea is ste"},
		{"both ends inside", tea, "ea is ste"},
		{"after apostrophe", "The leaves don't turn bitter.", "t turn bitter"},
		{"before apostrophe", "The leaves don't turn bitter.", "The leaves don"},
		{"compound half", "It is a well-known fact about tea.", "known fact about tea"},
		{"number half", "It costs 3.14 dollars a cup.", "14 dollars a cup"},
		{"hyphen kept is not joined", "The inter-national committee met.", "The international committee"},
		{"joined is not hyphen kept", "The international committee met.", "The inter-national committee"},
		{"missing space", tea, "so the leavesdo not turn bitter"},
		{"zero width space", tea, "so the lea\u200bves do not turn bitter"},
		{"zero width space between words", tea, "so the \u200bleaves do not turn bitter"},
		{"zero width joiner", tea, "so the lea\u200dves do not turn bitter"},
		{"zero width non-joiner", tea, "so the lea\u200cves do not turn bitter"},
		{"word joiner", tea, "so the lea\u2060ves do not turn bitter"},
		{"bom", tea, "\ufeffso the leaves do not turn bitter"},
		{"soft hyphen in quote only", tea, "so the lea\u00adves do not turn bitter"},
		{"cyrillic a", tea, "so the le\u0430ves do not turn bitter"},
		{"cyrillic o", tea, "so the leaves do n\u043et turn bitter"},
		{"greek omicron", tea, "so the leaves do n\u03bft turn bitter"},
		{"changed punctuation", tea, "usually around eighty degrees; so the leaves"},
		{"comma dropped", tea, "usually around eighty degrees so the leaves"},
		{"guillemets are not quotes", `He called it "the best tea" that day.`, "called it «the best tea» that"},
		{"ellipsis for omission", tea, "Green tea is steeped … eighty degrees"},
		{"case inside", tea, "so the Leaves do not turn bitter"},
		{"case of last letter", tea, "so the leaves do not turn bitteR"},
		{"empty", tea, "   "},
	} {
		t.Run(c.name, func(t *testing.T) {
			if m, ok := NewText(c.saved).Find(NewQuote(c.quote)); ok {
				t.Errorf("quote %q found in %q as %q", c.quote, c.saved, m.Saved)
			}
		})
	}
}

func TestOffsets(t *testing.T) {
	saved := "Der Tee — grün und süß — ist fertig. The inter-\nnational  tea day"
	for _, c := range []struct {
		quote, want string
	}{
		{"grün und süß", "grün und süß"},
		{"Tee - grün", "Tee — grün"},
		{"the international tea day", "The inter-\nnational  tea day"},
		{"Der Tee", "Der Tee"},
	} {
		m, ok := NewText(saved).Find(NewQuote(c.quote))
		if !ok {
			t.Fatalf("%q not found", c.quote)
		}
		if m.Saved != c.want {
			t.Errorf("%q: saved %q, want %q", c.quote, m.Saved, c.want)
		}
		if got := string([]rune(saved)[m.Start:m.End]); got != c.want {
			t.Errorf("%q: offsets [%d,%d) give %q, want %q", c.quote, m.Start, m.End, got, c.want)
		}
	}
}

func TestFindAllAndPrefer(t *testing.T) {
	p := "tea is steeped at eighty degrees. Later, Tea is steeped at eighty degrees again."
	ms := NewText(p).FindAll(NewQuote("tea is steeped at eighty degrees"))
	if len(ms) != 2 || ms[0].Start != 0 || ms[1].Start != 41 {
		t.Fatalf("FindAll = %+v", ms)
	}
	d := NewDoc([]string{"one two three four", "green tea is hot", "green tea is hot"})
	if i, _, ok := d.Find(NewQuote("green tea is hot"), 2); !ok || i != 2 {
		t.Errorf("Find with prefer 2 = %d %v", i, ok)
	}
	if i, _, ok := d.Find(NewQuote("green tea is hot"), 0); !ok || i != 1 {
		t.Errorf("Find with prefer 0 = %d %v", i, ok)
	}
	if _, _, ok := d.Find(NewQuote("three four green tea"), -1); ok {
		t.Errorf("a quote across two paragraphs was found")
	}
}

func TestWords(t *testing.T) {
	for q, want := range map[string]int{
		"green tea":            2,
		"don't turn bitter":    3,
		"eighty-two degrees":   3,
		"  ":                   0,
		"绿茶的":                  2,
		"绿茶的水温":                3,
		"お湯の温度":                3,
		"緑茶はお湯":                3,
		"tea, “hot”, and cold": 4,
	} {
		if got := NewQuote(q).Words(); got != want {
			t.Errorf("Words(%q) = %d, want %d", q, got, want)
		}
	}
}

// A quote in a script without spaces needs about three words too, whether a
// Thai word list is installed (words) or not (three characters a word): one
// or two words are refused, a clause passes.
func TestWordsWithoutSpaces(t *testing.T) {
	for _, tc := range []struct {
		q     string
		whole bool
	}{
		{"ประมาณ", false},          // one word: "about"
		{"น้ำร้อน", false},         // one word with its marks: "hot water"
		{"ชาเขียว", false},         // two words: "green tea"
		{"ควรชงด้วยน้ำร้อน", true}, // "should brew with hot water"
		{"绿茶", false},
		{"水温八十", false},
		{"绿茶的水温应该是八十度", true},
		{"お湯の", false},
		{"緑茶はお湯の温度が大切", true},
	} {
		if got := NewQuote(tc.q).Words() >= MinWords; got != tc.whole {
			t.Errorf("Words(%q) = %d: at least %d is %v, want %v", tc.q, NewQuote(tc.q).Words(), MinWords, got, tc.whole)
		}
	}
}

func TestSame(t *testing.T) {
	if !Same("The leaves don’t  turn", "the leaves don't turn") {
		t.Error("formatting variants are not Same")
	}
	if Same("the leaves do turn", "the leaves don't turn") {
		t.Error("different words are Same")
	}
}

func BenchmarkFindMegabyte(b *testing.B) {
	var sb strings.Builder
	for sb.Len() < 1<<20 {
		sb.WriteString(tea)
		sb.WriteString(" Oolong sits between the two — partly oxidised… ")
	}
	sb.WriteString("The final sentence is here.")
	s := sb.String()
	b.SetBytes(int64(len(s)))
	q := NewQuote("The final sentence is here")
	b.ResetTimer()
	for b.Loop() {
		if _, ok := NewText(s).Find(q); !ok {
			b.Fatal("not found")
		}
	}
}

// TestMayStartEnd: the places a piece-by-piece writer may start or end a
// quote are those Find accepts: not inside "well-known" or "3.14", not
// before a combining mark.
func TestMayStartEnd(t *testing.T) {
	s := "A well-known value is 3.14 or x\u0338 here."
	for _, c := range []struct {
		at         string // the text from the place on
		start, end bool
	}{
		{"well-known", true, true},
		{"-known", false, false},
		{"known", false, false},
		{".14 or", false, false},
		{"14 or", false, false},
		{"\u0338 here", false, false},
		{" here.", true, true}, // white space at a quote's ends is not part of it
		{"here.", true, true},
	} {
		b := strings.Index(s, c.at)
		if got := MayStart(s, b); got != c.start {
			t.Errorf("MayStart before %q = %v", c.at, got)
		}
		if got := MayEnd(s, b); got != c.end {
			t.Errorf("MayEnd before %q = %v", c.at, got)
		}
	}
	if !MayEnd(s, len(s)) || MayStart(s, len(s)) {
		t.Error("the text's end")
	}
}
