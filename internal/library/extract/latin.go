package extract

import (
	"strings"
	"unicode"

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
}

// chooseLatin decodes sample with each family's encodings and returns the
// one whose text reads as one language best, and its name. The detector's
// own family wins ties, so text whose letters every family has (German
// ä ö ü ß) is read as the detector said. nil when guess is not Latin.
func chooseLatin(sample []byte, guess string) (encoding.Encoding, string) {
	own := latinFamily(guess)
	if own == "" {
		return nil, ""
	}
	var best encoding.Encoding
	bestName, bestScore, bestOwn := "", -1.0, false
	for _, c := range latinChoices {
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
// and a no-break space, ¿ ¡ opening a word) is left out of the count.
func latinScore(text string, languages []string) float64 {
	total := 0
	held := make([]int, len(languages))
	prevLetter := false
	for _, r := range text {
		if r < 0x80 {
			prevLetter = unicode.IsLetter(r)
			continue
		}
		neutral := strings.ContainsRune("«»“”„‘’‚–—…€°§©®·•\u00a0", r) || (r == '¿' || r == '¡') && !prevLetter
		prevLetter = unicode.IsLetter(r)
		if neutral {
			continue
		}
		total++
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
