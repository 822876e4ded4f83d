package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/bench"
	"github.com/sponge-library/sponge/internal/quality"
	"github.com/sponge-library/sponge/stages/draft/extractive"
)

// demoSet is the demo library (testdata/docs, saved as `sponge add`
// saves), or another library saved the same way, and the questions asked
// of it.
type demoSet struct {
	*quality.Demo
	// what names the library and its questions file in check's output.
	what string
}

// loadDemo saves testdata/docs in a new library as `sponge add` does, and
// asks each question through the search and rank stages in process, for
// the padding rules (quality.LoadDemo, as the demo floor does). The caller
// removes the library's folder.
func loadDemo(p *extractive.Params) (*demoSet, error) {
	tmp, err := os.MkdirTemp("", "sponge-demo-")
	if err != nil {
		return nil, err
	}
	d, err := quality.LoadDemo(filepath.Join(tmp, "library"), p)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	return &demoSet{d, "The demo library (testdata/docs) asked the questions of demo-questions.txt"}, nil
}

// check asks every question through `sponge ask --extractive --json`,
// prints each answer with its off-topic sentences marked, and the counts.
func (d *demoSet) check(binDir string) error {
	r, err := d.ask(binDir)
	if err != nil {
		return err
	}
	fmt.Println(bench.Table(quality.DemoHeader, [][]string{r.Row()}))
	return nil
}

// ask asks every question through the sponge of binDir as check does, and
// prints each answer with its off-topic sentences marked.
func (d *demoSet) ask(binDir string) (quality.DemoResult, error) {
	fmt.Printf("%s (%d) through `sponge ask --extractive --json`\n", d.what, len(d.Questions))
	fmt.Println("(+ an expected sentence, - an off-topic one):")
	fmt.Println()
	var r quality.DemoResult
	for _, dq := range d.Questions {
		cmd := exec.Command(filepath.Join(binDir, "sponge"), "ask", "--extractive", "--json", "--library", d.Dir, dq.Q.Text)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		// Exit code 4 is a refusal: nothing in the library answers.
		if err := cmd.Run(); err != nil && cmd.ProcessState.ExitCode() != console.ExitNothing {
			return r, fmt.Errorf("sponge ask %q: %v\n%s", dq.Q.Text, err, errb.String())
		}
		var answer struct {
			Answered bool `json:"answered"`
			Claims   []struct {
				Title string `json:"title"`
				Quote string `json:"quote"`
			} `json:"claims"`
		}
		if err := json.Unmarshal(out.Bytes(), &answer); err != nil {
			return r, fmt.Errorf("sponge ask --json %q: %v", dq.Q.Text, err)
		}
		var got []quality.Statement
		for _, c := range answer.Claims {
			got = append(got, quality.Statement{Title: c.Title, Quote: c.Quote})
		}
		dq.Judge(&r, got)
		fmt.Printf("Q: %s\n", dq.Q.Text)
		if !answer.Answered || len(got) == 0 {
			verdict := "(right)"
			if !dq.Refuse {
				verdict = "(WRONG: it answers)"
			}
			fmt.Printf("   Nothing in your library answers that. %s\n", verdict)
		}
		for _, s := range got {
			mark := " "
			switch {
			case dq.OffTopic(s):
				mark = "-"
			case dq.Wanted(s.Quote):
				mark = "+"
			}
			fmt.Printf(" %s %s  [%s]\n", mark, s.Quote, s.Title)
		}
		fmt.Println()
	}
	return r, nil
}
