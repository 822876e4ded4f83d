package extract

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestLazyRegexpsCompile compiles every expression of the package, which
// would otherwise panic only when first used.
func TestLazyRegexpsCompile(t *testing.T) {
	if len(lazyRegexps) < 50 {
		t.Fatalf("%d lazy expressions registered, want the package's ~60", len(lazyRegexps))
	}
	for _, r := range lazyRegexps {
		if _, err := regexp.Compile(r.src); err != nil {
			t.Errorf("%q: %v", r.src, err)
		}
	}
}

// compiledAtStart is how many expressions were compiled when the package's
// variables were set: init of this test file runs after them, before any test.
var compiledAtStart = -1

func init() {
	compiledAtStart = 0
	for _, r := range lazyRegexps {
		if r.rx != nil {
			compiledAtStart++
		}
	}
}

// TestLazyRegexpIsLazy: no expression is compiled when the program starts,
// and the first use compiles one once.
func TestLazyRegexpIsLazy(t *testing.T) {
	if compiledAtStart != 0 {
		t.Errorf("%d expressions compiled at start, want 0", compiledAtStart)
	}
	r := lazyRE(`a+b`)
	defer func() { lazyRegexps = lazyRegexps[:len(lazyRegexps)-1] }()
	if r.rx != nil {
		t.Fatal("compiled before use")
	}
	if !r.MatchString("xaab") || r.rx == nil {
		t.Fatal("first use did not compile it")
	}
	first := r.rx
	r.MatchString("ab")
	if r.rx != first {
		t.Fatal("compiled twice")
	}
}

// TestLineStarts checks the guard of Markdown's line rules: a line the rule
// matches always starts (after spaces and tabs) with one of its characters,
// so skipping the rule for other lines changes nothing.
func TestLineStarts(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(3, 9))
	pieces := strings.Fields("# ## - --- * *** _ ___ ``` ~~~ [ ] [^ ]: [a]: | |- -| :- + 1. 2) x = == é * -")
	pieces = append(pieces, " ", "  ", "\t")
	matched := map[*lazyRegexp]int{}
	var lineRules []*lazyRegexp
	for _, re := range lazyRegexps {
		if re.starts != "" {
			lineRules = append(lineRules, re)
		}
	}
	if len(lineRules) != 9 {
		t.Errorf("%d line rules, want 9", len(lineRules))
	}
	for range 100000 {
		var b strings.Builder
		for range rnd.IntN(7) {
			b.WriteString(pieces[rnd.IntN(len(pieces))])
		}
		line := b.String()
		for _, re := range lineRules {
			if !re.MatchString(line) {
				continue
			}
			matched[re]++
			if !mayMatch(line, re) {
				t.Fatalf("%s matches %q, which the guard skips", re.src, line)
			}
		}
	}
	for _, re := range lineRules {
		if matched[re] < 20 {
			t.Errorf("%s matched only %d random lines", re.src, matched[re])
		}
	}
	if mayMatch("Some text", listRE) || mayMatch("  text", atxRE) {
		t.Error("the guard lets a line of text through")
	}
}

// breakRE and listRE are what isBreak and listMarker match, as regular
// expressions: TestLineStarts checks their guard, TestLineRulesAsRegexps
// the code against them.
var (
	breakRE = lineRule(`^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$`, "-*_")
	listRE  = lineRule(`^[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$)`, "-*+0123456789")
)

// TestLineRulesAsRegexps: isBreak and listMarker agree with breakRE and
// listRE on random lines of their markup.
func TestLineRulesAsRegexps(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(20, 5))
	pieces := strings.Fields("- -- * ** _ __ + 1 12 123456789 1234567890 . ) x é #")
	pieces = append(pieces, " ", "  ", "   ", "    ", "\t", " \t")
	breaks, items := 0, 0
	for range 200000 {
		var b strings.Builder
		for range rnd.IntN(8) {
			b.WriteString(pieces[rnd.IntN(len(pieces))])
		}
		line := b.String()
		if got, want := isBreak(line), breakRE.MatchString(line); got != want {
			t.Fatalf("isBreak(%q) = %v, breakRE matches: %v", line, got, want)
		} else if got {
			breaks++
		}
		want := -1
		if loc := listRE.FindStringIndex(line); loc != nil {
			want = loc[1]
			items++
		}
		if got := listMarker(line); got != want {
			t.Fatalf("listMarker(%q) = %d, want %d", line, got, want)
		}
	}
	if breaks < 1000 || items < 1000 {
		t.Errorf("only %d breaks and %d list items among the random lines", breaks, items)
	}
}

// What innerUnderscores lets stripEmphasis return as it is, pairEmphasis
// leaves as it is: random text of letters, digits, spaces, "_" runs and
// the other markup, some of it not UTF-8.
func TestInnerUnderscores(t *testing.T) {
	rnd := rand.New(rand.NewPCG(20, 11))
	pieces := []string{"a", "Z", "7", "_", "__", " ", "é", ".", "*", "~~", "\xff", "\n", "(", "'", "a_b", "x__7", "cgroup_"}
	passed := 0
	for range 100000 {
		var b strings.Builder
		for range 1 + rnd.IntN(10) {
			b.WriteString(pieces[rnd.IntN(len(pieces))])
		}
		s := b.String()
		if !innerUnderscores(s) {
			continue
		}
		if strings.Contains(s, "_") {
			passed++
		}
		if got := pairEmphasis(s); got != s {
			t.Fatalf("%q: innerUnderscores, but pairEmphasis makes %q of it", s, got)
		}
	}
	if passed < 1000 {
		t.Errorf("only %d texts with \"_\" passed", passed)
	}
}

// TestPairEmphasisNothingPaired: a text in which pairEmphasis pairs nothing
// comes out as its runes rebuilt (what it gave before it returned such a
// text as it is): the same text, but bad UTF-8 as U+FFFD.
func TestPairEmphasisNothingPaired(t *testing.T) {
	rnd := rand.New(rand.NewPCG(20, 12))
	pieces := []string{"a", "7", " ", "*", "**", "_", "~~", "~", "\xff", "é", "\n", "2 * 3", "*ptr"}
	unpaired, bad := 0, 0
	for range 50000 {
		var b strings.Builder
		for range 1 + rnd.IntN(8) {
			b.WriteString(pieces[rnd.IntN(len(pieces))])
		}
		s := b.String()
		got := pairEmphasis(s)
		if utf8.RuneCountInString(got) != utf8.RuneCountInString(s) {
			continue // something was paired and taken out
		}
		unpaired++
		if !utf8.ValidString(s) {
			bad++
		}
		if want := string([]rune(s)); got != want {
			t.Fatalf("pairEmphasis(%q) = %q, want %q", s, got, want)
		}
	}
	if unpaired < 5000 || bad < 500 {
		t.Errorf("only %d texts pairing nothing, %d of them bad UTF-8", unpaired, bad)
	}
}

// Every ligature cleanText expands starts with ligatureLead, which it
// looks for first, and is expanded.
func TestLigatureLead(t *testing.T) {
	for i := 0; i < len(ligaturePairs); i += 2 {
		lig, want := ligaturePairs[i], ligaturePairs[i+1]
		if !strings.HasPrefix(lig, ligatureLead) {
			t.Errorf("%q does not start with %q", lig, ligatureLead)
		}
		if got := cleanText("a " + lig + "nd é"); got != "a "+want+"nd é" {
			t.Errorf("%q: cleanText made %q", lig, got)
		}
	}
}
