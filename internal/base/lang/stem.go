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

// stemmers are the Snowball stemmers (bleve's snowballstem) by language:
// one stemmer a language. English is Snowball's English (Porter2).
var stemmers = map[Tag]func(*snowball.Env) bool{
	"ar": arabic.Stem, "da": danish.Stem, "nl": dutch.Stem, "en": english.Stem, "fi": finnish.Stem,
	"fr": french.Stem, "de": german.Stem, "hu": hungarian.Stem, "ga": irish.Stem, "it": italian.Stem,
	"no": norwegian.Stem, "nb": norwegian.Stem, "nn": norwegian.Stem, "pt": portuguese.Stem,
	"ro": romanian.Stem, "ru": russian.Stem, "es": spanish.Stem, "sv": swedish.Stem, "ta": tamil.Stem,
	"tr": turkish.Stem,
}

// stemmerOf returns the stemmer of a language, the identity where it has
// none.
func stemmerOf(t Tag) func(string) string {
	stem := stemmers[t]
	if stem == nil {
		return func(w string) string { return w }
	}
	return func(w string) string {
		env := snowball.NewEnv(w)
		stem(env)
		return env.Current()
	}
}
