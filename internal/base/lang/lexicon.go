package lang

import (
	"embed"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The lexicons: lexicons/<tag>/<list>.txt, one word or phrase a line, "#"
// starting a comment line; lexicons/neutral holds lists for every language
// (and the only lists of the neutral lexicon).
//
//go:embed lexicons
var lexiconFiles embed.FS

// The lists a rule of sponge reads. A lexicon may hold others (each file of
// its folder is a list, named by the file without ".txt").
const (
	// Stop are function words, which say nothing of a text's topic.
	Stop = "stop"
	// Abbreviations are words written with a full stop that does not end a
	// sentence ("e.g.", "Dr.", "z. B."), each as written, full stops kept.
	Abbreviations = "abbreviations"
	// BeforeNumber are abbreviations that end no sentence before a number
	// ("Fig. 3", "No. 5", "S. 12"), written with their full stop.
	BeforeNumber = "before-number"
	// Questions are the words that make a sentence a question in a language
	// that marks none (Thai: "ไหม", "อะไร").
	Questions = "questions"
	// Traits are what the language's writing does that a rule keys on, one
	// a line ("ordinals-with-full-stop": "am 3. Oktober").
	Traits = "traits"
	// AsksTime are the words and phrases of a question that ask for a time
	// or a date ("Когда", "Wann", "언제*", "何年"), AsksNumber those that ask
	// for a number ("Сколько", "wie viele", "多少"): an entry ending in "*"
	// stands for a word that begins with it (Korean glues its endings:
	// "언제인가요").
	AsksTime   = "asks-time"
	AsksNumber = "asks-number"
	// Numbers are numbers written in words ("шесть", "zwei", "两"), which
	// answer a question that asks for a number as digits do.
	Numbers = "numbers"
	// Centuries are the words that name a century or a millennium after its
	// number written in Roman numerals ("XII век", "IX—XII вв.", "в X
	// веке"): such a number says when, as a year does. An entry ending in
	// "*" stands for a word that begins with it.
	Centuries = "centuries"
	// Endings are particles and case endings a language writes glued to the
	// word before them (Korean's 은, 는, 의, 에서): a word and the same word
	// with one of them are one word.
	Endings = "endings"
)

// neutralDir is the folder of the lists every lexicon has.
const neutralDir = "neutral"

// A Lexicon is what sponge knows of the words of one language: lists of
// words by name, and a stemmer. Its methods may be called at once from
// several goroutines.
type Lexicon struct {
	tag   Tag
	lists map[string]*list
	stem  func(string) string
}

// list is one list of a lexicon: its entries as written, in order, and the
// set of them lower-cased.
type list struct {
	words []string
	set   map[string]bool
	own   bool // read from the language's own folder, not only neutral
}

var (
	lexiconsMu sync.Mutex
	lexicons   map[Tag]*Lexicon // made on first use: no program pays at start
)

// For returns the lexicon of a language: read once from the embedded files,
// the neutral lexicon's lists added to each of its own; a language with no
// folder (and Unknown) gets the neutral lexicon alone, under its own tag.
func For(t Tag) *Lexicon {
	lexiconsMu.Lock()
	defer lexiconsMu.Unlock()
	if lx, ok := lexicons[t]; ok {
		return lx
	}
	if lexicons == nil {
		lexicons = map[Tag]*Lexicon{}
	}
	lx := &Lexicon{tag: t, lists: map[string]*list{}, stem: stemmerOf(t)}
	lx.read(neutralDir, false)
	if t != Unknown && fs.ValidPath(string(t)) && t != neutralDir {
		lx.read(string(t), true)
	}
	lexicons[t] = lx
	return lx
}

// read adds the lists of one folder of lexicons.
func (lx *Lexicon) read(dir string, own bool) {
	entries, err := lexiconFiles.ReadDir(path.Join("lexicons", dir))
	if err != nil {
		return // no folder: no lists of its own
	}
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".txt")
		if !ok || e.IsDir() {
			continue
		}
		data, err := lexiconFiles.ReadFile(path.Join("lexicons", dir, e.Name()))
		if err != nil {
			panic("lang: " + err.Error()) // embedded: cannot happen
		}
		l := lx.lists[name]
		if l == nil {
			l = &list{set: map[string]bool{}}
			lx.lists[name] = l
		}
		l.own = l.own || own
		for _, w := range parseList(string(data)) {
			if k := strings.ToLower(w); !l.set[k] {
				l.set[k] = true
				l.words = append(l.words, w)
			}
		}
	}
}

// parseList returns the entries of a list file: each line without its
// surrounding white space, blank lines and "#" comment lines left out.
func parseList(data string) []string {
	var out []string
	for line := range strings.Lines(data) {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		out = append(out, line)
	}
	return out
}

// Tag is the language of the lexicon (Unknown for the neutral lexicon).
func (lx *Lexicon) Tag() Tag { return lx.tag }

// Has reports whether word (a word or a phrase, in any case) is in the
// named list. The lists are written in NFC, and a word is looked up in it:
// a Bengali question may write য় as one code point (U+09DF), which NFC
// writes as য with a nukta, as the lists and the saved texts do.
func (lx *Lexicon) Has(name, word string) bool {
	l := lx.lists[name]
	if l == nil {
		return false
	}
	if l.set[word] {
		return true
	}
	if !norm.NFC.IsNormalString(word) {
		word = norm.NFC.String(word)
	}
	return l.set[strings.ToLower(word)]
}

// Listed reports whether word is in the named list as written, or with one
// of the language's Endings glued on (Korean "때는" is "때" with "는"): a
// language that glues its particles to the word writes a listed word so.
func (lx *Lexicon) Listed(name, word string) bool {
	if lx.Has(name, word) {
		return true
	}
	for _, end := range lx.Words(Endings) {
		if w, ok := strings.CutSuffix(word, end); ok && w != "" && lx.Has(name, w) {
			return true
		}
	}
	return false
}

// Bare returns word without the Endings glued to its end, taken off one
// after the other, the longest first, while at least two letters stay
// (Korean "람보르기니가" is "람보르기니", "서울에서는" is "서울"; "국가"
// stays, a noun that ends as a particle does): the form a language that
// glues its particles matches words by. A noun may itself end as a particle
// does ("초월주의", "한국인"), and nothing tells the two apart from the word
// alone: taking every ending off gives such a noun, written plain or with
// particles ("초월주의는", "초월주의의"), one bare form ("초월주"), which
// is what matching needs. A word without one, or a language without
// Endings, is returned as it is; no ending is taken that would leave the
// word ending in a virama (endsInVirama).
func (lx *Lexicon) Bare(word string) string {
	for {
		best := ""
		for _, end := range lx.Words(Endings) {
			if len(end) > len(best) && strings.HasSuffix(word, end) && utf8.RuneCountInString(word[:len(word)-len(end)]) >= 2 && !endsInVirama(word[:len(word)-len(end)]) {
				best = end
			}
		}
		if best == "" {
			return word
		}
		word = word[:len(word)-len(best)]
	}
}

// endsInVirama reports whether w ends in a virama (hasanta), the first
// half of a conjunct: the letter after it is part of the word, not an
// ending (Bengali "শাস্ত্র" is not "শাস্ত্" with "র").
func endsInVirama(w string) bool {
	r, _ := utf8.DecodeLastRuneInString(w)
	return r != utf8.RuneError && norm.NFC.PropertiesString(string(r)).CCC() == 9
}

// BareHangul returns a word of Hangul without the Korean particles glued
// to its end (Korean's Bare: "람보르기니가" is "람보르기니", "초월주의는"
// and "초월주의" are both "초월주"), so that a question's "캐나다는" meets
// a paragraph's "캐나다의"; Hangul is written only for Korean. A word of
// another script is returned as it is. The index and the drafter both
// match Korean words by it.
func BareHangul(w string) string {
	r, _ := utf8.DecodeRuneInString(w)
	if r < 0xAC00 || r > 0xD7A3 {
		return w
	}
	return korean().Bare(w)
}

// BareGlued returns a word of the Bengali or the Telugu script without
// the case endings, postpositions, plural and definite markers its
// language glues to its end (that lexicon's Bare: Bengali "পশ্চিমবঙ্গের"
// is "পশ্চিমবঙ্গ", "জেলায়" and "জেলাগুলির" are "জেলা"; Telugu
// "భారతదేశంలో" is "భారతదేశం"), so that a question's "পশ্চিমবঙ্গের" meets a
// paragraph's "পশ্চিমবঙ্গ". A word of another script is returned as it is
// (Hangul: BareHangul).
func BareGlued(w string) string {
	r, _ := utf8.DecodeRuneInString(w)
	switch {
	case unicode.Is(unicode.Bengali, r):
		return bengali().Bare(w)
	case unicode.Is(unicode.Telugu, r):
		return telugu().Bare(w)
	}
	return w
}

// bengali and telugu are the lexicons whose Endings BareGlued takes off.
var (
	bengali = sync.OnceValue(func() *Lexicon { return For("bn") })
	telugu  = sync.OnceValue(func() *Lexicon { return For("te") })
)

// korean is the lexicon whose Endings BareHangul takes off.
var korean = sync.OnceValue(func() *Lexicon { return For("ko") })

// Words returns the entries of the named list as written, in the order of
// its file (the neutral list's first); nil when the lexicon has no such
// list. The caller must not change them.
func (lx *Lexicon) Words(name string) []string {
	if l := lx.lists[name]; l != nil {
		return l.words
	}
	return nil
}

// Knows reports whether the language has a list of that name of its own,
// not only the neutral one's: a rule that needs the list is on for it. An
// explanation says when a rule was off for want of a list.
func (lx *Lexicon) Knows(name string) bool {
	l := lx.lists[name]
	return l != nil && l.own
}

// Lists returns the names of the lexicon's lists, sorted.
func (lx *Lexicon) Lists() []string {
	names := make([]string, 0, len(lx.lists))
	for n := range lx.lists {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Stem returns the stem of a word, lower-cased, by the language's
// stemmer (Snowball's, where there is one); a language without one gives
// the word lower-cased.
func (lx *Lexicon) Stem(word string) string {
	return lx.stem(strings.ToLower(word))
}

// Stems reports whether the language has a stemmer.
func (lx *Lexicon) Stems() bool { return snowballOf(lx.tag) != nil }

// Tags returns the languages that have a lexicon of their own, sorted.
func Tags() []Tag {
	entries, err := lexiconFiles.ReadDir("lexicons")
	if err != nil {
		panic("lang: " + err.Error()) // embedded: cannot happen
	}
	var out []Tag
	for _, e := range entries {
		if e.IsDir() && e.Name() != neutralDir {
			out = append(out, Tag(e.Name()))
		}
	}
	return out
}
