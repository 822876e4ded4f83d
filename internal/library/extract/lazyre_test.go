package extract

import (
	"regexp"
	"testing"
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
