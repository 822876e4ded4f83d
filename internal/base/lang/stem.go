package lang

import (
	snowball "github.com/blevesearch/snowballstem"
	"github.com/blevesearch/snowballstem/arabic"
	"github.com/blevesearch/snowballstem/danish"
	"github.com/blevesearch/snowballstem/dutch"
	"github.com/blevesearch/snowballstem/english"
	"github.com/blevesearch/snowballstem/finnish"
	"github.com/blevesearch/snowballstem/french"
	"github.com/blevesearch/snowballstem/german"
	"github.com/blevesearch/snowballstem/hungarian"
	"github.com/blevesearch/snowballstem/irish"
	"github.com/blevesearch/snowballstem/italian"
	"github.com/blevesearch/snowballstem/norwegian"
	"github.com/blevesearch/snowballstem/portuguese"
	"github.com/blevesearch/snowballstem/romanian"
	"github.com/blevesearch/snowballstem/russian"
	"github.com/blevesearch/snowballstem/spanish"
	"github.com/blevesearch/snowballstem/swedish"
	"github.com/blevesearch/snowballstem/tamil"
	"github.com/blevesearch/snowballstem/turkish"
)

// snowballOf returns the Snowball stemmer (bleve's snowballstem) of a
// language, nil where there is none: one stemmer a language. English is
// Snowball's English (Porter2). (A switch, not a map: no program pays for
// a table at start.)
func snowballOf(t Tag) func(*snowball.Env) bool {
	switch t {
	case "ar":
		return arabic.Stem
	case "da":
		return danish.Stem
	case "nl":
		return dutch.Stem
	case "en":
		return english.Stem
	case "fi":
		return finnish.Stem
	case "fr":
		return french.Stem
	case "de":
		return german.Stem
	case "hu":
		return hungarian.Stem
	case "ga":
		return irish.Stem
	case "it":
		return italian.Stem
	case "no", "nb", "nn":
		return norwegian.Stem
	case "pt":
		return portuguese.Stem
	case "ro":
		return romanian.Stem
	case "ru":
		return russian.Stem
	case "es":
		return spanish.Stem
	case "sv":
		return swedish.Stem
	case "ta":
		return tamil.Stem
	case "tr":
		return turkish.Stem
	}
	return nil
}

// stemmerOf returns the stemmer of a language, the identity where it has
// none.
func stemmerOf(t Tag) func(string) string {
	stem := snowballOf(t)
	if stem == nil {
		return func(w string) string { return w }
	}
	return func(w string) string {
		env := snowball.NewEnv(w)
		stem(env)
		return env.Current()
	}
}
