package item

import "testing"

func TestAsks(t *testing.T) {
	for _, s := range []string{"Why?", "He asked: “why not?”", "(Is it?)", "Is that what happened at Mount St. Helens?\n", "绿茶的水温是多少？"} {
		if !Asks(s) {
			t.Errorf("Asks(%q) = false", s)
		}
	}
	for _, s := range []string{"Why, yes.", "What? No, never.", ""} {
		if Asks(s) {
			t.Errorf("Asks(%q) = true", s)
		}
	}
}
