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
