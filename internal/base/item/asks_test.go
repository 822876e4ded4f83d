package item

import "testing"

func TestAsks(t *testing.T) {
	for _, s := range []string{"Why?", "He asked: “why not?”", "(Is it?)", "Is that what happened at Mount St. Helens?\n", "绿茶的水温是多少？",
		// Arabic's question mark; Thai, which writes none (issue 40)
		"ما هي عاصمة مصر؟", "«هل هذا صحيح؟»", "เว็บไซต์คืออะไร", "ชาเขียวต้องชงกี่นาที", "คุณชอบชาเขียวไหม"} {
		if !Asks(s) {
			t.Errorf("Asks(%q) = false", s)
		}
	}
	for _, s := range []string{"Why, yes.", "What? No, never.", "",
		"القاهرة هي العاصمة.", "ชาเขียวเป็นชาที่ไม่ผ่านการหมัก", "ในห้องไม่มีใคร", "บ้านไหม้", "ชาเขียวมีกี่ชนิดในประเทศญี่ปุ่นและจีนที่นิยมดื่มกัน ชาเขียวนิยมมาก"} {
		if Asks(s) {
			t.Errorf("Asks(%q) = true", s)
		}
	}
}
