package extract

import (
	"slices"
	"testing"
)

// A plain text's numbered headings head the paragraphs below them and are
// no paragraphs of their own (issue 40: "4.7.1. sudo" of the Debian
// Reference's plain-text edition was quoted as a statement); a list's
// item, a sentence that opens with a number, and a numbered line that
// heads nothing stay paragraphs.
func TestPlainTextHeadings(t *testing.T) {
	type para struct{ text, heading string }
	for _, c := range []struct {
		name, in string
		want     []para
	}{
		{"English, three levels under a chapter",
			"Chapter 4. Authentication and access controls\n\n4.7. Other access controls\n\n4.7.1. sudo\n\nsudo(8) is a program designed to allow a sysadmin to give limited root privileges.\n\n4.7.2. PolicyKit\n\nPolicyKit is an operating system component.\n",
			[]para{
				{"sudo(8) is a program designed to allow a sysadmin to give limited root privileges.", "Chapter 4. Authentication and access controls › 4.7. Other access controls › 4.7.1. sudo"},
				{"PolicyKit is an operating system component.", "Chapter 4. Authentication and access controls › 4.7. Other access controls › 4.7.2. PolicyKit"},
			}},
		{"English, a number without its full stop, a question",
			"2.1.1 What is wrong with current live systems\n\nThey forget.\n\n2.7.11. Who uploaded the package?\n\nThe changelog says.\n",
			[]para{{"They forget.", "2.1.1 What is wrong with current live systems"}, {"The changelog says.", "2.7.11. Who uploaded the package?"}}},
		{"German and Russian",
			"Kapitel 11. Datenkonvertierung\n\nDieses Kapitel zeigt Werkzeuge.\n\nГлава 3. Пакеты\n\n3.1 Установка пакетов\n\nПакеты ставит apt.\n",
			[]para{{"Dieses Kapitel zeigt Werkzeuge.", "Kapitel 11. Datenkonvertierung"}, {"Пакеты ставит apt.", "Глава 3. Пакеты › 3.1 Установка пакетов"}}},
		{"Bengali digits and an appendix",
			"৪.৭ সুডো\n\nসুডো একটি প্রোগ্রাম।\n\nAppendix A. Tips\n\nKeep notes.\n",
			[]para{{"সুডো একটি প্রোগ্রাম।", "৪.৭ সুডো"}, {"Keep notes.", "Appendix A. Tips"}}},
		{"a list's item, a sentence, a numbered last line stay",
			"1. Install the package\n\n4.2 percent of the users agreed.\n\n4.7.1. sudo\nsudo is a program.\n\n5.1. Last words\n",
			[]para{{"1. Install the package", ""}, {"4.2 percent of the users agreed.", ""}, {"4.7.1. sudo sudo is a program.", ""}, {"5.1. Last words", ""}}},
	} {
		var got []para
		for _, p := range extractPlain(c.in).Paragraphs {
			got = append(got, para{p.Text, p.Heading})
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}
