package definitions

import (
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/base/lang"
)

var plainStop = map[string]bool{"of": true, "the": true, "a": true, "an": true, "that": true, "in": true, "if": true}

// plain are words lower-cased, a few stop words without terms: enough to
// read the rule without a stemmer.
var plain = Words{
	Split: lang.Words,
	Terms: func(w string) []string {
		if plainStop[w] {
			return nil
		}
		return []string{strings.ToLower(w)}
	},
	Stop: func(w string) bool { return plainStop[w] },
}

func TestDefinedBy(t *testing.T) {
	for _, c := range []struct {
		q, s string
		want bool
	}{
		{"What is sftp?", "sftp is a file transfer program, similar to ftp.", true},
		{"What is sftp?", "bye Quit sftp.", false},
		{"What is sftp?", "sftp(1) is a file transfer program.", true}, // the manual's section is no word
		{"What is the capital of Australia?", "The capital of Australia is Canberra.", true},
		{"What is the capital of Australia?", "Sydney is the largest city of Australia.", false},
		{"How do I quit sftp?", "sftp is a file transfer program.", false}, // asks no definition
		// An aside between commas before the copula.
		{"What is a fork in software?", "A “fork”, in the software field, means a new project that starts as a clone of an existing project.", true},
		{"What is sftp?", "sftp, as most programs of its kind, was written long ago and is still in use today by many.", false},
		// An apposition names the subject, all its words, then what it is.
		{"What is a virtual environment?", "The solution for this problem is to create a virtual environment, a self-contained directory tree that contains a Python installation.", true},
		{"What is a virtual environment?", "Activate the environment, a step that changes the prompt.", false},                       // not all its words
		{"What is a virtual environment?", "Create a virtual environment, then activate it, a step that changes the prompt.", false}, // no article after the comma
		{"What is the capital of Australia?", "He flew to Australia, a country he loved.", false},
		{"What is a virtual environment?", "In a virtual environment, the packages are your own.", false}, // a phrase, then the sentence
		// The copula of a relative clause says what the subject does.
		{"What is the default size of an RSA key?", "# A key that is accepted only for file signing.", false},
		// What a "What does … do?" question asks about, then any verb.
		{"What does the pass statement do?", "The pass statement does nothing.", true},
		{"What does the getent command do?", "The getent (get entries) command checks the system databases.", true},
		{"What does the getent command do?", "The getent command is a database reader.", true},
		{"What does the getent command do?", "The command then checks the databases.", false}, // not all its words
		{"What does the getent command do?", "Run the getent command as root.", false},
		{"What does raggedcolumns do?", "If raggedcolumns is in force we add a vfill.", false},                              // a condition
		{"What does raggedcolumns do?", "The raggedcolumns and flushcolumns declarations are defined with a macro.", false}, // no verb after "and"
		{"What is the pass statement?", "The pass statement does nothing.", false},                                          // a copula is asked for
		{"What does the pass statement mean?", "The pass statement does nothing.", false},
	} {
		if got := Of(c.q, plain).DefinedBy(c.s); got != c.want {
			t.Errorf("%q, %q: DefinedBy = %v, want %v", c.q, c.s, got, c.want)
		}
	}
}
