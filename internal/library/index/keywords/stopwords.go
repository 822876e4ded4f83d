package keywords

import (
	"strings"
	"sync"
)

// StopWords are words that say nothing about the topic of a question:
// function words, question words and the verbs of asking. The index keeps
// them (dropping them measured worse on SciFact's test claims: nDCG@10 0.672
// against 0.680), but ranking paragraphs and picking sentences ignore them.
var StopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
a about above after again against all also am an and any are aren as at be because been before being below
between both but by can cannot could couldn did didn do does doesn doing don down during each either else ever
every few for from further had hadn has hasn have haven having he her here hers herself him himself his how i if
in into is isn it its itself just let ll me might more most much must mustn my myself neither no nor not now of
off on once only or other others ought our ours ourselves out over own per rather re s same shall shan she should
shouldn since so some such t than that the their theirs them themselves then there these they this those though
through thus to too under until up upon us ve very via was wasn we were weren what whatever when where whether which
while who whom whose why will with within without won would wouldn yet you your yours yourself yourselves
tell know explain describe please anyone someone something thing things way ways get got gets really
d m o y ain`) {
		m[w] = true
	}
	return m
}()

// stopTerms are the stop words as terms ("having" is "have"), what
// QuestionTerms compares a question's terms with. The words are analysed
// together, in one text: each is a word of ASCII letters, which the analyzer
// turns into its terms alone, and one call instead of one a word was 1% of
// the CPU of every question (TestStopTermsTogether).
var stopTerms = sync.OnceValue(func() map[string]bool {
	words := make([]string, 0, len(StopWords))
	for w := range StopWords {
		words = append(words, w)
	}
	terms := Terms(strings.Join(words, " "))
	m := make(map[string]bool, len(terms))
	for _, t := range terms {
		m[t] = true
	}
	return m
})

// QuestionTerms returns the distinct index terms of a question that are not
// stop words; a question made only of stop words keeps them all.
func QuestionTerms(question string) []string {
	all := Terms(question)
	var out, every []string
	seen := map[string]bool{}
	for _, t := range all {
		if seen[t] {
			continue
		}
		seen[t] = true
		every = append(every, t)
		if !stopTerms()[t] {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return every
	}
	return out
}
