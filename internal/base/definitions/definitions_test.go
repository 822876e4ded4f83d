package definitions

import (
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/base/lang"
)

// plain are words lower-cased, a few stop words without terms: enough to
// read the rule without a stemmer.
var plain = Words{
	Split: lang.Words,
	Terms: func(w string) []string {
		if w == "of" || w == "the" || w == "a" {
			return nil
		}
		return []string{strings.ToLower(w)}
	},
	Stop: func(w string) bool { return w == "of" || w == "the" || w == "a" },
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
	} {
		if got := Of(c.q, plain).DefinedBy(c.s); got != c.want {
			t.Errorf("%q, %q: DefinedBy = %v, want %v", c.q, c.s, got, c.want)
		}
	}
}
