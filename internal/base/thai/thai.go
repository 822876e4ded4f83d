// Package thai cuts text written without spaces between words (Thai, and
// its neighbours Lao, Khmer and Myanmar) into words: with the dictionary of
// an installed Thai word list where there is one (Debian's hunspell-th), and
// into characters where no word covers them. The keyword index finds words
// with it, and the quote check counts them.
package thai

import (
	"os"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// WordLists are where a Thai word list is looked for, first found first:
// Debian's hunspell-th (`make deps` installs it) and the places other systems
// keep the same LibreOffice dictionary. Each line is a word ("word/flags"
// in hunspell's format; the first line may be the count).
var WordLists = []string{
	"/usr/share/hunspell/th_TH.dic",
	"/usr/share/myspell/th_TH.dic",
	"/usr/share/myspell/dicts/th_TH.dic",
	"/usr/local/share/hunspell/th_TH.dic",
	"/opt/homebrew/share/hunspell/th_TH.dic",
}

// thaiDict is a set of Thai words and the length of the longest, in bytes.
type thaiDict struct {
	words  map[string]bool
	maxLen int
}

// List is the Thai word list in use: the first of WordLists there is, and
// its name by path and size ("" for none), which an index records to notice
// a change of list. Finding it costs a few stats; the words are read only
// when Thai text comes.
var List = sync.OnceValues(func() (path, name string) {
	for _, p := range WordLists {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			return p, p + " (" + strconv.FormatInt(fi.Size(), 10) + " bytes)"
		}
	}
	return "", ""
})

// thaiDictionary is the installed Thai word list, or nil when there is none
// (Thai is then matched by pairs of characters, like Chinese).
var thaiDictionary = sync.OnceValue(func() *thaiDict {
	path, _ := List()
	if path == "" {
		return nil
	}
	return loadThaiDict(path)
})

func loadThaiDict(path string) *thaiDict {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	// The words are slices of one string, into a map made to size: a
	// process that meets Thai pays a few milliseconds for the list, not
	// one allocation and a map growth per word.
	text := string(data)
	d := &thaiDict{words: make(map[string]bool, strings.Count(text, "\n")+1)}
	for line := range strings.Lines(text) {
		w, _, _ := strings.Cut(line, "/")
		d.add(strings.TrimSpace(w))
	}
	if len(d.words) == 0 {
		return nil
	}
	return d
}

func newThaiDict(words []string) *thaiDict {
	d := &thaiDict{words: map[string]bool{}}
	for _, w := range words {
		d.add(w)
	}
	return d
}

func (d *thaiDict) add(w string) {
	// One-character entries would cut unknown words into letters; the
	// pairs of characters do better for those.
	if utf8.RuneCountInString(w) < 2 {
		return
	}
	r, _ := utf8.DecodeRuneInString(w)
	if !Letter(r) {
		return
	}
	d.words[w] = true
	d.maxLen = max(d.maxLen, len(w))
}

// Piece is a part of a run: a dictionary word (Known), or characters no word
// covers, the bytes run[Start:End].
type Piece struct {
	Start, End int
	Known      bool
}

// Words cuts a run of Thai (or Lao, Khmer, Myanmar) into the dictionary's
// words, choosing among all cuts the one that leaves the fewest characters
// outside a word, then the one of fewest words (maximal matching, as libthai
// and most Thai word breakers do). Without a dictionary the run is one piece
// of unknown characters.
func Words(run []byte) []Piece {
	d := thaiDictionary()
	if d == nil {
		return []Piece{{0, len(run), false}}
	}
	return d.cut(run)
}

func (d *thaiDict) cut(run []byte) []Piece {
	type cell struct {
		unknown, words int
		from           int
		known          bool
		set            bool
	}
	best := make([]cell, len(run)+1)
	best[0].set = true
	better := func(a cell, b cell) bool {
		if !b.set {
			return true
		}
		if a.unknown != b.unknown {
			return a.unknown < b.unknown
		}
		return a.words < b.words
	}
	for i := 0; i < len(run); {
		next := NextCluster(run, i)
		if best[i].set {
			c := best[i]
			// a character no word covers
			if u := (cell{c.unknown + (next - i), c.words + 1, i, false, true}); better(u, best[next]) {
				best[next] = u
			}
			for j := next; j <= len(run) && j-i <= d.maxLen; {
				if d.words[string(run[i:j])] {
					if k := (cell{c.unknown, c.words + 1, i, true, true}); better(k, best[j]) {
						best[j] = k
					}
				}
				if j == len(run) {
					break
				}
				j = NextCluster(run, j)
			}
		}
		i = next
	}
	var rev []Piece
	for j := len(run); j > 0; {
		c := best[j]
		if !c.known && len(rev) > 0 && !rev[len(rev)-1].Known {
			rev[len(rev)-1].Start = c.from // join unknown characters
		} else {
			rev = append(rev, Piece{c.from, j, c.known})
		}
		j = c.from
	}
	out := make([]Piece, len(rev))
	for i, p := range rev {
		out[len(rev)-1-i] = p
	}
	return out
}

// Letter reports whether r is a letter or mark of Thai, Lao, Khmer or
// Myanmar: the scripts this package cuts.
func Letter(r rune) bool {
	switch {
	case r >= 0x0E01 && r <= 0x0E4E, // Thai, less its digits and signs
		r >= 0x0E81 && r <= 0x0ECE,                             // Lao
		r >= 0x1780 && r <= 0x17D3,                             // Khmer
		r >= 0x1000 && r <= 0x103F, r >= 0x1050 && r <= 0x108F: // Myanmar
		return unicode.IsLetter(r) || unicode.IsMark(r)
	}
	return false
}

// NextCluster returns where the character at s[a:] ends with the marks that
// sit on it (Thai vowels above and below, tone marks).
func NextCluster(s []byte, a int) int {
	_, size := utf8.DecodeRune(s[a:])
	b := a + size
	for b < len(s) {
		r, size := utf8.DecodeRune(s[b:])
		if !unicode.IsMark(r) {
			break
		}
		b += size
	}
	return b
}
