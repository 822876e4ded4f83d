// The rules of the layout (see README.md beside this file), checked on the
// import graph that go list gives with cgo on, as the model programs build.
package internal_test

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/sponge-library/sponge/"

// pkg is what the rules need of a package.
type pkg struct {
	ImportPath string
	Standard   bool
	CgoFiles   []string
	Imports    []string
	Deps       []string
}

// The programs that must build and run without cgo: they start in
// milliseconds, and sponge runs sponge-draft and sponge-embed as children
// when it needs a model.
var pure = []string{"cmd/sponge", "cmd/sponge-full", "cmd/sponge-search", "cmd/sponge-rank", "cmd/sponge-verify", "cmd/sponge-render"}

// heavy are what the sponge front does not link: each one's package
// initialisation (the extractors' encodings and HTML, the MCP server) would
// cost every question; the commands that need them run in sponge-full.
var heavy = []string{module + "internal/front/cli", module + "internal/front/mcp", module + "internal/library/extract",
	"github.com/wlynxg/chardet", "golang.org/x/net/html", "github.com/modelcontextprotocol/go-sdk"}

// perQuestion are the programs started for every question: sponge (ask,
// search) and sponge-search.
var perQuestion = []string{"cmd/sponge", "cmd/sponge-search"}

// slowStart are what the programs of perQuestion do not link, for their
// package initialisation alone: bleve's top-level package (with its
// upsidedown index, protobuf and expvar; the index opens scorch itself),
// net/http (model downloads, the OpenAI protocol) and the progress bar
// (which brings net/http and colorstring). Together they were about a third
// of what starting sponge-search cost. json-iterator's reflect2 and
// concurrent (modern-go) are gone with the stand-in of
// internal/third_party/jsoniter: they come back if the replace goes.
var slowStart = []string{"github.com/blevesearch/bleve/v2/index/upsidedown", "google.golang.org/protobuf", "expvar", "net/http",
	"github.com/schollz/progressbar", "github.com/mitchellh/colorstring", "github.com/modern-go"}

// bleveRoot is bleve's top-level package (not its subpackages).
const bleveRoot = "github.com/blevesearch/bleve/v2"

// reaches says whether the package d is one of heavy or under one.
func reaches(d string, heavy []string) bool {
	for _, h := range heavy {
		if d == h || strings.HasPrefix(d, h+"/") {
			return true
		}
	}
	return false
}

// rules checks the graph and returns one line per broken rule.
func rules(pkgs map[string]*pkg) []string {
	var broken []string
	rel := func(p string) string { return strings.TrimPrefix(p, module) }
	under := func(p, dir string) bool { p = rel(p); return p == dir || strings.HasPrefix(p, dir+"/") }
	ours := func(p string) bool { return strings.HasPrefix(p, module) }
	for _, p := range pkgs {
		if !ours(p.ImportPath) {
			continue
		}
		name := rel(p.ImportPath)
		for _, imp := range p.Imports {
			switch {
			// Storage says what went wrong with fault errors; the front ends word it.
			case under(name, "internal/library") && (under(imp, "internal/front") || under(imp, "internal/base/console") || under(imp, "internal/base/pipeline")):
				broken = append(broken, fmt.Sprintf("%s imports %s: the library wing does not word errors for a reader", name, rel(imp)))
			case under(name, "internal/model") && !under(name, "internal/model/embed/llamaembed") && (under(imp, "internal/front") || under(imp, "internal/base/console")):
				broken = append(broken, fmt.Sprintf("%s imports %s: the model wing does not word errors for a reader", name, rel(imp)))
			case (under(name, "internal/library") || under(name, "internal/model") || under(name, "internal/base")) && under(imp, "stages"):
				broken = append(broken, fmt.Sprintf("%s imports %s: only front ends compose stages", name, rel(imp)))
			case under(name, "internal/base") && (under(imp, "internal/library") || under(imp, "internal/model") || under(imp, "internal/front")):
				broken = append(broken, fmt.Sprintf("%s imports %s: a shared leaf imports no wing", name, rel(imp)))
			// The protocol is what every stage and front end agree on, read by
			// programs of their own: it leans on nothing of theirs.
			case under(name, "jsonl") && ours(imp):
				broken = append(broken, fmt.Sprintf("%s imports %s: the protocol imports no package of this module", name, rel(imp)))
			}
			// A stage does not import another stage.
			if under(name, "stages") && under(imp, "stages") {
				a, b := strings.Split(name, "/")[1], strings.Split(rel(imp), "/")[1]
				if a != b {
					broken = append(broken, fmt.Sprintf("%s imports %s: a stage does not import another stage", name, rel(imp)))
				}
			}
		}
		// cgo only in the model wing.
		if len(p.CgoFiles) > 0 && !under(name, "internal/model") {
			broken = append(broken, fmt.Sprintf("%s has cgo files (%s): cgo belongs in internal/model", name, strings.Join(p.CgoFiles, ", ")))
		}
	}
	for _, cmd := range pure {
		p := pkgs[module+cmd]
		if p == nil {
			broken = append(broken, cmd+" is missing")
			continue
		}
		for _, d := range p.Deps {
			dp := pkgs[d]
			switch {
			case strings.HasPrefix(d, "github.com/ollama/"):
				broken = append(broken, fmt.Sprintf("%s reaches %s: a pure program does not link llama.cpp", cmd, d))
			case dp != nil && !dp.Standard && len(dp.CgoFiles) > 0:
				broken = append(broken, fmt.Sprintf("%s reaches %s, which uses cgo: a pure program builds without it", cmd, d))
			case (cmd == "cmd/sponge-verify" || cmd == "cmd/sponge-render") && strings.HasPrefix(d, "github.com/blevesearch/") &&
				!strings.HasPrefix(d, "github.com/blevesearch/snowballstem"): // the stemmers of internal/base/lang (item.Asks reads its lexicon), not the index
				broken = append(broken, fmt.Sprintf("%s reaches %s: checking and showing quotes does not need the index", cmd, d))
			case cmd == "cmd/sponge-rank" && (d == "github.com/blevesearch/bleve/v2" || strings.HasPrefix(d, "github.com/blevesearch/bleve/v2/index/")):
				// Its package init alone costs every question ~26,000
				// allocations: rank needs the words (library/index/keywords).
				broken = append(broken, fmt.Sprintf("%s reaches %s: ranking paragraphs does not open the index", cmd, d))
			case slices.Contains(perQuestion, cmd) && (d == bleveRoot || reaches(d, slowStart)):
				broken = append(broken, fmt.Sprintf("%s reaches %s: its package initialisation would cost every question", cmd, d))
			case cmd == "cmd/sponge" && reaches(d, heavy):
				broken = append(broken, fmt.Sprintf("%s reaches %s: the front starts for every question; this belongs in sponge-full", cmd, d))
			}
		}
	}
	slices.Sort(broken)
	return slices.Compact(broken)
}

// graph is the import graph of the module, with cgo on.
func graph(t *testing.T) map[string]*pkg {
	t.Helper()
	// go test caches a passing result by the files the test opens: open
	// every Go file and go.mod, so that a change to any import is seen.
	err := filepath.WalkDir("..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == ".bench" || d.Name() == ".demo" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if strings.HasSuffix(p, ".go") || d.Name() == "go.mod" {
			_, err = os.ReadFile(p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "list", "-deps", "-json=ImportPath,Standard,CgoFiles,Imports,Deps", "./...")
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	pkgs := map[string]*pkg{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs[p.ImportPath] = &p
	}
	return pkgs
}

func TestLayoutRules(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatal("the go command is not on PATH")
	}
	pkgs := graph(t)
	if len(pkgs) < 50 {
		t.Fatalf("go list found only %d packages", len(pkgs))
	}
	for _, b := range rules(pkgs) {
		t.Error(b)
	}
}

// TestLayoutRulesCatch: each rule reports a graph that breaks it, so
// TestLayoutRules can fail.
func TestLayoutRulesCatch(t *testing.T) {
	m := func(s string) string { return module + s }
	ok := func() map[string]*pkg {
		g := map[string]*pkg{}
		for _, c := range pure {
			g[m(c)] = &pkg{ImportPath: m(c)}
		}
		return g
	}
	cases := []struct {
		name   string
		break_ func(g map[string]*pkg)
		want   string
	}{
		{"storage imports the CLI", func(g map[string]*pkg) {
			g[m("internal/library/index")] = &pkg{ImportPath: m("internal/library/index"), Imports: []string{m("internal/base/console")}}
		}, "the library wing does not word errors"},
		{"a stage imports a stage", func(g map[string]*pkg) {
			g[m("stages/rank")] = &pkg{ImportPath: m("stages/rank"), Imports: []string{m("stages/search")}}
		}, "a stage does not import another stage"},
		{"a pure program reaches llama.cpp", func(g map[string]*pkg) {
			g[m("cmd/sponge-search")].Deps = []string{"github.com/ollama/ollama/llama"}
		}, "does not link llama.cpp"},
		{"a pure program reaches cgo", func(g map[string]*pkg) {
			g[m("cmd/sponge-rank")].Deps = []string{"example.com/c"}
			g["example.com/c"] = &pkg{ImportPath: "example.com/c", CgoFiles: []string{"c.go"}}
		}, "which uses cgo"},
		{"verify reaches bleve", func(g map[string]*pkg) {
			g[m("cmd/sponge-verify")].Deps = []string{"github.com/blevesearch/bleve/v2"}
		}, "does not need the index"},
		{"render reaches bleve", func(g map[string]*pkg) {
			g[m("cmd/sponge-render")].Deps = []string{"github.com/blevesearch/bleve/v2"}
		}, "does not need the index"},
		{"rank reaches bleve's index", func(g map[string]*pkg) {
			g[m("cmd/sponge-rank")].Deps = []string{"github.com/blevesearch/bleve/v2/analysis", "github.com/blevesearch/bleve/v2/index/scorch"}
		}, "ranking paragraphs does not open the index"},
		{"the front reaches the extractors", func(g map[string]*pkg) {
			g[m("cmd/sponge")].Deps = []string{m("internal/front/cmdline"), m("internal/library/extract")}
		}, "this belongs in sponge-full"},
		{"the front reaches chardet", func(g map[string]*pkg) {
			g[m("cmd/sponge")].Deps = []string{"github.com/wlynxg/chardet"}
		}, "this belongs in sponge-full"},
		{"the front reaches x/net/html", func(g map[string]*pkg) {
			g[m("cmd/sponge")].Deps = []string{"golang.org/x/net/html"}
		}, "this belongs in sponge-full"},
		{"the front reaches the MCP SDK", func(g map[string]*pkg) {
			g[m("cmd/sponge")].Deps = []string{"github.com/modelcontextprotocol/go-sdk/mcp"}
		}, "this belongs in sponge-full"},
		{"the front links the commands of sponge-full", func(g map[string]*pkg) {
			g[m("cmd/sponge")].Deps = []string{m("internal/front/cli")}
		}, "this belongs in sponge-full"},
		{"the front reaches bleve's top-level package", func(g map[string]*pkg) {
			g[m("cmd/sponge")].Deps = []string{"github.com/blevesearch/bleve/v2/index/scorch", bleveRoot}
		}, "would cost every question"},
		{"search reaches net/http", func(g map[string]*pkg) {
			g[m("cmd/sponge-search")].Deps = []string{"net/http"}
		}, "would cost every question"},
		{"search reaches the progress bar", func(g map[string]*pkg) {
			g[m("cmd/sponge-search")].Deps = []string{"github.com/schollz/progressbar/v3"}
		}, "would cost every question"},
		{"search reaches json-iterator's reflect2", func(g map[string]*pkg) {
			g[m("cmd/sponge-search")].Deps = []string{"github.com/modern-go/reflect2"}
		}, "would cost every question"},
		{"the front reaches protobuf", func(g map[string]*pkg) {
			g[m("cmd/sponge")].Deps = []string{"google.golang.org/protobuf/internal/detrand"}
		}, "would cost every question"},
		{"the protocol imports a shared leaf", func(g map[string]*pkg) {
			g[m("jsonl")] = &pkg{ImportPath: m("jsonl"), Imports: []string{"bytes", m("internal/base/item")}}
		}, "the protocol imports no package of this module"},
		{"cgo outside the model wing", func(g map[string]*pkg) {
			g[m("stages/draft")] = &pkg{ImportPath: m("stages/draft"), CgoFiles: []string{"x.go"}}
		}, "cgo belongs in internal/model"},
	}
	if b := rules(ok()); len(b) > 0 {
		t.Fatalf("a clean graph breaks rules: %v", b)
	}
	for _, c := range cases {
		g := ok()
		c.break_(g)
		b := rules(g)
		if len(b) != 1 || !strings.Contains(b[0], c.want) {
			t.Errorf("%s: got %q, want one line with %q", c.name, b, c.want)
		}
	}
}
