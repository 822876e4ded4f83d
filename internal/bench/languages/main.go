// Command languages measures finding paragraphs in languages written without
// spaces between words: ten questions each in Chinese, Japanese and Thai on
// short documents written for it (testdata/), asked with the real binaries
// as `sponge ask --passages --json`, as a person would. It prints, for each
// language, how often the paragraph that answers is the first passage
// (hit@1) and among the first three (hit@3).
//
//	go run ./internal/bench/languages -bin bin      (make bench-languages)
//
// -bin is the folder of the sponge binaries, so that two builds (before and
// after a change to the analyzer) can be measured side by side.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/sponge-library/sponge/internal/bench"
)

func main() {
	bin := flag.String("bin", "bin", "the folder of the sponge binaries")
	data := flag.String("data", "internal/bench/languages/testdata", "the documents and questions.tsv")
	flag.Parse()
	if err := run(*bin, *data); err != nil {
		fmt.Fprintln(os.Stderr, "languages:", err)
		os.Exit(1)
	}
}

type question struct {
	lang, text, answer string
}

func readQuestions(path string) ([]question, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var qs []question
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "\t")
		if len(parts) != 3 {
			return nil, fmt.Errorf("%s:%d: want language, question and answer words, tab-separated", path, n)
		}
		qs = append(qs, question{parts[0], parts[1], parts[2]})
	}
	return qs, sc.Err()
}

func run(bin, data string) error {
	qs, err := readQuestions(filepath.Join(data, "questions.tsv"))
	if err != nil {
		return err
	}
	docs, err := filepath.Glob(filepath.Join(data, "*.md"))
	if err != nil {
		return err
	}
	lib, err := os.MkdirTemp("", "bench-languages-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(lib)
	sponge := filepath.Join(bin, "sponge")
	add := exec.Command(sponge, append([]string{"add", "--library", lib}, docs...)...)
	if out, err := add.CombinedOutput(); err != nil {
		return fmt.Errorf("sponge add: %v: %s", err, out)
	}
	type tally struct{ n, hit1, hit3 int }
	by := map[string]*tally{}
	var order []string
	for _, q := range qs {
		t := by[q.lang]
		if t == nil {
			t = &tally{}
			by[q.lang] = t
			order = append(order, q.lang)
		}
		t.n++
		rank, err := answerRank(sponge, lib, q)
		if err != nil {
			return err
		}
		if rank == 1 {
			t.hit1++
		}
		if rank >= 1 && rank <= 3 {
			t.hit3++
		}
		fmt.Printf("%s\t%d\t%s\n", q.lang, rank, q.text)
	}
	var rows [][]string
	for _, lang := range order {
		t := by[lang]
		rows = append(rows, []string{lang, fmt.Sprint(t.n),
			fmt.Sprintf("%.2f", float64(t.hit1)/float64(t.n)), fmt.Sprintf("%.2f", float64(t.hit3)/float64(t.n))})
	}
	fmt.Printf("\nsponge ask --passages (%s), the answering paragraph among the passages\n\n", bin)
	fmt.Print(bench.Table([]string{"language", "questions", "hit@1", "hit@3"}, rows))
	return nil
}

// answerRank is the number of the first passage that holds q's answer words,
// or 0 when none does (or none was found).
func answerRank(sponge, lib string, q question) (int, error) {
	cmd := exec.Command(sponge, "ask", "--passages", "--json", "--library", lib, q.text)
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok && len(out) == 0 {
		// Nothing found (exit 4), or no words found in the question
		// (before Thai had words): a miss, said on the question's line.
		fmt.Printf("%s\t-\t%s\t(exit %d: %s)\n", q.lang, q.text, ee.ExitCode(), strings.TrimSpace(strings.SplitN(string(ee.Stderr), "\n", 2)[0]))
		return 0, nil
	} else if err != nil && len(out) == 0 {
		return 0, fmt.Errorf("sponge ask %q: %v", q.text, err)
	}
	var doc struct {
		Passages []struct {
			Number int    `json:"number"`
			Text   string `json:"text"`
		} `json:"passages"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		return 0, fmt.Errorf("sponge ask %q: %v", q.text, err)
	}
	for _, p := range doc.Passages {
		if strings.Contains(p.Text, q.answer) {
			return p.Number, nil
		}
	}
	return 0, nil
}
