package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/sponge-library/sponge/internal/bench"
	"github.com/sponge-library/sponge/internal/quality"
)

// manualPackages are the Debian packages whose manual pages make the
// manuals library: programs a person looks up (issue 13 was found on a
// library of program docs, man pages and specs).
var manualPackages = []string{"coreutils", "grep", "tar", "gzip", "findutils", "sed", "diffutils", "procps", "openssh-client", "curl"}

// goDocs are the files of the Go installation's doc folder saved with
// them: a language's specification, its memory model, its settings.
var goDocs = []string{"go_spec.html", "go_mem.html", "godebug.md"}

// manualQuestions are the question files asked of the manuals library:
// the first was written while the rules for program manuals were made,
// the second after them (three of its misses led to two more rules), the
// third after all of them, never tuned on (each file's head says so).
var manualQuestions = []string{"manual-questions.txt", "manual-questions-2.txt", "manual-questions-3.txt"}

// loadManuals saves the manual pages (section 1) of manualPackages,
// fetched with apt-get into work, and the Go installation's goDocs in a new
// library with the built `sponge add`.
func loadManuals(work, binDir string) (*demoSet, error) {
	var sources []string
	for _, pkg := range manualPackages {
		dir := filepath.Join(work, "pkgs", pkg)
		if _, err := os.Stat(dir); err != nil {
			if err := bench.FetchDeb(work, pkg, dir); err != nil {
				return nil, err
			}
		}
		man := filepath.Join(dir, "usr", "share", "man", "man1")
		if _, err := os.Stat(man); err != nil {
			return nil, fmt.Errorf("%s has no manual pages in section 1 (%v)", pkg, err)
		}
		sources = append(sources, man)
	}
	root, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("go env GOROOT: %v", err)
	}
	for _, f := range goDocs {
		sources = append(sources, filepath.Join(strings.TrimSpace(string(root)), "doc", f))
	}
	tmp, err := os.MkdirTemp("", "sponge-manuals-")
	if err != nil {
		return nil, err
	}
	d := &demoSet{Demo: &quality.Demo{Dir: filepath.Join(tmp, "library")}}
	cmd := exec.Command(filepath.Join(binDir, "sponge"), append([]string{"add", "--library", d.Dir}, sources...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return d, fmt.Errorf("sponge add: %v\n%s", err, out)
	}
	return d, nil
}

// askManuals builds the manuals library and asks its questions through
// the built binaries.
func askManuals(work, binDir string) error {
	if binDir == "" {
		return fmt.Errorf("-manuals needs -bin, the folder of the built sponge")
	}
	d, err := loadManuals(work, binDir)
	if d != nil {
		defer os.RemoveAll(filepath.Dir(d.Dir))
	}
	if err != nil {
		return err
	}
	for _, f := range manualQuestions {
		if d.Questions, err = quality.ReadDemo(filepath.Join(benchDir, f)); err != nil {
			return err
		}
		d.what = fmt.Sprintf("A library of the manual pages of %s and Go's %s asked the questions of %s",
			strings.Join(manualPackages, ", "), strings.Join(goDocs, ", "), f)
		if err := d.check(binDir); err != nil {
			return err
		}
		fmt.Println()
	}
	return nil
}
