// Command langdetect measures how often internal/base/lang names the
// language of the paragraphs and questions of ../shared/bench/multilingual
// (each file is in one language), beside whatlanggo alone: paragraphs with
// Detect, questions with DetectQuestion, and the short questions (at most
// four words, or twelve characters in a script without spaces) apart. It
// prints one row a file, and the time a call takes.
//
//	go run ./internal/bench/langdetect
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/RadhiFadlillah/whatlanggo"
	"github.com/sponge-library/sponge/internal/base/lang"
)

type squad struct {
	Language string    `json:"language"`
	Data     []article `json:"data"`
	Heldout  []article `json:"heldout"`
}

type article struct {
	Paragraphs []struct {
		Context string `json:"context"`
		QAs     []struct {
			Question string `json:"question"`
		} `json:"qas"`
	} `json:"paragraphs"`
}

// score counts right answers of a detector.
type score struct{ n, ours, whatlang int }

func (s *score) add(want lang.Tag, ours lang.Tag, text string) {
	s.n++
	if ours == want {
		s.ours++
	}
	if l := whatlanggo.Detect(text).Lang; l >= 0 && baseOf(l.Iso6391()) == want {
		s.whatlang++
	}
}

func baseOf(code string) lang.Tag {
	if code == "nb" || code == "nn" {
		return "no"
	}
	return lang.Tag(code)
}

func (s score) String() string {
	if s.n == 0 {
		return "      –       –     0"
	}
	return fmt.Sprintf("%7.3f %7.3f %5d", float64(s.ours)/float64(s.n), float64(s.whatlang)/float64(s.n), s.n)
}

func short(q string) bool {
	if len(strings.Fields(q)) > 1 {
		return len(strings.Fields(q)) <= 4
	}
	return utf8.RuneCountInString(q) <= 12
}

func main() {
	dir := flag.String("dir", "../shared/bench/multilingual", "the folder of the multilingual sets")
	misses := flag.Bool("misses", false, "print what each detector got wrong")
	flag.Parse()
	files, err := filepath.Glob(filepath.Join(*dir, "*.json"))
	if err != nil || len(files) == 0 {
		fmt.Fprintln(os.Stderr, "langdetect: no sets in", *dir)
		os.Exit(1)
	}
	fmt.Printf("%-20s %-5s | %s | %s | %s\n", "file", "lang", "paragraphs: ours whatlang n", "questions: ours whatlang n", "short questions: ours whatlang n")
	var took time.Duration
	calls := 0
	var all [3]score
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			fmt.Fprintln(os.Stderr, "langdetect:", err)
			os.Exit(1)
		}
		var s squad
		if err := json.Unmarshal(data, &s); err != nil {
			fmt.Fprintln(os.Stderr, "langdetect:", f+":", err)
			os.Exit(1)
		}
		want := lang.Tag(strings.SplitN(s.Language, "-", 2)[0])
		var par, qs, sq score
		for _, a := range append(s.Data, s.Heldout...) {
			for _, p := range a.Paragraphs {
				t0 := time.Now()
				got := lang.Detect(p.Context)
				took += time.Since(t0)
				calls++
				par.add(want, got, p.Context)
				if *misses && got != want {
					fmt.Printf("  paragraph %q: %q\n", got, cut(p.Context))
				}
				for _, q := range p.QAs {
					t0 := time.Now()
					got := lang.DetectQuestion(q.Question)
					took += time.Since(t0)
					calls++
					qs.add(want, got, q.Question)
					if short(q.Question) {
						sq.add(want, got, q.Question)
					}
					if *misses && got != want {
						fmt.Printf("  question %q: %q\n", got, q.Question)
					}
				}
			}
		}
		for i, sc := range []score{par, qs, sq} {
			all[i].n += sc.n
			all[i].ours += sc.ours
			all[i].whatlang += sc.whatlang
		}
		fmt.Printf("%-20s %-5s | %s | %s | %s\n", filepath.Base(f), want, par, qs, sq)
	}
	fmt.Printf("%-20s %-5s | %s | %s | %s\n", "all", "", all[0], all[1], all[2])
	fmt.Printf("%d calls, %.1f µs a call on average\n", calls, float64(took.Microseconds())/float64(calls))
}

func cut(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:80]) + "…"
	}
	return s
}
