// Package definitions says whether a question asks what something is
// ("What is sftp?") and whether a sentence says it ("sftp is a file
// transfer program …"): the drafter puts such a sentence first, and rank
// makes its paragraph a passage. English only: the rule reads the English
// lexicon's copulas and determiners (internal/base/lang/lexicons/en).
package definitions

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/base/lang"
)

// Words is how the caller cuts text into words, and a word into the terms
// it compares (the drafter's stemmed terms, or the index's): a question's
// subject and a sentence are read the same way.
type Words struct {
	Split func(text string) []string // the words of a text, as written
	Terms func(word string) []string // a word's terms; none for a stop word
	Stop  func(word string) bool     // a word that says nothing of a topic ("of")
}

// copulas say what a subject is, and determiners open a noun phrase; read
// from the English lexicon on first use.
var copulas, determiners = lexiconSet("copulas"), lexiconSet("determiners")

func lexiconSet(name string) func() map[string]bool {
	return sync.OnceValue(func() map[string]bool {
		ws := lang.For("en").Words(name)
		if ws == nil {
			panic("definitions: the English lexicon has no list " + name) // embedded: a build without it is broken
		}
		m := make(map[string]bool, len(ws))
		for _, w := range ws {
			m[strings.ToLower(w)] = true
		}
		return m
	})
}

// Subject is what a "What is …?" question asks the nature of: the terms of
// its words, and the terms a noun phrase naming it may end with (its
// heads): its last, and its last before the first word that is not a term
// ("greens" in "greens in a compost heap", "capital" in "capital of
// Australia").
type Subject struct {
	terms, heads map[string]bool
	words        Words
}

// Of returns what an English question asks the nature of, "What is a
// sourdough starter?" (or "What are …", "What was …", "What were …": the
// words after the copula, at most five), or nil for any other question.
func Of(question string, w Words) *Subject {
	words := w.Split(strings.ToLower(question))
	if len(words) < 3 || words[0] != "what" || !copulas()[words[1]] || words[1] == "means" || words[1] == "refers" {
		return nil
	}
	rest := words[2:]
	if len(rest) > 0 && determiners()[rest[0]] {
		rest = rest[1:]
	}
	if len(rest) == 0 || len(rest) > 5 {
		return nil
	}
	s := &Subject{terms: map[string]bool{}, heads: map[string]bool{}, words: w}
	last, cut := "", false
	for _, word := range rest {
		ts := w.Terms(word)
		if len(ts) == 0 {
			if last != "" && !cut {
				s.heads[last], cut = true, true
			}
			continue
		}
		for _, t := range ts {
			s.terms[t], last = true, t
		}
	}
	if last == "" {
		return nil
	}
	s.heads[last] = true
	return s
}

// DefinedBy reports whether an English sentence says what the subject is:
// it opens with a noun phrase of the subject's words alone, ending with one
// of its heads, and then a copula: "A starter is flour and water …" for
// "What is a sourdough starter?", "The capital of Australia is Canberra.",
// "Greens are fresh and moist …". False for a nil subject.
func (s *Subject) DefinedBy(sentence string) bool {
	if s == nil {
		return false
	}
	words := s.words.Split(strings.ToLower(withoutManSection(sentence)))
	if len(words) > 0 && determiners()[words[0]] {
		words = words[1:]
	}
	last := ""
	for i, w := range words {
		if i > 6 {
			return false
		}
		if copulas()[w] {
			return s.heads[last]
		}
		ts := s.words.Terms(w)
		if len(ts) == 0 {
			if s.words.Stop(w) {
				continue // "of" in "the capital of Australia"
			}
			return false
		}
		for _, t := range ts {
			if !s.terms[t] {
				return false
			}
			last = t
		}
	}
	return false
}

// withoutManSection drops the manual's section after a command's name
// ("sudo(8) is a program …", "ssh_config(5)"): the section is no word of
// the name, and a definition of sudo opens with it.
func withoutManSection(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '(')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := strings.IndexByte(s[i:], ')') // "(8)": 2
		before, _ := utf8.DecodeLastRuneInString(s[:i])
		if i > 0 && j >= 2 && j <= 6 && (lang.WordLetter(before) || unicode.IsDigit(before)) && s[i+1] >= '0' && s[i+1] <= '9' {
			b.WriteString(s[:i])
			s = s[i+j+1:]
			continue
		}
		b.WriteString(s[:i+1])
		s = s[i+1:]
	}
}
