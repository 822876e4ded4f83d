package extractive

import "math"

// The learned ranker (issue 13): for a question, a sentence's score is the
// chance that it holds the answer, from a logistic regression over the
// features below, trained on SQuAD 2.0 questions that the bench never
// reports on (internal/bench/extractive, `make extractive-ranker`; the
// weights are in ranker_weights.go). A claim to check keeps the hand-made
// score (Params.Score): its weights were measured on SciFact's claims.
//
// Every feature is one a person can read off the sentence: how many of the
// question's words it holds and how rare they are, whether they stand close
// together, whether they open the sentence, whether it holds the kind of
// answer asked for. None needs English, except the answer type and the
// negation, which are 0 for other languages.

// rankFeature names the features, in the order of RankFeatures.
var rankFeature = [...]string{
	"BM25 of the sentence",
	"share of the question's weight, idf over the passages",
	"share of the question's weight, idf over the library",
	"question word pairs repeated",
	"1 / the passage's rank",
	"the passage's score over the best one's",
	"place of the sentence in its passage",
	"SentenceAnswer",
	"share of the question's weight in the window",
	"heaviest question word the window lacks (at most 3)",
	"share of the question's names and numbers the window lacks",
	"holds the kind of answer asked for",
	"the question asks for a kind of answer",
	"the passage's Answer",
	"short sentence (content words over 6, at most 1)",
	"log(1 + content words)",
	"the question negates and the sentence does not",
	"holds the question's rarest word",
	"question words close together",
	"share of the question's weight among the first six words",
	"BM25 over the best sentence's",
	"weight held over the best sentence's",
	"share of the question's weight no item holds",
	"holds a unit of the measure asked for",
	"the question asks for a measure",
	"holds a name, and the question asks for one",
	"holds a number, and the question asks for one",
	"the question asks for a name",
	"share of the question's weight in the sentence before",
	"share of the question's weight in the sentence after",
	"opens with a word that points back",
	"points back, times the share in the sentence before",
	"share of the sentence's words the question lacks",
	"points back: share of the question's weight with the sentence before",
	"points back, and the question asks for a name",
	"holds a name of the kind asked for (\"What treaty\": \"the Lisbon Treaty\")",
}

// NumRankFeatures is how many features RankFeatures gives.
const NumRankFeatures = len(rankFeature)

// RankFeatureNames names the features of RankFeatures, for the bench.
func RankFeatureNames() []string { return rankFeature[:] }

// RankFeatures are the features of the learned ranker for c.
func RankFeatures(c *Candidate) []float64 {
	f := questionFlags(c)
	neg, asksType, asksUnit := f[0], f[1], f[2]
	asksName, asksNumber := 0.0, 0.0
	if c.weights != nil {
		switch c.weights.qtype {
		case typeName:
			asksName = 1
		case typeNumber:
			asksNumber = 1
		}
	}
	return []float64{
		c.BM25, c.Coverage, c.Covers, c.Bigram, 1 / float64(max(1, c.Rank)), c.PassageScore, c.Position,
		c.SentenceAnswer, c.Window, math.Min(c.Gap, 3), c.Names, c.Type, asksType, c.Answer,
		math.Min(1, float64(c.Terms)/6), math.Log1p(float64(c.Terms)), neg,
		c.Rarest, c.Proximity, c.Lead, c.RelBM25, c.RelCovers, c.Absent, c.Unit, asksUnit,
		c.Type * asksName, c.Type * asksNumber, asksName, c.Before, c.After, c.Refers, c.Refers * c.Before, c.Novel,
		c.Joined, c.Refers * asksName, c.Kind,
	}
}

// questionFlags are 1 or 0: the question negates and c does not; it asks
// for a kind of answer; for a measure; it holds names or numbers.
func questionFlags(c *Candidate) [4]float64 {
	var f [4]float64
	lw := c.weights
	if lw == nil {
		return f
	}
	for i, on := range []bool{lw.negates && !c.negates, lw.qtype != typeNone, len(lw.units) > 0, len(lw.names) > 0} {
		if on {
			f[i] = 1
		}
	}
	return f
}

// rankerScore is the chance, by the learned weights, that c holds the
// answer to the question.
func rankerScore(c *Candidate) float64 {
	z := rankerBias
	for i, f := range RankFeatures(c) {
		z += rankerWeights[i] * f
	}
	return 1 / (1 + math.Exp(-z))
}

// The answerability model: for a question, the chance that the best
// sentences (by the learned ranker) answer it at all, from a logistic
// regression over the features below, trained on the same questions, the
// unanswerable ones among them. Params.MinAnswerable refuses below it.
var answerFeature = [...]string{
	"the best sentence's chance of holding the answer",
	"log of that chance",
	"the second best sentence's chance",
	"the best passage's Answer",
	"share of the question's weight no item holds",
	"share of the question's weight in the best sentence's window",
	"the most in the two best windows",
	"least share of the question's names and numbers the two best windows lack",
	"the two best sentences hold the kind of answer asked for",
	"the question asks for a kind of answer",
	"the question negates and the best sentence does not",
	"share of the question's weight in the best sentence",
	"SentenceAnswer of the best sentence",
	"heaviest question word the best window lacks (at most 3)",
	"the best sentence holds the question's rarest word",
	"the question holds names or numbers",
}

// NumAnswerFeatures is how many features AnswerFeatures gives.
const NumAnswerFeatures = len(answerFeature)

// AnswerFeatureNames names the features of AnswerFeatures, for the bench.
func AnswerFeatureNames() []string { return answerFeature[:] }

// AnswerFeatures are the answerability model's features of a question
// whose best sentences, best first, are top (one or more).
func AnswerFeatures(top []*Candidate) []float64 {
	c := top[0]
	p2 := 0.0
	window, names, typed := c.Window, c.Names, c.Type
	for _, o := range top[1:] {
		p2 = math.Max(p2, o.Ranked)
		window, names, typed = math.Max(window, o.Window), math.Min(names, o.Names), math.Max(typed, o.Type)
	}
	f := questionFlags(c)
	neg, asksType, hasNames := f[0], f[1], f[3]
	return []float64{c.Ranked, math.Log(math.Max(c.Ranked, 1e-6)), p2, c.Answer, c.Absent, c.Window, window, names,
		typed, asksType, neg, c.Covers, c.SentenceAnswer, math.Min(c.Gap, 3), c.Rarest, hasNames}
}

// answerability is the chance, by the learned weights, that the question
// whose best sentences are top is answered by them.
func answerability(top []*Candidate) float64 {
	z := answerBias
	for i, f := range AnswerFeatures(top) {
		z += answerWeights[i] * f
	}
	return 1 / (1 + math.Exp(-z))
}
