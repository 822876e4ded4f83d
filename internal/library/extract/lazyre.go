package extract

import (
	"regexp"
	"sync"
)

// lazyRegexp is a regular expression compiled the first time it is used, not
// when the program starts. Every sponge command links this package, and its
// sixty expressions took about 3 ms of each process's start, paid by
// 'sponge ask --passages' and 'sponge search' too, which read nothing.
type lazyRegexp struct {
	src  string
	once sync.Once
	// starts: for a Markdown line rule (lineRule), the characters a line it
	// matches starts with after spaces and tabs; empty for the others.
	starts string
	rx     *regexp.Regexp
}

// lazyRE returns src as a lazyRegexp; src must compile (it panics on first use
// otherwise, as regexp.MustCompile would at start; TestLazyRegexpsCompile
// compiles them all).
func lazyRE(src string) *lazyRegexp {
	r := &lazyRegexp{src: src}
	lazyRegexps = append(lazyRegexps, r)
	return r
}

// lazyRegexps are every lazyRegexp of the package, for the test.
var lazyRegexps []*lazyRegexp

func (r *lazyRegexp) re() *regexp.Regexp {
	r.once.Do(func() { r.rx = regexp.MustCompile(r.src) })
	return r.rx
}

func (r *lazyRegexp) Match(b []byte) bool                  { return r.re().Match(b) }
func (r *lazyRegexp) MatchString(s string) bool            { return r.re().MatchString(s) }
func (r *lazyRegexp) FindStringIndex(s string) []int       { return r.re().FindStringIndex(s) }
func (r *lazyRegexp) FindStringSubmatch(s string) []string { return r.re().FindStringSubmatch(s) }
func (r *lazyRegexp) FindStringSubmatchIndex(s string) []int {
	return r.re().FindStringSubmatchIndex(s)
}
func (r *lazyRegexp) FindSubmatch(b []byte) [][]byte { return r.re().FindSubmatch(b) }
func (r *lazyRegexp) FindAllSubmatch(b []byte, n int) [][][]byte {
	return r.re().FindAllSubmatch(b, n)
}
func (r *lazyRegexp) FindAllSubmatchIndex(b []byte, n int) [][]int {
	return r.re().FindAllSubmatchIndex(b, n)
}
func (r *lazyRegexp) ReplaceAllString(src, repl string) string {
	return r.re().ReplaceAllString(src, repl)
}
func (r *lazyRegexp) ReplaceAllStringFunc(src string, repl func(string) string) string {
	return r.re().ReplaceAllStringFunc(src, repl)
}
