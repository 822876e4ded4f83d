package extractive

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/sponge-library/sponge/jsonl"
)

// Sentences in scripts whose vowel signs are spacing marks (Unicode Mc:
// Bengali, Devanagari, Telugu) are prose like any other: a word is its
// letters with their marks. Every such sentence was "not plain" and never
// a statement (issue 40).
func TestIndicSentencesAreStatements(t *testing.T) {
	for _, s := range []string{
		"বাংলা ভাষা দক্ষিণ এশিয়ার একটি প্রধান ভাষা।",             // Bengali
		"তিনি ১৯৭১ সালে ঢাকা বিশ্ববিদ্যালয়ে পড়াশোনা শুরু করেন।", // Bengali, with Bengali digits
		"తెలుగు భాష దక్షిణ భారతదేశంలో మాట్లాడే ప్రధాన భాష.",       // Telugu
		"हिन्दी भारत की एक प्रमुख भाषा है।",                       // Devanagari (Hindi)
		"র\u200d্যাব ২০০৪ সালে গঠিত হয়।",                         // Bengali with a zero-width joiner inside a word
	} {
		if !IsStatement(s) {
			t.Errorf("IsStatement(%q) = false", s)
		}
	}
}

// The drafter's words keep their vowel signs: "বাংলা" is one word, not
// "ব" and "ল" (spacing marks cut it), in terms and in splitWords alike.
func TestIndicWordsKeepTheirMarks(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"বাংলা ভাষা", []string{"বাংলা", "ভাষা"}},
		{"తెలుగు భాష", []string{"తెలుగు", "భాష"}},
		{"हिन्दी भाषा", []string{"हिन्दी", "भाषा"}},
		{"র\u200d্যাব গঠিত", []string{"র\u200d্যাব", "গঠিত"}},
	} {
		if got := terms(c.text); !cmp.Equal(got, c.want) {
			t.Errorf("terms(%q) = %q, want %q", c.text, got, c.want)
		}
		if got := splitWords(c.text); !cmp.Equal(got, c.want) {
			t.Errorf("splitWords(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// A Bengali question is answered with the Bengali sentence that holds its
// words, not refused.
func TestAnswersInBengali(t *testing.T) {
	ps := []*jsonl.Passage{passage(1, "বাংলা ভাষা",
		"বাংলা ভাষা দক্ষিণ এশিয়ার একটি প্রধান ভাষা। বাংলা ভাষা প্রধানত বাংলাদেশ ও ভারতের পশ্চিমবঙ্গে প্রচলিত। এর লিপি বাংলা লিপি।")}
	got := draft(t, New(), "বাংলা ভাষা প্রধানত কোথায় প্রচলিত?", ps)
	if len(got) == 0 {
		t.Fatal("refused")
	}
	if !strings.Contains(got[0].Quote, "পশ্চিমবঙ্গে") {
		t.Errorf("first quote %q, want the sentence that says where", got[0].Quote)
	}
}

// asks: a question ends in a question mark, or, in Thai, which writes
// none, holds a question word.
func TestAsksInOtherScripts(t *testing.T) {
	for _, q := range []string{
		"ชาเขียวคืออะไร",               // Thai: what
		"ใครเป็นผู้ก่อตั้งบริษัทนี้",   // who
		"ร้านชาอยู่ที่ไหน",             // where
		"ชาเขียวต้องใช้น้ำร้อนกี่องศา", // how many
		"ชาเขียวเก็บได้นานเท่าไร",      // how much, how long
		"ทำไมชาเขียวจึงมีรสขม",         // why
		"ชงชาเขียวอย่างไร",             // how
		"บริษัทก่อตั้งเมื่อไหร่",       // when
		"ชาเขียวมีคาเฟอีนไหม",          // yes or no
		"แม่น้ำสายใดไหลผ่านเมืองนี้",   // which
	} {
		if !asks(q) {
			t.Errorf("asks(%q) = false", q)
		}
	}
	for _, s := range []string{
		"ชาเขียวชงด้วยน้ำร้อนแปดสิบองศา", // Thai: green tea is steeped at eighty degrees
		"บ้านหลังนี้ไหม้เมื่อปีที่แล้ว",  // Thai: this house burned last year ("ไหม้" holds "ไหม")
		"ชาชนิดใดๆ ก็ชงด้วยน้ำร้อนได้",   // Thai: any kind of tea ("ใดๆ") can be steeped with hot water
		"القاهرة هي عاصمة مصر.",
	} {
		if asks(s) {
			t.Errorf("asks(%q) = true", s)
		}
	}
}
