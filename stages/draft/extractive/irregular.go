package extractive

import "strings"

// irregularPast gives the past forms of English verbs that do not end in
// "-ed" their verb, so that "Who did the Dutch fight?" meets "fought
// against Spain" and "When did the war begin?" meets "The war began in
// 1939." as "stored" meets "store". A list, not a rule, as ageNouns:
// forms that are also other words ("found", "left", "ground", "saw",
// "rose", "bound", "felt", "lit", "fell", "shot", "thought", "wound",
// "lay", "read", "bore", "fed", "met") are not in it, and neither are the
// stop words' ("did", "had", "said", "won", "known"). The drafter matches
// them (terms, matchForm); search and rank do not.
var irregularPast = func() map[string]string {
	m := map[string]string{}
	for _, line := range irregularVerbs {
		ws := strings.Fields(line)
		for _, w := range ws[1:] {
			if !stopWords[w] && !stopWords[ws[0]] {
				m[w] = ws[0]
			}
		}
	}
	return m
}()

// irregularVerb marks the verbs of irregularPast. A question's word is
// counted in the library in its own spelling only when its form is one of
// them (libraryFreqs): counting "make" with "made" made it weigh less.
var irregularVerb = func() map[string]bool {
	m := map[string]bool{}
	for _, v := range irregularPast {
		m[v] = true
	}
	return m
}()

// irregularVerbs: each verb, then its past forms that differ from it, a
// line each.
var irregularVerbs = enWords("irregular-verbs")
