package internal_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// envReaders are the calls that read the process environment: only the
// settings package makes them, so that a test that hands a package its
// folders knows every folder the package can reach.
var envReaders = []string{"os.Getenv", "os.LookupEnv", "os.UserHomeDir", "os.UserConfigDir", "os.UserCacheDir", "syscall.Getenv"}

// envRules checks the Go files under root (the module) and returns one line
// per broken rule:
//   - only internal/base/settings reads the environment (envReaders);
//   - only a program's front end takes it (settings.FromOS): cmd/ and
//     internal/front/;
//   - every package with tests isolates them (a TestMain that calls
//     testsupport.Main or testsupport.Isolated).
//
// Benchmarks (internal/bench) are programs of their own and test support
// is for tests; both may read the environment.
func envRules(root string) ([]string, error) {
	var broken []string
	testMains := map[string]bool{} // package folder: has an isolating TestMain
	tested := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "testdata" || rel == "internal/third_party" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(filepath.Dir(rel))
		isTest := strings.HasSuffix(path, "_test.go")
		free := strings.HasPrefix(dir, "internal/bench") || strings.HasPrefix(dir, "internal/testsupport")
		front := strings.HasPrefix(dir, "cmd/") || strings.HasPrefix(dir, "internal/front/")
		names := importNames(f)
		if isTest {
			tested[dir] = true
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				if isTest && n.Name.Name == "TestMain" && n.Recv == nil && callsIsolate(n, names) {
					testMains[dir] = true
				}
			case *ast.SelectorExpr:
				x, ok := n.X.(*ast.Ident)
				if !ok {
					return true
				}
				call := names[x.Name] + "." + n.Sel.Name
				switch {
				case isTest || free:
				case slices.Contains(envReaders, call) && dir != "internal/base/settings":
					broken = append(broken, rel+": "+call+": only internal/base/settings reads the environment")
				case call == "github.com/sponge-library/sponge/internal/base/settings.FromOS" && !front:
					broken = append(broken, rel+": settings.FromOS: only a program's front end (cmd/, internal/front/) takes the environment; hand the folders down")
				}
			}
			return true
		})
		return nil
	})
	for dir := range tested {
		if !testMains[dir] {
			broken = append(broken, dir+": no TestMain isolates its tests (func TestMain(m *testing.M) { testsupport.Main(m) })")
		}
	}
	slices.Sort(broken)
	return broken, err
}

// importNames maps the names a file uses for its imports to their paths
// ("os" to "os", "settings" to ".../internal/base/settings").
func importNames(f *ast.File) map[string]string {
	m := map[string]string{}
	for _, imp := range f.Imports {
		p, _ := strconv.Unquote(imp.Path.Value)
		name := p[strings.LastIndex(p, "/")+1:]
		if imp.Name != nil {
			name = imp.Name.Name
		}
		m[name] = p
	}
	return m
}

// callsIsolate says whether fn calls testsupport.Main or .Isolated.
func callsIsolate(fn *ast.FuncDecl, names map[string]string) bool {
	found := false
	ast.Inspect(fn, func(n ast.Node) bool {
		if s, ok := n.(*ast.SelectorExpr); ok {
			if x, ok := s.X.(*ast.Ident); ok && names[x.Name] == "github.com/sponge-library/sponge/internal/testsupport" &&
				(s.Sel.Name == "Main" || s.Sel.Name == "Isolated") {
				found = true
			}
		}
		return !found
	})
	return found
}

// TestEnvironmentRules: nothing below a program's front end reads HOME,
// XDG_* or SPONGE_*, and every test binary is isolated from the person's
// own settings (envRules).
func TestEnvironmentRules(t *testing.T) {
	broken, err := envRules("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range broken {
		t.Error(b)
	}
}

// TestEnvironmentRulesCatch: each rule finds what it forbids, in a module
// made for the test.
func TestEnvironmentRulesCatch(t *testing.T) {
	root := t.TempDir()
	write := func(path, src string) {
		p := filepath.Join(root, path)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("stages/x/x.go", "package x\nimport \"os\"\nfunc F() string { return os.Getenv(\"SPONGE_HOME\") }\n")
	write("internal/library/y/y.go", "package y\nimport s \"github.com/sponge-library/sponge/internal/base/settings\"\nvar E = s.FromOS()\n")
	write("internal/library/y/y_test.go", "package y\nimport \"testing\"\nfunc TestY(t *testing.T) {}\n")
	write("internal/base/settings/s.go", "package settings\nimport \"os\"\nfunc FromOS() string { return os.Getenv(\"HOME\") }\n")
	write("cmd/z/main.go", "package main\nimport \"github.com/sponge-library/sponge/internal/base/settings\"\nfunc main() { settings.FromOS() }\n")
	write("cmd/z/main_test.go", "package main\nimport (\"testing\"; \"github.com/sponge-library/sponge/internal/testsupport\")\nfunc TestMain(m *testing.M) { testsupport.Main(m) }\n")
	broken, err := envRules(root)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"internal/library/y/y.go: settings.FromOS: only a program's front end (cmd/, internal/front/) takes the environment; hand the folders down",
		"internal/library/y: no TestMain isolates its tests (func TestMain(m *testing.M) { testsupport.Main(m) })",
		"stages/x/x.go: os.Getenv: only internal/base/settings reads the environment",
	}
	if !slices.Equal(broken, want) {
		t.Errorf("broken:\n%s\nwant:\n%s", strings.Join(broken, "\n"), strings.Join(want, "\n"))
	}
}
