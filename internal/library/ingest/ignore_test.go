package ingest

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// ignoreTree is a folder of notes as people have them: a source tree with
// its build output, a Node project, a git repository, hidden folders, and
// .gitignore and .spongeignore files with nested rules and negations.
var ignoreTree = map[string]string{
	"notes/tea.md":                      "# Tea\n\nGreen tea.\n",
	"notes/drafts/plan.txt":             "The plan.\n",
	"notes/drafts/old.txt":              "An old plan.\n",
	"notes/.hidden.txt":                 "A hidden note.\n",
	"notes/.obsidian/workspace.json":    "{\"a\": 1}\n",
	"notes/.spongeignore":               "drafts/old.txt\nkeep-out/\n",
	"notes/keep-out/secret.txt":         "Not for the library.\n",
	"proj/.git/config":                  "[core]\n",
	"proj/.gitignore":                   "# build output\n/build/\n*.log\ntarget\n!important.log\ndocs/**/*.tmp.md\n",
	"proj/README.md":                    "# Proj\n\nA project.\n",
	"proj/build/out.txt":                "Build output.\n",
	"proj/src/build/keep.txt":           "Not the top build folder: kept.\n",
	"proj/run.log":                      "a log\n",
	"proj/important.log":                "an important log\n",
	"proj/target/debug.txt":             "Rust output.\n",
	"proj/docs/a/b/page.tmp.md":         "# Temp\n\nTemporary.\n",
	"proj/docs/a/b/page.md":             "# Page\n\nKept.\n",
	"proj/sub/.gitignore":               "*.txt\n!keep.txt\n",
	"proj/sub/drop.txt":                 "Dropped by the nested file.\n",
	"proj/sub/keep.txt":                 "Taken back by the nested file.\n",
	"proj/.spongeignore":                "!run.log\n",
	"proj/node_modules/pkg/readme.txt":  "A dependency.\n",
	"proj/web/node_modules/x/index.txt": "Another dependency.\n",
	// A home folder kept in git, whose .gitignore leaves out all but what
	// is added to it by name.
	"home/.git/config":          "[core]\n",
	"home/.gitignore":           "/*\n",
	"home/Documents/n.md":       "# N\n\nA note.\n",
	"home/Documents/a.log":      "A log.\n",
	"home/Documents/.gitignore": "*.log\n",
}

// TestExpandIgnores: sponge add of a folder took every text file in it,
// source trees, their build output, node_modules and .git included (issue
// 43). It follows ripgrep's and fd's habits now.
func TestExpandIgnores(t *testing.T) {
	// Not parallel: it walks folders by relative paths (t.Chdir).
	dir := t.TempDir()
	for name, text := range ignoreTree {
		write(t, filepath.Join(dir, name), text)
	}
	walk := func(arg string, opts WalkOptions) []string {
		ins, _, errs := Expand(arg, opts)
		for _, err := range errs {
			t.Error(err)
		}
		var got []string
		for _, in := range ins {
			rel := in.Path
			if filepath.IsAbs(rel) {
				rel, _ = filepath.Rel(dir, rel)
			}
			got = append(got, filepath.ToSlash(filepath.Clean(rel)))
		}
		return got
	}
	t.Chdir(dir)
	for _, c := range []struct {
		arg  string
		opts WalkOptions
		want []string
	}{
		{dir, WalkOptions{}, []string{
			"notes/drafts/plan.txt", "notes/tea.md",
			"proj/README.md", "proj/docs/a/b/page.md", "proj/important.log", "proj/run.log",
			"proj/src/build/keep.txt", "proj/sub/keep.txt",
		}},
		// The rules hold for a folder given by a relative path, and for
		// one inside the repository: its .gitignore is above it.
		{"proj/", WalkOptions{}, []string{
			"proj/README.md", "proj/docs/a/b/page.md", "proj/important.log", "proj/run.log",
			"proj/src/build/keep.txt", "proj/sub/keep.txt",
		}},
		{"./proj/docs", WalkOptions{}, []string{"proj/docs/a/b/page.md"}},
		{"proj/sub", WalkOptions{}, []string{"proj/sub/keep.txt"}},
		// A folder named is read although a .gitignore above leaves it
		// out, under its own ignore files.
		{"home/Documents", WalkOptions{}, []string{"home/Documents/n.md"}},
		{"notes", WalkOptions{Hidden: true}, []string{
			"notes/.hidden.txt", "notes/.obsidian/workspace.json", "notes/.spongeignore", "notes/drafts/plan.txt", "notes/tea.md",
		}},
		{"notes", WalkOptions{NoIgnore: true}, []string{
			"notes/drafts/old.txt", "notes/drafts/plan.txt", "notes/keep-out/secret.txt", "notes/tea.md",
		}},
		{"proj", WalkOptions{NoIgnore: true, Hidden: true}, []string{
			"proj/.git/config", "proj/.gitignore", "proj/.spongeignore",
			"proj/README.md", "proj/build/out.txt", "proj/docs/a/b/page.md", "proj/docs/a/b/page.tmp.md",
			"proj/important.log", "proj/node_modules/pkg/readme.txt", "proj/run.log",
			"proj/src/build/keep.txt", "proj/sub/.gitignore", "proj/sub/drop.txt", "proj/sub/keep.txt",
			"proj/target/debug.txt", "proj/web/node_modules/x/index.txt",
		}},
	} {
		if got := walk(c.arg, c.opts); !slices.Equal(got, c.want) {
			t.Errorf("Expand(%q, %+v):\n got %q\nwant %q", c.arg, c.opts, got, c.want)
		}
	}
	// A file named is read, whatever the rules say of it.
	if got := walk("proj/build/out.txt", WalkOptions{}); !slices.Equal(got, []string{"proj/build/out.txt"}) {
		t.Errorf("a file named: got %q", got)
	}
}

// TestIgnoreAsGit: what the walk leaves out of a repository is what git
// itself ignores (git check-ignore), but for .spongeignore, which git does
// not read.
func TestIgnoreAsGit(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	for name, text := range ignoreTree {
		if strings.HasPrefix(name, "proj/") && !strings.HasSuffix(name, spongeIgnoreFile) && !strings.HasPrefix(name, "proj/.git/") {
			write(t, filepath.Join(dir, name), text)
		}
	}
	proj := filepath.Join(dir, "proj")
	git := exec.Command("git", "init", "-q", proj)
	if out, err := git.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	ins, _, _ := Expand(proj, WalkOptions{})
	taken := map[string]bool{}
	for _, in := range ins {
		rel, _ := filepath.Rel(proj, in.Path)
		taken[filepath.ToSlash(rel)] = true
	}
	for name := range ignoreTree {
		rel, ok := strings.CutPrefix(name, "proj/")
		if !ok || strings.HasPrefix(rel, ".") || strings.Contains(rel, "node_modules") || strings.HasSuffix(rel, "ignore") {
			continue
		}
		cmd := exec.Command("git", "-C", proj, "check-ignore", "-q", rel)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null")
		err := cmd.Run()
		ignored := err == nil // 0: ignored, 1: not
		if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
			t.Fatalf("git check-ignore %s: %v", rel, err)
		}
		if ignored == taken[rel] {
			t.Errorf("%s: git ignores it: %v; the walk takes it: %v", rel, ignored, taken[rel])
		}
	}
}
