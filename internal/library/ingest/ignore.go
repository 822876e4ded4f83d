package ingest

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// WalkOptions say which files under a folder are read: by default, as
// ripgrep and fd do, not hidden files and folders, not .git or
// node_modules, and not what a .gitignore or a .spongeignore excludes (a
// folder of notes holds source trees, and their build output is no one's
// reading). A file named on the command line is read whatever they say.
type WalkOptions struct {
	// Follow: links to files outside the folder are followed too.
	Follow bool
	// NoIgnore: .gitignore, .spongeignore and node_modules are not
	// looked at (sponge add --no-ignore).
	NoIgnore bool
	// Hidden: hidden files and folders (names starting with a dot) are
	// read too (--hidden). The .git folder only with NoIgnore as well.
	Hidden bool
}

// The files whose rules exclude files under their folder: git's, and
// sponge's own, which is read after it, so it may take back (!) what git
// ignores, for a library only.
const (
	gitIgnoreFile    = ".gitignore"
	spongeIgnoreFile = ".spongeignore"
)

// ignoreRules are the patterns in force in one folder of a walk: those of
// the folders above it, then its own (git's order: the nearer file wins).
// Paths are matched as their components from the file system's root,
// which is each pattern's domain as gitignore.ParsePattern takes it.
type ignoreRules struct {
	patterns []gitignore.Pattern
}

// within are the rules in dir, a folder under r's: r's, then those of dir's
// .gitignore and .spongeignore (r itself when dir has none).
func (r *ignoreRules) within(dir string) *ignoreRules {
	var own []gitignore.Pattern
	domain := splitPath(dir)
	for _, name := range []string{gitIgnoreFile, spongeIgnoreFile} {
		own = append(own, readPatterns(filepath.Join(dir, name), domain)...)
	}
	if len(own) == 0 {
		return r
	}
	var all []gitignore.Pattern
	if r != nil {
		all = append(all, r.patterns...)
	}
	return &ignoreRules{patterns: append(all, own...)}
}

// excluded says whether the rules exclude path (a folder when dir).
func (r *ignoreRules) excluded(path string, dir bool) bool {
	if r == nil || len(r.patterns) == 0 {
		return false
	}
	return gitignore.NewMatcher(r.patterns).Match(splitPath(path), dir)
}

// readPatterns reads one ignore file as git does: a line is a pattern,
// but for blank lines and comments (#; \# is a pattern starting with #).
// A file that cannot be read excludes nothing.
func readPatterns(path string, domain []string) []gitignore.Pattern {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	var ps []gitignore.Pattern
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		ps = append(ps, gitignore.ParsePattern(line, domain))
	}
	return ps
}

// rulesAbove are the rules of the folders above root that apply in it: a
// folder inside a git repository is under the .gitignore and .spongeignore
// files from the repository's top down (as ripgrep has it); above a folder
// in no repository nothing is looked for.
func rulesAbove(root string) *ignoreRules {
	var above []string
	for dir := filepath.Dir(root); ; dir = filepath.Dir(dir) {
		above = append(above, dir)
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			break
		}
		if dir == filepath.Dir(dir) {
			above = nil // no repository above: its .gitignore files are not its
			break
		}
	}
	var r *ignoreRules
	for i := len(above) - 1; i >= 0; i-- {
		r = r.within(above[i])
	}
	return r
}

// splitPath is a path as the components gitignore matches: an absolute
// path from the root, without its leading "/".
func splitPath(p string) []string {
	p = strings.Trim(filepath.ToSlash(p), "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// skipName says whether a walk leaves out a file or folder by its name
// alone: hidden ones, .git and node_modules.
func (o WalkOptions) skipName(name string, dir bool) bool {
	switch {
	case name == ".git" && dir:
		return !(o.Hidden && o.NoIgnore)
	case name == "node_modules" && dir:
		return !o.NoIgnore
	case strings.HasPrefix(name, "."):
		return !o.Hidden
	}
	return false
}
