package extractive

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/base/definitions"
	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/lang"
	"github.com/sponge-library/sponge/internal/library/index/keywords"
	"github.com/sponge-library/sponge/stages/draft/sentences"
)

// answerType is the kind of answer an English question asks for, read from
// its question words: a time ("When …?", "In what year …?"), a number
// ("How many …?") or a name ("Who …?", "Where …?"). The sentence that
// answers holds such a thing that the question does not already hold: a
// year, a number, a capitalised name. typeNone when the question does not
// say. "When should …?" (typeWhen) may be answered by a date as well as by
// a clause ("when the leaves unfurl"); "In what year …?" and "When did …?"
// ask for a date.
type answerType int

const (
	typeNone answerType = iota
	typeWhen
	typeTime
	typeNumber
	typeName
	typeFrequency
)

func (t answerType) String() string {
	return [...]string{"", "a time", "a date or year", "a number", "a name", "how often"}[t]
}

// timeUnit marks the units of time.
var timeUnit = func() map[string]bool {
	m := map[string]bool{}
	for _, u := range timeUnits {
		m[u] = true
	}
	return m
}()

// frequencyWords say how often something is done ("once a day", "every
// 300 kilometres", "weekly"); "a" or "per" before a time unit does too
// ("twice a week", "three times per year": holdsFrequency).
var frequencyWords = enSet("frequency")

// numberAfterHow: "how many", "how old" … ask for a number.
var numberAfterHow = enSet("how-number")

// timeNouns after "what"/"which" ask for a time; numberNouns for a number.
var timeNouns = enSet("time-nouns")
var numberNouns = enSet("number-nouns")

// The English words that ask, by what they ask for (questionType): a
// time ("when"), after a verb in the past a date (whenPast: "When did …?");
// a name ("who", "where"); a number or a frequency after "how"; a time or
// a number after "what" and "which" (timeNouns, numberNouns); a reason.
var (
	asksWhen          = enSet("asks-when")
	whenPast          = enSet("when-past")
	asksName          = enSet("asks-name")
	asksHow           = enSet("asks-how")
	frequencyAfterHow = enSet("frequency-after-how")
	asksWhich         = enSet("asks-which")
	asksWhy           = enSet("asks-why")
)

// questionType reads the answer type a question asks for: in English (lex
// nil), from its first question word; in another language, from the
// lexicon's lists of words that ask for a time or a number (askedIn).
func questionType(question string, lex *lang.Lexicon) answerType {
	if lex != nil {
		return askedIn(question, lex)
	}
	words := splitWords(strings.ToLower(question))
	for i, w := range words {
		next := ""
		if i+1 < len(words) {
			next = words[i+1]
		}
		switch {
		case asksWhen[w]:
			// "When did … / was … / were …?" asks when something
			// happened: a date. "When should I …?" may be answered by
			// a clause.
			if whenPast[next] {
				return typeTime
			}
			return typeWhen
		case asksName[w]:
			return typeName
		case asksHow[w]:
			if numberAfterHow[next] {
				return typeNumber
			}
			if frequencyAfterHow[next] {
				return typeFrequency
			}
			return typeNone
		case asksWhich[w]:
			if timeNouns[next] {
				return typeTime
			}
			if numberNouns[next] {
				return typeNumber
			}
			return typeNone
		case asksWhy[w]:
			return typeNone
		}
	}
	return typeNone
}

// askedIn reads the answer type of a question in the lexicon's language:
// typeTime when it holds an entry of the lexicon's asks-time list
// ("Когда", "Wann", "언제인가요", "何年", "哪一年", "কবে"), typeNumber one of
// its asks-number list ("Сколько", "wie viele", "몇", "何人", "多少"); where
// entries of both are found, the longest decides ("何時間", how many hours,
// holds "何時", what time). typeNone for a language without the lists, and
// for a question that holds none of their entries.
func askedIn(question string, lex *lang.Lexicon) answerType {
	lower := strings.ToLower(question)
	words := lang.Words(lower)
	best, longest := typeNone, 0
	for _, l := range []struct {
		name string
		t    answerType
	}{{lang.AsksTime, typeTime}, {lang.AsksNumber, typeNumber}} {
		for _, e := range lex.Words(l.name) {
			n := utf8.RuneCountInString(e)
			if n > longest && asksWith(lower, words, strings.ToLower(e)) {
				best, longest = l.t, n
			}
		}
	}
	return best
}

// asksWith reports whether a question (lower-cased, and its words) holds
// an entry of a lexicon's list of words that ask: anywhere in it for an
// entry in a script written without spaces; else as words in a row, an
// entry's word ending in "*" standing for any word that begins with it.
func asksWith(question string, words []string, entry string) bool {
	if keywords.Spaceless(entry) {
		return strings.Contains(question, entry)
	}
	want := strings.Fields(entry)
	match := func(w, e string) bool {
		if p, ok := strings.CutSuffix(e, "*"); ok {
			return strings.HasPrefix(w, p)
		}
		return w == e
	}
	for i := 0; i+len(want) <= len(words); i++ {
		all := true
		for k, e := range want {
			all = all && match(words[i+k], e)
		}
		if all {
			return true
		}
	}
	return false
}

// months name the months, for a time written without a year.
var months = enSet("months")

// numberWords are numbers written in words.
// "One" is left out: it is a pronoun as often as a number.
var numberWords = enSet("numbers")

// holdsType reports whether an English sentence holds an answer of type t
// that the question does not hold (qterms: the question's terms, as terms
// gives them).
func holdsType(sentence string, t answerType, qterms map[string]bool) bool {
	return typeHeld(sentence, t, qterms, nil) != ""
}

// typeHeld returns the first word of sentence that answers a question of
// type t and that the question does not hold: a word with digits or a
// month (a time), a word with digits or a number in words of the
// question's language (lex's numbers list, English's when lex is nil: a
// number), a capitalised word inside the sentence (a name), a word that
// says how often; "" when there is none. --explain names it (seenAs), so
// that it says what the rule saw, not what the question asked for. An
// encyclopedia's citations ("Скандинавии[1]") and a heading's section
// number are not read: they number a source and a section, in any
// language.
func typeHeld(sentence string, t answerType, qterms map[string]bool, lex *lang.Lexicon) string {
	if t == typeNone {
		return ""
	}
	words := splitWords(withoutSectionNumbers(sentences.WithoutCitations(sentence)))
	var centuries map[string]bool
	if t == typeTime || t == typeWhen {
		centuries = romanCenturies(sentence, lex)
	}
	for i, w := range words {
		lower := strings.ToLower(w)
		if t == typeFrequency {
			// Most of these words are stop words.
			if frequencyWords[lower] {
				return w
			}
			if (lower == "a" || lower == "per") && i+1 < len(words) && timeUnit[strings.ToLower(words[i+1])] {
				return w + " " + words[i+1]
			}
			continue
		}
		if lex != nil && t != typeName {
			if n := numberAmongLetters(w, qterms); n != "" {
				return n
			}
		}
		if ts := terms(w); len(ts) == 0 || qterms[ts[0]] {
			continue
		}
		digits := strings.IndexFunc(w, unicode.IsDigit) >= 0
		switch t {
		case typeTime, typeWhen:
			// A year, a date, a day's or a century's number ("19th"); not
			// a name with digits ("UTF-8", "pdfTeX3").
			if digits && (isNumberish(w) || ordinal(w)) || isMonth(w) || centuries[w] {
				return w
			}
		case typeNumber:
			if digits || lex == nil && numberWords[lower] || lex != nil && isNumberWord(lower, lex) {
				return w
			}
		case typeName:
			// A capitalised word inside the sentence; the first word is
			// capitalised whatever it is.
			r, _ := utf8.DecodeRuneInString(w)
			if i > 0 && unicode.IsUpper(r) {
				return w
			}
		}
	}
	return ""
}

// romanCenturies returns the numbers in Roman numerals of sentence that
// stand, with the Roman numerals after them, before a word of the
// lexicon's Centuries list: centuries ("XII век", "IX—XII вв.", "в X
// веке"), which say when as a year does. An entry written with its full
// stop ("в.") matches only so: "Пётр I в 1700 году" names a tsar, not a
// century. For a language with such a list (Russian); elsewhere, and in
// English, a Roman numeral is no time.
func romanCenturies(sentence string, lex *lang.Lexicon) map[string]bool {
	if lex == nil || !lex.Knows(lang.Centuries) || !strings.ContainsAny(sentence, "IVX") {
		return nil
	}
	var found map[string]bool
	fields := strings.FieldsFunc(sentence, func(r rune) bool { return unicode.IsSpace(r) || r == '—' || r == '–' || r == '-' })
	for i := range fields {
		fields[i] = strings.Trim(fields[i], "()[]«»\"“”,;:")
	}
	for i, f := range fields {
		if !romanNumeral(f) {
			continue
		}
		j := i + 1
		for j < len(fields) && romanNumeral(fields[j]) {
			j++
		}
		if j < len(fields) && centuryWord(strings.ToLower(fields[j]), lex) {
			if found == nil {
				found = map[string]bool{}
			}
			found[f] = true
		}
	}
	return found
}

// centuryWord reports whether w, lower-cased with its full stop if it has
// one, is an entry of the lexicon's Centuries list, or begins as an entry
// ending in "*" does.
func centuryWord(w string, lex *lang.Lexicon) bool {
	for _, e := range lex.Words(lang.Centuries) {
		if p, ok := strings.CutSuffix(e, "*"); ok && strings.HasPrefix(w, p) || e == w || !strings.HasSuffix(e, ".") && e == strings.TrimSuffix(w, ".") {
			return true
		}
	}
	return false
}

// romanNumeral reports whether w is written in capital Roman numerals
// only, as a century is ("IX", "XVII"), at most six of them.
func romanNumeral(w string) bool {
	return w != "" && len(w) <= 6 && strings.Trim(w, "IVXLC") == ""
}

// withoutSectionNumbers blanks the section number that opens a line of
// text, a heading's ("2.1.1 What is wrong with current live systems",
// "4.7.1. sudo", "২.১ ভূমিকা"): it numbers the text, and is no number,
// year or date the text gives as an answer. A section number is digits of
// any script joined by dots: three groups or more, or two with a dot
// after; each group of one to three digits, none with a leading zero, so
// that a date ("12.03.2019", "03.10.") and a decimal ("3.5 million") stay.
func withoutSectionNumbers(text string) string {
	if !strings.ContainsRune(text, '.') {
		return text
	}
	lines := strings.SplitAfter(text, "\n")
	for i, line := range lines {
		body := strings.TrimLeft(line, " \t")
		if n := sectionNumberLen(body); n > 0 {
			lines[i] = line[:len(line)-len(body)] + strings.Repeat(" ", n) + body[n:]
		}
	}
	return strings.Join(lines, "")
}

// sectionNumberLen is the length in bytes of the section number s opens
// with (see withoutSectionNumbers), followed by a space or the end; 0 when
// it opens with none. The groups are sectionNumber's, the heading rules'.
func sectionNumberLen(s string) int {
	end := strings.IndexFunc(s, unicode.IsSpace)
	if end < 0 {
		end = len(s)
	}
	w := s[:end]
	if !sectionNumber(w) {
		return 0
	}
	groups := strings.Split(strings.TrimSuffix(w, "."), ".")
	for _, g := range groups {
		if r, _ := utf8.DecodeRuneInString(g); digitValue(r) == 0 && len(g) > utf8.RuneLen(r) {
			return 0 // a leading zero: a date's "03"
		}
	}
	if len(groups) >= 3 || len(groups) == 2 && strings.HasSuffix(w, ".") {
		return end
	}
	return 0
}

// numberAmongLetters returns the first run of digits in a word of letters
// that are not Latin, when the question holds no such run: a year or a
// number written with its unit, its case ending or the words around it in
// one word ("1998年", "1998년에", "他于1998年出生", "১৯৮৪সালে"), which
// typeHeld's rules, written for English words, do not read; for a question
// in another language than English. "" for a word without letters or with
// a Latin one ("pdfTeX3", "19th": English's rules read them).
func numberAmongLetters(w string, qterms map[string]bool) string {
	letters, found := false, ""
	for _, r := range w {
		if unicode.Is(unicode.Latin, r) {
			return ""
		}
		letters = letters || unicode.IsLetter(r)
	}
	if !letters {
		return ""
	}
	for _, run := range strings.FieldsFunc(w, func(r rune) bool { return !unicode.IsDigit(r) }) {
		if found == "" && !askedNumber(run, qterms) {
			found = run
		}
	}
	return found
}

// isNumberWord reports whether a word (lower-cased) is a number in words
// of the lexicon's numbers list ("шесть", "zwei", "পাঁচটি"), an entry
// ending in "*" standing for any word that begins with it (asksWith).
func isNumberWord(w string, lex *lang.Lexicon) bool {
	for _, e := range lex.Words(lang.Numbers) {
		if asksWith(w, []string{w}, strings.ToLower(e)) {
			return true
		}
	}
	return false
}

// askedNumber reports whether the question (its terms) holds the run of
// digits: as a term, or inside one ("1998년에").
func askedNumber(run string, qterms map[string]bool) bool {
	if qterms[run] {
		return true
	}
	for t := range qterms {
		if strings.Contains(t, run) {
			return true
		}
	}
	return false
}

// ordinalEndings end an English ordinal written with digits.
var ordinalEndings = enWords("ordinal-endings")

// ordinal: digits with an English ordinal's ending ("19th", "21st").
func ordinal(w string) bool {
	lw := strings.ToLower(w)
	for _, end := range ordinalEndings {
		if d, ok := strings.CutSuffix(lw, end); ok {
			_, num := lineNumber(d)
			return num
		}
	}
	return false
}

// isMonth reports whether an English word names a month: English writes
// them capitalised, and "may" in lower case is the verb ("you may use").
func isMonth(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r) && months[strings.ToLower(w)]
}

// seenAs says what a word that typeHeld found is, as --explain names it:
// "a year" (1998, 1990s), "a month",
// "a number", "a name", "a word that says how often". It reads the word
// itself, so that a sentence whose only number is a section's "2.1.1" is
// not said to hold "a date or year".
func seenAs(w string, t answerType) string {
	switch {
	case t == typeFrequency:
		return "a word that says how often"
	case t == typeName:
		return "a name"
	case isYear(w):
		return "a year"
	case isMonth(w):
		return "a month"
	case isNumberish(w) || ordinal(w):
		return "a number"
	}
	return "a word with digits"
}

// isYear: four digits from 1000 to 2099, or a decade ("1990s").
func isYear(w string) bool {
	w = strings.TrimSuffix(strings.TrimSuffix(w, "s"), "'")
	if len(w) != 4 {
		return false
	}
	for i := 0; i < 4; i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return w[0] == '1' || w[0] == '2' && w[1] == '0'
}

// spelledNumbers are numbers written in words that numberWords leaves out,
// for the rule of refusal on the answer type (Params.Spelled) but not the
// learned ranker, which was fitted on numberWords: "none" and "zero"
// answer "How many …?" as well as "two" does, and "one" does when it is
// not a pronoun (see isOne); "a single output", "twice a year" too.
var spelledNumbers = enSet("numbers-spelled")

// spelledOrdinals are ordinals written in words, which name a world war
// ("during the second world war").
var spelledOrdinals = enSet("war-ordinals")

// oneBefore are the words after which "one" is a pronoun ("no one", "the
// one who", "each one"), oneAfter those before which it is ("one of the
// main centres", "one another").
var (
	oneBefore = enSet("one-pronoun-before")
	oneAfter  = enSet("one-pronoun-after")
)

// holdsSpelled reports whether sentence holds an answer of type t written
// in words that holdsType does not read, and the question does not hold:
// for a number, "one" (not a pronoun), "none", "zero", "fifteen"; for a
// date, a world war named by its number ("during the Second World War",
// "World War II"). Not a century ("the nineteenth century"): on the
// ranker's training questions it let an unanswerable question through and
// answered none that was refused.
func holdsSpelled(sentence string, t answerType, qterms map[string]bool) bool {
	if t != typeNumber && t != typeTime && t != typeWhen {
		return false
	}
	words := splitWords(strings.ToLower(sentence))
	at := func(i int) string {
		if i < 0 || i >= len(words) {
			return ""
		}
		return words[i]
	}
	asked := func(w string) bool {
		ts := terms(w)
		return len(ts) > 0 && qterms[ts[0]]
	}
	for i, w := range words {
		if asked(w) {
			continue
		}
		switch t {
		case typeNumber:
			if spelledNumbers[w] || w == "one" && !oneBefore[at(i-1)] && !oneAfter[at(i+1)] {
				return true
			}
		case typeTime, typeWhen:
			if spelledOrdinals[w] && at(i+1) == "world" && at(i+2) == "war" ||
				w == "world" && at(i+1) == "war" && (at(i+2) == "i" || at(i+2) == "ii") {
				return true
			}
		}
	}
	return false
}

// Units a measured answer is written in, by kind.
var (
	timeUnits   = enWords("units-time")
	lengthUnits = enWords("units-length")
	areaUnits   = enWords("units-area")
	heatUnits   = enWords("units-heat")
	moneyUnits  = enWords("units-money")
	weightUnits = enWords("units-weight")
	shareUnits  = enWords("units-share")
	speedUnits  = enWords("units-speed")
)

// unitsAfterHow: "how long …?" is answered in minutes or metres, "how hot
// …?" in degrees.
var unitsAfterHow = func() map[string][][]string {
	m := map[string][][]string{}
	for _, line := range enWords("how-units") {
		ws := strings.Fields(line)
		for _, kind := range ws[1:] {
			m[ws[0]] = append(m[ws[0]], enWords("units-"+kind))
		}
	}
	return m
}()

// questionUnits returns the units an English question's answer is
// measured in ("How long …?": minutes, hours, metres …), none when it does
// not ask for a measure.
func questionUnits(question string) map[string]bool {
	words := splitWords(strings.ToLower(question))
	var kinds [][]string
	for i := 0; i+1 < len(words) && kinds == nil; i++ {
		switch {
		case words[i] == "how":
			kinds = unitsAfterHow[words[i+1]]
		case (words[i] == "what" || words[i] == "which") && (words[i+1] == "temperature" || words[i+1] == "temperatures"):
			kinds = [][]string{heatUnits}
		case (words[i] == "what" || words[i] == "which") && (words[i+1] == "percentage" || words[i+1] == "percent"):
			kinds = [][]string{shareUnits}
		}
	}
	if kinds == nil {
		return nil
	}
	units := map[string]bool{}
	for _, k := range kinds {
		for _, u := range k {
			units[u] = true
		}
	}
	return units
}

// holdsUnit reports whether sentence holds one of units that the
// question does not: a unit word, or a symbol such as $, % or °.
func holdsUnit(sentence string, units map[string]bool, question string) bool {
	held := false
	eachUnit(sentence, units, question, func(string, bool, []string) bool {
		held = true
		return false
	})
	return held
}

// eachUnit calls visit with each unit of units that text holds and the
// question does not, until visit returns false: a unit of symbols or of
// several words ("$", "°c", "square miles") found anywhere in the text
// (word false); a unit of one word as each word of the text, with the (at
// most three) words before it.
func eachUnit(text string, units map[string]bool, question string, visit func(u string, word bool, before []string) bool) {
	if len(units) == 0 {
		return
	}
	lower, q := strings.ToLower(text), strings.ToLower(question)
	for u := range units {
		if (strings.ContainsAny(u, "$£€¥%°") || strings.Contains(u, " ")) && strings.Contains(lower, u) && !strings.Contains(q, u) {
			if !visit(u, false, nil) {
				return
			}
		}
	}
	notLetter := func(r rune) bool { return !isWordRune(r) }
	qwords := map[string]bool{}
	for _, w := range strings.FieldsFunc(q, notLetter) {
		qwords[w] = true
	}
	words := strings.FieldsFunc(lower, notLetter)
	for i, w := range words {
		if units[w] && !qwords[w] && !visit(w, true, words[max(0, i-3):i]) {
			return
		}
	}
}

// backWords point back to what an English sentence before named.
var backWords = enSet("back-words")

// refersBack reports whether sentence opens with a word that points back
// ("It was founded in 1209.", "They settled …"): its subject is named in
// the sentence before.
func refersBack(sentence string) bool {
	first, _, _ := strings.Cut(strings.TrimLeft(sentence, " \t\n\"'“‘("), " ")
	return backWords[strings.ToLower(strings.TrimRight(first, ",;:\"'”’"))]
}

// backDeterminers point back when they open a phrase after a preposition
// ("At that temperature …", "In these cases …").
var backDeterminers = enSet("back-determiners")

// pointsBack reports whether a sentence in the language of lex (English
// when nil) needs the one before to be read. An English sentence opens
// with a word that points back (refersBack), or with a phrase that does
// ("At that temperature weed seeds are killed.", "In these cases …",
// "That year …"); a sentence in another language opens with a word of its
// lexicon's back-words list (opensBack: "他的喜劇主要以…", "這是威屯卡隕石坑").
func pointsBack(sentence string, lex *lang.Lexicon) bool {
	if lex != nil && lex != english {
		return opensBack(sentence, lex)
	}
	if refersBack(sentence) {
		return true
	}
	words := strings.Fields(strings.ToLower(strings.TrimLeft(sentence, " \t\n\"'“‘(")))
	word := func(i int) string {
		if i >= len(words) {
			return ""
		}
		return strings.Trim(words[i], ",;:\"'”’")
	}
	if word(0) == "that" || word(0) == "such" {
		return word(1) != "" && !stopWords[word(1)]
	}
	return prepositions[word(0)] && backDeterminers[word(1)] && word(2) != ""
}

// opensBack reports whether sentence opens with a word of lex's back-words
// list: its first word, or, in a script written without spaces, any
// listed word it begins with ("雙方簽署…" begins with 雙方).
func opensBack(sentence string, lex *lang.Lexicon) bool {
	s := strings.TrimLeftFunc(sentence, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	first, _, _ := strings.Cut(s, " ")
	first = strings.TrimRightFunc(first, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsMark(r) })
	if lex.Listed(listBack, first) {
		return true
	}
	if !keywords.Spaceless(first) {
		return false
	}
	for _, w := range lex.Words(listBack) {
		if strings.HasPrefix(s, w) {
			return true
		}
	}
	return false
}

// prepositions open a phrase that may point back ("At that time").
var prepositions = enSet("back-prepositions")

// agendaVerbs announce what a talk or a text will look at.
var agendaVerbs = enSet("agenda-verbs")

// whWords open an indirect question.
var whWords = enSet("indirect-question-words")

// announces reports whether an English sentence announces a question
// instead of answering it: "Today we look at how volcanoes erupt.", "Here
// we investigate whether …", "Let's talk about why …": "we", "I" or
// "let's" with a verb of looking into it, and a question word soon after.
// It is a question put another way, and no answer.
func announces(sentence string) bool {
	words := strings.Fields(strings.ToLower(sentence))
	for i := range words {
		words[i] = strings.Trim(words[i], ",;:.!\"'“”‘’()")
	}
	for i, w := range words {
		if w != "we" && w != "i" && w != "let's" && w != "let’s" && w != "us" {
			continue
		}
		for j := i + 1; j < len(words) && j <= i+3; j++ {
			if !agendaVerbs[words[j]] {
				continue
			}
			for k := j + 1; k < len(words) && k <= j+3; k++ {
				if whWords[words[k]] {
					return true
				}
			}
		}
	}
	return false
}

// crowds are English subjects that name no one: "people", "some", "many",
// "others" (with an optional "people" after "some", "many", "most"); not
// "they", which names whom the sentence before named.
var crowds = enSet("crowds")

// sayVerbs tell what a speaker says or believes.
var sayVerbs = enSet("say-verbs")

// hearsay reports whether an English sentence opens by telling what
// unnamed others say or believe: "People say …", "Some people think …",
// "Many believe …", "It is said …", "It is often claimed …" (after an
// opening "But", "And", "So" or "Still"). A named speaker ("Okafor says
// …") is not hearsay.
func hearsay(sentence string) bool {
	var words []string
	for _, f := range strings.Fields(sentence) {
		words = append(words, strings.ToLower(strings.Trim(f, ",;:\"'“”‘’()")))
		if len(words) == 6 {
			break
		}
	}
	if len(words) > 0 && (words[0] == "but" || words[0] == "and" || words[0] == "so" || words[0] == "still") {
		words = words[1:]
	}
	// "often", "usually", "sometimes", "also" may stand before the verb.
	skip := func(i int) int {
		if i < len(words) && (words[i] == "often" || words[i] == "usually" || words[i] == "sometimes" || words[i] == "also") {
			return i + 1
		}
		return i
	}
	if len(words) < 2 {
		return false
	}
	if words[0] == "it" {
		i := skip(1)
		if i < len(words) && (words[i] == "is" || words[i] == "was") {
			i = skip(i + 1)
			return i < len(words) && (words[i] == "said" || words[i] == "believed" || words[i] == "thought" || words[i] == "claimed")
		}
		return false
	}
	if !crowds[words[0]] {
		return false
	}
	i := 1
	if words[0] != "people" && words[0] != "others" && i < len(words) && words[i] == "people" {
		i++
	}
	i = skip(i)
	if i >= len(words) || !sayVerbs[words[i]] {
		return false
	}
	// "Some argue over the accuracy of …" names a dispute, not what they
	// say: the verb must tell a claim, not stand before a preposition.
	return i+1 >= len(words) || !afterSaying[words[i+1]]
}

// afterSaying are the prepositions after which a verb of saying names what
// is talked about, not what is said.
var afterSaying = enSet("after-saying")

// leadIn reports whether a paragraph opens with a question and then only
// tells what others say ("What about screens? People say the blue light
// keeps them awake."): an interviewer's lead-in, which the next paragraph
// answers as it answers a paragraph ending in a question.
func leadIn(text string) bool {
	spans := sentences.Split(text)
	if len(spans) < 2 || !item.Asks(text[spans[0].Start:spans[0].End]) {
		return false
	}
	for _, sp := range spans[1:] {
		if s := text[sp.Start:sp.End]; !item.Asks(s) && !hearsay(s) {
			return false
		}
	}
	return true
}

// scale is where a unit stands: its kind (time, length …) and, for time
// and length, its place from the smallest ("seconds" 0, "minutes" 1 …
// "years" 6); a unit of another kind has place 0.
type scale struct{ kind, place int }

// unitScales gives each unit of the unit lists its scale. Neighbouring
// places are at most a few dozen times apart (a minute and an hour, a
// month and a year); two places apart, a hundred times or more.
var unitScales = func() map[string]scale {
	m := map[string]scale{}
	places := map[string]int{}
	for u, place := range enPairs("unit-places") {
		places[u], _ = strconv.Atoi(place)
	}
	for kind, units := range [][]string{timeUnits, lengthUnits, areaUnits, heatUnits, moneyUnits, weightUnits, shareUnits, speedUnits} {
		for _, u := range units {
			if _, ok := m[u]; !ok {
				m[u] = scale{kind, places[u]}
			}
		}
	}
	return m
}()

// measureScales returns the scales of the units of units that text holds
// and the question does not (as holdsUnit finds them), in no order.
func measureScales(text string, units map[string]bool, question string) []scale {
	seen := map[string]bool{}
	eachUnit(text, units, question, func(u string, word bool, before []string) bool {
		if !word || counted(before) {
			seen[u] = true
		}
		return true
	})
	var found []scale
	for u := range seen {
		found = append(found, unitScales[u])
	}
	return found
}

// fewWords count a unit as numbers do: "a year", "several minutes".
var fewWords = enSet("few-words")

// counted reports whether the words before a unit count it: one is a
// number ("three to five minutes", "twenty-four hours", "a year"), so the
// unit is a measure, not an ordinal ("The second system …") or a noun
// ("the hours of daylight").
func counted(before []string) bool {
	for _, w := range before {
		if numberWords[w] || spelledNumbers[w] || fewWords[w] || strings.IndexFunc(w, unicode.IsDigit) >= 0 {
			return true
		}
	}
	return false
}

// sameScale reports whether a measure of a and one of b are of a kind and
// at most one place apart: "thirty seconds" and "three to five minutes"
// are, "thirty seconds" and "six months" are not.
func sameScale(a, b []scale) bool {
	for _, x := range a {
		for _, y := range b {
			if x.kind == y.kind && x.place-y.place <= 1 && y.place-x.place <= 1 {
				return true
			}
		}
	}
	return false
}

// kindWords after "what"/"which" say that the noun after "of" is the kind
// asked for ("What type of city …?").
var kindWords = enSet("kind-words")

// askedKind is the term of the noun an English question asks for a name of
// ("What treaty …?", "Which sea …?", "What kind of river …?" give the terms
// of "treaty", "sea", "river"), or "" when it asks for none: a time or a
// number noun ("What year …?") or a function word ("What is …?") after
// the question word is not a kind.
func askedKind(question string) string {
	words := splitWords(strings.ToLower(question))
	for i, w := range words {
		if w != "what" && w != "which" {
			continue
		}
		j := i + 1
		if j+1 < len(words) && kindWords[words[j]] && words[j+1] == "of" {
			j += 2
		}
		if j >= len(words) || timeNouns[words[j]] || numberNouns[words[j]] || kindWords[words[j]] {
			return ""
		}
		if ts := terms(words[j]); len(ts) == 1 {
			return ts[0]
		}
		return ""
	}
	return ""
}

// holdsNamedKind reports whether sentence holds a name of the kind asked
// for (askedKind's term) that the question does not: the kind's word
// written with a capital beside another capitalised word the question does
// not hold ("the Lisbon Treaty", "the North Sea", "the Charles River",
// "the Treaty of Lisbon" for "What treaty …?"), or, as technical
// documentation names a program, an option, a file or a counter, the
// kind's word beside a name written as code (holdsCodeNamedKind).
func holdsNamedKind(sentence, kind string, qterms map[string]bool) bool {
	if kind == "" {
		return false
	}
	if holdsCodeNamedKind(sentence, kind, qterms) {
		return true
	}
	words := splitWords(sentence)
	named := func(i int) bool {
		if i < 0 || i >= len(words) {
			return false
		}
		r, _ := utf8.DecodeRuneInString(words[i])
		if !unicode.IsUpper(r) {
			return false
		}
		ts := terms(words[i])
		return len(ts) > 0 && !qterms[ts[0]]
	}
	for i, w := range words {
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsUpper(r) {
			continue
		}
		if ts := terms(w); len(ts) != 1 || ts[0] != kind {
			continue
		}
		if named(i-1) || named(i+1) || i+2 < len(words) && words[i+1] == "of" && named(i+2) {
			return true
		}
	}
	return false
}

// holdsCodeNamedKind reports whether sentence holds the kind's word, in
// any case, beside a name written as code whose first term the question
// does not hold (codeName): "These binary log data are accessed by the
// journalctl(1) command.", "the -P option", "the ‘minrows’ counter",
// "the command ”/usr/bin/editor”" for "Which command …?", "Which option
// …?". A manual names a program in lower case, so the capitals that tell
// a name in prose (the Lisbon Treaty) are not there. The kind's word is
// English (askedKind); code names are written alike in any language.
func holdsCodeNamedKind(sentence, kind string, qterms map[string]bool) bool {
	fields := strings.Fields(sentence)
	for i, f := range fields {
		if ts := terms(strings.Trim(f, ",.;:!?()")); len(ts) != 1 || ts[0] != kind {
			continue
		}
		for _, name := range []string{codeName(fields[:i], true), codeName(fields[i+1:], false)} {
			if name == "" || strings.IndexFunc(name, isWordRune) < 0 {
				continue
			}
			// An option of one letter ("-P") has no term: a name all the same.
			if ts := terms(name); len(ts) == 0 || !qterms[ts[0]] {
				return true
			}
		}
	}
	return false
}

// quoteMarks open and close a name written in quotes.
const quoteMarks = "\"“”‘’'«»"

// codeName returns the name written as code that the words next to the
// kind's word are, "" when they are none: the last of fields (before, the
// words before the kind's word) or the first (the words after it). A
// manual page's name and section ("journalctl(1)": "journalctl"), an
// option ("-P", "--port"), a path ("/usr/bin/editor", "~/.ssh/config"),
// a TeX control word ("\raggedcolumns"), or words in quotes ("‘minrows’",
// "”journalctl -b”": its first word).
func codeName(fields []string, before bool) string {
	if len(fields) == 0 {
		return ""
	}
	at := 0
	if before {
		at = len(fields) - 1
	}
	w := strings.TrimRight(fields[at], ",.;:!?")
	// Words in quotes, at most five.
	if r, _ := utf8.DecodeRuneInString(w); !before && strings.ContainsRune(quoteMarks, r) {
		return strings.Trim(w, quoteMarks)
	}
	if r, _ := utf8.DecodeLastRuneInString(w); before && strings.ContainsRune(quoteMarks, r) {
		for k := at; k >= max(0, at-4); k-- {
			if r, _ := utf8.DecodeRuneInString(fields[k]); strings.ContainsRune(quoteMarks, r) {
				return strings.Trim(fields[k], quoteMarks)
			}
		}
		return ""
	}
	return codeWord(w)
}

// codeWord returns the name of the word w when it is written as code, ""
// when it is not: an option ("-P", "--port": "P", "port"), a path
// ("/usr/bin/editor", "~/.ssh/config": its last part), a TeX control word
// ("\raggedcolumns") or a manual page's name and section ("journalctl(1)").
func codeWord(w string) string {
	switch {
	case len(w) > 1 && w[0] == '-' && (w[1] == '-' || isWordRune(rune(w[1]))):
		return strings.TrimLeft(w, "-")
	case len(w) > 1 && w[0] == '/' || strings.HasPrefix(w, "~/"):
		return w[strings.LastIndexByte(w, '/')+1:]
	case controlWord(w):
		return w[1:]
	}
	// A manual page's name and section: "journalctl(1)", "sudoers(5)".
	if open := strings.IndexByte(w, '('); open > 0 && strings.HasSuffix(w, ")") {
		if sect := w[open+1 : len(w)-1]; sect != "" && sect[0] >= '0' && sect[0] <= '9' && len(sect) <= 4 {
			return w[:open]
		}
	}
	return ""
}

// heldCode returns the first word of sentence written as code (codeWord)
// that the question does not write: for a question that asks how to do
// something, the command, option or file that does it ("use the
// --reinstall option" for "How do I reinstall a package …?"), which the
// sentence that restates the question lacks ("The easiest way to retrieve
// these files is to reinstall the affected package."). "" when none.
func heldCode(sentence, question string) string {
	asked := map[string]bool{}
	for _, f := range strings.Fields(question) {
		asked[strings.TrimRight(f, ",.;:!?")] = true
	}
	for _, f := range strings.Fields(sentence) {
		w := strings.TrimLeft(strings.TrimRight(f, ",.;:!?"), "(")
		if strings.HasSuffix(w, ")") && !strings.Contains(w, "(") {
			w = strings.TrimRight(w, ")")
		}
		if name := codeWord(w); name != "" && !controlWord(w) && strings.IndexFunc(name, isWordRune) >= 0 && !asked[w] {
			return w
		}
	}
	return ""
}

// draftWords are the drafter's words for the definitions rule
// (internal/base/definitions): a question's subject and a sentence are cut
// and stemmed as the drafter reads every sentence (splitWords, terms).
var draftWords = definitions.Words{Split: splitWords, Terms: terms, Stop: func(w string) bool { return stopWords[w] }}

// subjectOf returns what an English question asks the nature of ("What is a
// sourdough starter?": definitions.Of), nil for any other question.
func subjectOf(question string) *definitions.Subject { return definitions.Of(question, draftWords) }
