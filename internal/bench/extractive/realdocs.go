package main

import (
	"flag"
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

// realDocs2 are the files the second set's library adds to realDocs:
// LaTeX's configuration guide and four more of OpenSSH's manual pages.
var realDocs2 = []struct{ pkg, path string }{
	{"texlive-latex-base-doc", "usr/share/doc/texlive-doc/latex/base/cfgguide.pdf"},
	{"openssh-client", "usr/share/man/man1/ssh-agent.1.gz"},
	{"openssh-client", "usr/share/man/man1/ssh-add.1.gz"},
	{"openssh-client", "usr/share/man/man1/sftp.1.gz"},
	{"openssh-client", "usr/share/man/man5/ssh_config.5.gz"},
}

// realDocs3 are the files the third set's library adds to realDocs2's:
// three pages of the Debian Administrator's Handbook and two of Python's
// tutorial as HTML, LaTeX's font selection guide and the LaTeX Project
// Public License as PDFs, and OpenSSH's ssh-keyscan(1).
var realDocs3 = []struct{ pkg, path string }{
	{"debian-handbook", "usr/share/doc/debian-handbook/html/en-US/sect.apparmor.html"},
	{"debian-handbook", "usr/share/doc/debian-handbook/html/en-US/sect.task-scheduling-cron-atd.html"},
	{"debian-handbook", "usr/share/doc/debian-handbook/html/en-US/sect.apt-get.html"},
	{"python3.11-doc", "usr/share/doc/python3.11/html/tutorial/venv.html"},
	{"python3.11-doc", "usr/share/doc/python3.11/html/tutorial/errors.html"},
	{"texlive-latex-base-doc", "usr/share/doc/texlive-doc/latex/base/fntguide.pdf"},
	{"texlive-latex-base-doc", "usr/share/doc/texlive-doc/latex/base/lppl.pdf"},
	{"openssh-client", "usr/share/man/man1/ssh-keyscan.1.gz"},
}

// realDocs4 are the files the fourth set's library adds to realDocs3's:
// two more pages of the Debian Administrator's Handbook (remote login,
// logging) and one of Python's tutorial (modules) as HTML, LaTeX News 32
// as a PDF, and the manual pages of two common tools, grep(1) and
// rsync(1). All are free to redistribute (the Handbook GPL-2+ or
// CC-BY-SA, Python's documentation the PSF licence, LaTeX News the LPPL,
// grep's and rsync's pages GPL-3+); the bench fetches them with apt-get
// and never commits them.
var realDocs4 = []struct{ pkg, path string }{
	{"debian-handbook", "usr/share/doc/debian-handbook/html/en-US/sect.remote-login.html"},
	{"debian-handbook", "usr/share/doc/debian-handbook/html/en-US/sect.syslog.html"},
	{"python3.11-doc", "usr/share/doc/python3.11/html/tutorial/modules.html"},
	{"texlive-latex-base-doc", "usr/share/doc/texlive-doc/latex/base/ltnews32.pdf"},
	{"grep", "usr/share/man/man1/grep.1.gz"},
	{"rsync", "usr/share/man/man1/rsync.1.gz"},
}

// realDocs5 are the files the fifth set's library adds to realDocs4's:
// two more pages of the Debian Administrator's Handbook (automatic
// upgrades, dpkg) and one of Python's tutorial (input and output) as
// HTML, LaTeX News 31 as a PDF, and the manual pages of find(1) and
// tar(1). All are free to redistribute (the Handbook GPL-2+ or CC-BY-SA,
// Python's documentation the PSF licence, LaTeX News the LPPL, findutils'
// and tar's pages GPL-3+); the bench fetches them with apt-get and never
// commits them.
var realDocs5 = []struct{ pkg, path string }{
	{"debian-handbook", "usr/share/doc/debian-handbook/html/en-US/sect.automatic-upgrades.html"},
	{"debian-handbook", "usr/share/doc/debian-handbook/html/en-US/sect.manipulating-packages-with-dpkg.html"},
	{"python3.11-doc", "usr/share/doc/python3.11/html/tutorial/inputoutput.html"},
	{"texlive-latex-base-doc", "usr/share/doc/texlive-doc/latex/base/ltnews31.pdf"},
	{"findutils", "usr/share/man/man1/find.1.gz"},
	{"tar", "usr/share/man/man1/tar.1.gz"},
}

// realDocs6 are the files the sixth set's library adds to realDocs5's:
// two more pages of the Debian Administrator's Handbook (backup,
// apt-cache) and one of Python's tutorial (data structures) as HTML,
// LaTeX News 30 as a PDF, and the manual pages of gzip(1) and sort(1).
// All are free to redistribute (the Handbook GPL-2+ or CC-BY-SA, Python's
// documentation the PSF licence, LaTeX News the LPPL, gzip's and
// coreutils' pages GPL-3+); the bench fetches them with apt-get and never
// commits them.
var realDocs6 = []struct{ pkg, path string }{
	{"debian-handbook", "usr/share/doc/debian-handbook/html/en-US/sect.backup.html"},
	{"debian-handbook", "usr/share/doc/debian-handbook/html/en-US/sect.apt-cache.html"},
	{"python3.11-doc", "usr/share/doc/python3.11/html/tutorial/datastructures.html"},
	{"texlive-latex-base-doc", "usr/share/doc/texlive-doc/latex/base/ltnews30.pdf"},
	{"gzip", "usr/share/man/man1/gzip.1.gz"},
	{"coreutils", "usr/share/man/man1/sort.1.gz"},
}

// realDocs7 are the files the seventh set's library adds to realDocs6's:
// two more pages of the Debian Administrator's Handbook (searching for
// packages, user and group databases) and one of Python's tutorial (more
// control flow tools) as HTML, and the manual pages of xargs(1) and
// cp(1), all of packages the earlier sets fetch (findutils' and
// coreutils' pages GPL-3+); the bench fetches them with apt-get and
// never commits them.
var realDocs7 = []struct{ pkg, path string }{
	{"debian-handbook", "usr/share/doc/debian-handbook/html/en-US/sect.searching-packages.html"},
	{"debian-handbook", "usr/share/doc/debian-handbook/html/en-US/sect.user-group-databases.html"},
	{"python3.11-doc", "usr/share/doc/python3.11/html/tutorial/controlflow.html"},
	{"findutils", "usr/share/man/man1/xargs.1.gz"},
	{"coreutils", "usr/share/man/man1/cp.1.gz"},
}

// realDocs8 are the files the eighth set's library adds to realDocs7's:
// two more pages of the Debian Administrator's Handbook (managing rights,
// the shell environment) as HTML, LaTeX News 33 as a PDF, and the manual
// pages of sed(1), diff(1) and ln(1) (sed's, diffutils' and coreutils'
// pages GPL-3+); the bench fetches them with apt-get and never commits
// them.
var realDocs8 = []struct{ pkg, path string }{
	{"debian-handbook", "usr/share/doc/debian-handbook/html/en-US/sect.rights-management.html"},
	{"debian-handbook", "usr/share/doc/debian-handbook/html/en-US/sect.shell-environment.html"},
	{"texlive-latex-base-doc", "usr/share/doc/texlive-doc/latex/base/ltnews33.pdf"},
	{"sed", "usr/share/man/man1/sed.1.gz"},
	{"diffutils", "usr/share/man/man1/diff.1.gz"},
	{"coreutils", "usr/share/man/man1/ln.1.gz"},
}

// realDocQuestions were written over realDocs, each with the sentence
// expected first written before it was asked. They were looked at while
// the drafter was changed: the tuning set. realDocQuestions2, written the
// same way over realDocs and realDocs2 before the next changes, is the
// report set, asked once; its answers were read, so realDocQuestions3,
// written the same way over a library with realDocs3 added, is the report
// set now. Sets 2 and 3 have been read and are tuning sets now, beside the
// first; realDocQuestions4, written the same way over a library with
// realDocs4 added, was the report set of session 26; it has been read and
// is a tuning set now. realDocQuestions5, written the same way over a
// library with realDocs5 added, was the report set of session 27; it has
// been read and is a tuning set now. realDocQuestions6, written the same
// way over a library with realDocs6 added, was the report set of session
// 28's first round; it has been read and is a tuning set now.
// realDocQuestions7, written the same way over a library with realDocs7
// added, was the report set of session 28's second round; it has been
// read and is a tuning set now. realDocQuestions8, written the same way
// over a library with realDocs8 added, is the report set.
const (
	realDocQuestions  = "realdoc-questions.txt"
	realDocQuestions2 = "realdoc-questions-2.txt"
	realDocQuestions3 = "realdoc-questions-3.txt"
	realDocQuestions4 = "realdoc-questions-4.txt"
	realDocQuestions5 = "realdoc-questions-5.txt"
	realDocQuestions6 = "realdoc-questions-6.txt"
	realDocQuestions7 = "realdoc-questions-7.txt"
	realDocQuestions8 = "realdoc-questions-8.txt"
)

// realDocSets are the sets in order, each with the files its library
// adds to the sets' before it: set N asks its questions of a library of
// the files of sets 1 to N.
var realDocSets = []struct {
	docs      []struct{ pkg, path string }
	questions string
}{
	{realDocs, realDocQuestions}, {realDocs2, realDocQuestions2}, {realDocs3, realDocQuestions3},
	{realDocs4, realDocQuestions4}, {realDocs5, realDocQuestions5}, {realDocs6, realDocQuestions6},
	{realDocs7, realDocQuestions7}, {realDocs8, realDocQuestions8},
}

var (
	realDocsSet    = flag.Int("realdocs-set", 1, "with -realdocs: 1 asks "+realDocQuestions+", 2 "+realDocQuestions2+", 3 "+realDocQuestions3+", 4 "+realDocQuestions4+", 5 "+realDocQuestions5+", 6 "+realDocQuestions6+" and 7 "+realDocQuestions7+" (the tuning sets, 2 to 7 of larger libraries), 8 "+realDocQuestions8+" (the report set, of a library with more files: ask it once)")
	realDocsBefore = flag.String("realdocs-before", "", "with -realdocs: also ask through the sponge binaries of this folder (a drafter before), and print both tables side by side")
)

// askRealDocs fetches the packages of the files of sets 1 to
// -realdocs-set (realDocSets) with apt-get into work, saves the files in a
// new library with the built `sponge add`, and asks the set's questions
// through the built binaries, and those of -realdocs-before when given.
func askRealDocs(work, binDir string) error {
	if binDir == "" {
		return fmt.Errorf("-realdocs needs -bin, the folder of the built sponge")
	}
	if *realDocsSet < 1 || *realDocsSet > len(realDocSets) {
		return fmt.Errorf("-realdocs-set %d: there are sets 1 to %d", *realDocsSet, len(realDocSets))
	}
	var docs []struct{ pkg, path string }
	for _, set := range realDocSets[:*realDocsSet] {
		docs = append(docs, set.docs...)
	}
	questions := realDocSets[*realDocsSet-1].questions
	var sources []string
	for _, f := range docs {
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
	if d.Questions, err = quality.ReadDemo(filepath.Join(benchDir, questions)); err != nil {
		return err
	}
	d.what = "A library of real documentation (the Debian Reference, LaTeX's guides and news, OpenSSH's manual pages; from set 3 on also Debian Handbook and Python tutorial pages, from set 4 on grep's and rsync's manual pages, from set 5 on find's and tar's, from set 6 on gzip's and sort's, from set 7 on xargs's and cp's, in set 8 sed's, diff's and ln's) asked the questions of " + questions
	if *realDocsBefore == "" {
		return d.check(binDir)
	}
	var rows [][]string
	for _, b := range []struct{ name, dir string }{{"before", *realDocsBefore}, {"after", binDir}} {
		fmt.Printf("%s (%s):\n", b.name, b.dir)
		r, err := d.ask(b.dir)
		if err != nil {
			return err
		}
		rows = append(rows, append([]string{b.name}, r.Row()...))
	}
	fmt.Println(bench.Table(append([]string{"drafter"}, quality.DemoHeader...), rows))
	return nil
}
