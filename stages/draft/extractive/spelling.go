package extractive

import (
	"strings"
	"unicode"
	"unicode/utf8"

	porterstemmer "github.com/blevesearch/go-porterstemmer"
	"github.com/sponge-library/sponge/jsonl"
)

// respell writes each word of the question that no item of the library
// holds as the passages write it, when they hold exactly one word one
// letter away (a letter added, dropped, changed, or two swapped): "What is
// the term for the lack of obsevable free quarks?" asks about "observable"
// quarks. A misspelt word weighs most (the library lacks it) and is what
// the refusals look for first, so a typo refused questions the library
// answers. Words shorter than four letters and words the library holds
// are left as they are; without the library's counts nothing is changed.
func respell(question string, passages []*jsonl.Passage, corpus Corpus) string {
	if corpus == nil {
		return question
	}
	df, _, err := libraryFreqs(corpus, question, passages)
	if err != nil {
		return question
	}
	var absent []string
	for t, n := range df {
		if n == 0 && utf8.RuneCountInString(t) >= 4 {
			absent = append(absent, t)
		}
	}
	if len(absent) == 0 {
		return question
	}
	// The passages' words, each as a term and as first written.
	written := map[string]string{}
	for _, p := range passages {
		for _, w := range textWords(p.Title + "\n" + p.Heading + "\n" + p.Text) {
			ts := indexTerms(w)
			if len(ts) != 1 {
				continue
			}
			if _, ok := written[ts[0]]; !ok {
				written[ts[0]] = w
			}
		}
	}
	fix := map[string]string{}
	for _, t := range absent {
		found := ""
		for term, w := range written {
			if oneEditApart(t, term) {
				if found != "" && found != w {
					found = "" // two words fit: leave it
					break
				}
				found = w
			}
		}
		if found != "" {
			fix[t] = found
		}
	}
	if len(fix) == 0 {
		return question
	}
	words := textWords(question)
	var b strings.Builder
	rest := question
	for _, w := range words {
		i := strings.Index(rest, w)
		b.WriteString(rest[:i])
		rest = rest[i+len(w):]
		if ts := indexTerms(w); len(ts) == 1 && fix[ts[0]] != "" {
			b.WriteString(fix[ts[0]])
		} else {
			b.WriteString(w)
		}
	}
	b.WriteString(rest)
	return b.String()
}

// textWords are the words of text as libraryTerms finds them.
func textWords(text string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(text, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	}) {
		if w = strings.Trim(w, "'"); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// oneEditApart reports whether a and b differ by one letter added, dropped
// or changed, or by two neighbouring letters swapped.
func oneEditApart(a, b string) bool {
	if a == b {
		return false
	}
	ra, rb := []rune(a), []rune(b)
	if len(ra) > len(rb) {
		ra, rb = rb, ra
	}
	if len(rb)-len(ra) > 1 {
		return false
	}
	i := 0
	for i < len(ra) && ra[i] == rb[i] {
		i++
	}
	if len(ra) == len(rb) {
		if string(ra[i+1:]) == string(rb[i+1:]) {
			return true // one changed
		}
		return i+1 < len(ra) && ra[i] == rb[i+1] && ra[i+1] == rb[i] && string(ra[i+2:]) == string(rb[i+2:])
	}
	return string(ra[i:]) == string(rb[i+1:]) // one added
}

// stemHeld marks the question's words that text holds, as a term or with
// another English ending (the Porter stem the sentence score matches with:
// "negotiate" and "negotiations", "intractable" and "intractability"), for
// the rules of refusal only: the learned ranker's features stay the
// index's terms it was fitted on.
func (lw *libraryWeights) stemHeld(text string) map[string]bool {
	have := lw.have(text)
	stems := map[string]bool{}
	for t := range have {
		stems[porterstemmer.StemString(t)] = true
	}
	for _, t := range lw.order {
		if !have[t] && stems[porterstemmer.StemString(t)] {
			have[t] = true
		}
	}
	return have
}
