package sentences

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// Ends: a sentence's end in any script that writes one, after closing
// quotes and brackets; a heading, a cell, a clause cut at a comma, a line
// of Thai do not end as a sentence does.
func TestEnds(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"It is.", true}, {"Is it?", true}, {"He said “go.”", true}, {"(See above.)", true},
		{"Это так.", true}, {"这是。", true}, {"これです。", true}, {"এটা ভাষা।", true}, {"هل هذا؟", true},
		{"2.1.1 What is wrong with current live systems", false}, {"the miller, the schoolmaster,", false},
		{"Run:", false}, {"ชาเขียวแช่ในน้ำ", false}, {"", false},
		{"It was promulgated on 28 October 1965 by Pope Paul VI.[1]", true}, {"of Kunyang, Yunnan, China.[6][7]", true},
	} {
		if got := Ends(c.text); got != c.want {
			t.Errorf("Ends(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

// WithoutCitations blanks an encyclopedia's numeric citations and keeps
// the text's length in bytes; a year in brackets and other brackets stay.
func TestWithoutCitations(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"выходцев из Скандинавии[1].", "выходцев из Скандинавии   ."},
		{"a Muslim family.[6][7] Then", "a Muslim family.       Then"},
		{"as shown [3, 4] and [5–7].", "as shown        and        ."},
		{"promulgated [1965] by Paul VI", "promulgated [1965] by Paul VI"},
		{"the [citation needed] mark", "the [citation needed] mark"},
		{"no brackets", "no brackets"},
	} {
		got := WithoutCitations(c.text)
		if got != c.want || len(got) != len(c.text) {
			t.Errorf("WithoutCitations(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestSplit(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
	}{
		{"plain", "Tea is steeped. Coffee is brewed! Is cocoa boiled? Yes.",
			[]string{"Tea is steeped.", "Coffee is brewed!", "Is cocoa boiled?", "Yes."}},
		{"latin abbreviations", "Some teas, e.g. sencha, are steamed. Others, i.e. most black teas, are rolled. It works, cf. the table.",
			[]string{"Some teas, e.g. sencha, are steamed.", "Others, i.e. most black teas, are rolled.", "It works, cf. the table."}},
		{"e.g. before a capital", "Use a soft water, e.g. Volvic. Hard water dulls it.",
			[]string{"Use a soft water, e.g. Volvic.", "Hard water dulls it."}},
		{"titles", "Dr. Smith met Prof. Jones and Mrs. Brown. They talked.",
			[]string{"Dr. Smith met Prof. Jones and Mrs. Brown.", "They talked."}},
		{"figures and equations", "The curve (Fig. 3) rises. See Fig. 2a and Eq. (4) for the fit. Table 2 lists it, cf. No. 5 in Vol. II of the series.",
			[]string{"The curve (Fig. 3) rises.", "See Fig. 2a and Eq. (4) for the fit.", "Table 2 lists it, cf. No. 5 in Vol. II of the series."}},
		{"no. ends a sentence", "She said no. Then she left.",
			[]string{"She said no.", "Then she left."}},
		// A line ending in a colon introduces the lines after it: a
		// command, a listing (issue 40), in any script's colon.
		{"colon at a line's end", "Den Editor ändern Sie so:\n$ sudo update-alternatives --config editor",
			[]string{"Den Editor ändern Sie so:", "$ sudo update-alternatives --config editor"}},
		{"full-width colon at a line's end", "用以下命令更改：\n$ sudo update-alternatives --config editor",
			[]string{"用以下命令更改：", "$ sudo update-alternatives --config editor"}},
		{"colon inside a line", "It holds two things: tea and\ncoffee, in that order.",
			[]string{"It holds two things: tea and\ncoffee, in that order."}},
		{"et al.", "Smith et al. found a rise. As Jones et al. (2020) showed, it holds (Smith et al., 2020). It is small.",
			[]string{"Smith et al. found a rise.", "As Jones et al. (2020) showed, it holds (Smith et al., 2020).", "It is small."}},
		{"vs. and approx.", "Tea vs. coffee: approx. 40 mg vs. 95 mg. Both wake you.",
			[]string{"Tea vs. coffee: approx. 40 mg vs. 95 mg.", "Both wake you."}},
		{"decimals", "The mean was 3.5 mg (95% CI 2.1-4.9). The p value was .03 in all. It was 0.5.",
			[]string{"The mean was 3.5 mg (95% CI 2.1-4.9).", "The p value was .03 in all.", "It was 0.5."}},
		{"numeric citations after the stop", "Green tea lowers it.[12] Black tea does not. [3, 4] Both contain caffeine.[5–7]",
			[]string{"Green tea lowers it.[12]", "Black tea does not. [3, 4]", "Both contain caffeine.[5–7]"}},
		{"quotes and brackets after the stop", `He said "steep it for three minutes." Then he left. (It was late.) She stayed.`,
			[]string{`He said "steep it for three minutes."`, "Then he left.", "(It was late.)", "She stayed."}},
		{"curly quotes", "She wrote “it is done.” The end came.",
			[]string{"She wrote “it is done.”", "The end came."}},
		{"chinese", "绿茶的水温应该是八十度。水太热会让茶变苦！你知道吗？",
			[]string{"绿茶的水温应该是八十度。", "水太热会让茶变苦！", "你知道吗？"}},
		{"japanese with closing brackets", "緑茶は八十度で淹れます。「熱すぎると苦い。」と言われる。半角｡も区切る",
			// A quotation the sentence goes on after is part of it (issue 40).
			[]string{"緑茶は八十度で淹れます。", "「熱すぎると苦い。」と言われる。", "半角｡", "も区切る"}},
		{"full-width marks", "本当ですか？！はい．版は３．５です。",
			[]string{"本当ですか？！", "はい．", "版は３．５です。"}},
		{"doubled marks", "It boiled‼ Did it stop⁇ Yes.",
			[]string{"It boiled‼", "Did it stop⁇", "Yes."}},
		{"ellipsis going on", "Well... maybe not. Then… it happened. Wait... What?",
			[]string{"Well... maybe not.", "Then… it happened.", "Wait...", "What?"}},
		{"initials", "The book by J. R. R. Tolkien sold well. It was long.",
			[]string{"The book by J. R. R. Tolkien sold well.", "It was long."}},
		{"single capital ends a sentence", "Take vitamin C. The dose is small.",
			[]string{"Take vitamin C.", "The dose is small."}},
		// "The U.S. Army" would be cut after "U.S.": a capitalised word after a
		// dotted abbreviation is taken as a new sentence, which is right more
		// often ("She lives in the U.K. It rains.").
		{"dotted abbreviations", "He moved to the U.S. in May. The Ph.D. was hard. She lives in the U.K. It rains.",
			[]string{"He moved to the U.S. in May.", "The Ph.D. was hard.", "She lives in the U.K.", "It rains."}},
		{"gene names start sentences", "This gene regulates meiosis. rim1 mutations reduce it. mRNA levels fell. p53 was stable.",
			[]string{"This gene regulates meiosis.", "rim1 mutations reduce it.", "mRNA levels fell.", "p53 was stable."}},
		{"lower case after an unknown abbreviation", "The approx. value is low. We used a mod. version of it.",
			[]string{"The approx. value is low.", "We used a mod. version of it."}},
		{"urls and versions", "See www.example.com for v1.2.3 notes. Then run it.",
			[]string{"See www.example.com for v1.2.3 notes.", "Then run it."}},
		{"pdf line breaks", "The kettle should be taken off the\nboil before the water is poured over\nthe leaves. Otherwise it\nscalds them.",
			[]string{"The kettle should be taken off the\nboil before the water is poured over\nthe leaves.", "Otherwise it\nscalds them."}},
		{"blank line ends a sentence without a stop", "Brewing green tea\n\nUse water at eighty degrees.",
			[]string{"Brewing green tea", "Use water at eighty degrees."}},
		{"list items", "You need:\n- two cups of water\n- a teaspoon of leaves\n* a lid\n1. Boil the water\n2) Pour it\n(a) wait",
			[]string{"You need:", "two cups of water", "a teaspoon of leaves", "a lid", "Boil the water", "Pour it", "wait"}},
		{"enumerations inside a line stay", "The steps are 1. boil and 2. pour. Done.",
			[]string{"The steps are 1. boil and 2. pour.", "Done."}},
		{"transcript speakers and sound cues", "so we boil it first >> right and then >> yes [Music] then pour it",
			[]string{"so we boil it first", "right and then", "yes [Music] then pour it"}},
		{"sound cue alone is no sentence", "[Applause] Thank you. [Music]",
			[]string{"[Applause] Thank you."}},
		{"section labels stay with their sentence", "BACKGROUND Tea is old. RESULTS Of the 32,441 samples 16 were positive.",
			[]string{"BACKGROUND Tea is old.", "RESULTS Of the 32,441 samples 16 were positive."}},
		{"p values", "It differed (P = .003). It did not differ (p=0.2).",
			[]string{"It differed (P = .003).", "It did not differ (p=0.2)."}},
		{"etc.", "Tea, coffee, etc. are drinks. Add sugar, milk, etc. Then stir.",
			[]string{"Tea, coffee, etc. are drinks.", "Add sugar, milk, etc.", "Then stir."}},
		{"question inside quotes", `"Is it ready?" she asked. "Yes!" He nodded.`,
			[]string{`"Is it ready?" she asked.`, `"Yes!"`, "He nodded."}},
		{"white space around", "  \n Tea.   Coffee.  \n",
			[]string{"Tea.", "Coffee."}},
		{"empty", "", nil},
		{"only marks", " . ! ", nil},
		{"no final stop", "Tea is good", []string{"Tea is good"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Sentences(tt.text)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Sentences(%q) mismatch (-want +got):\n%s", tt.text, diff)
			}
		})
	}
}

// Spans are byte ranges of the text itself, so a sentence is always an exact
// substring that a quote check will find.
func TestSpansAreExactAndOrdered(t *testing.T) {
	text := "Dr. Who said “hi.” [1] Then, e.g.\nat 3.5 p.m., he left... Alright?! - item one\n- item two\n\n" +
		strings.Repeat("word ", 300) + "end."
	prev := 0
	for _, s := range Split(text) {
		if s.Start < prev || s.End <= s.Start || s.End > len(text) {
			t.Fatalf("bad span %+v after %d", s, prev)
		}
		got := text[s.Start:s.End]
		if strings.TrimSpace(got) != got {
			t.Errorf("span %q has white space at an end", got)
		}
		if !utf8.ValidString(got) {
			t.Errorf("span %q is not valid UTF-8 (cut inside a character)", got)
		}
		prev = s.End
	}
}

// Text with no sentence end is cut into pieces no longer than MaxLen, at
// soft breaks first.
func TestLongRunsAreCut(t *testing.T) {
	clause := "and then we talked about the tea and how long to steep it, "
	text := strings.Repeat(clause, 60)
	got := Sentences(text)
	if len(got) < 2 {
		t.Fatalf("a %d-byte run without a stop was not cut: %d piece(s)", len(text), len(got))
	}
	for _, s := range got {
		if len(s) > MaxLen {
			t.Errorf("piece of %d bytes is over MaxLen %d", len(s), MaxLen)
		}
		if !strings.HasSuffix(s, ",") && !strings.HasSuffix(s, "it,") && s != got[len(got)-1] {
			t.Errorf("piece %q… was not cut at a comma", s[:40])
		}
	}
	if j := strings.Join(got, " ") + " "; j != text {
		t.Errorf("pieces do not rebuild the text")
	}
}

func FuzzSplit(f *testing.F) {
	for _, s := range []string{
		"Dr. Smith et al. (2020) found 3.5 mg. Next.[12] And “so.” Wait...",
		"- a\n- b\n\n1. c", ">> hi >> there", "[Music]", "e.g.", "..", "a.\n\n", "\xff. A.",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		prev := 0
		for _, s := range Split(text) {
			if s.Start < prev || s.End <= s.Start || s.End > len(text) {
				t.Fatalf("bad span %+v (prev end %d) in %q", s, prev, text)
			}
			prev = s.End
		}
	})
}
