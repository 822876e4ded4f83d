package lang

import "testing"

// BenchmarkFirstQuestion is what the first question in a Latin script
// costs a process: the stop lists read and indexed.
func BenchmarkFirstQuestion(b *testing.B) {
	for b.Loop() {
		makeStopIndex()
	}
}

func BenchmarkDetectQuestion(b *testing.B) {
	for b.Loop() {
		DetectQuestion("Wie viele Einwohner hat Berlin?")
	}
}

func BenchmarkDetectParagraph(b *testing.B) {
	p := "Der Wasserkocher kocht, und der Tee zieht drei Minuten lang in der Kanne. Grüner Tee braucht Wasser von achtzig Grad."
	for b.Loop() {
		Detect(p)
	}
}
