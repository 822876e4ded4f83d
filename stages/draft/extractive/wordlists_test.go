package extractive

import (
	"go/ast"
	"go/token"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// No list of words is kept in the drafter's Go code: each lives in a
// lexicon (internal/base/lang/lexicons/<language>/<list>.txt), read for the
// language of the text (issue 40). A list is a composite literal or a
// switch case of three or more string constants that are words (letters,
// with a space or an apostrophe inside); symbols ("{", "…") are no words,
// and an array indexed by an enumeration ([...]string: the names of the
// ranker's features, of the answer types) names things, not words to find.
func TestNoWordListsInGo(t *testing.T) {
	word := regexp.MustCompile(`^\pL[\pL\pM' ’-]*$`)
	fset, files := packageFiles(t)
	for _, file := range files {
		words := func(exprs []ast.Expr) int {
			n := 0
			for _, e := range exprs {
				if kv, ok := e.(*ast.KeyValueExpr); ok {
					e = kv.Key
				}
				if lit, ok := e.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if s, err := strconv.Unquote(lit.Value); err == nil && word.MatchString(strings.TrimSpace(s)) {
						n++
					}
				}
			}
			return n
		}
		ast.Inspect(file, func(n ast.Node) bool {
			var exprs []ast.Expr
			switch n := n.(type) {
			case *ast.CompositeLit:
				if at, ok := n.Type.(*ast.ArrayType); ok {
					if _, names := at.Len.(*ast.Ellipsis); names {
						return true
					}
				}
				exprs = n.Elts
			case *ast.CaseClause:
				exprs = n.List
			default:
				return true
			}
			if c := words(exprs); c >= 3 {
				t.Errorf("%s: a list of %d words in Go code: move it to a lexicon", fset.Position(n.Pos()), c)
			}
			return true
		})
	}
}
