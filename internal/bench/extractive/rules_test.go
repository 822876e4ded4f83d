package main

import (
	"strings"
	"testing"

	"github.com/sponge-library/sponge/stages/draft/extractive"
)

// -off turns the named rules off in drafterParams, and names a rule that
// does not exist with the rules there are.
func TestOffRules(t *testing.T) {
	defer func(saved ruleList) { offRules = saved }(offRules)
	offRules = nil
	if err := offRules.Set("names, join back"); err != nil {
		t.Fatal(err)
	}
	p := drafterParams()
	if p.MaxNames != 0 || p.JoinBack {
		t.Errorf("-off names,join back: MaxNames %v, JoinBack %v", p.MaxNames, p.JoinBack)
	}
	if p.MinWindow != extractive.DefaultParams.MinWindow || !p.Negation {
		t.Error("-off names,join back turned off other rules too")
	}
	err := offRules.Set("names,nonesuch")
	if err == nil || !strings.Contains(err.Error(), `"nonesuch"`) || !strings.Contains(err.Error(), "join back") {
		t.Errorf("-off nonesuch: %v", err)
	}
}

// A rule gains on a set where the drafter with it does better on some
// figure, fewer statements an answer among them; on none, it is to go.
func TestRuleGains(t *testing.T) {
	var def gainFigures
	def.squad.InSome, def.squad.MeanStatements = 0.8, 1.9
	def.demo.WantShown, def.demo.Statements, def.demo.Answered = 20, 40, 20
	off := def
	if got := def.better(off); len(got) != 0 {
		t.Errorf("the same figures: gains on %v", got)
	}
	off.squad.MeanStatements = 2.1
	off.demo.WantShown = 19
	if got := strings.Join(def.better(off), ", "); got != "SQuAD, demo" {
		t.Errorf("gains on %q, want SQuAD (fewer statements) and demo (an expected sentence more)", got)
	}
	off = def
	off.squad.InSome = 0.85
	if got := def.better(off); len(got) != 0 {
		t.Errorf("the rule off does better: gains on %v", got)
	}
}
