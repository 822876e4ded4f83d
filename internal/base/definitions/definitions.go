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

// copulas say what a subject is, determiners open a noun phrase, and an
// indefinite article opens what an apposition says a thing is; read from
// the English lexicon on first use.
var copulas, determiners, indefinites = lexiconSet("copulas"), lexiconSet("determiners"), lexiconSet("indefinite-articles")

// asksDoes holds the pairs of words that open and close a question asking
// what a thing does ("does … do"), each as "does do".
var asksDoes = lexiconSet("asks-does")

// joins are the words that join a noun phrase to more of it: no verb.
var joins = lexiconSet("noun-phrase-joins")

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
	does         bool // the question asks what it does: any verb may follow it
}

// maxSubject is the most words of a subject after its determiner.
const maxSubject = 5

// Of returns what an English question asks the nature of, "What is a
// sourdough starter?" (or "What are …", "What was …", "What were …": the
// words after the copula, at most maxSubject), or nil for any other
// question. (Not counting stop words, "fork of a free software project", lost
// SQuAD questions their first statement: 0.701 -> 0.695 on the tuning half.)
func Of(question string, w Words) *Subject {
	words := w.Split(strings.ToLower(question))
	if len(words) < 3 || words[0] != "what" {
		return nil
	}
	rest, does := words[2:], asksDoes()[words[1]+" "+words[len(words)-1]]
	switch {
	case does:
		rest = words[2 : len(words)-1]
	case !copulas()[words[1]] || words[1] == "means" || words[1] == "refers":
		return nil
	}
	if len(rest) > 0 && determiners()[rest[0]] {
		rest = rest[1:]
	}
	if len(rest) == 0 || len(rest) > maxSubject {
		return nil
	}
	s := &Subject{terms: map[string]bool{}, heads: map[string]bool{}, words: w, does: does}
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
// "Greens are fresh and moist …", also with an aside between commas before
// the copula (withoutAside: "A “fork”, in the software field, means a new
// project …"); or it names the subject, all its words, just before a
// comma and an article that opens what it is (apposed: "… create a virtual
// environment, a self-contained directory tree …"). False for a nil
// subject.
func (s *Subject) DefinedBy(sentence string) bool {
	if s == nil {
		return false
	}
	sentence = withoutManSection(sentence)
	return s.opens(withoutAside(withoutBracketed(sentence))) || s.apposed(sentence)
}

// holdsAll reports whether ts are terms, all of the subject's.
func (s *Subject) holdsAll(ts []string) bool {
	for _, t := range ts {
		if !s.terms[t] {
			return false
		}
	}
	return len(ts) > 0
}

// withoutBracketed returns sentence without its first aside in brackets
// of at most maxAside words after a space: "The getent (get entries)
// command checks …".
func withoutBracketed(sentence string) string {
	i := strings.Index(sentence, " (")
	if i < 0 {
		return sentence
	}
	j := strings.IndexByte(sentence[i:], ')')
	if j < 0 || len(strings.Fields(sentence[i+2:i+j])) > maxAside {
		return sentence
	}
	return sentence[:i] + sentence[i+j+1:]
}

// opens reports whether sentence opens with a noun phrase of the subject's
// words, ending with one of its heads, and then a copula (any word, when the
// question asks what it does).
func (s *Subject) opens(sentence string) bool {
	words := s.words.Split(strings.ToLower(sentence))
	if len(words) > 0 && determiners()[words[0]] {
		words = words[1:]
	}
	last, stop, seen := "", false, map[string]bool{}
	for i, w := range words {
		if i > 6 {
			return false
		}
		if copulas()[w] {
			// The copula follows the head: "A key that is accepted …"
			// says what the key does, not what it is.
			return s.heads[last] && !stop
		}
		ts := s.words.Terms(w)
		if s.does && last != "" && !joins()[w] && !s.holdsAll(ts) {
			// Any verb may follow what a "What does … do?" question
			// asks about, all its words: "The pass statement does
			// nothing.", not "The statement then does …".
			return s.heads[last] && !stop && len(seen) == len(s.terms)
		}
		stop = len(ts) == 0
		if len(ts) == 0 {
			if s.words.Stop(w) && (last != "" || !s.does) { // "If X is in force" opens no definition of X
				continue // "of" in "the capital of Australia"
			}
			return false
		}
		for _, t := range ts {
			if !s.terms[t] {
				return false
			}
			last, seen[t] = t, true
		}
	}
	return false
}

// maxAside is the most words of an aside between commas after a
// sentence's first words ("in the software field").
const maxAside = 5

// withoutAside returns sentence without the words between its first two
// commas when they are few (maxAside): "A “fork”, in the software field,
// means …" is "A “fork” means …".
func withoutAside(sentence string) string {
	i := strings.IndexByte(sentence, ',')
	if i < 0 {
		return sentence
	}
	j := strings.IndexByte(sentence[i+1:], ',')
	if j < 0 || len(strings.Fields(sentence[i+1:i+1+j])) > maxAside {
		return sentence
	}
	return sentence[:i] + sentence[i+1+j+1:]
}

// apposed reports whether sentence names the subject, each of its terms in
// the words just before a comma, the last a head, and an indefinite
// article opens the words after the comma: an apposition says what the
// subject is. Not "the": "In a virtual environment, the packages …" opens
// with a phrase, then the sentence.
func (s *Subject) apposed(sentence string) bool {
	parts := strings.Split(strings.ToLower(sentence), ",")
	for i := 0; i+1 < len(parts); i++ {
		after := s.words.Split(parts[i+1])
		if len(after) == 0 || !indefinites()[after[0]] {
			continue
		}
		words := s.words.Split(parts[i])
		if len(words) == 0 {
			continue
		}
		if ts := s.words.Terms(words[len(words)-1]); len(ts) == 0 || !s.heads[ts[len(ts)-1]] {
			continue
		}
		seen := map[string]bool{}
	phrase:
		for k := len(words) - 1; k >= 0; k-- {
			ts := s.words.Terms(words[k])
			if len(ts) == 0 && !s.words.Stop(words[k]) {
				break
			}
			for _, t := range ts {
				if !s.terms[t] {
					break phrase
				}
			}
			for _, t := range ts {
				seen[t] = true
			}
		}
		if len(seen) == len(s.terms) {
			return true
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
