package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/sponge-library/sponge/internal/bench"
	"github.com/sponge-library/sponge/internal/library"
)

// Issue 43's targets, on the real-documentation library: a person's own
// documentation (about 300 files of HTML, PDF and manual pages) asked
// without a model.
const (
	targetSearch = 60 * time.Millisecond  // sponge search, median
	targetAsk    = 120 * time.Millisecond // sponge ask without a model, median
)

// realDocs are the files of the real-documentation library, as a new user
// saves their documentation (issue 43's library of 309 items): each a
// Debian package's files matched by glob, every step-th of them (sorted).
var realDocs = []struct {
	pkg, glob string
	step      int
}{
	{"debian-reference-en", "usr/share/debian-reference/*.en.html", 1},       // 15 HTML chapters
	{"python3.11-doc", "usr/share/doc/python3.11/html/tutorial/*.html", 1},   // 17
	{"python3.11-doc", "usr/share/doc/python3.11/html/howto/*.html", 1},      // 20
	{"python3.11-doc", "usr/share/doc/python3.11/html/faq/*.html", 1},        // 9
	{"texlive-latex-base-doc", "usr/share/doc/texlive-doc/latex/*/*.pdf", 4}, // 65 of 259 PDFs
	{"openssh-client", "usr/share/man/man*/*.gz", 1},                         // 14 manual pages
	{"manpages", "usr/share/man/man7/*.7.gz", 1},                             // 171 overviews
}

// realDocQuestions are what a person asks of that library, written before
// any was timed: keywords and questions, of each kind of file.
var realDocQuestions = []string{
	"how do I generate an ssh key", "ssh port forwarding", "scp recursive copy", "ssh config file host alias",
	"known hosts file", "latex font encoding", "How do I change the page margins?", "multicolumn layout in latex",
	"latex document class options", "what is new in the latex news", "debian package management apt",
	"How do I add a user to a group?", "configure network interfaces on debian", "start a service at boot",
	"backup with rsync", "python list comprehension", "How do I read a file in Python?", "python virtual environment",
	"regular expressions in python", "sorting how to", "unicode strings in python", "What is a namespace?",
	"signals and signal handlers", "file permissions and umask", "utf-8 encoding", "tcp congestion",
	"What is a pipe?", "environment variables", "How are shared libraries loaded?", "schedule a job with cron",
}

// realDocsCommands are the commands timed on the library, as a person runs
// them: sponge ask --passages is what the others are measured against.
var realDocsCommands = []string{"sponge search", "sponge ask", "sponge ask --passages"}

// realDocsStages are the stages of sponge ask without a model, each timed
// alone on what the one before wrote: where a question's time goes.
var realDocsStages = []string{"sponge-search", "sponge-rank", "sponge-draft", "sponge-verify", "sponge-render"}

// realDocsFiles fetches the packages of realDocs with apt-get into
// work/pkgs and returns the files of the library.
func realDocsFiles(work string) ([]string, error) {
	var files []string
	for _, d := range realDocs {
		dir := filepath.Join(work, "pkgs", d.pkg)
		if _, err := os.Stat(dir); err != nil {
			if err := bench.FetchDeb(work, d.pkg, dir); err != nil {
				return nil, err
			}
		}
		matches, err := filepath.Glob(filepath.Join(dir, d.glob))
		if err != nil {
			return nil, err
		}
		sort.Strings(matches)
		n := 0
		for i, m := range matches {
			if st, err := os.Stat(m); err == nil && st.Mode().IsRegular() && i%d.step == 0 {
				files = append(files, m)
				n++
			}
		}
		if n == 0 {
			return nil, fmt.Errorf("no file of %s matches %s", d.pkg, d.glob)
		}
	}
	return files, nil
}

// realDocsEnv is the environment of the timed commands: the bench's own,
// with a home, settings and models folder of their own (empty: no model,
// no endpoint), so that sponge ask answers without a model as a new user's
// does, whatever the person running the bench has set up.
func realDocsEnv(work string) ([]string, error) {
	base, err := filepath.Abs(filepath.Join(work, "realdocs-home"))
	if err != nil {
		return nil, err
	}
	env := []string{"HOME=" + base, "XDG_CONFIG_HOME=" + filepath.Join(base, "config"), "XDG_DATA_HOME=" + filepath.Join(base, "data")}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "HOME", strings.HasPrefix(name, "XDG_"), strings.HasPrefix(name, "SPONGE_"):
		default:
			env = append(env, kv)
		}
	}
	return env, os.MkdirAll(base, 0o755)
}

// runRealDocs makes the real-documentation library with each build's sponge
// add and times sponge search, sponge ask (no model) and sponge ask
// --passages on it side by side, a new process each run, builds and
// commands interleaved, then each stage of the ask alone.
func runRealDocs(work string, sets []binSet, nq int, keep bool) error {
	files, err := realDocsFiles(work)
	if err != nil {
		return err
	}
	env, err := realDocsEnv(work)
	if err != nil {
		return err
	}
	dirs := map[string]string{}
	for _, s := range sets {
		dir := filepath.Join(work, "libs", "realdocs-"+s.name)
		dirs[s.name] = dir
		if _, err := library.Open(dir); keep && err == nil {
			continue
		}
		if err := os.RemoveAll(dir); err != nil {
			return err
		}
		if _, err := runWith(filepath.Join(s.dir, "sponge"), append([]string{"add", "-q", "--library", dir, "--"}, files...), nil, env); err != nil {
			return fmt.Errorf("sponge add (%s) of the real documentation: %v", s.name, err)
		}
	}
	items := itemCount(dirs[sets[len(sets)-1].name])
	questions := realDocQuestions[:min(nq, len(realDocQuestions))]

	type key struct{ set, cmd string }
	times := map[key][]sample{}
	loadBefore := bench.LoadAverage()
	for qi := -2; qi < len(questions); qi++ { // two rounds of warm-up
		q := questions[max(qi, 0)]
		for _, s := range sets {
			sponge := filepath.Join(s.dir, "sponge")
			lib := dirs[s.name]
			for _, c := range realDocsCommands {
				args := []string{"search", "--library", lib, "--", q}
				switch c {
				case "sponge ask":
					args = []string{"ask", "--library", lib, "--", q}
				case "sponge ask --passages":
					args = []string{"ask", "--passages", "--library", lib, "--", q}
				}
				r, err := runWith(sponge, args, nil, env)
				if err != nil && !nothingFound(err) {
					return fmt.Errorf("%s %s: %v", s.name, c, err)
				}
				if qi >= 0 {
					times[key{s.name, c}] = append(times[key{s.name, c}], r)
				}
			}
			// The stages of sponge ask alone, each reading what the one
			// before wrote.
			var in []byte
			for i, st := range realDocsStages {
				args := []string{"--library", lib}
				switch i {
				case 0:
					args = append(args, "--", q)
				case len(realDocsStages) - 1:
					args = nil
				}
				r, err := runWith(filepath.Join(s.dir, st), args, in, env)
				if err != nil && !nothingFound(err) {
					return fmt.Errorf("%s %s: %v", s.name, st, err)
				}
				in = r.out
				if qi >= 0 {
					times[key{s.name, st}] = append(times[key{s.name, st}], r)
				}
			}
		}
	}

	med := func(k key) time.Duration { return bench.Percentile(walls(times[k]), 50) }
	fmt.Printf("\nthe real documentation (%d items: HTML, PDFs and manual pages; issue 43), a new process per run,\n"+
		"page cache warm, no model set up, %d questions, builds and commands interleaved\n(%d cores, load average before %s, after %s)\n\n",
		items, len(questions), runtime.NumCPU(), loadBefore, bench.LoadAverage())
	var rows [][]string
	for _, c := range realDocsCommands {
		row := []string{c}
		for _, s := range sets {
			k := key{s.name, c}
			row = append(row, ms(med(k)), ms(bench.Percentile(walls(times[k]), 95)), ms(bench.Percentile(cpus(times[k]), 50)),
				fmt.Sprintf("%.2f", ratio(med(k), med(key{s.name, "sponge ask --passages"}))))
		}
		if len(sets) == 2 {
			row = append(row, fmt.Sprintf("%.2f", ratio(med(key{"after", c}), med(key{"before", c}))))
		}
		rows = append(rows, row)
	}
	header := []string{"command"}
	for _, s := range sets {
		header = append(header, s.name+" median ms", s.name+" p95 ms", s.name+" CPU ms", s.name+" / --passages")
	}
	if len(sets) == 2 {
		header = append(header, "after/before")
	}
	fmt.Print(bench.Table(header, rows))

	// Where the time of sponge ask goes: each stage as a program alone.
	fmt.Printf("\nsponge ask's stages, each a program alone on what the one before wrote: median wall and its share\n\n")
	rows = nil
	total := map[string]time.Duration{}
	for _, st := range realDocsStages {
		for _, s := range sets {
			total[s.name] += med(key{s.name, st})
		}
	}
	for _, st := range realDocsStages {
		row := []string{st}
		for _, s := range sets {
			k := key{s.name, st}
			row = append(row, ms(med(k)), ms(bench.Percentile(cpus(times[k]), 50)), fmt.Sprintf("%.0f%%", 100*ratio(med(k), total[s.name])))
		}
		rows = append(rows, row)
	}
	header = []string{"stage"}
	for _, s := range sets {
		header = append(header, s.name+" median ms", s.name+" CPU ms", s.name+" share")
	}
	fmt.Print(bench.Table(header, rows))
	a := "after"
	if len(sets) == 1 {
		a = sets[0].name
	}
	fmt.Printf("\ntargets (issue 43): sponge search median %s ms (≤ %d): %s; sponge ask without a model %s ms (≤ %d): %s; "+
		"on a loaded machine read the ratios to --passages\n",
		ms(med(key{a, "sponge search"})), targetSearch.Milliseconds(), yes(med(key{a, "sponge search"}) <= targetSearch),
		ms(med(key{a, "sponge ask"})), targetAsk.Milliseconds(), yes(med(key{a, "sponge ask"}) <= targetAsk))
	return nil
}
