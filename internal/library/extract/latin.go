package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/charmap"
)

// The detector (chardet) tells 8-bit Latin text apart badly: Polish, Czech
// or Hungarian in ISO-8859-2 or Windows-1250 comes out as Western or
// Turkish, and was saved as mojibake ("Za¿ó³æ gê¶l±" for "Zażółć gęślą").
// So when it guesses one of the Latin encodings, the sample is decoded with
// each of the three families and the one whose letters beyond ASCII all
// belong to one language's alphabet wins. A wrong decoding gives symbols
// (¿ ³ ±), control characters, or letters of several languages at once
// (ø of Danish beside ì of Italian).

// latinLanguages are the letters beyond ASCII of languages written in each
// family of 8-bit Latin encodings, lower case.
var latinLanguages = map[string][]string{
	"western": {
		"äöüß",             // German
		"àâæçéèêëîïôœùûüÿ", // French
		"áéíñóúü",          // Spanish
		"àèéìíîòóù",        // Italian
		"áâãàçéêíóôõú",     // Portuguese
		"àçéèíïòóúü",       // Catalan
		"éëïóöü",           // Dutch
		"æøåéó",            // Danish, Norwegian
		"åäöé",             // Swedish, Finnish
		"áðéíóúýþæö",       // Icelandic, Faroese
	},
	"central": {
		"ąćęłńóśźż",         // Polish
		"áčďéěíňóřšťúůýž",   // Czech
		"áäčďéíĺľňóôŕšťúýž", // Slovak
		"áéíóöőúüű",         // Hungarian
		"čćđšž",             // Croatian, Slovenian, Bosnian
		"ăâîşţșț",           // Romanian
		"äöüß",              // German
	},
	"turkish": {
		"çğıöşüâî", // Turkish
	},
	"cyrillic": {
		"абвгдеёжзийклмнопрстуфхцчшщъыьэюя", // Russian
		"абвгґдеєжзиіїйклмнопрстуфхцчшщьюя", // Ukrainian
		"абвгдеёжзійклмнопрстуўфхцчшыьэюя",  // Belarusian
		"абвгдежзийклмнопрстуфхцчшщъьюя",    // Bulgarian
		"абвгдђежзијклљмнњопрстћуфхцчџш",    // Serbian
		"абвгдѓежзѕијклљмнњопрстќуфхцчџш",   // Macedonian
	},
}

// latinFamily is the family of the detector's guess, "" when it is not one
// of these encodings.
func latinFamily(name string) string {
	switch strings.ToLower(name) {
	case "iso-8859-1", "windows-1252":
		return "western"
	case "iso-8859-2", "windows-1250":
		return "central"
	case "iso-8859-9", "windows-1254":
		return "turkish"
	case "windows-1251", "koi8-r", "koi8-u", "ibm866", "iso-8859-5", "x-mac-cyrillic", "maccyrillic", "ibm855":
		return "cyrillic"
	}
	return ""
}

// latinChoices are the encodings tried for each family, the one that
// covers more first: Windows-1250 is ISO-8859-2 with letters where that
// has control characters, and likewise Windows-1252 and -1254.
var latinChoices = []struct {
	family, name string
	enc          encoding.Encoding
}{
	{"western", "windows-1252", charmap.Windows1252},
	{"central", "windows-1250", charmap.Windows1250},
	{"central", "ISO-8859-2", charmap.ISO8859_2},
	{"turkish", "windows-1254", charmap.Windows1254},
	// Cyrillic, the one most used first: it wins ties. The detector said
	// x-mac-cyrillic for one Windows-1251 text in eight (Wikipedia
	// paragraphs in Russian), and the capitals came out as symbols
	// ("¬ойна и мир" for "Война и мир").
	{"cyrillic", "windows-1251", charmap.Windows1251},
	{"cyrillic", "KOI8-R", charmap.KOI8R},
	{"cyrillic", "KOI8-U", charmap.KOI8U},
	{"cyrillic", "IBM866", charmap.CodePage866},
	{"cyrillic", "ISO-8859-5", charmap.ISO8859_5},
	{"cyrillic", "x-mac-cyrillic", charmap.MacintoshCyrillic},
}

// chooseLatin decodes sample with each family's encodings and returns the
// one whose text reads as one language best, and its name. Among the Latin
// families the detector's own wins ties, so text whose letters every
// family has (German ä ö ü ß) is read as the detector said; a Cyrillic
// guess is weighed against the Cyrillic encodings only, and the one listed
// first wins ties. nil when guess is neither Latin nor Cyrillic.
func chooseLatin(sample []byte, guess string) (encoding.Encoding, string) {
	own := latinFamily(guess)
	if own == "" {
		return nil, ""
	}
	var best encoding.Encoding
	bestName, bestScore, bestOwn := "", -1.0, false
	for _, c := range latinChoices {
		if (c.family == "cyrillic") != (own == "cyrillic") {
			continue
		}
		out, err := c.enc.NewDecoder().Bytes(sample)
		if err != nil {
			continue
		}
		s := latinScore(string(out), latinLanguages[c.family])
		isOwn := c.family == own
		if s > bestScore || s == bestScore && isOwn && !bestOwn {
			best, bestName, bestScore, bestOwn = c.enc, c.name, s, isOwn
		}
	}
	return best, bestName
}

// latinScore is the share of text's characters beyond ASCII that are
// letters of the one language (of languages) that holds most of them.
// Punctuation people use in any of these languages (« » “ ” – — … € ° §
// and a no-break space, ¿ ¡ opening a word) is left out of the count, but
// not between two letters, where a wrong decoding puts it ("п€ть" for
// "пять"); and a capital after a small letter counts as no language's
// (KOI8-R read as Windows-1251 swaps the case: "пРИВЕТ").
func latinScore(text string, languages []string) float64 {
	total := 0
	held := make([]int, len(languages))
	var prev rune
	for i, r := range text {
		if r < 0x80 {
			prev = r
			continue
		}
		next, _ := utf8.DecodeRuneInString(text[i+utf8.RuneLen(r):])
		inWord := unicode.IsLetter(prev) && unicode.IsLetter(next) && !strings.ContainsRune("’‘·", r)
		neutral := !inWord && (strings.ContainsRune("«»“”„‘’‚–—…€°§©®·•\u00a0", r) || (r == '¿' || r == '¡') && !unicode.IsLetter(prev))
		capital := unicode.IsUpper(r) && unicode.IsLower(prev)
		prev = r
		if neutral {
			continue
		}
		total++
		if capital {
			continue
		}
		lower := unicode.ToLower(r)
		for i, alphabet := range languages {
			if strings.ContainsRune(alphabet, lower) {
				held[i]++
			}
		}
	}
	if total == 0 {
		return 0
	}
	most := 0
	for _, h := range held {
		most = max(most, h)
	}
	return float64(most) / float64(total)
}

// mixedWords counts the words of text (runs of letters) that mix Latin,
// Cyrillic and Greek letters, and the words that have a letter beyond
// ASCII: text in one of these alphabets rarely mixes them in a word, and
// a wrong decoding does ("Cafй" is French in Windows-1252 read as
// Windows-1251).
func mixedWords(text string) (mixed, words int) {
	scripts, wide := 0, false
	end := func() {
		if wide {
			words++
		}
		if scripts&(scripts-1) != 0 {
			mixed++
		}
		scripts, wide = 0, false
	}
	for _, r := range text {
		if !unicode.IsLetter(r) {
			end()
			continue
		}
		wide = wide || r >= 0x80
		switch {
		case r < 0x250:
			scripts |= 1
		case unicode.Is(unicode.Cyrillic, r):
			scripts |= 2
		case unicode.Is(unicode.Greek, r):
			scripts |= 4
		}
	}
	end()
	return mixed, words
}
