package sentences

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The sentence ends of other scripts: the danda of Bengali and Devanagari
// ("।", "॥"), Arabic's question mark and the Urdu full stop ("؟", "۔");
// numbers and abbreviations written in them are not cut.
func TestSplitOtherScripts(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"Bengali danda", "বাংলা একটি ভাষা। এটি ভারতে ও বাংলাদেশে বলা হয়।",
			[]string{"বাংলা একটি ভাষা।", "এটি ভারতে ও বাংলাদেশে বলা হয়।"}},
		{"Devanagari double danda", "धर्म की जय हो॥ अधर्म का नाश हो॥",
			[]string{"धर्म की जय हो॥", "अधर्म का नाश हो॥"}},
		{"Hindi danda and a question", "यह क्या है? यह एक किताब है। वह कलम है।",
			[]string{"यह क्या है?", "यह एक किताब है।", "वह कलम है।"}},
		{"Arabic question mark", "ما هي عاصمة مصر؟ القاهرة هي العاصمة.",
			[]string{"ما هي عاصمة مصر؟", "القاهرة هي العاصمة."}},
		{"Urdu full stop", "یہ کتاب ہے۔ وہ قلم ہے۔",
			[]string{"یہ کتاب ہے۔", "وہ قلم ہے۔"}},
		{"Bengali decimal", "দাম ৩.৫ টাকা। পরের বছর ৪.২ টাকা।",
			[]string{"দাম ৩.৫ টাকা।", "পরের বছর ৪.২ টাকা।"}},
		{"Chinese and Japanese", "绿茶的水温是多少？大约八十度。お茶を飲みますか！はい。",
			[]string{"绿茶的水温是多少？", "大约八十度。", "お茶を飲みますか！", "はい。"}},
	} {
		if got := Sentences(c.text); !cmp.Equal(got, c.want) {
			t.Errorf("%s: Sentences(%q) = %q, want %q", c.name, c.text, got, c.want)
		}
	}
}
