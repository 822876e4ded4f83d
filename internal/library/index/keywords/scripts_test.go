package keywords

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// ScanWords finds the words the analyzer finds in scripts whose vowel
// signs are spacing marks (Bengali, Devanagari, Telugu) and with a joiner
// inside a word (Bengali's "র‍্যাব", Persian's "می‌خواهم"): rank counts a
// paragraph's words with it and looks each up with Terms, so a word cut at
// its vowel signs met no question.
func TestScanWordsAsTheAnalyzer(t *testing.T) {
	for _, text := range []string{
		"বাংলা ভাষা দক্ষিণ এশিয়ার একটি প্রধান ভাষা।",
		"తెలుగు భాష దక్షిణ భారతదేశంలో మాట్లాడే ప్రధాన భాష.",
		"हिन्दी भारत की एक प्रमुख भाषा है।",
		"র\u200d্যাব ২০০৪ সালে গঠিত হয়।",
		"من می\u200cخواهم بروم.",
	} {
		var scanned []string
		ScanWords(text, func(w string) { scanned = append(scanned, Terms(w)...) })
		if want := Terms(text); !cmp.Equal(scanned, want) {
			t.Errorf("%q: ScanWords then Terms gives %q, Terms %q", text, scanned, want)
		}
		if slices.ContainsFunc(scanned, func(w string) bool { return len([]rune(w)) == 1 }) {
			t.Errorf("%q: a word of one character: %q", text, scanned)
		}
	}
}
