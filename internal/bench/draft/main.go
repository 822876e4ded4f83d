//go:build cgo

// Command draft measures the embedded model drafter of sponge-draft and
// prints a table: model load, prompt tokens/s, generated tokens/s with and
// without the quote constraint, time to the first statement, total, and peak
// RSS, each run in a fresh process (cold); then, for the same draft through
// sponge serve with the model already loaded (warm), the time to the first
// statement, the total and the server's RSS.
//
// The models are random-weight GGUF files with the shapes of Qwen2.5-0.5B
// (Q8_0), Llama-3.2-1B (Q4_0) and Gemma-3-1B (Q4_0), each with its family's
// real tokenizer (vocabulary, merges, special tokens: make tokenizers fetches
// them), written by internal/testsupport/ggufgen into -models on first use:
// speed depends on the shape, the tensor type and the vocabulary, not on the
// weights. With random weights the model would stop at once or never, so each
// draft is made the same length: six statements of 16 tokens of words and at
// least 16 tokens of quote (a quote then ends where sponge-verify finds it).
//
//	go run ./internal/bench/draft -models .bench/models   (make bench-draft)
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/sponge-library/sponge/internal/bench"
	"github.com/sponge-library/sponge/internal/testsupport/ggufgen"
	"github.com/sponge-library/sponge/jsonl"
	"github.com/sponge-library/sponge/stages/draft"
)

// The draft every run makes.
const (
	statements  = 6
	textTokens  = 16
	quoteTokens = 16
	promptChars = 12000
	question    = "What do these studies find about how the brain and the body change with age and disease?"
	// nextQuestion is asked of the loaded model after question.
	nextQuestion = "Which treatments do these studies test, and what effects on patients do they report?"
)

// passageTokens is sponge-draft's --passage-tokens for every run.
var passageTokens int

// result is what a child process reports.
type result struct {
	Load           time.Duration
	PromptTokens   int
	PromptTime     time.Duration
	Chosen         int
	Framing        int
	QuoteTokens    int
	Narrow         int
	GenTime        time.Duration
	PromptCPU      time.Duration
	GenCPU         time.Duration
	FirstStatement time.Duration // from process start (cold)
	Total          time.Duration // from process start
	Statements     int
	Quotes         []string
	MaxRSS         int64 // bytes, from the parent
	// Passages the model read, and how many were cut to the budget.
	PassagesShown, PassagesCut int
	// A second question then, in the loaded model (as sponge serve does):
	// its prompt tokens, how many of them were kept from the first draft,
	// and the time to its first statement.
	NextPromptTokens, NextCached int
	NextFirstStatement           time.Duration
}

func main() {
	models := flag.String("models", ".bench/models", "folder for the random-weight models (written on first use)")
	threads := flag.Int("threads", 0, "internal: with -child, CPU threads (0: one per core)")
	threadList := flag.String("thread-counts", "2", "CPU thread counts to measure, comma-separated")
	runs := flag.Int("runs", 1, "cold runs of each kind per model and thread count; the fastest counts")
	warmRuns := flag.Int("warm-runs", 3, "drafts through one sponge serve per model and thread count (0: no warm rows)")
	cold := flag.Bool("cold", true, "measure cold runs (-cold=false: only the warm rows)")
	only := flag.String("only", "", "measure only the model whose name contains this")
	child := flag.String("child", "", "internal: measure one draft with this model file")
	free := flag.Bool("free", false, "internal: with -child, without the quote constraint")
	passagesFile := flag.String("passages", "", "internal: with -child, the passages (JSON)")
	budget := flag.Int("passage-tokens", draft.DefaultPassageTokens, "the model's passage budget, as sponge-draft --passage-tokens (0: as much as the context holds)")
	flag.Parse()
	passageTokens = *budget
	if *child != "" {
		if err := runChild(*child, *passagesFile, *threads, *free); err != nil {
			fmt.Fprintln(os.Stderr, "bench-draft:", err)
			os.Exit(1)
		}
		return
	}
	var counts []int
	for _, f := range strings.Split(*threadList, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			fmt.Fprintf(os.Stderr, "bench-draft: bad thread count %q\n", f)
			os.Exit(2)
		}
		counts = append(counts, n)
	}
	if err := run(*models, counts, *runs, *warmRuns, *cold, *only); err != nil {
		fmt.Fprintln(os.Stderr, "bench-draft:", err)
		os.Exit(1)
	}
}

func run(models string, threadCounts []int, runs, warmRuns int, cold bool, only string) error {
	_, docs, err := bench.SciFactCorpus()
	if err != nil {
		return err
	}
	passages := promptPassages(docs)
	pf, err := os.CreateTemp("", "bench-draft-passages-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(pf.Name())
	if err := json.NewEncoder(pf).Encode(passages); err != nil {
		return err
	}
	pf.Close()
	chars := 0
	for _, p := range passages {
		chars += len([]rune(p.Text))
	}
	if err := os.MkdirAll(models, 0o755); err != nil {
		return err
	}

	loadStart := bench.LoadAverage()
	var draftBin string
	if warmRuns > 0 {
		dir, err := os.MkdirTemp("", "bench-draft-bin-*")
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		fmt.Fprintln(os.Stderr, "building sponge-draft …")
		if draftBin, err = buildDraft(dir); err != nil {
			return err
		}
	}

	var rows [][]string
	for _, f := range ggufgen.Families {
		if only != "" && !strings.Contains(f.Name, only) {
			continue
		}
		tok, err := f.Read()
		if err != nil {
			return fmt.Errorf("%v (make tokenizers fetches the real tokenizers)", err)
		}
		spec := f.Spec(tok)
		path := filepath.Join(models, spec.Name+".gguf")
		if _, err := os.Stat(path); err != nil {
			fmt.Fprintf(os.Stderr, "writing %s …\n", path)
			t := time.Now()
			if err := ggufgen.WriteRandom(path, spec); err != nil {
				return err
			}
			fmt.Fprintf(os.Stderr, "  written in %.1f s\n", time.Since(t).Seconds())
		}
		st, _ := os.Stat(path)
		for _, threads := range threadCounts {
			if !cold {
				break
			}
			var con, unc *result
			for i := 0; i < runs; i++ {
				for _, f := range []bool{false, true} {
					fmt.Fprintf(os.Stderr, "%s, %d threads, quotes %s …\n", spec.Name, threads, map[bool]string{false: "constrained", true: "free"}[f])
					r, err := measure(path, pf.Name(), threads, f)
					if err != nil {
						return err
					}
					best := &con
					if f {
						best = &unc
					}
					if *best == nil || r.Total < (*best).Total {
						*best = r
					}
				}
			}
			for _, q := range con.Quotes {
				if !inSomePassage(q, passages) {
					return fmt.Errorf("%s: quote %q is not in a passage", spec.Name, q)
				}
			}
			rate := func(n int, d time.Duration) float64 { return float64(n) / d.Seconds() }
			// The constraint's cost: CPU time per chosen token, quoted against free.
			cost := (con.GenCPU.Seconds()/float64(con.Chosen))/(unc.GenCPU.Seconds()/float64(unc.Chosen)) - 1
			fmt.Fprintf(os.Stderr, "  cold: first statement %.1f s, six statements %.1f s, prompt %d tokens in %.1f s; %d chosen tokens and %d of framing in %.2f s, %d steps narrow (free: %d)\n",
				con.FirstStatement.Seconds(), con.Total.Seconds(), con.PromptTokens, con.PromptTime.Seconds(), con.Chosen, con.Framing, con.GenTime.Seconds(), con.Narrow, unc.Narrow)
			rows = append(rows, []string{
				spec.Name,
				"cold",
				fmt.Sprintf("%.0f MB", float64(st.Size())/1e6),
				fmt.Sprint(threads),
				fmt.Sprintf("%.2f s", con.Load.Seconds()),
				fmt.Sprintf("%d of %d (%d cut)", con.PassagesShown, len(passages), con.PassagesCut),
				fmt.Sprint(con.PromptTokens),
				fmt.Sprintf("%.0f / %.0f", rate(con.PromptTokens, con.PromptTime), rate(con.PromptTokens, con.PromptCPU)),
				fmt.Sprintf("%.1f / %.1f", rate(unc.Chosen, unc.GenTime), rate(unc.Chosen, unc.GenCPU)),
				fmt.Sprintf("%.1f / %.1f", rate(con.Chosen, con.GenTime), rate(con.Chosen, con.GenCPU)),
				fmt.Sprintf("%+.1f%%", cost*100),
				fmt.Sprintf("%.1f s", con.FirstStatement.Seconds()),
				fmt.Sprintf("%.1f s", con.Total.Seconds()),
				fmt.Sprintf("%.1f s", (con.PromptCPU + con.GenCPU).Seconds()),
				fmt.Sprintf("%.0f MB", float64(con.MaxRSS)/(1<<20)),
				fmt.Sprintf("%d of %d; first statement %.1f s", con.NextCached, con.NextPromptTokens, con.NextFirstStatement.Seconds()),
			})
		}
		for _, threads := range threadCounts {
			if warmRuns <= 0 {
				break
			}
			fmt.Fprintf(os.Stderr, "%s, %d threads, through sponge serve, %d drafts …\n", spec.Name, threads, warmRuns)
			w, err := measureWarm(draftBin, path, passages, threads, warmRuns)
			if err != nil {
				// A server that fails (say, stalls on a busy machine) is a
				// finding for the table, not a reason to lose the other rows.
				fmt.Fprintf(os.Stderr, "  failed: %v\n", err)
				msg, _, _ := strings.Cut(err.Error(), "\n")
				rows = append(rows, []string{spec.Name, "warm, through sponge serve", fmt.Sprintf("%.0f MB", float64(st.Size())/1e6), fmt.Sprint(threads),
					"", "", "–", "–", "–", "–", "–", "failed: " + msg, "", "", "", ""})
				continue
			}
			for _, k := range []struct {
				name, load, rss string
				d               warmDrafts
			}{
				{"warm, through sponge serve", fmt.Sprintf("(%.2f s)", w.Ready.Seconds()), fmt.Sprintf("%.0f MB (now %.0f)", float64(w.Peak)/(1<<20), float64(w.RSS)/(1<<20)), w.New},
				{"warm, same question again", "", "", w.Repeat},
			} {
				fmt.Fprintf(os.Stderr, "  %s: first statement %s, six statements %s\n", k.name, spread(k.d.FirstStatement), spread(k.d.Total))
				rows = append(rows, []string{
					spec.Name, k.name,
					fmt.Sprintf("%.0f MB", float64(st.Size())/1e6),
					fmt.Sprint(threads),
					k.load,
					"", "–", "–", "–", "–", "–",
					spread(k.d.FirstStatement),
					spread(k.d.Total),
					spread(k.d.CPU),
					k.rss,
					"",
				})
			}
		}
	}
	budgetText := fmt.Sprintf("a passage budget of %d tokens (sponge-draft --passage-tokens)", passageTokens)
	if passageTokens == 0 {
		budgetText = "no passage budget (--passage-tokens 0: as much as the context holds)"
	}
	fmt.Printf("Draft benchmark: %d characters of passages (%d SciFact abstracts) given, %s,\n%d statements of %d+%d tokens, greedy, best of %d cold run(s) each, median of %d warm draft(s) (new questions)\nthrough one sponge serve, %d cores, load average at the start %s, at the end %s\n\n",
		chars, len(passages), budgetText, statements, textTokens, quoteTokens, runs, warmRuns, runtime.NumCPU(), loadStart, bench.LoadAverage())
	fmt.Print(bench.Table([]string{"model (random weights, real vocabulary)", "run", "file", "threads", "load", "passages read", "prompt tokens", "prompt tok/s wall / CPU", "gen tok/s free wall / CPU", "gen tok/s quoted wall / CPU", "constraint cost", "first statement", "six statements", "draft CPU", "peak RSS", "next question: prompt tokens kept"}, rows))
	fmt.Println(`
Targets (Qwen2.5-0.5B Q8_0, 2 threads): constraint cost ≤ 15%, first statement ≤ 8 s cold and ≤ 4 s
through sponge serve, six statements ≤ 20 s cold, peak RSS ≤ 1 GB.
- wall: tokens per second of wall-clock time; CPU: per second of CPU time the process used. On a busy
  machine the wall clock mostly measures the wait for a core; with 1 thread the CPU rate is what one idle
  core does (with more threads, waiting threads spin, so their CPU rate is lower than the truth).
- gen tok/s counts the tokens the model chose, over all decoding after the prompt (including the framing
  the program writes); constraint cost is the CPU time per chosen token, quoted against free. Before a
  choice among a few tokens (a quote's next piece, a passage number) the model leaves out its output
  layer and only those tokens are scored, so quoted writing can be faster than free writing.
- cold: first statement and six statements are from process start, so they include loading the model.
- warm, through sponge serve: sponge-draft --serve (what sponge serve runs, built from this tree) loads
  the model once, in the time in brackets (process start to /health answering); then the --endpoint
  client sends the same passages with a new question each time, asking for drafts of the same fixed
  length (sponge_draft.fixed). Times are from sending the request to the statement arriving at the
  client: median (fastest–slowest). Peak RSS is the server's (VmHWM), and what it holds after the drafts.
- warm, same question again: then the last question once more; the server still holds that prompt's
  tokens, so it reads almost none of it again.
- passages read: how many of the passages given the model read within the passage budget, and how many of
  those were cut to their sentences with the question's words (marked …).
- next question: after its six statements, the cold process asks the loaded model a new question (one
  statement): how many of that prompt's tokens were kept in the model's memory from the first (the system
  prompt: sponge serve does not read it again), and the time to that statement.
- draft CPU: the CPU time the process (cold) or the server (warm) spent on one draft, prompt and writing,
  without loading the model: on a busy machine it shows what the draft costs apart from waiting.`)
	return nil
}

// promptPassages are SciFact abstracts, numbered, adding up to about
// promptChars characters.
func promptPassages(docs []bench.Doc) []*jsonl.Passage {
	var out []*jsonl.Passage
	total := 0
	for _, d := range docs {
		n := len([]rune(d.Text))
		if n < 1200 || n > 2500 {
			continue
		}
		out = append(out, &jsonl.Passage{Number: len(out) + 1, ItemID: d.ID, Title: d.Title, Text: d.Text})
		total += n
		if total >= promptChars {
			break
		}
	}
	return out
}

func inSomePassage(q string, ps []*jsonl.Passage) bool {
	for _, p := range ps {
		if strings.Contains(p.Text, q) {
			return true
		}
	}
	return false
}

// measure runs one draft in a fresh process.
func measure(model, passages string, threads int, free bool) (*result, error) {
	args := []string{"-child", model, "-passages", passages, "-threads", fmt.Sprint(threads), "-passage-tokens", fmt.Sprint(passageTokens)}
	if free {
		args = append(args, "-free")
	}
	cmd := exec.Command(os.Args[0], args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("%v: %s", err, errb.String())
	}
	var r result
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		return nil, err
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.MaxRSS = ru.Maxrss * 1024
	}
	return &r, nil
}

func runChild(model, passagesFile string, threads int, free bool) error {
	start := time.Now()
	data, err := os.ReadFile(passagesFile)
	if err != nil {
		return err
	}
	var passages []*jsonl.Passage
	if err := json.Unmarshal(data, &passages); err != nil {
		return err
	}
	budget := passageTokens
	if budget == 0 {
		budget = -1 // as sponge-draft --passage-tokens 0
	}
	e, err := draft.OpenEmbedded(model, draft.ModelOptions{MaxStatements: statements, Threads: threads, PassageTokens: budget})
	if err != nil {
		return err
	}
	defer e.Close()
	r := result{Load: time.Since(start)}
	e.Fixed = &draft.Fixed{Statements: statements, TextTokens: textTokens, QuoteTokens: quoteTokens}
	e.Unconstrained = free
	err = e.Draft(context.Background(), question, passages, func(s *jsonl.Statement) error {
		if r.Statements == 0 {
			r.FirstStatement = time.Since(start)
		}
		r.Statements++
		r.Quotes = append(r.Quotes, s.Quote)
		return nil
	})
	if err != nil {
		return err
	}
	r.Total = time.Since(start)
	st := e.Stats()
	r.PromptTokens, r.PromptTime = st.PromptTokens, st.PromptTime
	r.Chosen, r.Framing, r.QuoteTokens, r.Narrow, r.GenTime = st.Chosen, st.Framing, st.QuoteTokens, st.Narrow, st.GenTime
	r.PromptCPU, r.GenCPU = st.PromptCPU, st.GenCPU
	r.PassagesShown, r.PassagesCut = st.PassagesShown, st.PassagesCut
	if r.Statements != statements {
		return fmt.Errorf("%d statements, want %d", r.Statements, statements)
	}
	// A new question to the loaded model: what it reads again (the
	// system prompt is kept) and its first statement.
	e.Fixed.Statements = 1
	t := time.Now()
	if err := e.Draft(context.Background(), nextQuestion, passages, func(*jsonl.Statement) error { return nil }); err != nil {
		return err
	}
	st = e.Stats()
	r.NextPromptTokens, r.NextCached, r.NextFirstStatement = st.PromptTokens, st.PromptCached, time.Since(t)
	return json.NewEncoder(os.Stdout).Encode(r)
}
