package extractive

import (
	"strings"
	"unicode"
	"unicode/utf8"
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
)

func (t answerType) String() string {
	return [...]string{"", "a time", "a date or year", "a number", "a name"}[t]
}

// numberAfterHow: "how many", "how old" … ask for a number.
var numberAfterHow = map[string]bool{"many": true, "much": true, "long": true, "old": true, "far": true,
	"large": true, "big": true, "tall": true, "high": true, "deep": true, "wide": true,
	"fast": true, "heavy": true}

// timeNouns after "what"/"which" ask for a time; numberNouns for a number.
var timeNouns = map[string]bool{"year": true, "years": true, "century": true, "decade": true,
	"month": true, "date": true, "day": true}
var numberNouns = map[string]bool{"percentage": true, "percent": true, "number": true, "amount": true}

// questionType reads the answer type from the first question word of an
// English question.
func questionType(question string) answerType {
	words := strings.FieldsFunc(strings.ToLower(question), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
	for i, w := range words {
		next := ""
		if i+1 < len(words) {
			next = words[i+1]
		}
		switch w {
		case "when":
			// "When did … / was … / were …?" asks when something
			// happened: a date. "When should I …?" may be answered by
			// a clause.
			if next == "did" || next == "was" || next == "were" {
				return typeTime
			}
			return typeWhen
		case "who", "whom", "whose", "where":
			return typeName
		case "how":
			if numberAfterHow[next] {
				return typeNumber
			}
			return typeNone
		case "what", "which":
			if timeNouns[next] {
				return typeTime
			}
			if numberNouns[next] {
				return typeNumber
			}
			return typeNone
		case "why":
			return typeNone
		}
	}
	return typeNone
}

// months name the months, for a time written without a year.
var months = map[string]bool{"january": true, "february": true, "march": true, "april": true, "may": true,
	"june": true, "july": true, "august": true, "september": true, "october": true, "november": true,
	"december": true}

// numberWords are numbers written in words.
// "One" is left out: it is a pronoun as often as a number.
var numberWords = map[string]bool{"two": true, "three": true, "four": true, "five": true, "six": true,
	"seven": true, "eight": true, "nine": true, "ten": true, "eleven": true, "twelve": true, "twenty": true,
	"thirty": true, "forty": true, "fifty": true, "sixty": true, "seventy": true, "eighty": true, "ninety": true, "hundred": true, "hundreds": true, "thousand": true,
	"thousands": true, "million": true, "millions": true, "billion": true, "dozen": true, "half": true}

// holdsType reports whether sentence holds an answer of type t that the
// question does not hold (qterms: the question's terms, as terms gives them).
func holdsType(sentence string, t answerType, qterms map[string]bool) bool {
	if t == typeNone {
		return false
	}
	words := strings.FieldsFunc(sentence, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	})
	for i, w := range words {
		lower := strings.ToLower(w)
		if ts := terms(w); len(ts) == 0 || qterms[ts[0]] {
			continue
		}
		digits := strings.IndexFunc(w, unicode.IsDigit) >= 0
		switch t {
		case typeTime, typeWhen:
			if digits || months[lower] {
				return true
			}
		case typeNumber:
			if digits || numberWords[lower] {
				return true
			}
		case typeName:
			// A capitalised word inside the sentence; the first word is
			// capitalised whatever it is.
			r, _ := utf8.DecodeRuneInString(w)
			if i > 0 && unicode.IsUpper(r) {
				return true
			}
		}
	}
	return false
}
