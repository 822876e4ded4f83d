package extractive

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// demonymEndings end the word a people or a language takes from its
// place's name: "Persian", "European", "Chinese", "British", "Israeli"
// (and plurals). Stripped, they leave a root the place's name starts with.
var demonymEndings = enWords("demonym-endings")

// demonymRoots are the roots a place's name and its people's word may
// share: w without each demonym ending it has, of four letters or more
// ("persian": "pers", "persia"); none when w has no such ending.
func demonymRoots(w string) []string {
	var roots []string
	for _, e := range demonymEndings {
		if r, ok := strings.CutSuffix(w, e); ok && utf8.RuneCountInString(r) >= 4 {
			roots = append(roots, r)
		}
	}
	return roots
}

// kin reports whether the names a and b (index terms) are a place and its
// people's or language's word: one is the other's root with a demonym
// ending ("persian" and "persia", "british" and "britain").
func kin(a, b string) bool {
	if a == b {
		return true
	}
	for _, pair := range [2][2]string{{a, b}, {b, a}} {
		for _, r := range demonymRoots(pair[0]) {
			if strings.HasPrefix(pair[1], r) {
				return true
			}
		}
	}
	return false
}

// connectors are the small words an acronym skips: "Member of the
// Scottish Parliament" is "MSP".
var connectors = enSet("acronym-skips")

// placeAbbreviations are the postal abbreviations of places with the
// place's name ("GA Georgia"), keyed by the abbreviation.
var placeAbbreviations = enPairs("place-abbreviations")

// kinHeld adds to have (the question's words text holds) the question's
// names in set that text holds in another form a name takes (Params.Kin):
// a capitalised word of text that is its kin (the place for its people's
// word, or the other way), or, for a name the question writes in
// capitals ("EU"), a run of text's capitalised words whose initials spell
// it ("European Union"; a word in capitals, "World War II", counts whole),
// the name itself where the index keeps no term of it ("US"), or the
// place a postal abbreviation stands for ("GA": "Georgia"). A name the
// question writes with a full stop after each letter ("U.S.", "D.C.",
// whose terms are its letters) is read as those capitals ("US").
func (lw *libraryWeights) kinHeld(text string, have, set map[string]bool) map[string]bool {
	var missing []string
	for t := range set {
		if !have[t] {
			missing = append(missing, t)
		}
	}
	if len(missing) == 0 {
		return have
	}
	words := splitWords(text)
	var caps []string // the terms of text's capitalised words
	for _, w := range words {
		if r, _ := utf8.DecodeRuneInString(w); unicode.IsUpper(r) {
			caps = append(caps, indexTerms(w)...)
		}
	}
	out := make(map[string]bool, len(have)+len(missing))
	for t := range have {
		out[t] = true
	}
	for _, t := range missing {
		for _, u := range caps {
			if kin(t, u) {
				out[t] = true
				break
			}
		}
		acronym, asked := strings.ToUpper(t), lw.word[t]
		if d := dottedInitials(asked); d != "" {
			acronym, asked = d, d
		}
		if !out[t] && (initialsOf(acronym, asked, words) || placeHeld(asked, words)) {
			out[t] = true
		}
	}
	return out
}

// initialsOf reports whether a run of words (capitalised, connectors
// skipped) spells acronym by their initials, when the question wrote it
// (asked) in capitals of two letters or more. A word in capitals after
// the run's first counts whole ("World War II" is "WWII").
func initialsOf(acronym, asked string, words []string) bool {
	if utf8.RuneCountInString(acronym) < 2 || asked != acronym {
		return false
	}
	if slices.Contains(words, acronym) {
		return true
	}
	for i := range words {
		spelt := ""
		for _, w := range words[i:] {
			if spelt != "" && connectors[w] {
				continue
			}
			r, _ := utf8.DecodeRuneInString(w)
			if !unicode.IsUpper(r) {
				break
			}
			if spelt != "" && w == strings.ToUpper(w) {
				spelt += w
			} else {
				spelt += string(r)
			}
			if spelt == acronym {
				return true
			}
			if !strings.HasPrefix(acronym, spelt) {
				break
			}
		}
	}
	return false
}

// dottedInitials returns the capitals of a name written with a full stop
// after each letter ("U.S" is "US", "D.C." "DC"), "" for any other word
// ("Ph.D", "U").
func dottedInitials(w string) string {
	parts := strings.Split(strings.TrimSuffix(w, "."), ".")
	if len(parts) < 2 {
		return ""
	}
	var b strings.Builder
	for _, p := range parts {
		r, n := utf8.DecodeRuneInString(p)
		if n == 0 || n != len(p) || !unicode.IsUpper(r) {
			return ""
		}
		b.WriteRune(r)
	}
	return b.String()
}

// placeHeld reports whether words (a text's) name in full the place whose
// postal abbreviation the question wrote in capitals (asked: "GA" and
// "Georgia", "NY" and "New York").
func placeHeld(asked string, words []string) bool {
	name, ok := placeAbbreviations[asked]
	if !ok {
		return false
	}
	want := strings.Fields(name)
	for i := 0; i+len(want) <= len(words); i++ {
		if slices.Equal(words[i:i+len(want)], want) {
			return true
		}
	}
	return false
}
