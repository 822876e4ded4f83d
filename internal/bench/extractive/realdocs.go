package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/sponge-library/sponge/internal/bench"
	"github.com/sponge-library/sponge/internal/quality"
)

// realDocs are the files of the real-documentation library (issue 40):
// documentation none of sponge's authors wrote, as a new user saves it,
// each a Debian package's file. The Debian Reference as its PDF (where its
// tables and headings were quoted as statements), four of LaTeX's guides
// and news as PDFs (multicol's, where a code listing was quoted), and
// three of OpenSSH's manual pages.
var realDocs = []struct{ pkg, path string }{
	{"debian-reference-en", "usr/share/doc/debian-reference-en/docs/debian-reference.en.pdf"},
	{"texlive-latex-base-doc", "usr/share/doc/texlive-doc/latex/base/ltnews28.pdf"},
	{"texlive-latex-base-doc", "usr/share/doc/texlive-doc/latex/base/usrguide.pdf"},
	{"texlive-latex-base-doc", "usr/share/doc/texlive-doc/latex/base/clsguide.pdf"},
	{"texlive-latex-base-doc", "usr/share/doc/texlive-doc/latex/tools/multicol.pdf"},
	{"openssh-client", "usr/share/man/man1/ssh.1.gz"},
	{"openssh-client", "usr/share/man/man1/scp.1.gz"},
	{"openssh-client", "usr/share/man/man1/ssh-keygen.1.gz"},
}

// realDocQuestions were written over realDocs, each with the sentence
// expected first written before it was asked, and asked once: not tuned on.
const realDocQuestions = "realdoc-questions.txt"

// askRealDocs fetches the packages of realDocs with apt-get into work,
// saves the files in a new library with the built `sponge add`, and asks
// realDocQuestions through the built binaries.
func askRealDocs(work, binDir string) error {
	if binDir == "" {
		return fmt.Errorf("-realdocs needs -bin, the folder of the built sponge")
	}
	var sources []string
	for _, f := range realDocs {
		dir := filepath.Join(work, "pkgs", f.pkg)
		if _, err := os.Stat(dir); err != nil {
			if err := bench.FetchDeb(work, f.pkg, dir); err != nil {
				return err
			}
		}
		sources = append(sources, filepath.Join(dir, f.path))
	}
	tmp, err := os.MkdirTemp("", "sponge-realdocs-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	d := &demoSet{Demo: &quality.Demo{Dir: filepath.Join(tmp, "library")}}
	cmd := exec.Command(filepath.Join(binDir, "sponge"), append([]string{"add", "--library", d.Dir}, sources...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("sponge add: %v\n%s", err, out)
	}
	if d.Questions, err = quality.ReadDemo(filepath.Join(benchDir, realDocQuestions)); err != nil {
		return err
	}
	d.what = "A library of real documentation (the Debian Reference, LaTeX's guides and news, OpenSSH's manual pages) asked the questions of " + realDocQuestions
	return d.check(binDir)
}
