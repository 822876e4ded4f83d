package main

import (
	"testing"

	"github.com/sponge-library/sponge/internal/quality"
)

// The real-documentation questions read, each with an item among the
// library's titles and the sentence expected (issue 40 asks for 30 or
// more).
func TestRealDocQuestions(t *testing.T) {
	qs, err := quality.ReadDemo(realDocQuestions)
	if err != nil {
		t.Fatal(err)
	}
	if len(qs) < 30 {
		t.Errorf("%d questions, want 30 or more", len(qs))
	}
	titles := map[string]bool{"Debian Reference": true, "LATEX News": true, "LaTeX for authors — current version": true,
		"LaTeX2ε for class and package writers": true, "An environment for multicolumn output": true,
		"ssh(1)": true, "scp(1)": true, "ssh-keygen(1)": true}
	for _, q := range qs {
		if len(q.Want) == 0 {
			t.Errorf("%q has no expected sentence", q.Q.Text)
		}
		for item := range q.Items {
			if !titles[item] {
				t.Errorf("%q: item %q is none of the library's", q.Q.Text, item)
			}
		}
	}
}
