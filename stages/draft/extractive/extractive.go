// Package extractive answers a question without a model: it picks the
// sentences of the ranked passages that answer it best and quotes them
// verbatim, so every statement is a quote that verification will find.
//
// Each sentence gets a score from features measured on the SciFact training
// claims (see internal/bench/extractive): BM25 of the sentence against the question
// (idf over the sentences of all passages), the share of the question's
// weight it covers, question bigrams it repeats, the passage's rank and
// score, where the sentence stands in its passage and how long it is.
// Sentences are then picked greedily, best first, with a penalty for
// repeating what a picked sentence already says (maximal marginal relevance)
// and a smaller one for staying in a passage already quoted.
//
// An answer is not padded: a statement after the first comes from an item
// that answers nearly as well as the best one and scores at least a share
// of the first statement's score; from another item than the first
// statement's, it holds two of the question's words, not one; a
// sentence that asks a question is never quoted as an answer; and one
// that tells what unnamed others say ("People say …") weighs half
// (Params.Hearsay), and after a question opening its paragraph makes that
// paragraph a question the next one answers (leadIn).
//
// A statement is a sentence, or the clause of a sentence longer than
// MaxStatement characters that holds the answer; code listings, tables of
// keys and navigation lines are never statements (IsStatement). Two
// sentences that say the same thing count once, and for a question a later
// statement must score 0.7 of the first: a strong first statement stands
// alone.
//
// A question's statements are ordered by a learned ranker (ranker.go): a
// logistic regression over the same features and a few more (the unit a
// measure is asked in, the rarest word, how close the question's words
// stand, the words that open the sentence, the question's words in the
// sentences before and after, a first word that points back and what it
// holds with the sentence before), fitted on the
// sentences of SQuAD 2.0 questions the bench never asks that have an
// answer; a sentence's score is then its chance of holding the answer. A
// claim to check keeps the hand-made score.
//
// When no sentence covers enough of the question the drafter writes nothing,
// and the answer is that nothing in the library answers it. A question (not
// a claim to check) is also refused when its words do not meet near the best
// sentences, its names and numbers are not there (a name may be there in
// another form: "Persia" for "Persian", "World War II" for "WWII"), or it
// asks with a negation
// the best sentence lacks, or it asks for a number or a date ("How many
// …?", "In what year …?") that none of the best sentences holds (in digits
// or in words: "one", "none", "during the Second World War"). Under a
// section heading that holds the question's rarest word, a measure in the
// unit asked ("thirty seconds") stands for the word that asks it ("How
// long …?"), when the question's other words the section lacks are
// measured elsewhere on its scale ("steeping" in minutes, not "keeps" in
// months). Accents of Latin letters are dropped when words are compared. The thresholds
// were chosen by measurement: see DefaultParams. Choose says why each
// statement was chosen, or why none was.
package extractive

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/sponge-library/sponge/internal/base/lang"
	"github.com/sponge-library/sponge/internal/library/index/keywords"
	"github.com/sponge-library/sponge/jsonl"
)

// Params are the weights of the sentence score and the rules of picking.
type Params struct {
	// BM25 of a sentence against the question.
	K1, B float64
	// Weights of the features, added to the normalised BM25 score.
	Coverage     float64 // share of the question's idf weight the sentence has
	PassageRank  float64 // 1/rank of the passage
	PassageScore float64 // the passage's score over the best passage's score
	Position     float64 // 0 for the first sentence of a passage, 1 for the last
	Covers       float64 // share of the question's weight, idf over the library
	// Sentences with fewer content words than ShortLen are scaled down.
	ShortLen int
	// SamePassage is subtracted for every sentence already picked from
	// the same passage.
	SamePassage float64
	// The refusal threshold: MinAnswer is on the best passage's Answer:
	// when no passage reaches it, nothing is written.
	MinAnswer float64
	// MinAnswerFew is the floor instead of MinAnswer for a question of
	// one or two weighed words in a language whose lexicon has the trait
	// "few-question-words" (Korean, Russian: see floorOf).
	MinAnswerFew float64
	// MaxAbsent: nothing is written when more than this share of the
	// question's weight is in words the library does not hold at all
	// (0 turns the rule off): "How fast can a cheetah run?" is not
	// answered by a passage on running when no item mentions a cheetah.
	MaxAbsent float64
	// Every sentence written comes from a passage whose Answer reaches
	// MinEachAnswer.
	MinEachAnswer float64
	// MinRelative: a sentence after the first is written only when its
	// score is at least this share of the first one's; for a question,
	// MinRelativeQuestion. A question asks for one thing, which one
	// sentence often says; a claim to check is met by several sentences
	// of evidence.
	MinRelative, MinRelativeQuestion float64
	// A rule against padding, for every statement after the first (0
	// turns it off). MinItemAnswer: its item's best passage has an Answer
	// of at least this share of the best item's, so an item that only
	// shares a word or two with the question is not quoted beside one
	// about it.
	MinItemAnswer float64
	// MinOtherWords: a statement after the first from another item than
	// the first statement's holds at least this many of the question's
	// words (all of them when it has fewer), so that one shared word does
	// not bring in a sentence from an item about something else ("If the
	// centre never rises above thirty degrees, the heap is too small …"
	// for "How hot should green tea be?").
	MinOtherWords int
	// Hearsay scales the score of a sentence that tells what unnamed
	// others say or believe ("People say the blue light keeps them
	// awake.", "Some believe …"), for a question: the text reports the
	// opinion, often to answer it next, so it weighs less than a sentence
	// that says something itself (0 or 1: off). (Whatever it is, a
	// paragraph that opens with a question and then only tells such an
	// opinion, an interviewer's lead-in, is a question the next paragraph
	// answers, as one ending in a question mark is: see leadIn.)
	Hearsay float64
	// PriorDocs is how many documents without any of the question's words
	// are counted in the library when weighing words (see libraryWeights).
	PriorDocs float64
	// Max is the most statements written.
	Max int
	// Weight of SentenceAnswer in the score (issue 13: on SQuAD 2.0 it
	// puts the sentence that holds the answer first more often).
	SentenceWeight float64
	// Refusals on the subject, for a question (see asks) rather than a
	// claim to check (0 or false turns a rule off). Negation:
	// a question that negates ("What is not used …?") is refused when the
	// best sentence does not negate. MaxNames: refused when each of the
	// NamesTop best sentences' windows lacks more than this share of the
	// question's names and numbers.
	// MinWindow: refused when no window of the NamesTop best sentences
	// holds this share of the question's weight.
	Negation bool
	// JoinBack quotes a statement that points back ("At that temperature
	// weed seeds are killed.", "It was founded in 1209.") with the
	// sentence before it, whose words it points to, when the two together
	// are at most MaxStatement characters: alone, it does not say what
	// "that temperature" or "it" is. When that sentence is a statement too,
	// the two are one.
	JoinBack bool
	// DefinitionFirst shows first a statement that says what the question
	// asks about is ("A starter is flour and water …" for "What is a
	// sourdough starter?"; subjectOf, Subject.DefinedBy).
	DefinitionFirst bool
	// TypeRefusal: a question that asks for a date or a number is refused
	// when none of the NamesTop best sentences holds one the question does
	// not ("How many settled in Bedford?" and "Some settled in Bedford."),
	// nor, for a sentence that opens its item, the sentence after it.
	TypeRefusal bool
	// Ordinals: the question's ordinals ("first", "second", "last") count
	// among its names and numbers for MaxNames.
	Ordinals  bool
	MaxNames  float64
	MinWindow float64
	NamesTop  int
	// Same: a sentence that shares this share of its words with one
	// already picked says the same thing, and is not written (0: off).
	Same float64
	// Sentences quotes whole sentences, however long, listings and
	// navigation lines too (as before issue 13), instead of statements
	// (IsStatement) of at most MaxStatement characters. For comparison.
	Sentences bool
	// Ranker: a question's statements are ordered by the learned ranker
	// (Candidate.Ranked, the chance that the sentence holds the answer),
	// not by the weights above, which stay a claim's and still choose the
	// sentences the rules of refusal look at.
	Ranker bool
	// UnitFirst: when a question asks for a measure ("At what temperature
	// …?") and the best statement holds none in the unit asked for, a
	// later shown statement that holds one comes first. It only reorders
	// what is shown: the ranker can put an item's opening line above the
	// sentence with the number, as it did for the demo's sourdough question.
	UnitFirst bool
	// CodeFirst: when a question asks how to do something ("How do I
	// reinstall a package …?") and the best statement writes no command,
	// option or path the question does not, a later shown statement that
	// does comes first ("… use the --reinstall option of the apt and
	// apt-get commands." after "The easiest way to retrieve these files is
	// to reinstall the affected package.", which restates the question).
	CodeFirst bool
	// Stems: the rules of refusal on the subject (the window and the
	// names) count a question's word as held when the text holds it with
	// another English ending (stemHeld).
	Stems bool
	// UnheldPairs: the window rule does not count the question's pairs
	// of characters (Chinese, Japanese) that no item holds: most stand
	// across two words («島寄», «寄東» in "為何從關島寄東西到美國…"), and
	// weighed as words the library lacks, they kept every window under
	// MinWindow (the absent words rule weighs what the library lacks).
	UnheldPairs bool
	// Narrower: for a question, a statement after the first from a passage
	// not quoted yet is not written when the first statement's passage is
	// about a question's word (its title or heading holds it) that the
	// later one's passage never holds, and the later one adds none of the
	// question's words: it is about something else ("Tea should be taken
	// in solitude." under "Black tea" after "Keep tea in an airtight tin
	// …" under "Storage", for "How should I store tea?").
	Narrower bool
	// NameLines: a manual page's NAME line ("tar - an archiving utility",
	// isNameLine) is a statement for a "What is …?" question only: for
	// another it says what the command is, not what was asked, and was
	// quoted first ("What does the name tar stand for?", "Where does
	// ssh-keygen put the key pair it makes?").
	NameLines bool
	// Kin: the names rule counts a question's name as held when the
	// window holds it in another form a name takes: a people's or a
	// language's word for its place ("Persian" and "Persia", "British"
	// and "Britain", "Israelis" and "Israel"), or the initials of the
	// words it is short for ("EU" and "European Union"); see kinHeld.
	Kin bool
	// Swapped: a question is refused when the best sentence holds a word
	// that stands next to one of the question's names with another name in
	// that name's place, and no window of the NamesTop best sentences
	// holds the question's name ("the North American theater" for "When
	// did the South American French and Indian War end?", "Ekstraklasa
	// Championship" for "Who won the PZPN Championship in 2000?"): an
	// entity swapped, the kind of SQuAD 2.0's unanswerable questions most
	// often answered (refuseSwapped).
	Swapped bool
	// Options: a question that names a program's option ("What does rsync
	// --delete do?", "What does ssh -L do?") is answered only by sentences
	// whose window writes the option as the question does (see options);
	// none, and the question is refused.
	Options bool
	// EntryFirst: of the statements of a question that names an option,
	// the one that opens a manual's entry for it is shown first (entryFirst).
	EntryFirst bool
	// SectionMeasure: a section's heading answers for its paragraph. In a
	// passage under a section heading (not its item's title) that holds
	// the question's rarest word, the passage floor (MinAnswer) and the
	// window rule count the word the question asks for a measure or a
	// number with ("long" in "How long …?", "many" in "How many …?") as
	// held by a measure in the unit it asks for ("thirty seconds") or a
	// number: the answer gives the measure without repeating the word
	// ("How long should I steep oolong?" and the paragraph under "Oolong"
	// that says "start at thirty seconds"). Not in any passage: then
	// "How long do rabbits live?" meets "… rabbits fed … for 6 or 9
	// months" (see measureHeld).
	SectionMeasure bool
	// MeasureScale: a section's measure stands for the question's measure
	// word only when each other word of the question that the section
	// lacks (its predicate: "steep", "keep") is measured elsewhere in the
	// passages on the same scale (sameScale: of a kind, at most one place
	// apart): "How long should I steep oolong?" is answered by the
	// paragraph under "Oolong" that says "start at thirty seconds", since
	// the black tea paragraph says "steeping" and "three to five minutes";
	// "How long does oolong keep?" is not, since tea keeps "about six
	// months" (see measuredWith).
	MeasureScale bool
	// OtherScale: for a question that asks for a measure, a statement
	// after the first that holds one is not written when its passage
	// measures something else (measures.scales): "Green tea keeps about
	// six months once opened" under "Storage", for "How long should black
	// tea steep?", where the other passages that say "steep" measure
	// minutes.
	OtherScale bool
	// Spelled: the answer-type rule (TypeRefusal) counts a number or a
	// date written in words that the learned ranker's feature does not
	// read: "one", "none", "fifteen", "during the Second World War"
	// (holdsSpelled).
	Spelled bool
}

// DefaultParams are the drafter's weights and rules as tuned: on the 505
// SciFact training claims that have evidence and on SQuAD 2.0's tuning half
// (go run ./internal/bench/extractive prints the tables). Each round of
// tuning, what was tried and what was kept, is in
// internal/bench/extractive/TUNING.md.
var DefaultParams = Params{
	K1: 1.2, B: 0.75,
	Coverage:            1.5,
	PassageRank:         0.5,
	PassageScore:        0.6,
	Position:            0.05,
	Covers:              0.5,
	ShortLen:            6,
	SamePassage:         0.1,
	MinAnswer:           0.55,
	MinAnswerFew:        0.45,
	MaxAbsent:           0.30,
	MinEachAnswer:       0.3,
	MinItemAnswer:       0.65,
	PriorDocs:           1000,
	Max:                 6,
	SentenceWeight:      0.5,
	MinRelative:         0.4,
	MinRelativeQuestion: 0.35,
	Negation:            true,
	JoinBack:            true,
	DefinitionFirst:     true,
	MaxNames:            0.4,
	NamesTop:            2,
	TypeRefusal:         true,
	Ordinals:            true,
	MinWindow:           0.4,
	MinOtherWords:       2,
	Hearsay:             0.5,
	Same:                0.8,
	Ranker:              true,
	UnitFirst:           true,
	CodeFirst:           true,
	Stems:               true,
	UnheldPairs:         true,
	Narrower:            true,
	NameLines:           true,
	Kin:                 true,
	Swapped:             true,
	Options:             true,
	EntryFirst:          true,
	SectionMeasure:      true,
	MeasureScale:        true,
	OtherScale:          true,
	Spelled:             true,
}

// Candidate is one sentence of a passage with the features of its score.
type Candidate struct {
	Passage int    // the passage's number
	Item    string // the passage's item
	Rank    int    // 1-based position of the passage in the input
	Quote   string // the sentence, verbatim
	Index   int    // position of the sentence in its passage

	BM25     float64 // over the sum of the question's idf
	Coverage float64 // share of the question's idf weight, idf over the passages
	// Covers is the share of the question's weight that the sentence
	// holds, with idf over the library (over the passages when the
	// library's counts are not known).
	Covers float64
	// Answer measures how well the sentence's passage (with its title and
	// heading) answers the question: the share of the question's weight
	// it holds, times the square root of that weight over the weight of a
	// word found once. A passage answers when it has most of the question's
	// words and they are not all common ones. This separated the SciFact
	// claims from the questions about other topics best of the measures
	// tried (internal/bench/extractive).
	Answer float64
	// Absent is the share of the question's weight in words that the
	// library does not hold at all; the same for every sentence.
	Absent float64
	// SentenceAnswer is the same measure for the sentence with its
	// passage's title and heading.
	SentenceAnswer float64
	// Window is the share of the question's weight held by the window
	// around the sentence: the sentence, the sentences before and after
	// it, and its passage's title and heading. Gap is the weight of the
	// heaviest question word the window lacks (over the weight of a word
	// found once in the library), Names the share of the question's names
	// and numbers it lacks: the question's rare words must meet near the
	// answer, not only somewhere in its passage.
	Window, Gap, Names float64
	// Type is 1 when the sentence holds the kind of answer the question
	// asks for and the question does not (questionType, holdsType).
	Type         float64
	Bigram       float64
	PassageScore float64
	Position     float64
	Terms        int // content words
	// Rarest is 1 when the sentence holds the question's heaviest word.
	// Proximity is how close the question's words stand in the sentence:
	// those it holds over the shortest run of its words holding them all
	// (0 when it holds fewer than two). Lead is the share of the
	// question's weight among the sentence's first six content words: the
	// sentence is about what the question asks about ("Black tea wants
	// …" for "How long should black tea steep?"). RelBM25 and RelCovers
	// are BM25 and Covers over the best of all sentences.
	// Unit is 1 when the question asks for a measure and the sentence
	// holds a unit it is written in ("minutes" for "How long …?").
	Rarest, Proximity, Lead, RelBM25, RelCovers, Unit float64
	// Before and After are the shares of the question's weight held by
	// the sentence before and the one after (0 at a passage's ends): the
	// answer often follows the sentence that names the question's subject.
	// Refers is 1 when the sentence opens with a word that points back
	// ("It", "He", "They", "This" …; English only). Novel is the share of
	// the sentence's content words the question does not hold: a sentence
	// that only repeats the question does not hold its answer.
	Before, After, Refers, Novel float64
	// Joined is, for a sentence that points back (Refers), the share of
	// the question's weight it holds together with the sentence before,
	// whose subject it names ("He died in 1259." after "Möngke Khan
	// succeeded …"); 0 for any other sentence.
	Joined float64
	// Kind is 1 when the question asks for a name of a kind ("What treaty
	// …?") and the sentence holds one the question does not ("the Lisbon
	// Treaty"; holdsNamedKind).
	Kind float64
	// Ranked is the learned ranker's chance that the sentence holds the
	// answer (see ranker.go).
	Ranked float64
	// withBefore is the sentence before and this one, when this one points
	// back (pointsBack) and the two fit in a statement; "" otherwise.
	withBefore string

	terms map[string]bool
	// question: the sentence asks rather than tells (it ends in a question
	// mark, or announces one: "Today we look at how volcanoes erupt."), so
	// it is not an answer, however many of the question's words it
	// repeats. hearsay: it tells what unnamed others say (see
	// Params.Hearsay).
	question, hearsay bool
	// defines: the sentence says what the question asks about is
	// (Subject.DefinedBy).
	defines bool
	// held marks the question's words the sentence holds (bit i for the
	// i-th word of weights), for MinOtherWords.
	held    uint64
	weights *libraryWeights
	// headHeld marks those the sentence holds with its passage's title and
	// heading (and the question the passage answers), about those the
	// title and heading hold alone, and passageHeld those the passage
	// holds with them, for Narrower.
	headHeld, about, passageHeld uint64
	// window is the text of the window (see Window); negates: the
	// sentence holds a negation.
	window  string
	negates bool
	// nextTyped: the sentence opens its item (the first of its first
	// paragraph) and the sentence after it holds an answer of the type
	// the question asks for (TypeRefusal).
	nextTyped bool
	// lacksOption is the first of the question's options that the window
	// does not write, "" when it writes each; definesOptions: the passage
	// opens with each of them, as a manual's entry for it does
	// (Params.Options).
	lacksOption    string
	definesOptions bool
	// headed: the question asks for a measure and the passage's section
	// heading holds its rarest word; measureAnswer is then Answer with the
	// question's measure word held by the measure it asks for
	// (Params.SectionMeasure).
	measureAnswer float64
	headed        bool
	// scaled: the words of the question the passage lacks besides its
	// measure word are measured in other passages on the scale of its
	// measure (Params.MeasureScale). offScale: the passage measures
	// something else than the question asks about (Params.OtherScale).
	scaled, offScale bool
	// typed is the word that made Type 1 (typeHeld), for --explain.
	typed string
	// code is, for a question that asks how to do something, the first
	// word the sentence writes as code and the question does not
	// (heldCode: a command's option, a path), "" when none (CodeFirst).
	code string
	// spelled: the sentence holds the kind of answer asked for written in
	// words the Type feature does not read (Params.Spelled).
	spelled bool
	// heading and title are the passage's, and answers the question the
	// passage before it asks (see Candidates), named by --explain when the
	// sentence holds none of the question's words and they do.
	heading, title, answers string
	// lex is the lexicon of the sentence's language (its passage's), in
	// which the rules that read the sentence with a list read it: nil for
	// a candidate made without a question (a test's), read as English.
	lex *lang.Lexicon
}

// reads reports whether the lexicon of c's language has each list: where
// one that a rule reads c with lacks, the rule is off for c (an English
// question's negation rule does not read a German sentence with English
// words).
func (c *Candidate) reads(lists ...string) bool {
	return c.lex == nil || !slices.ContainsFunc(lists, func(l string) bool { return !c.lex.Knows(l) })
}

// Score is the candidate's score under p.
func (p *Params) Score(c *Candidate) float64 {
	if p.ranks(c) {
		return ruleRanker.weigh(p, c, p.handScore(c))
	}
	return p.handScore(c)
}

// handScore is the hand-made score: the weighted features of Params.
func (p *Params) handScore(c *Candidate) float64 {
	s := c.BM25 + p.Coverage*c.Coverage +
		p.PassageRank/float64(c.Rank) + p.PassageScore*c.PassageScore + p.Position*c.Position +
		p.Covers*c.Covers + p.SentenceWeight*c.SentenceAnswer
	if c.Terms < p.ShortLen && p.ShortLen > 0 {
		s *= float64(c.Terms) / float64(p.ShortLen)
	}
	return s
}

// weighsLess reports whether c's score is scaled by Hearsay: it answers a
// question, not a claim (a claim may well be what people say).
func (p *Params) weighsLess(c *Candidate) bool {
	return c.hearsay && c.weights != nil && p.uses(ruleHearsay, c.weights)
}

// ranks reports whether c is scored by the learned ranker: p says so and
// c answers a question, not a claim.
func (p *Params) ranks(c *Candidate) bool {
	return c.weights != nil && p.uses(ruleRanker, c.weights)
}

// Own is the part of the candidate's score that is the sentence's own:
// how well its words match the question, not its passage's rank or score.
func (p *Params) Own(c *Candidate) float64 {
	s := c.BM25 + p.Coverage*c.Coverage + p.Covers*c.Covers
	if c.Terms < p.ShortLen && p.ShortLen > 0 {
		s *= float64(c.Terms) / float64(p.ShortLen)
	}
	return s
}

// Corpus gives the document frequencies of words in the whole library
// (index.Index does), to weigh the words of a question by their rarity.
type Corpus interface {
	DocFreqs(terms []string) (df map[string]int, docs int, err error)
}

// proximity is how close the question's words (qset) stand in a sentence
// of words toks: how many of them it holds over the shortest run of words
// that holds them all; 0 when it holds fewer than two.
func proximity(toks []string, qset map[string]bool) float64 {
	want := map[string]bool{}
	for _, t := range toks {
		if qset[t] {
			want[t] = true
		}
	}
	if len(want) < 2 {
		return 0
	}
	count := map[string]int{}
	have, best, lo := 0, len(toks)+1, 0
	for hi, t := range toks {
		if !want[t] {
			continue
		}
		if count[t]++; count[t] == 1 {
			have++
		}
		for have == len(want) {
			if n := hi - lo + 1; n < best {
				best = n
			}
			if l := toks[lo]; want[l] {
				if count[l]--; count[l] == 0 {
					have--
				}
			}
			lo++
		}
	}
	return float64(len(want)) / float64(best)
}

// similarity is the share of the smaller sentence's words the two share.
func similarity(a, b *Candidate) float64 {
	if len(a.terms) == 0 || len(b.terms) == 0 {
		return 0
	}
	small, big := a.terms, b.terms
	if len(small) > len(big) {
		small, big = big, small
	}
	shared := 0
	for t := range small {
		if big[t] {
			shared++
		}
	}
	return float64(shared) / float64(len(small))
}

// Answerable reports whether any sentence answers the question well
// enough to be written: its passage's Answer reaches MinAnswer and the
// sentence holds MinCovers of the question's weight, and no more than
// MaxAbsent of the question's weight is in words the library lacks.
func Answerable(cands []*Candidate, p *Params) bool {
	return refusal(cands, p) == ""
}

// short writes a score that fell short of a threshold with two decimals,
// rounded down: 0.549 against 0.55 reads "0.54", not "0.55, 0.55 is
// needed" (the 1e-9 keeps 0.29, 28.999… hundredths in floating point,
// "0.29").
func short(score float64) string {
	return strconv.FormatFloat(math.Floor(score*100+1e-9)/100, 'f', 2, 64)
}

// refusal says why no sentence may be written, or "" when some may: the
// rules on the passages (absent words, the passage floor).
func refusal(cands []*Candidate, p *Params) string {
	if len(cands) == 0 {
		return "no sentence of the passages holds a word of the question"
	}
	in := &refusalInput{cands: cands, lw: cands[0].weights, p: p}
	for _, r := range rules {
		if r.passage != nil && p.uses(r, in.lw) {
			if why := r.passage(in); why != "" {
				return why
			}
		}
	}
	return ""
}

// Answer is what the drafter chose: the statements, best first, with why
// each was chosen, or why none was.
type Answer struct {
	Statements []*Candidate
	// Why says, for each statement, why it was chosen.
	Why []string
	// Refused says why nothing is written; "" when something is.
	Refused string
	// Answerable is the answerability model's chance that the best
	// sentences answer the question, and AnswerFeatures its features
	// (for the bench); both unset when the model was not asked.
	Answerable     float64
	AnswerFeatures []float64
}

// Select picks the sentences to write, best first; none when the question
// is not Answerable.
func Select(cands []*Candidate, p *Params) []*Candidate {
	return Choose(cands, p).Statements
}

// Choose picks the sentences to write, best first, and says why.
func Choose(cands []*Candidate, p *Params) *Answer {
	if p.Max <= 0 {
		return &Answer{Refused: "no statement may be written"}
	}
	if why := refusal(cands, p); why != "" {
		return &Answer{Refused: why}
	}
	if lw := cands[0].weights; lw != nil && len(lw.options) > 0 && p.uses(ruleOptions, lw) {
		kept, why := ruleOptions.keep(cands)
		if why != "" {
			return &Answer{Refused: why}
		}
		cands = kept
	}
	ch := newChoice(uniqueQuotes(cands), p)
	a := &Answer{}
	if why := subjectRefusal(ch.cands, ch.order, ch.ruleOrder, ch.eligible, p, a); why != "" {
		a.Refused = why
		return a
	}
	ch.pick(a)
	if len(a.Statements) == 0 {
		a.Refused = "no sentence is a statement that answers it"
	}
	for _, r := range rules {
		if r.reorder != nil && p.uses(r, ch.cands[0].weights) {
			r.reorder(ch, a)
		}
	}
	return a
}

// withOptions keeps, of the candidates of a question that names a
// program's option, those whose window writes it, preferring a manual's
// entry for it; why says why none is kept.
func withOptions(cands []*Candidate) (kept []*Candidate, why string) {
	kept = cands[:0:0]
	lacking := ""
	for _, c := range cands {
		if c.lacksOption == "" {
			kept = append(kept, c)
		} else if lacking == "" {
			lacking = c.lacksOption
		}
	}
	if len(kept) == 0 {
		return nil, fmt.Sprintf("no sentence near the question's words writes the option %s", quoteWords([]string{lacking}))
	}
	// A manual's entry for the option answers what it does; other
	// sentences only use it ("if a compression option (e.g. -z) was
	// used").
	entries := kept[:0:0]
	for _, c := range kept {
		if c.definesOptions {
			entries = append(entries, c)
		}
	}
	if len(entries) > 0 {
		kept = entries
	}
	// Of several programs' entries for the option, the one of the
	// program the question names ("ssh -D": ssh(1)'s, not scp(1)'s).
	if named := ofNamedProgram(kept, cands[0].weights.question); len(named) > 0 {
		kept = named
	}
	return ownEntries(kept), ""
}

// uniqueQuotes keeps a sentence that stands in several passages once, in
// its best-ranked passage.
func uniqueQuotes(cands []*Candidate) []*Candidate {
	seen := map[string]bool{}
	unique := cands[:0:0]
	for _, c := range cands {
		key := strings.Join(strings.Fields(c.Quote), " ")
		if !seen[key] {
			seen[key] = true
			unique = append(unique, c)
		}
	}
	return unique
}

// choice is Choose's work on a question's candidates: their scores (base)
// and orders, each item's best Answer, what is picked so far.
type choice struct {
	cands []*Candidate
	p     *Params
	// base is each candidate's score, order the candidates by it, best
	// first; ruleOrder by the hand-made score, which the rules of refusal
	// look at (order when the ranker is off).
	base             []float64
	order, ruleOrder []int
	itemAnswer       map[string]float64
	bestItem         float64
	minRelative      float64
	used             []bool
	perPassage       map[int]int
	first            float64 // the first statement's score
}

func newChoice(cands []*Candidate, p *Params) *choice {
	ch := &choice{cands: cands, p: p, itemAnswer: map[string]float64{}, used: make([]bool, len(cands)), perPassage: map[int]int{}}
	for _, c := range cands {
		ch.itemAnswer[c.Item] = math.Max(ch.itemAnswer[c.Item], c.Answer)
		ch.bestItem = math.Max(ch.bestItem, c.Answer)
	}
	ch.base = make([]float64, len(cands))
	ch.order = make([]int, len(cands))
	for i, c := range cands {
		ch.base[i] = p.Score(c)
		if p.weighsLess(c) {
			ch.base[i] = ruleHearsay.weigh(p, c, ch.base[i])
		}
		ch.order[i] = i
	}
	sort.SliceStable(ch.order, func(a, b int) bool { return ch.base[ch.order[a]] > ch.base[ch.order[b]] })
	// The rules of refusal look at the best sentences by the hand-made
	// score, as they were measured; the ranker only orders the statements.
	ch.ruleOrder = ch.order
	if p.Ranker {
		hand := make([]float64, len(cands))
		ch.ruleOrder = make([]int, len(cands))
		for i, c := range cands {
			hand[i], ch.ruleOrder[i] = p.handScore(c), i
		}
		sort.SliceStable(ch.ruleOrder, func(a, b int) bool { return hand[ch.ruleOrder[a]] > hand[ch.ruleOrder[b]] })
	}
	ch.minRelative = p.MinRelative
	if lw := cands[0].weights; lw != nil && lw.asks && p.MinRelativeQuestion > 0 {
		ch.minRelative = p.MinRelativeQuestion
	}
	return ch
}

// eligible reports whether c may be a statement at all.
func (ch *choice) eligible(c *Candidate) bool {
	in := &paddingInput{ch: ch, c: c}
	return !c.question && !(ruleEachAnswer.On(ch.p) && ruleEachAnswer.drop(in)) && !(ch.p.uses(ruleNameLine, c.weights) && ruleNameLine.drop(in))
}

// pick adds to a the statements, best first, with why each was chosen.
func (ch *choice) pick(a *Answer) {
	p := ch.p
	for !ruleMost.drop(&paddingInput{ch: ch, a: a}) {
		bi, bv := ch.next(a)
		if bi < 0 {
			break
		}
		ch.used[bi] = true
		c := ch.cands[bi]
		var why string
		if len(a.Statements) == 0 {
			ch.first = ch.base[bi]
			why = fmt.Sprintf("the best sentence (score %.2f%s): it holds %s%s", bv, p.scoreIs(c), c.holds(), p.alsoHolds(c))
		} else if ruleRelative.On(p) && ruleRelative.drop(&paddingInput{ch: ch, c: c, score: bv, a: a}) {
			break
		} else {
			why = p.laterWhy(c, bv, ch.first)
		}
		if p.weighsLess(c) {
			why += fmt.Sprintf("; its score is %.0f%% of what it would be, as it tells what others say", 100*p.Hearsay)
		}
		a.Statements = append(a.Statements, c)
		a.Why = append(a.Why, why)
		ch.perPassage[c.Passage]++
	}
}

// next is the best candidate to write after a's statements and its score,
// lowered for staying in a passage already quoted; -1 when none may be.
func (ch *choice) next(a *Answer) (bi int, bv float64) {
	p := ch.p
	bi, bv = -1, math.Inf(-1)
	for _, i := range ch.order {
		c := ch.cands[i]
		if ch.used[i] || !ch.eligible(c) || (len(a.Statements) > 0 && !ch.mayFollow(c, a)) {
			continue
		}
		// The base score bounds the adjusted one: stop looking once no
		// later candidate can win.
		if ch.base[i] <= bv {
			break
		}
		// The ranker's chance is not lowered for staying in a passage
		// already quoted (on SQuAD's tuning half that cost answers and
		// bought nothing).
		v := ch.base[i]
		if !p.ranks(c) {
			v -= p.SamePassage * float64(ch.perPassage[c.Passage])
		}
		if v > bv {
			bi, bv = i, v
		}
	}
	return bi, bv
}

// mayFollow reports whether c passes the rules against padding for a
// statement after a's first.
func (ch *choice) mayFollow(c *Candidate, a *Answer) bool {
	in := &paddingInput{ch: ch, c: c, a: a}
	for _, r := range paddingAfterFirst {
		if ch.p.uses(r, c.weights) && r.drop(in) {
			return false
		}
	}
	return true
}

// paddingAfterFirst are the padding rules mayFollow applies to a statement
// after the first, in order.
var paddingAfterFirst = []*Rule{ruleItemAnswer, ruleSame, ruleOtherWords, ruleNarrower, ruleOtherScale}

// addDefinition shows a definition not picked by its score too: what the
// question asks about is, said in so many words (Params.DefinitionFirst).
func (ch *choice) addDefinition(a *Answer) {
	if slices.ContainsFunc(a.Statements, func(c *Candidate) bool { return c.defines }) {
		return
	}
	p := ch.p
	for _, i := range ch.order {
		if c := ch.cands[i]; !ch.used[i] && c.defines && ch.eligible(c) {
			if len(a.Statements) == p.Max {
				a.Statements, a.Why = a.Statements[:p.Max-1], a.Why[:p.Max-1]
			}
			a.Statements, a.Why = append(a.Statements, c), append(a.Why, p.laterWhy(c, ch.base[i], ch.first))
			return
		}
	}
}

// laterWhy says why a statement after the first was chosen: its score v
// against the first's.
func (p *Params) laterWhy(c *Candidate, v, first float64) string {
	return fmt.Sprintf("scores %.2f, %.0f%% of the first's: it holds %s%s", v, 100*v/first, c.holds(), p.alsoHolds(c))
}

// joinBack quotes each statement that points back with the sentence before
// it (Candidate.withBefore; Params.JoinBack). A statement that is that
// sentence is dropped: it is in the joined quote.
func joinBack(a *Answer) {
	for k, c := range a.Statements {
		if c.withBefore == "" {
			continue
		}
		j := *c
		j.Quote, j.withBefore = c.withBefore, ""
		a.Statements[k] = &j
		a.Why[k] += "; quoted with the sentence before, which it points back to"
	}
	// A statement the joined quote of another holds: the joined one takes
	// the earlier of their two places, and it goes.
	for k2 := 0; k2 < len(a.Statements); k2++ {
		o := a.Statements[k2]
		k := slices.IndexFunc(a.Statements, func(c *Candidate) bool {
			return c != o && c.Passage == o.Passage && c.Index+1 == o.Index && len(o.Quote) > len(c.Quote) && strings.HasPrefix(o.Quote, c.Quote)
		})
		if k < 0 {
			continue
		}
		keep, gone := min(k, k2), max(k, k2)
		a.Statements[keep], a.Why[keep] = o, a.Why[k2]
		a.Statements, a.Why = slices.Delete(a.Statements, gone, gone+1), slices.Delete(a.Why, gone, gone+1)
		k2 = -1 // look again from the start: the places moved
	}
}

// ofNamedProgram returns the candidates from manual pages ("SSH(1)",
// "ssh(1)") of a program the question names.
func ofNamedProgram(cands []*Candidate, question string) []*Candidate {
	words := map[string]bool{}
	for _, w := range strings.Fields(strings.ToLower(question)) {
		words[strings.Trim(w, "\"'“”‘’()[],;:!?.")] = true
	}
	var out []*Candidate
	for _, c := range cands {
		name, section, ok := strings.Cut(c.title, "(")
		if ok && strings.HasSuffix(section, ")") && words[strings.ToLower(strings.TrimSpace(name))] {
			out = append(out, c)
		}
	}
	return out
}

// ownEntries drops the entries of an item that has entries in a section of
// options (keywords.OptionsSection) standing elsewhere: bash(1)'s own -c,
// not its builtins'. Between items nothing changes.
func ownEntries(cands []*Candidate) []*Candidate {
	inSection := map[string]bool{}
	for _, c := range cands {
		if c.definesOptions && keywords.OptionsSection(c.heading) {
			inSection[c.Item] = true
		}
	}
	out := cands[:0:0]
	for _, c := range cands {
		if !inSection[c.Item] || keywords.OptionsSection(c.heading) {
			out = append(out, c)
		}
	}
	return out
}

// entryFirst moves the sentence that opens a manual's entry for the
// question's options ("-L, --location (HTTP) If the server reports …") to
// the front, when a later sentence of the entry was scored above it.
func entryFirst(a *Answer) {
	for k := 1; k < len(a.Statements); k++ {
		c := a.Statements[k]
		if !c.definesOptions || c.Index != 0 || a.Statements[0].Index == 0 && a.Statements[0].definesOptions {
			continue
		}
		moveFirst(a, k, "it opens the manual's entry for the option asked about")
		return
	}
}

// moveFirst moves statement k to the front, saying why.
func moveFirst(a *Answer, k int, because string) {
	c, why := a.Statements[k], a.Why[k]
	copy(a.Statements[1:k+1], a.Statements[:k])
	copy(a.Why[1:k+1], a.Why[:k])
	a.Statements[0] = c
	a.Why[0] = "shown first, as " + because + "; it " + why
}

// definitionFirst moves the first statement that defines what the question
// asks about ("A starter is flour and water …" for "What is a sourdough
// starter?") to the front, when the first statement does not.
func definitionFirst(a *Answer) {
	if len(a.Statements) < 2 || a.Statements[0].defines {
		return
	}
	for k := 1; k < len(a.Statements); k++ {
		if a.Statements[k].defines {
			moveFirst(a, k, "it says what the question asks about is")
			return
		}
	}
}

// narrower reports whether c, from a passage none of the picked
// statements comes from, is about something else than the first
// statement: the first one's passage is about a question's word (its
// title or heading holds it) that c's passage never holds, and c holds
// none of the question's words the first one lacks. A question's only,
// not a claim's: evidence for a claim may hold any part of it.
func narrower(c *Candidate, picked []*Candidate, perPassage map[int]int) bool {
	if c.weights == nil || !c.weights.asks || perPassage[c.Passage] > 0 {
		return false
	}
	first := picked[0]
	return first.about&^c.passageHeld != 0 && c.headHeld&^first.headHeld == 0
}

// unitFirst moves the first statement that holds a measure in the unit the
// question asks for to the front, when the first statement holds none.
func unitFirst(a *Answer) {
	holdsFirst(a, func(c *Candidate) bool { return c.Unit > 0 }, "it holds a measure in the unit asked for and the best-scored sentence does not")
}

// codeFirst moves the first statement that writes a command, option or
// path the question does not (Candidate.code) to the front, when the first
// statement writes none: for a question that asks how to do something.
func codeFirst(a *Answer) {
	k := slices.IndexFunc(a.Statements, func(c *Candidate) bool { return c.code != "" })
	if k < 1 {
		return
	}
	holdsFirst(a, func(c *Candidate) bool { return c.code != "" },
		fmt.Sprintf("the question asks how to do something and it writes «%s», which the best-scored sentence does not write", a.Statements[k].code))
}

// holdsFirst moves the first statement that has what has looks for to the
// front, saying why (because), when the first statement lacks it.
func holdsFirst(a *Answer, has func(*Candidate) bool, because string) {
	if len(a.Statements) < 2 || has(a.Statements[0]) {
		return
	}
	for k := 1; k < len(a.Statements); k++ {
		if !has(a.Statements[k]) {
			continue
		}
		// The scores the others are measured against are now the second's.
		for i := range a.Why {
			a.Why[i] = strings.Replace(a.Why[i], "% of the first's", "% of the best-scored one's", 1)
			a.Why[i] = strings.Replace(a.Why[i], "the best sentence (", "the best-scored sentence (", 1)
		}
		moveFirst(a, k, because)
		return
	}
}

// subjectRefusal says why the best sentences, though they share the
// question's words, are not about what it asks, or "" when they may be.
// The rules look at the best sentences in ruleOrder (by the hand-made
// score); when the learned ranker scores the question, the answerability
// model looks at its two best (in order) and its chance is set in a.
func subjectRefusal(cands []*Candidate, order, ruleOrder []int, eligible func(*Candidate) bool, p *Params, a *Answer) string {
	best := func(order []int, n int) []*Candidate {
		var top []*Candidate
		for _, i := range order {
			if eligible(cands[i]) {
				top = append(top, cands[i])
				if len(top) == n {
					break
				}
			}
		}
		return top
	}
	top := best(order, 2)
	if len(top) == 0 {
		return ""
	}
	lw := top[0].weights
	if lw == nil || !lw.asks {
		return ""
	}
	// The answerability model looks at the two best sentences, then the
	// rules at the NamesTop best.
	if p.ranks(top[0]) {
		a.AnswerFeatures = AnswerFeatures(top[:min(2, len(top))])
		a.Answerable = answerability(top[:min(2, len(top))])
	}
	return ruleRefusal(best(ruleOrder, max(1, p.NamesTop)), best(ruleOrder, max(1, p.TypeSentences())), lw, p)
}

// TypeSentences is how many of the best sentences the answer-type rule
// looks at: NamesTop; 0 when the rule is off.
func (p *Params) TypeSentences() int {
	if !ruleAnswerType.On(p) {
		return 0
	}
	return p.NamesTop
}

// ruleRefusal says which rule on the subject refuses a question whose best
// sentences are top (typeTop for the answer-type rule), or "".
func ruleRefusal(top, typeTop []*Candidate, lw *libraryWeights, p *Params) string {
	in := &refusalInput{top: top, typeTop: typeTop, lw: lw, p: p}
	for _, r := range rules {
		if r.subject != nil && p.uses(r, lw) {
			if why := r.subject(in); why != "" {
				return why
			}
		}
	}
	return ""
}

// measures reports whether the rules of refusal count the question's
// measure word as held by the measure it asks for in c's passage and window
// (Params.SectionMeasure).
func (p *Params) measures(c *Candidate) bool {
	return c.headed && p.uses(ruleSectionMeasure, c.weights) && (c.scaled || !p.uses(ruleMeasureScale, c.weights))
}

// at is a paragraph of an item.
type at struct {
	item string
	para int
}

// measures maps each of the question's words to the scales of the
// measures (in the units the question asks in) of the passages that hold
// it: what the library measures that word in.
type measures map[string][]scale

// measuredWith finds, for a question that asks for a measure, the scales
// each of its words is measured in by the passages (with their title and
// heading, and the question a passage answers), and each passage's own
// scales (own[i] of passages[i]); nil for any other question.
func measuredWith(lw *libraryWeights, passages []*jsonl.Passage, asked map[at]string, question string) (m measures, own [][]scale) {
	if lw.measure == "" {
		return nil, nil
	}
	m, own = measures{}, make([][]scale, len(passages))
	for i, ps := range passages {
		sc := measureScales(ps.Text, lw.units, question)
		own[i] = sc
		if len(sc) == 0 {
			continue
		}
		head := ps.Title + "\n" + ps.Heading
		if answers := asked[at{ps.ItemID, ps.Paragraph - 1}]; answers != "" {
			head += "\n" + answers
		}
		for t, ok := range lw.stemHeld(head + "\n" + ps.Text) {
			if ok && lw.w[t] > 0 {
				m[t] = append(m[t], sc...)
			}
		}
	}
	return m, own
}

// scales reads a passage's measures, own, against the question's words
// it lacks besides its measure word (has: the words the passage, with its
// title and heading, holds). vouched: each of them is measured in another
// passage on the scale of one of own, so the measure the passage gives is
// one of what the question asks about ("steep" and "three to five
// minutes" for "thirty seconds"), not of something else ("keep" and "six
// months"). other: one of them is measured in other passages on none of
// own's scales, so the passage's measures are of something else ("steep",
// which the tea notes measure in minutes, and "six months" in the
// paragraph on keeping tea, for "How long should black tea steep?").
func (m measures) scales(lw *libraryWeights, has map[string]bool, own []scale) (vouched, other bool) {
	vouched = true
	for _, t := range lw.order {
		if t == lw.measure || has[t] || sameScale(m[t], own) {
			continue
		}
		vouched = false
		other = other || len(m[t]) > 0 && len(own) > 0
	}
	return vouched, other
}

// sameAsPicked reports whether c says what a picked sentence says: most of
// its words (share or more) are in it.
func sameAsPicked(c *Candidate, picked []*Candidate, share float64) bool {
	for _, q := range picked {
		if similarity(c, q) >= share {
			return true
		}
	}
	return false
}

// holds says which of the question's words the candidate holds, as the
// question writes them; when the sentence holds none, which its passage's
// heading or title holds, as the ranker and the passage floor count them
// ("Sencha: 70 °C, 1 minute" under the heading "Green tea").
func (c *Candidate) holds() string {
	if c.weights == nil {
		return "the question's words"
	}
	own := c.questionWords(c.terms)
	// What the passage is about besides its text, when it holds question
	// words the sentence lacks ("Storage" holds «store» for "How should I
	// store tea?"): the ranker counts it.
	for _, h := range []struct{ what, text string }{{"its passage's heading", c.heading}, {"its passage's title", c.title}, {"the question its passage answers", c.answers}} {
		if h.text == "" {
			continue
		}
		has := map[string]bool{}
		for _, t := range terms(h.text) {
			has[t] = !c.terms[t]
		}
		if ws := c.questionWords(has); len(ws) > 0 {
			if len(own) > 0 {
				return fmt.Sprintf("%s (%s, “%s”, holds %s)", quoteWords(own), h.what, h.text, quoteWords(ws))
			}
			return fmt.Sprintf("none of the question's words (%s, “%s”, holds %s)", h.what, h.text, quoteWords(ws))
		}
	}
	return quoteWords(own)
}

// questionWords lists the question's words that have marks, as the
// question writes them.
func (c *Candidate) questionWords(has map[string]bool) []string {
	var words []string
	seen := map[string]bool{}
	for _, f := range strings.Fields(c.weights.question) {
		f = strings.Trim(f, "\"'“”‘’()[],.;:!?")
		ts := terms(f)
		for _, t := range ts {
			if !has[t] || seen[t] {
				continue
			}
			seen[t] = true
			if len(ts) == 1 {
				words = append(words, f)
			} else {
				// A run of Chinese or Japanese is several terms:
				// name the one held (its pair of characters).
				words = append(words, t)
			}
		}
	}
	return words
}

// scoreIs says what a statement's score is when it is not the hand-made one.
func (p *Params) scoreIs(c *Candidate) string {
	if p.ranks(c) {
		return ", the learned ranker's chance that it holds the answer, if the passages hold one"
	}
	return ""
}

// alsoHolds names what the learned ranker weighs besides the question's
// words: the unit of the measure asked for, or the kind of answer; and
// that the sentence points back to the one before, which holds more of
// the question (Joined).
func (p *Params) alsoHolds(c *Candidate) string {
	if !p.ranks(c) {
		return ""
	}
	s := ""
	switch {
	case c.Unit > 0:
		s = ", and a measure in the unit asked for"
	case c.Type > 0:
		s = ", and " + typeSaid(c.typed, c.weights.qtype)
	}
	if c.Joined > c.Covers {
		s += fmt.Sprintf("; it points back to the sentence before, with which it holds %.0f%% of the question's weight", 100*c.Joined)
	}
	return s
}

// typeSaid says what the answer type rule saw in a sentence (the word
// typeHeld found) and, when that is not what the question asks for, what
// it asks for: "a year, «1998»", "a number, «2.1.1», where the question
// asks for a date or year".
func typeSaid(word string, t answerType) string {
	seen := seenAs(word, t)
	if seen == "a word with digits" && !strings.ContainsFunc(word, unicode.IsDigit) {
		// A number written in words ("five", "thirty"), which the type
		// feature reads for a question that asks for a number.
		seen = "a number"
	}
	s := fmt.Sprintf("%s, «%s»", seen, word)
	switch {
	case t == typeName || t == typeFrequency || t == typeNumber && seen == "a number":
	case (t == typeTime || t == typeWhen) && (seen == "a year" || seen == "a month"):
	default:
		s += ", where the question asks for " + t.String()
	}
	return s
}

// quoteWords lists words as «a», «b» and «c».
func quoteWords(ws []string) string {
	if len(ws) == 0 {
		return "none of its words"
	}
	q := make([]string, len(ws))
	for i, w := range ws {
		q[i] = "«" + w + "»"
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}

// Prog names the stage in the lines of Explain.
const Prog = "sponge-draft"

// Drafter is the drafter that quotes sentences. It satisfies the Drafter
// interface of the sponge-draft stage.
type Drafter struct {
	Params Params
	// Corpus, when set, weighs the question's words by their rarity in the
	// whole library; otherwise in the passages alone.
	Corpus Corpus
	// Explain, when set, receives a line for each statement saying why it
	// was chosen, or one saying why none was.
	Explain io.Writer
}

// New returns a drafter with DefaultParams.
func New() *Drafter { return &Drafter{Params: DefaultParams} }

// Name is the name the model record carries.
func (d *Drafter) Name() string { return jsonl.ModelExtractive }

// Draft writes up to Params.Max statements, each a sentence of a passage
// quoted whole, its text the quote itself.
func (d *Drafter) Draft(ctx context.Context, question string, passages []*jsonl.Passage, emit func(*jsonl.Statement) error) error {
	a := Choose(Candidates(question, passages, &d.Params, d.Corpus), &d.Params)
	if d.Explain != nil {
		for _, off := range RulesOff(question, &d.Params) {
			fmt.Fprintf(d.Explain, "%s: why: %s\n", Prog, off)
		}
	}
	if d.Explain != nil && a.Refused != "" {
		fmt.Fprintf(d.Explain, "%s: why: nothing written: %s\n", Prog, a.Refused)
	}
	for i, c := range a.Statements {
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.Explain != nil {
			fmt.Fprintf(d.Explain, "%s: why: statement %d (passage %d): %s\n", Prog, i+1, c.Passage, a.Why[i])
		}
		if err := emit(&jsonl.Statement{Text: c.Quote, Passage: c.Passage, Quote: c.Quote}); err != nil {
			return err
		}
	}
	return nil
}
