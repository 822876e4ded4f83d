package quote

import (
	"strings"
	"testing"

	"golang.org/x/text/unicode/norm"
)

// nfd is the text with every character decomposed, as macOS file names and
// some keyboards write it; nfc is the text composed.
func nfd(s string) string { return norm.NFD.String(s) }
func nfc(s string) string { return norm.NFC.String(s) }

// decomposedCafe makes a paragraph not NFC as a whole, as one decomposed word
// anywhere in it does; the quote check then reads it in normalisation
// segments, which is where marks were lost.
const decomposedCafe = " Le cafe\u0301 est ouvert."

// TestMarksAreCompared: a quote that drops, adds or changes a combining mark
// is not the saved words, whatever normal form either side is written in.
func TestMarksAreCompared(t *testing.T) {
	yoruba := "Mo ra o\u0323ko\u0323\u0300" // "I bought a boat" (ọkọ̀), tone marks in NFD
	for _, c := range []struct {
		name, saved, quote string
	}{
		// The two cases of issue 42.
		{"not x", "The value is x\u0338", "The value is x"},
		{"not x, paragraph not NFC", "The value is x\u0338." + decomposedCafe, "The value is x"},
		{"yoruba last tone mark dropped", yoruba, nfc("Mo ra ọkọ")},
		{"yoruba last tone mark dropped, quote NFD", yoruba, nfd("Mo ra ọkọ")},
		{"yoruba last tone mark dropped, saved NFC", nfc(yoruba), nfc("Mo ra ọkọ")},
		{"yoruba dot below dropped", yoruba, nfc("Mo ra ọko\u0300")},
		{"yoruba tone mark changed", yoruba, nfc("Mo ra ọkọ\u0301")},
		{"yoruba tone mark added", nfc("Mo ra ọkọ") + " tuntun", nfc("Mo ra ọkọ̀ tuntun")},
		{"mark added at the end", "The value is x here", "The value is x\u0338"},
		// Arabic: kasara (broke) and kassara (smashed) differ by a shadda;
		// written shadda first, as keyboards do, the word is not NFC.
		{"arabic shadda dropped", "ثم مَر\u0651\u064e بنا", "ثم مَر\u064e"},
		{"arabic last fatha dropped", "قال إنه كَس\u0651\u064eرَ", "قال إنه كَس\u0651\u064eر"},
		{"arabic last fatha dropped, NFC", nfc("قال إنه كَس\u0651\u064eرَ"), nfc("قال إنه كَس\u0651\u064eر")},
		{"arabic fatha for damma", "قال إنه كَتَبَ", "قال إنه كَتَبُ"},
		// Devanagari: nahin (no) ends in a vowel sign (Mc) with a mark on it.
		{"devanagari anusvara on Mc dropped", "वे यहाँ नहीं", "वे यहाँ नही"},
		{"devanagari anusvara on Mc dropped, paragraph not NFC", "वे यहाँ नहीं। \u095bरा", "वे यहाँ नही"},
		{"devanagari Mc vowel sign dropped", "वे यहाँ नहीं", "वे यहाँ नह"},
		// baaz (U+095B, precomposed nukta: not NFC) is not baaj.
		{"devanagari nukta dropped", "वह इन आदतों से बा\u095b आया", "वह इन आदतों से बाज"},
		{"sanskrit virama dropped", "हे भगवन्" + decomposedCafe, "हे भगवन"},
		// Bengali o-kar is two vowel signs (Mc) in NFD; candrabindu on it.
		{"bengali candrabindu on Mc dropped", "আমি কো\u0981থায়", "আমি কো"},
		{"bengali o-kar for e-kar", "আমি \u0995\u09c7\u09be", "আমি \u0995\u09c7"},
		// Vietnamese: stacked marks, one of them dropped or changed.
		{"vietnamese dot below dropped", nfd("Tôi nói tiếng Việt"), nfc("Tôi nói tiếng Viêt")},
		{"vietnamese tone changed", nfd("Tôi nói tiếng Việt"), nfc("Tôi nói tiếng Viết")},
		{"vietnamese last word marks dropped", nfd("Tôi nói tiếng Việt"), "Tôi nói tiếng Viet"},
		// A letter with a mark on it is not split anywhere.
		{"thai tone mark dropped", "น้ำร้อน", "น้ำร"},
		{"thai sara am dropped", "ดื่มน้ำร้อน", "ดื่มน้"},
		{"starts on a mark", "Mo ra o\u0323ko\u0323\u0300 ni", "\u0300 ni"},
		{"emoji modifier dropped", "the hand 👍🏽 is up", "the hand 👍"},
		{"emoji joined sequence cut", "the family 👨\u200d👩\u200d👧 came", "the family 👨"},
		{"emoji joined sequence cut after the joiner", "the family 👨\u200d👩\u200d👧 came", "the family 👨\u200d👩"},
		{"variation selector dropped", "the sign \u2764\ufe0f here", "the sign \u2764"},
		// NFC, not NFKC: compatibility forms are other characters.
		{"ligature is not folded", "The \ufb01nal word is here.", "The final word is"},
		{"superscript is not a digit", "It is x\u00b2 here.", "It is x2 here"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if m, ok := NewText(c.saved).Find(NewQuote(c.quote)); ok {
				t.Errorf("quote %+q found in %+q as %+q", c.quote, c.saved, m.Saved)
			}
		})
	}
}

// TestNormalFormsMatch: the same words in NFC and NFD, or with marks typed
// in another order that means the same, are the same words, and the match
// gives back the saved text exactly.
func TestNormalFormsMatch(t *testing.T) {
	yoruba := "Mo ra o\u0323ko\u0323\u0300"
	for _, c := range []struct {
		name, saved, quote, want string
	}{
		{"not x", "The value is x\u0338.", "The value is x\u0338", "The value is x\u0338"},
		{"not x, paragraph not NFC", "The value is x\u0338." + decomposedCafe, "The value is x\u0338", "The value is x\u0338"},
		{"yoruba NFD saved, NFC quote", yoruba + " lana", nfc("Mo ra ọkọ̀"), yoruba},
		{"yoruba NFC saved, NFD quote", nfc(yoruba) + " lana", yoruba, nfc(yoruba)},
		{"yoruba whole", yoruba, nfc(yoruba), yoruba},
		{"yoruba marks in the other order", yoruba, "Mo ra o\u0323ko\u0300\u0323", yoruba},
		{"arabic shadda first", "ثم مَر\u0651\u064e بنا", "ثم مَر\u064e\u0651", "ثم مَر\u0651\u064e"},
		{"arabic fatha first", "ثم مَر\u064e\u0651 بنا", "ثم مَر\u0651\u064e", "ثم مَر\u064e\u0651"},
		{"devanagari precomposed nukta", "वह इन आदतों से बा\u095b आया", "इन आदतों से बाज\u093c", "इन आदतों से बा\u095b"},
		{"devanagari nahin", "वे यहाँ नहीं हैं", "वे यहाँ नहीं", "वे यहाँ नहीं"},
		{"bengali o-kar decomposed", "আমি \u0995\u09c7\u09be বলি", "আমি \u0995\u09cb", "আমি \u0995\u09c7\u09be"},
		{"vietnamese NFD saved", nfd("Tôi nói tiếng Việt."), "Tôi nói tiếng Việt", nfd("Tôi nói tiếng Việt")},
		{"vietnamese marks in the other order", "tiếng Vie\u0302\u0323t nhé", "tiếng Vie\u0323\u0302t", "tiếng Vie\u0302\u0323t"},
		{"hangul jamo", "\u1112\u1161\u11ab\u1100\u116e\u11a8\u110b\u1165 \uacf5\ubd80", "한국어 공부", "\u1112\u1161\u11ab\u1100\u116e\u11a8\u110b\u1165 \uacf5\ubd80"},
		{"emoji modifier kept", "the hand 👍🏽 is up", "the hand 👍🏽", "the hand 👍🏽"},
		{"many marks", "a" + strings.Repeat("\u0301", 40) + " b c", "a" + strings.Repeat("\u0301", 40) + " b", "a" + strings.Repeat("\u0301", 40) + " b"},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, ok := NewText(c.saved).Find(NewQuote(c.quote))
			if !ok {
				t.Fatalf("quote %+q not found in %+q", c.quote, c.saved)
			}
			if m.Saved != c.want {
				t.Errorf("quote %+q found as %+q, want %+q", c.quote, m.Saved, c.want)
			}
			if got := string([]rune(c.saved)[m.Start:m.End]); got != m.Saved {
				t.Errorf("offsets [%d,%d) give %+q, not the saved words %+q", m.Start, m.End, got, m.Saved)
			}
		})
	}
}

// TestWordEdges: a quote starts and ends where a word does, also where the
// saved text joins a word across a line end, and a run of punctuation that
// stands for one character ("…") is not split.
func TestWordEdges(t *testing.T) {
	for _, c := range []struct {
		name, saved, quote string
	}{
		{"first half of a word broken at a line end", "The inter-\nnational committee met.", "The inter"},
		{"second half of a word broken at a line end", "The inter-\nnational committee met.", "national committee met"},
		{"half of a word with a soft hyphen", "The inter\u00adnational committee met.", "The inter"},
		{"two of the three points of an ellipsis", "And then… the tea was cold.", "And then.."},
		{"one point of an ellipsis", "And then… the tea was cold.", "And then."},
		{"ends on a hyphen inside a word", "It is a well-known fact.", "It is a well-"},
		{"starts on a hyphen inside a word", "It is a well-known fact.", "-known fact"},
		{"starts on an apostrophe inside a word", "The leaves don't turn bitter.", "'t turn bitter"},
		{"ends on a decimal point", "It costs 3.14 dollars.", "It costs 3."},
		{"persian word cut at its joiner", "من می\u200cخواهم بروم", "من می"},
		{"persian word cut after its joiner", "من می\u200cخواهم بروم", "خواهم بروم"},
		// Two dashes apart are two: 2 - -3 is five, 2-3 is minus one.
		{"dashes apart are not one", "So 2 - -3 is 5.", "So 2-3 is 5"},
		{"dashes apart are not one, spaced", "So 2 - -3 is 5.", "So 2 - 3 is 5"},
		// A suspended hyphen reads as a broken word: the documented price.
		{"after a suspended hyphen", "Both pre- and post-war years.", "and post-war years"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if m, ok := NewText(c.saved).Find(NewQuote(c.quote)); ok {
				t.Errorf("quote %+q found in %+q as %+q", c.quote, c.saved, m.Saved)
			}
		})
	}
	for _, c := range []struct {
		name, saved, quote string
	}{
		{"after an ellipsis", "And then… the tea was cold.", "the tea was cold"},
		{"ellipsis whole", "And then… the tea was cold.", "And then... the tea"},
		{"run of dashes", "The leaves -- which are delicate -- turn.", "leaves — which are delicate — turn"},
		{"dashes apart, as saved", "So 2 - -3 is 5.", "So 2 - -3 is 5"},
		{"apostrophe at a word end", "The leaves' colour is green.", "The leaves'"},
		{"persian word whole", "من می\u200cخواهم بروم", "من می\u200cخواهم"},
		{"after an em dash", "The leaves—which are delicate—turn bitter.", "which are delicate"},
		{"suspended hyphen whole", "Both pre- and post-war years.", "pre- and post-war years"},
		{"a byte that is not UTF-8", "The caf\xe9 is open today.", "The caf\ufffd is open"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, ok := NewText(c.saved).Find(NewQuote(c.quote)); !ok {
				t.Errorf("quote %+q not found in %+q", c.quote, c.saved)
			}
		})
	}
}
