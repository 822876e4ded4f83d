package extractive

import (
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/base/lang"
)

// RuleKind is what a rule of the drafter decides.
type RuleKind int

const (
	// Refusal rules refuse a question or claim: nothing is written.
	Refusal RuleKind = iota
	// Padding rules keep a sentence out of an answer.
	Padding
	// Ordering rules score, order, join or add what is shown.
	Ordering
)

func (k RuleKind) String() string {
	return [...]string{"refusal", "padding", "ordering"}[k]
}

// A Rule is one rule of the drafter, named, with its switch in Params and
// the decision it makes (issue 40). The code that applies a rule calls its
// decision through it, and only when Params.uses it: switched on, the rule
// it refines on, and the question's language has every lexicon list it
// needs. Rules lists them all; a bench turns each off by name.
type Rule struct {
	Name string
	Kind RuleKind
	// Refines names the rule whose decision this one changes: it is used
	// only when that rule is.
	Refines string
	// Needs are the lexicon lists the rule reads, in the question's
	// language: where the language's lexicon lacks one, the rule is off by
	// design, and --explain says so.
	Needs []need
	// Questions: the rule is for questions only, never claims to check.
	Questions bool
	// On reports whether p switches the rule on; Off switches it off.
	On  func(p *Params) bool
	Off func(p *Params)

	// The decision, by kind and stage (one of these is set, or none for a
	// rule that only refines another's).
	// passage (Refusal): why no passage may be quoted, "" when some may.
	passage func(in *refusalInput) string
	// keep (Refusal): the candidates the rule keeps, and why none is.
	keep func(cands []*Candidate) ([]*Candidate, string)
	// subject (Refusal, questions): why the best sentences are not about
	// what the question asks, "" when they may be.
	subject func(in *refusalInput) string
	// drop (Padding): whether in.c is kept out of the answer.
	drop func(in *paddingInput) bool
	// weigh (Ordering): c's score, given s, the score so far.
	weigh func(p *Params, c *Candidate, s float64) float64
	// reorder (Ordering): orders, joins or adds a's statements.
	reorder func(ch *choice, a *Answer)
}

// need is a list a rule reads, by what its words are (as --explain names
// them) and the names it has in lexicons: a lexicon that has any of them
// meets the need (English asks "when" in asks-when, other languages list
// their words that ask for a time in asks-time).
type need struct {
	what  string
	lists []string
	// instead is a list some languages have in place of these, which the
	// rule does not read, and insteadDoes what reads it: --explain names
	// it, so that it does not say a language lacks what it has.
	instead, insteadDoes string
}

// The lexicon lists rules need (internal/base/lang/lexicons/<tag>/<list>.txt).
const (
	listNegation = "negation"
	listAsksWhen = "asks-when"
	listAsksTime = "asks-time"
	listHowUnits = "how-units"
	listHowTo    = "how-to-openings"
	listSpelled  = "numbers-spelled"
	listOrdinals = "ordinals"
	listCopulas  = "copulas"
	listBack     = "back-words"
	listSay      = "say-verbs"
	listCrowds   = "crowds"
)

// refusalInput is what a refusal rule looks at: every candidate (cands),
// and for a rule on the subject the best sentences by the hand-made score
// (top; typeTop for the answer-type rule); the question's weights.
type refusalInput struct {
	cands        []*Candidate
	top, typeTop []*Candidate
	lw           *libraryWeights
	p            *Params
}

// paddingInput is what a padding rule looks at: the candidate c, its
// score, and the answer so far.
type paddingInput struct {
	ch    *choice
	c     *Candidate
	score float64
	a     *Answer
}

// noLimit is Max with the rule of the most statements off.
const noLimit = math.MaxInt32

// The rules.
var (
	ruleAbsent = &Rule{Name: "absent words", Kind: Refusal,
		On:      func(p *Params) bool { return p.MaxAbsent > 0 },
		Off:     func(p *Params) { p.MaxAbsent = 0 },
		passage: refuseAbsent}
	rulePassageFloor = &Rule{Name: "passage floor", Kind: Refusal,
		On:      func(p *Params) bool { return p.MinAnswer > 0 },
		Off:     func(p *Params) { p.MinAnswer = 0 },
		passage: refuseFloor}
	ruleOptions = &Rule{Name: "options", Kind: Refusal,
		On:   func(p *Params) bool { return p.Options },
		Off:  func(p *Params) { p.Options = false },
		keep: withOptions}
	ruleNegation = &Rule{Name: "negation", Kind: Refusal, Questions: true,
		Needs:   []need{{what: "negation", lists: []string{listNegation}}},
		On:      func(p *Params) bool { return p.Negation },
		Off:     func(p *Params) { p.Negation = false },
		subject: refuseNegation}
	// answer type refuses in English only: other languages' asks-time and
	// asks-number lists give the learned ranker the answer type, but refusing
	// on it lost answers and refused no more held-out questions (multilingual
	// bench, tuning half: bn gold in a quote 0.771 -> 0.708, answerable
	// refused 0.125 -> 0.208; ru and zh-Hant one and two answers fewer;
	// held-out refused the same in every language).
	ruleAnswerType = &Rule{Name: "answer type", Kind: Refusal, Questions: true,
		Needs: []need{{what: "asks-when", lists: []string{listAsksWhen},
			instead: listAsksTime, insteadDoes: "gives the learned ranker the answer type"}},
		On:      func(p *Params) bool { return p.TypeRefusal },
		Off:     func(p *Params) { p.TypeRefusal = false },
		subject: refuseType}
	ruleSpelled = &Rule{Name: "spelled numbers", Kind: Refusal, Questions: true, Refines: "answer type",
		Needs: []need{{what: "number-word", lists: []string{listSpelled}}},
		On:    func(p *Params) bool { return p.Spelled },
		Off:   func(p *Params) { p.Spelled = false }}
	ruleWindow = &Rule{Name: "window", Kind: Refusal, Questions: true,
		On:      func(p *Params) bool { return p.MinWindow > 0 },
		Off:     func(p *Params) { p.MinWindow = 0 },
		subject: refuseWindow}
	// unheld pairs refines what the window rule counts, in a script the
	// index cuts into pairs of characters (Chinese, Japanese): it needs no
	// list.
	ruleUnheldPairs = &Rule{Name: "unheld pairs", Kind: Refusal, Questions: true, Refines: "window",
		On:  func(p *Params) bool { return p.UnheldPairs },
		Off: func(p *Params) { p.UnheldPairs = false }}
	ruleNames = &Rule{Name: "names", Kind: Refusal, Questions: true,
		On:      func(p *Params) bool { return p.MaxNames > 0 },
		Off:     func(p *Params) { p.MaxNames = 0 },
		subject: refuseNames}
	ruleOrdinals = &Rule{Name: "ordinals", Kind: Refusal, Questions: true, Refines: "names",
		Needs: []need{{what: "ordinal", lists: []string{listOrdinals}}},
		On:    func(p *Params) bool { return p.Ordinals },
		Off:   func(p *Params) { p.Ordinals = false }}
	// kin reads English endings of peoples' names, and initials in any
	// language: it needs no list.
	ruleKin = &Rule{Name: "kin", Kind: Refusal, Questions: true, Refines: "names",
		On:  func(p *Params) bool { return p.Kin },
		Off: func(p *Params) { p.Kin = false }}
	// swapped names reads capitals and digits: for languages that write
	// names with capitals and words apart (English, Russian, German …),
	// numbers in any language written with spaces; it needs no list.
	ruleSwapped = &Rule{Name: "swapped name", Kind: Refusal, Questions: true,
		On:      func(p *Params) bool { return p.Swapped },
		Off:     func(p *Params) { p.Swapped = false },
		subject: refuseSwapped}
	ruleStems = &Rule{Name: "stems", Kind: Refusal, Questions: true,
		On:  func(p *Params) bool { return p.Stems },
		Off: func(p *Params) { p.Stems = false }}
	ruleSectionMeasure = &Rule{Name: "section measure", Kind: Refusal,
		Needs: []need{{what: "measure-word", lists: []string{listHowUnits}}},
		On:    func(p *Params) bool { return p.SectionMeasure },
		Off:   func(p *Params) { p.SectionMeasure = false }}
	ruleMeasureScale = &Rule{Name: "measure scale", Kind: Refusal, Refines: "section measure",
		On:  func(p *Params) bool { return p.MeasureScale },
		Off: func(p *Params) { p.MeasureScale = false }}

	ruleEachAnswer = &Rule{Name: "each answer", Kind: Padding,
		On:   func(p *Params) bool { return p.MinEachAnswer > 0 },
		Off:  func(p *Params) { p.MinEachAnswer = 0 },
		drop: func(in *paddingInput) bool { return in.c.Answer < in.ch.p.MinEachAnswer }}
	ruleMost = &Rule{Name: "most statements", Kind: Padding,
		On:   func(p *Params) bool { return p.Max < noLimit },
		Off:  func(p *Params) { p.Max = noLimit },
		drop: func(in *paddingInput) bool { return len(in.a.Statements) >= in.ch.p.Max }}
	ruleRelative = &Rule{Name: "relative score", Kind: Padding,
		On:   func(p *Params) bool { return p.MinRelative > 0 || p.MinRelativeQuestion > 0 },
		Off:  func(p *Params) { p.MinRelative, p.MinRelativeQuestion = 0, 0 },
		drop: func(in *paddingInput) bool { return in.score < in.ch.minRelative*in.ch.first }}
	ruleItemAnswer = &Rule{Name: "item answer", Kind: Padding,
		On:   func(p *Params) bool { return p.MinItemAnswer > 0 },
		Off:  func(p *Params) { p.MinItemAnswer = 0 },
		drop: func(in *paddingInput) bool { return in.ch.itemAnswer[in.c.Item] < in.ch.p.MinItemAnswer*in.ch.bestItem }}
	ruleSame = &Rule{Name: "same", Kind: Padding,
		On:   func(p *Params) bool { return p.Same > 0 },
		Off:  func(p *Params) { p.Same = 0 },
		drop: func(in *paddingInput) bool { return sameAsPicked(in.c, in.a.Statements, in.ch.p.Same) }}
	ruleOtherWords = &Rule{Name: "other words", Kind: Padding,
		On:   func(p *Params) bool { return p.MinOtherWords > 0 },
		Off:  func(p *Params) { p.MinOtherWords = 0 },
		drop: dropOtherWords}
	ruleNarrower = &Rule{Name: "narrower", Kind: Padding, Questions: true,
		On:   func(p *Params) bool { return p.Narrower },
		Off:  func(p *Params) { p.Narrower = false },
		drop: func(in *paddingInput) bool { return narrower(in.c, in.a.Statements, in.ch.perPassage) }}
	ruleNameLine = &Rule{Name: "name line", Kind: Padding, Questions: true,
		Needs: []need{{what: "copula", lists: []string{listCopulas}}},
		On:    func(p *Params) bool { return p.NameLines },
		Off:   func(p *Params) { p.NameLines = false },
		drop:  func(in *paddingInput) bool { return in.c.weights.subject == nil && isNameLine(in.c.Quote) }}
	ruleOtherScale = &Rule{Name: "other scale", Kind: Padding, Questions: true,
		Needs: []need{{what: "measure-word", lists: []string{listHowUnits}}},
		On:    func(p *Params) bool { return p.OtherScale },
		Off:   func(p *Params) { p.OtherScale = false },
		drop:  func(in *paddingInput) bool { return in.c.offScale && in.c.Unit > 0 }}

	ruleRanker = &Rule{Name: "ranker", Kind: Ordering, Questions: true,
		On:    func(p *Params) bool { return p.Ranker },
		Off:   func(p *Params) { p.Ranker = false },
		weigh: func(_ *Params, c *Candidate, _ float64) float64 { return c.Ranked }}
	ruleHearsay = &Rule{Name: "hearsay", Kind: Ordering, Questions: true,
		Needs: []need{{what: "saying-verb", lists: []string{listSay}}, {what: "crowd-word", lists: []string{listCrowds}}},
		On:    func(p *Params) bool { return p.Hearsay > 0 && p.Hearsay < 1 },
		Off:   func(p *Params) { p.Hearsay = 1 },
		weigh: weighHearsay}
	ruleUnitFirst = &Rule{Name: "unit first", Kind: Ordering, Questions: true,
		Needs:   []need{{what: "measure-word", lists: []string{listHowUnits}}},
		On:      func(p *Params) bool { return p.UnitFirst },
		Off:     func(p *Params) { p.UnitFirst = false },
		reorder: func(_ *choice, a *Answer) { unitFirst(a) }}
	// code first reads the English openings of a question that asks how
	// to do something (how-to-openings); code is written alike in any
	// language.
	ruleCodeFirst = &Rule{Name: "code first", Kind: Ordering, Questions: true,
		Needs:   []need{{what: "how-to opening", lists: []string{listHowTo}}},
		On:      func(p *Params) bool { return p.CodeFirst },
		Off:     func(p *Params) { p.CodeFirst = false },
		reorder: func(_ *choice, a *Answer) { codeFirst(a) }}
	ruleEntryFirst = &Rule{Name: "option entry first", Kind: Ordering, Refines: "options",
		On:      func(p *Params) bool { return p.EntryFirst },
		Off:     func(p *Params) { p.EntryFirst = false },
		reorder: func(_ *choice, a *Answer) { entryFirst(a) }}
	ruleDefinitionFirst = &Rule{Name: "definition first", Kind: Ordering, Questions: true,
		Needs:   []need{{what: "copula", lists: []string{listCopulas}}},
		On:      func(p *Params) bool { return p.DefinitionFirst },
		Off:     func(p *Params) { p.DefinitionFirst = false },
		reorder: reorderDefinition}
	ruleJoinBack = &Rule{Name: "join back", Kind: Ordering,
		Needs:   []need{{what: "pointing-back", lists: []string{listBack}}},
		On:      func(p *Params) bool { return p.JoinBack },
		Off:     func(p *Params) { p.JoinBack = false },
		reorder: func(_ *choice, a *Answer) { joinBack(a) }}
)

// rules are the drafter's rules in the order they are applied.
var rules = []*Rule{
	ruleAbsent, rulePassageFloor, ruleOptions,
	ruleNegation, ruleAnswerType, ruleSpelled, ruleWindow, ruleUnheldPairs, ruleNames, ruleOrdinals, ruleKin, ruleSwapped, ruleStems,
	ruleSectionMeasure, ruleMeasureScale,
	ruleEachAnswer, ruleNameLine, ruleMost, ruleRelative, ruleItemAnswer, ruleSame, ruleOtherWords, ruleNarrower, ruleOtherScale,
	ruleRanker, ruleHearsay, ruleUnitFirst, ruleCodeFirst, ruleEntryFirst, ruleDefinitionFirst, ruleJoinBack,
}

// ruleNamed finds a rule by name (filled in by init, so that a rule's
// decision may ask whether another is used).
var ruleNamed map[string]*Rule

func init() {
	ruleNamed = map[string]*Rule{}
	for _, r := range rules {
		ruleNamed[r.Name] = r
	}
}

// Rules returns the drafter's rules in the order they are applied.
func Rules() []*Rule { return rules }

// RuleNamed returns the rule of that name, or nil.
func RuleNamed(name string) *Rule { return ruleNamed[name] }

// SwitchOff turns off, in p, the rules named; it says which name is no
// rule's.
func SwitchOff(p *Params, names []string) error {
	for _, n := range names {
		r := RuleNamed(n)
		if r == nil {
			return fmt.Errorf("no rule is named %q", n)
		}
		r.Off(p)
	}
	return nil
}

// uses reports whether the rule applies to a question or claim whose
// words lw weighs (nil: no language known, as for a test's candidates):
// p switches it on, and the rule it refines; the question's language has
// the lists it needs; a rule for questions is not used on a claim.
func (p *Params) uses(r *Rule, lw *libraryWeights) bool {
	if !r.On(p) {
		return false
	}
	if r.Refines != "" && !p.uses(ruleNamed[r.Refines], lw) {
		return false
	}
	if lw == nil {
		return true
	}
	if r.Questions && !lw.asks {
		return false
	}
	_, lacks := r.lacks(lw.ruleLexicon())
	return !lacks
}

// lacks returns the first list the rule needs that lex has none of.
func (r *Rule) lacks(lex *lang.Lexicon) (need, bool) {
	for _, n := range r.Needs {
		if !slices.ContainsFunc(n.lists, lex.Knows) {
			return n, true
		}
	}
	return need{}, false
}

// ruleLexicon is the lexicon the rules read the question in: its own
// language's; English for a question weighed as English (lex nil); the
// neutral lexicon for one whose language is not told, so that a rule that
// needs a list is off rather than reading English words into it.
func (lw *libraryWeights) ruleLexicon() *lang.Lexicon {
	if lw.lex != nil {
		return lw.lex
	}
	last := &lastRuleLexicon
	last.Lock()
	defer last.Unlock()
	if last.lex == nil || last.question != lw.question {
		last.question, last.lex = lw.question, english
		if lang.DetectQuestion(lw.question) == lang.Unknown {
			last.lex = lang.For(lang.Unknown)
		}
	}
	return last.lex
}

// sentenceLexicon is the lexicon the rules read a passage's sentences in
// (issue 40): that of the language Detect tells from the passage's text
// (once a passage, for all its sentences), else the question's
// (ruleLexicon), where the text is too short to tell.
func (lw *libraryWeights) sentenceLexicon(text string) *lang.Lexicon {
	if t := lang.Detect(text); t != lang.Unknown {
		return lang.For(t)
	}
	return lw.ruleLexicon()
}

// lastRuleLexicon is the last question's ruleLexicon: Params.uses asks for
// it for each candidate, and a drafter answers one question at a time.
var lastRuleLexicon struct {
	sync.Mutex
	question string
	lex      *lang.Lexicon
}

// RulesOff says, for --explain, which rules p switches on that are off for
// question because its language's lexicon lacks a list they need: one
// line each, as `rule "negation" off: no negation list for language xx`,
// or where the language has a list the rule does not read in place of it,
// `rule "answer type" off: it refuses only with an asks-when list, and
// language de has asks-time, which gives the learned ranker the answer
// type`.
func RulesOff(question string, p *Params) []string {
	question = withoutValues(question)
	lw := &libraryWeights{lex: questionLexicon(question), question: question}
	lw.asks = asks(question) && (lw.lex == nil || !asClaims[lw.lex.Tag()])
	lex := lw.ruleLexicon()
	var out []string
	for _, r := range rules {
		if !r.On(p) || r.Questions && !lw.asks || r.Refines != "" && !p.uses(ruleNamed[r.Refines], lw) {
			continue
		}
		n, lacks := r.lacks(lex)
		switch {
		case !lacks:
		case n.instead != "" && lex.Knows(n.instead):
			out = append(out, fmt.Sprintf("rule %q off: it refuses only with an %s list, and %s has %s, which %s",
				r.Name, strings.Join(n.lists, " or "), languageName(lex.Tag()), n.instead, n.insteadDoes))
		default:
			out = append(out, fmt.Sprintf("rule %q off: no %s list for %s", r.Name, n.what, languageName(lex.Tag())))
		}
	}
	return out
}

// languageName names a language by its tag, as --explain does.
func languageName(t lang.Tag) string {
	if t == lang.Unknown {
		return "a language not told (the neutral lexicon)"
	}
	return "language " + string(t)
}

// refuseAbsent: too much of the question's weight is in words no item holds.
func refuseAbsent(in *refusalInput) string {
	cands, lw, p := in.cands, in.lw, in.p
	if cands[0].Absent <= p.MaxAbsent {
		return ""
	}
	// Absent is the same for every sentence.
	absent := lw.words(func(t string) bool { return lw.absentTerm[t] })
	return fmt.Sprintf("no item holds %s: %.0f%% of the question's weight (at most %.0f%% may be missing)",
		quoteWords(absent), 100*cands[0].Absent, 100*p.MaxAbsent)
}

// refuseFloor: no passage holds the floor (floorOf) of the question.
func refuseFloor(in *refusalInput) string {
	p := in.p
	floor := floorOf(in.lw, p)
	bestAnswer := 0.0
	for _, c := range in.cands {
		answer := c.Answer
		if p.measures(c) {
			answer = math.Max(answer, c.measureAnswer)
		}
		if answer >= floor {
			return ""
		}
		bestAnswer = math.Max(bestAnswer, answer)
	}
	return fmt.Sprintf("no passage holds enough of the question's words (the best scores %s, %.2f is needed)", short(bestAnswer), floor)
}

// floorOf is the passage floor of a question: MinAnswer, or MinAnswerFew
// (when lower) for a question of one or two weighed words in a language
// whose lexicon has the trait "few-question-words". Korean glues its
// particles and Russian its case endings to the word, and neither writes
// articles: a question there weighs two words where English weighs four
// or five ("콜럼버스는 몇 년도에 사망했는가?" is «콜럼버스», «사망»;
// "Когда был основан Константинополь?" «основан», «константинополь»),
// and a paragraph that writes its verb or its noun in another word
// («발족», «переносит столицу») held half of it, under MinAnswer, which
// was measured on English questions.
func floorOf(lw *libraryWeights, p *Params) float64 {
	if lw != nil && lw.lex != nil && len(lw.order) <= 2 && p.MinAnswerFew > 0 && p.MinAnswerFew < p.MinAnswer && lw.lex.Has(lang.Traits, "few-question-words") {
		return p.MinAnswerFew
	}
	return p.MinAnswer
}

// refuseNegation: the question negates and the best sentence does not.
func refuseNegation(in *refusalInput) string {
	if in.lw.negates && in.top[0].reads(listNegation) && !in.top[0].negates {
		return fmt.Sprintf("the question asks with a negation and the best sentence has none: %q", in.top[0].Quote)
	}
	return ""
}

// refuseType: the question asks for a date or a number that none of the
// best sentences holds besides the question's own (nor the sentence after
// one that opens its item: Candidate.nextTyped).
func refuseType(in *refusalInput) string {
	lw, p := in.lw, in.p
	if lw.qtype != typeTime && lw.qtype != typeNumber {
		return ""
	}
	spelled := p.uses(ruleSpelled, lw)
	for _, c := range in.typeTop {
		if c.Type > 0 || spelled && c.spelled || c.nextTyped {
			return ""
		}
	}
	return fmt.Sprintf("the question asks for %s and none of the best sentences holds one besides the question's own", lw.qtype)
}

// held is how the rules on the subject read which of the question's words a
// text holds: with other endings (the stems rule) or as written.
func (in *refusalInput) held() func(string) map[string]bool {
	if in.p.uses(ruleStems, in.lw) {
		return in.lw.stemHeld
	}
	return in.lw.have
}

// refuseWindow: no window of the best sentences holds MinWindow of the
// question's weight (with the unheld pairs rule, of the weight of its
// words but the pairs of characters no item holds).
func refuseWindow(in *refusalInput) string {
	lw, p, have := in.lw, in.p, in.held()
	windowHas := func(c *Candidate) map[string]bool {
		h := have(c.window)
		if p.measures(c) {
			h = lw.withMeasure(c.window, h)
		}
		return h
	}
	counts := func(string) bool { return true }
	if p.uses(ruleUnheldPairs, lw) {
		counts = func(t string) bool { return !lw.unheldPair(t) }
	}
	bestWindow := 0.0
	for _, c := range in.top {
		bestWindow = math.Max(bestWindow, lw.shareAmong(windowHas(c), counts))
	}
	if bestWindow >= p.MinWindow {
		return ""
	}
	h := windowHas(in.top[0])
	lacking := lw.words(func(t string) bool { return !h[t] && counts(t) })
	return fmt.Sprintf("the best sentences and their neighbours lack %s: they hold %.0f%% of the question's weight, %.0f%% is needed",
		quoteWords(lacking), 100*bestWindow, 100*p.MinWindow)
}

// refuseNames: each window of the best sentences lacks more than MaxNames
// of the question's names and numbers (and ordinals, with that rule).
func refuseNames(in *refusalInput) string {
	lw, p, have := in.lw, in.p, in.held()
	names := lw.namesAndNumbers(p.uses(ruleOrdinals, lw))
	if len(names) == 0 {
		return ""
	}
	haveNames := have
	if p.uses(ruleKin, lw) {
		haveNames = func(text string) map[string]bool { return lw.kinHeld(text, have(text), names) }
	}
	for _, c := range in.top {
		if lw.lacking(haveNames(c.window), names) <= p.MaxNames {
			return ""
		}
	}
	h := haveNames(in.top[0].window)
	lacking := lw.words(func(t string) bool { return names[t] && !h[t] })
	return fmt.Sprintf("no sentence near the question's words also holds %s", quoteWords(lacking))
}

// refuseSwapped: the best sentence holds a word of the question that
// stands next to one of its names with another name in that place (the
// same side, function words skipped), and no window of the best sentences
// holds the question's name: "Ekstraklasa Championship" where the
// question asks about the "PZPN Championship", "defeated Montcalm at
// Quebec" for "Who defeated Montcalm at Montreal?".
func refuseSwapped(in *refusalInput) string {
	lw, p, have := in.lw, in.p, in.held()
	if len(lw.names) == 0 {
		return ""
	}
	haveNames := have
	if p.uses(ruleKin, lw) {
		haveNames = func(text string) map[string]bool { return lw.kinHeld(text, have(text), lw.names) }
	}
	q := nameSlots(lw.question, false)
	asked := map[string]bool{}
	for _, s := range q {
		asked[s.stem] = true
	}
	sent := nameSlots(in.top[0].Quote, true)
	for i, s := range q {
		if !lw.names[s.term] || slices.ContainsFunc(in.top, func(c *Candidate) bool { return haveNames(c.window)[s.term] }) {
			continue
		}
		for _, j := range []int{i - 1, i + 1} {
			if j < 0 || j >= len(q) {
				continue
			}
			for k, t := range sent {
				o := k + i - j
				if t.stem != q[j].stem || o < 0 || o >= len(sent) || !sent[o].name || asked[sent[o].stem] || !swaps(sent[o], s, q) {
					continue
				}
				return fmt.Sprintf("the best sentence has %q where the question has %q: %q", sent[o].word, s.word, in.top[0].Quote)
			}
		}
	}
	return ""
}

// swaps reports whether the sentence's name other stands for something
// else than the question's name asked (whose words are q): both numbers
// or both words; a word not spelled one or two letters away ("Counil" and
// "Council", "Sigimund's" and "Sigismund's": a typo), no initial, and no
// kin of a word of the question ("Masovia" for its "Masovian").
func swaps(other, asked nameSlot, q []nameSlot) bool {
	isNumber := func(w string) bool { return strings.IndexFunc(w, unicode.IsDigit) >= 0 }
	if isNumber(other.word) != isNumber(asked.word) {
		return false
	}
	if isNumber(other.word) {
		return true
	}
	if utf8.RuneCountInString(other.word) == 1 {
		return false // an initial: "Н. А. Римского-Корсакова" for "Николая Андреевича"
	}
	if lettersApart(other.term, asked.term) <= 2 {
		return false
	}
	return !slices.ContainsFunc(q, func(s nameSlot) bool { return kin(other.term, s.term) })
}

// lettersApart is how many letters must be put in, taken out or changed
// to spell a as b (Levenshtein's distance, over runes).
func lettersApart(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

// A nameSlot is a word of a text that is no function word, in order: its
// index term and stem, and whether it is written as a name (a capital, not
// the text's first word, or a digit).
type nameSlot struct {
	word, term, stem string
	name             bool
}

// nameSlots are text's words that are no function words; a word that
// gives other than one index term and one stem is skipped. inText: the
// text is a sentence, whose words written as names are marked (a
// question's names are lw.names).
func nameSlots(text string, inText bool) []nameSlot {
	var out []nameSlot
	for i, w := range splitWords(text) {
		ts, ss := indexTerms(w), terms(w)
		if len(ts) != 1 || len(ss) != 1 {
			continue
		}
		digit := strings.IndexFunc(w, unicode.IsDigit) >= 0
		out = append(out, nameSlot{word: w, term: ts[0], stem: ss[0], name: inText && (digit || i > 0 && startsUpper(w))})
	}
	return out
}

// dropOtherWords: a statement from another item than the first one's holds
// fewer than MinOtherWords of the question's words (all, when it has fewer).
func dropOtherWords(in *paddingInput) bool {
	c := in.c
	return c.Item != in.a.Statements[0].Item && c.weights != nil &&
		bits.OnesCount64(c.held) < min(in.ch.p.MinOtherWords, len(c.weights.order))
}

// weighHearsay scales the score of a sentence that tells what unnamed
// others say.
func weighHearsay(p *Params, c *Candidate, s float64) float64 {
	if c.hearsay {
		return s * p.Hearsay
	}
	return s
}

// reorderDefinition shows a definition of what the question asks about,
// first.
func reorderDefinition(ch *choice, a *Answer) {
	if len(a.Statements) > 0 {
		ch.addDefinition(a)
		definitionFirst(a)
	}
}

// String says, for the bench, what kind a rule is and what it needs.
func (r *Rule) String() string {
	var needs []string
	for _, n := range r.Needs {
		needs = append(needs, strings.Join(n.lists, " or "))
	}
	s := r.Name + " (" + r.Kind.String()
	if r.Refines != "" {
		s += ", refines " + r.Refines
	}
	if len(needs) > 0 {
		s += ", needs " + strings.Join(needs, ", ")
	}
	return s + ")"
}
