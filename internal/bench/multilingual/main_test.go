package main

import (
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/testsupport"
	"github.com/sponge-library/sponge/stages/draft/extractive"
)

// TestMain runs the tests in an environment of their own (testsupport).
func TestMain(m *testing.M) { testsupport.Main(m) }

// -off turns the named rules off, and only them, and refuses a name that
// is no rule's (issue 40).
func TestOffRules(t *testing.T) {
	var l ruleNames
	if err := l.set("names, passage floor"); err != nil {
		t.Fatal(err)
	}
	p := l.params()
	if p.MaxNames != 0 || p.MinAnswer != 0 {
		t.Errorf("-off names,passage floor: MaxNames %v, MinAnswer %v", p.MaxNames, p.MinAnswer)
	}
	if p.MinWindow != extractive.DefaultParams.MinWindow || !p.Negation {
		t.Error("-off names,passage floor turned off other rules too")
	}
	if !strings.Contains(l.said(), `"passage floor"`) {
		t.Errorf("the title says %q", l.said())
	}
	if err := l.set("nonesuch"); err == nil || !strings.Contains(err.Error(), `"nonesuch"`) {
		t.Errorf("-off nonesuch: %v", err)
	}
	if len(l) != 2 {
		t.Errorf("after a bad name: %q", []string(l))
	}
	if (ruleNames{}).params() != extractive.DefaultParams {
		t.Error("no -off: not the default parameters")
	}
}
