package extractive

import (
	"strings"
	"unicode"

	porterstemmer "github.com/blevesearch/go-porterstemmer"
)

// terms returns the content words of s, lower-cased and stemmed, in order.
// Words are runs of letters and digits; hyphens and slashes split words
// ("IL-2" gives "il" and "2") because texts write the same thing both ways.
func terms(s string) []string {
	var out []string
	start := -1
	flush := func(end int) {
		if start < 0 {
			return
		}
		w := strings.ToLower(s[start:end])
		start = -1
		if stopWords[w] {
			return
		}
		if len(w) == 1 && !isDigits(w) {
			return
		}
		if !isDigits(w) {
			w = porterstemmer.StemString(w)
		}
		out = append(out, w)
	}
	for i, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if r == '\'' || r == '’' {
			// "don't", "Alzheimer's": keep the word, drop the ending.
			flush(i)
			continue
		}
		flush(i)
	}
	flush(len(s))
	return out
}

func isDigits(w string) bool {
	for _, r := range w {
		if r < '0' || r > '9' {
			return false
		}
	}
	return w != ""
}

// stopWords are words that say nothing about the topic of a question or a
// sentence: function words, question words and the verbs of asking.
var stopWords = func() map[string]bool {
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

// Terms returns the content words of s as the drafter compares them:
// lower-cased, stemmed, without stop words.
func Terms(s string) []string { return terms(s) }
