package item

import "testing"

// Arabic, Persian and Urdu end a question with "؟".
func TestAsksArabicMark(t *testing.T) {
	for _, s := range []string{"ما هي عاصمة مصر؟", "«لماذا؟»", "پایتخت ایران کجاست؟"} {
		if !Asks(s) {
			t.Errorf("Asks(%q) = false", s)
		}
	}
	if s := "القاهرة هي عاصمة مصر."; Asks(s) {
		t.Errorf("Asks(%q) = true", s)
	}
}
