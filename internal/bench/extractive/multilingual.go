package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/sponge-library/sponge/internal/bench"
	"github.com/sponge-library/sponge/internal/quality"
	"github.com/sponge-library/sponge/stages/draft/extractive"
)

// askMultilingual saves each set of ../shared/bench/multilingual in a
// library of its own and asks it every question in process (with n above
// 0, as eval_public.py --n: n answerable questions evenly spaced, the
// articles they were asked on, and n/5 held-out questions), as the floor
// does with a few, and prints the table of the set's README: the figures of
// its eval_public.py, which asks through the binaries, are the same.
func askMultilingual(n int, p *extractive.Params) error {
	files, err := quality.MultilingualFiles()
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "sponge-multilingual-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	var rows [][]string
	start := time.Now()
	for _, f := range files {
		m, err := quality.LoadMultilingual(f, filepath.Join(work, filepath.Base(f)), n, n/5)
		if err != nil {
			return err
		}
		lib, x, err := quality.Open(m.Dir)
		if err != nil {
			return err
		}
		err = quality.AskAll(lib, x, append(append([]*quality.SquadQuestion{}, m.Ans...), m.Un...), p, false)
		x.Close()
		if err != nil {
			return err
		}
		r := quality.EvalSquad(m.Ans, m.Un, p)
		found := 0
		for _, sq := range m.Ans {
			if quality.GoldPassageIn(sq, 4) {
				found++
			}
		}
		rows = append(rows, []string{m.Name, m.Language, fmt.Sprint(len(m.Items)), fmt.Sprint(len(m.Ans)), f3(r.InShort), f3(r.InSome), f3(r.AnsRefused),
			f3(quality.Share(found, len(m.Ans))), fmt.Sprint(len(m.Un)), f3(r.UnRefused), fmt.Sprintf("%.0f", r.MeanChars)})
		fmt.Fprintf(os.Stderr, "%s asked in %v\n", m.Name, time.Since(start).Round(time.Millisecond))
	}
	fmt.Printf("The multilingual sets of ../shared/bench/multilingual, one library each, asked in process (%s):\n\n", askedHow(n))
	fmt.Println(bench.Table([]string{"set", "language", "items", "answerable", "gold answer in a quote of ≤ 300 characters", "in any quote",
		"answerable refused", "gold paragraph in the first 4 passages", "held-out", "held-out refused", "mean quote (characters)"}, rows))
	return nil
}

// askedHow says which questions askMultilingual asks.
func askedHow(n int) string {
	if n == 0 {
		return "all of each file's articles, answerable and held-out questions"
	}
	return fmt.Sprintf("%d answerable questions evenly spaced and the articles they were asked on, %d held-out questions", n, n/5)
}
