package extractive

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/base/lang"
	"github.com/sponge-library/sponge/jsonl"
)

// A summary opens with what the item is. sponge-rank --item gives the
// item's first paragraph of prose as the first passage (an abstract, a
// page's introduction, a manual page's description), and the first
// sentence of that paragraph most often says what the item is: "ssh (SSH
// client) is a program for logging into a remote machine …", an abstract's
// statement of its subject. So the summary's first statement is the first
// sentence of the first passage that can stand as a statement, whatever it
// weighs by centrality; the others are picked by centrality after it.
//
// The rule keys on position and on the item's title, not on words of a
// language, so it is for every language and script. A sentence may start
// with a small letter when its first word is a word of the title: a
// command's name ("ssh", "git-diff-tree") opens its manual page so.

// openingSentences is how many sentences of the first passage are tried
// as the opening: past these, the paragraph has moved on from saying what
// the item is.
const openingSentences = 3

// openingSentence returns the summary's first sentence: the first of the
// first openingSentences sentences of the first passage that can stand as
// a summary's statement (summaryStatement, or a small letter first when
// that word is a word of the title); nil when none can. all is in reading
// order.
func openingSentence(passages []*jsonl.Passage, all []*Sentence) *Sentence {
	if len(passages) == 0 {
		return nil
	}
	first := passages[0]
	for _, p := range passages[1:] {
		if p.Number < first.Number {
			first = p
		}
	}
	for _, s := range all {
		if s.Passage != first.Number || s.Index >= openingSentences {
			continue
		}
		if s.norm > 0 && (summaryStatement(s.Quote) || namedOpening(s.Quote, first.Title) || nameLine(s.Quote, first.Title)) {
			return s
		}
	}
	return nil
}

// namedOpening reports whether s, a sentence that starts with a small
// letter, starts with a name of the item, a word of its title, and is
// otherwise a summary's statement: "ssh (SSH client) is a program …" of
// SSH(1), a manual page's NAME line "gcloud dns record-sets transaction
// remove - append a record-set deletion to the transaction" of
// gcloud_dns_record-sets_transaction_remove(1).
func namedOpening(s, title string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	if !unicode.IsLower(r) {
		return false
	}
	return named(s, title) && summaryStatement(strings.ToUpper(string(r))+s[utf8.RuneLen(r):])
}

// named reports whether the first word of s is a word of the title; "_"
// joins the words of a name (gcloud_dns_…(1), pam_faillock).
func named(s, title string) bool {
	words := lang.Words(strings.ReplaceAll(s, "_", " "))
	return len(words) > 0 && slices.Contains(lang.Words(strings.ToLower(strings.ReplaceAll(title, "_", " "))), strings.ToLower(words[0]))
}

// nameLine reports whether s is a manual page's NAME line of the item: its
// name (named by the title), a dash, and what it is in two words or more,
// not code: "gpg-wks-client - Client for the Web Key Service". IsStatement
// takes such a line for a heading (no verb, capitals), but it is what the
// page says the command is. A dash between a name and what it names is
// the manual page's form in every language.
func nameLine(s, title string) bool {
	for _, dash := range []string{" - ", " — ", " – "} {
		if name, desc, ok := strings.Cut(s, dash); ok {
			return named(name, title) && len(lang.Words(desc)) >= 2 && !strings.ContainsAny(s, `\{}=<>$|`)
		}
	}
	return false
}
