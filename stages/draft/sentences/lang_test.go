package sentences

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// thaiLong is a Thai sentence of minThai characters or more.
var thaiLong = strings.Repeat("ชาเขียวเป็นชาที่ไม่ผ่านการหมักและนิยมดื่มกันมาก", 5)

// TestSplitLanguages: abbreviations of each language (from its lexicon),
// German ordinals, quotes and Thai (issue 40). Each case was cut wrongly
// before the lexicons were read.
func TestSplitLanguages(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"German z. B.", "Manche Teesorten, z. B. Sencha, werden gedämpft. Andere werden gerollt.",
			[]string{"Manche Teesorten, z. B. Sencha, werden gedämpft.", "Andere werden gerollt."}},
		{"German d. h. and bzw.", "Der Tee zieht kurz, d. h. zwei Minuten. Er trinkt Tee bzw. Kaffee am Morgen. Sie nicht.",
			[]string{"Der Tee zieht kurz, d. h. zwei Minuten.", "Er trinkt Tee bzw. Kaffee am Morgen.", "Sie nicht."}},
		{"German ordinal before a month", "Am 3. Oktober 1990 wurde Deutschland vereinigt. Das war ein Mittwoch.",
			[]string{"Am 3. Oktober 1990 wurde Deutschland vereinigt.", "Das war ein Mittwoch."}},
		{"German ordinal century", "Im 19. Jahrhundert kam der Tee nach Ostfriesland. Dort trinkt man ihn viel.",
			[]string{"Im 19. Jahrhundert kam der Tee nach Ostfriesland.", "Dort trinkt man ihn viel."}},
		{"German Nr. and S.", "Siehe Nr. 5 auf S. 12 der Ausgabe. Dort steht es.",
			[]string{"Siehe Nr. 5 auf S. 12 der Ausgabe.", "Dort steht es."}},
		{"German year ends", "Die Mauer fiel 1989. Danach kam die Einheit.",
			[]string{"Die Mauer fiel 1989.", "Danach kam die Einheit."}},
		{"Russian т. е. and г.", "Он родился в 1955 г. в Москве, т. е. в столице. Потом он уехал.",
			[]string{"Он родился в 1955 г. в Москве, т. е. в столице.", "Потом он уехал."}},
		{"Russian т. е. before a capital", "Он жил в столице, т. е. Москве, до смерти. Потом дом продали.",
			[]string{"Он жил в столице, т. е. Москве, до смерти.", "Потом дом продали."}},
		{"Russian с. before a village's name", "Родился 12 февраля 1874, с. Смелое, Полтавская губерния. Умер в 1943 году.",
			[]string{"Родился 12 февраля 1874, с. Смелое, Полтавская губерния.", "Умер в 1943 году."}},
		{"Russian р. and св.", "Город стоит на р. Оке у церкви св. Николая. Он древний.",
			[]string{"Город стоит на р. Оке у церкви св. Николая.", "Он древний."}},
		{"Telugu kilometres", "ఇది మండల కేంద్రమైన మందస నుండి 3 కి. మీ. దూరం లోను, పలాస నుండి 21 కి.మీ. దూరంలోనూ ఉంది. 2011 జనగణన ప్రకారం గ్రామం.",
			[]string{"ఇది మండల కేంద్రమైన మందస నుండి 3 కి. మీ. దూరం లోను, పలాస నుండి 21 కి.మీ. దూరంలోనూ ఉంది.", "2011 జనగణన ప్రకారం గ్రామం."}},
		{"Telugu era before a year", "నలందా విశ్వ విద్యాలయము క్రీ.శ. 450 లో నిర్మించబడింది. ఇది తొలి విశ్వవిద్యాలయం.",
			[]string{"నలందా విశ్వ విద్యాలయము క్రీ.శ. 450 లో నిర్మించబడింది.", "ఇది తొలి విశ్వవిద్యాలయం."}},
		{"French p. ex.", "Certains thés, p. ex. Le sencha, sont étuvés. Les autres sont roulés.",
			[]string{"Certains thés, p. ex. Le sencha, sont étuvés.", "Les autres sont roulés."}},
		{"Spanish Sra.", "La Sra. García bebe té verde. Su hijo prefiere café.",
			[]string{"La Sra. García bebe té verde.", "Su hijo prefiere café."}},
		{"English quotation", "He said “Stop. Wait for me.” and left. She stayed.",
			[]string{"He said “Stop. Wait for me.” and left.", "She stayed."}},
		{"English quotation ending a sentence", "He said “Stop.” Then he left.",
			[]string{"He said “Stop.”", "Then he left."}},
		{"straight quotes", `The label reads "Keep dry. Store cool." on the side. It is old.`,
			[]string{`The label reads "Keep dry. Store cool." on the side.`, "It is old."}},
		{"German quotation marks", "Er rief „Halt! Warte auf mich.“ und ging. Sie blieb.",
			[]string{"Er rief „Halt! Warte auf mich.“ und ging.", "Sie blieb."}},
		{"guillemets", "Il a dit « Attends. Je viens. » puis il est parti. Elle est restée.",
			[]string{"Il a dit « Attends. Je viens. » puis il est parti.", "Elle est restée."}},
		{"Japanese quotation", "彼は「待って。すぐ行く。」と言った。彼女は残った。",
			[]string{"彼は「待って。すぐ行く。」と言った。", "彼女は残った。"}},
		{"English numbers", "It costs $1,000.50 or 3.14 times more. Nobody pays it.",
			[]string{"It costs $1,000.50 or 3.14 times more.", "Nobody pays it."}},
		{"Thai abbreviation before a year", "เกิดขึ้นเมื่อวันที่ 31 มกราคม พ.ศ. 2561 เนื่องจากดวงจันทร์อยู่ใกล้โลกมากที่สุดในรอบปี",
			[]string{"เกิดขึ้นเมื่อวันที่ 31 มกราคม พ.ศ. 2561 เนื่องจากดวงจันทร์อยู่ใกล้โลกมากที่สุดในรอบปี"}},
		{"Thai sentences between spaces", thaiLong + " ชาดำผ่านการหมักจนใบชาเปลี่ยนเป็นสีดำ",
			[]string{thaiLong, "ชาดำผ่านการหมักจนใบชาเปลี่ยนเป็นสีดำ"}},
		{"Thai short clause stays", "นอกจากนั้น ชาเขียวยังมีสารต้านอนุมูลอิสระจำนวนมากที่ดีต่อสุขภาพของผู้ดื่ม",
			[]string{"นอกจากนั้น ชาเขียวยังมีสารต้านอนุมูลอิสระจำนวนมากที่ดีต่อสุขภาพของผู้ดื่ม"}},
	} {
		if got := Sentences(c.text); !cmp.Equal(got, c.want) {
			t.Errorf("%s: Sentences(%q)\n got %q\nwant %q", c.name, c.text, got, c.want)
		}
	}
}

// BenchmarkSplit: a paragraph of English prose, whose sentence ends read
// its language's lexicon.
func BenchmarkSplit(b *testing.B) {
	p := strings.Repeat("Dr. Smith met Prof. Jones at 3.15 p.m. and they talked about tea, e.g. sencha. It was late. “Stop. Wait.” he said. ", 4)
	for b.Loop() {
		Split(p)
	}
}
