package extractive

import (
	"strings"

	"github.com/sponge-library/sponge/internal/base/lang"
)

// english is the English lexicon (internal/base/lang/lexicons/en): the
// lists the rules written for English read. No English word list is kept
// in the drafter's Go code (TestNoWordListsInGo).
var english = lang.For("en")

// enWords returns the entries of an English list, in the order of its file.
func enWords(name string) []string {
	ws := english.Words(name)
	if ws == nil {
		panic("extractive: the English lexicon has no list " + name) // embedded: a build without it is broken
	}
	return ws
}

// enSet returns the entries of an English list as a set, lower-cased.
func enSet(name string) map[string]bool {
	m := map[string]bool{}
	for _, w := range enWords(name) {
		m[strings.ToLower(w)] = true
	}
	return m
}

// enPairs returns an English list whose lines are a word and the word it
// stands for ("3rd third").
func enPairs(name string) map[string]string {
	m := map[string]string{}
	for _, line := range enWords(name) {
		if k, v, ok := strings.Cut(line, " "); ok {
			m[k] = strings.TrimSpace(v)
		}
	}
	return m
}
