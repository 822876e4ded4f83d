package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// extractPlain reads plain text: paragraphs at blank lines. A paragraph of
// one line that numbers a section ("4.7.1. sudo", "2.1.1 What is wrong
// with current live systems", "Chapter 11. Data conversion"), and is
// followed by another paragraph, is a heading, as a plain-text edition of
// a book writes them (the Debian Reference's debian-reference.en.txt):
// it heads the paragraphs below it, in a path as Markdown's headings do
// ("Chapter 4. Authentication and access controls › 4.7. … › 4.7.1.
// sudo"), and is no paragraph of its own.
func extractPlain(text string) *Document {
	var blocks []string
	var buf []string
	for line := range eachLine(text) {
		if strings.TrimSpace(line) == "" {
			if len(buf) > 0 {
				blocks = append(blocks, strings.Join(buf, "\n"))
			}
			buf = buf[:0]
			continue
		}
		buf = append(buf, line)
	}
	if len(buf) > 0 {
		blocks = append(blocks, strings.Join(buf, "\n"))
	}
	var b builder
	h := &headings{}
	for i, block := range blocks {
		if level := plainHeading(block); level > 0 && i+1 < len(blocks) {
			h.push(level, cleanText(block))
			continue
		}
		b.addText(block, h.path())
	}
	return &Document{Paragraphs: b.paras}
}

// maxPlainHeadingWords is the most words of a plain text's heading.
const maxPlainHeadingWords = 12

// plainHeading is the level of a plain text's heading, 0 for a block that
// is none: one line of at most maxPlainHeadingWords words that does not
// end as a sentence or a clause does (a question may: "2.7.11. Who
// uploaded the package?"), opening with a section's number of two levels
// or more ("4.7.1.", "2.1.1", "5.2."; its level is the number's), or with
// a capitalised word and a number and a full stop ("Chapter 11.",
// "Appendix A.", "Глава 3."; level 1). A list's "1. Install the package"
// is not one: a number of one level heads no section alone. Any script's
// digits count.
func plainHeading(block string) int {
	line := strings.TrimSpace(block)
	if strings.ContainsRune(line, '\n') {
		return 0
	}
	fields := strings.Fields(line)
	if len(fields) < 2 || len(fields) > maxPlainHeadingWords {
		return 0
	}
	last, _ := utf8.DecodeLastRuneInString(line)
	if strings.ContainsRune(".!:;,。！：；，", last) {
		return 0
	}
	if n := sectionLevels(fields[0]); n >= 2 {
		return n
	}
	first, _ := utf8.DecodeRuneInString(fields[0])
	num := strings.TrimSuffix(fields[1], ".")
	if num == "" {
		return 0
	}
	if len(fields) >= 3 && unicode.IsUpper(first) && isLetters(fields[0]) && strings.HasSuffix(fields[1], ".") &&
		(sectionLevels(fields[1]) == 1 || utf8.RuneCountInString(num) == 1 && unicode.IsUpper([]rune(num)[0]) || strings.Trim(num, "IVXLC") == "") {
		return 1
	}
	return 0
}

// sectionLevels is how many levels a section's number has ("4.7.1." 3,
// "2.1" 2, "11." 1), 0 for a word that is none: each level at most three
// digits.
func sectionLevels(w string) int {
	w = strings.TrimSuffix(w, ".")
	if w == "" {
		return 0
	}
	parts := strings.Split(w, ".")
	for _, p := range parts {
		if p == "" || utf8.RuneCountInString(p) > 3 || strings.IndexFunc(p, func(r rune) bool { return !unicode.IsDigit(r) }) >= 0 {
			return 0
		}
	}
	return len(parts)
}

// isLetters: a word of letters only ("Chapter", "Глава").
func isLetters(w string) bool {
	return w != "" && strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) < 0
}
