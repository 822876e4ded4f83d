// Command firststatement measures how long a person waits for the first
// statement of `sponge ask` on the screen, against the whole answer: the
// time from starting the command to its first line on stdout, to its last
// statement line, and to its exit. Each run is a new `sponge ask` process
// (its stages are new processes too) on a library of testdata/docs, with
// three drafters:
//
//   - extractive: --extractive, no model;
//   - slow endpoint: an OpenAI-compatible server on 127.0.0.1, in this
//     program, that writes six statements a few characters at a time with a
//     pause after each piece, as a model on a CPU does; it notes when each
//     statement's JSON object closed, so the table also gives the lag from
//     the server to the screen;
//   - random-weight model: internal/testsupport/ggufgen's Tiny model in
//     the shared models folder, run in sponge-draft with llama.cpp (needs a
//     sponge-draft built with cgo).
//
// Streaming shows as a first statement far earlier than the last. With -record it
// also prints, for the last run of each row, every line of stdout with the
// milliseconds since the start: a text recording of the statements
// appearing one by one.
//
//	go run ./internal/bench/firststatement -bin bin -record
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/sponge-library/sponge/internal/bench"
	"github.com/sponge-library/sponge/internal/model/openai"
	"github.com/sponge-library/sponge/internal/testsupport/ggufgen"
	"github.com/sponge-library/sponge/stages/draft"
)

const question = "how hot should the water be for green tea?"

func main() {
	bin := flag.String("bin", "bin", "folder with sponge and the stage binaries")
	runs := flag.Int("runs", 5, "runs of each row without a model")
	modelRuns := flag.Int("model-runs", 2, "runs of the random-weight model row (0: leave it out)")
	piece := flag.Int("piece", 4, "characters the slow endpoint writes at a time")
	pause := flag.Duration("pause", 40*time.Millisecond, "the slow endpoint's pause after each piece")
	record := flag.Bool("record", false, "print the last run of each row line by line with its times")
	flag.Parse()
	if err := run(*bin, *runs, *modelRuns, *piece, *pause, *record); err != nil {
		fmt.Fprintln(os.Stderr, "firststatement bench:", err)
		os.Exit(1)
	}
}

// line is a line of stdout and when it came.
type line struct {
	at   time.Duration
	text string
}

// result is one run.
type result struct {
	lines      []line
	first      time.Duration // first statement on the screen
	last       time.Duration // last statement on the screen
	exit       time.Duration
	statements int
	// The slow endpoint's times: when the first statement's JSON object
	// closed on the server.
	served time.Duration
}

type row struct {
	name    string
	args    []string
	env     []string
	runs    int
	results []result
	server  *slowServer
}

func run(bin string, runs, modelRuns, piece int, pause time.Duration, record bool) error {
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	for _, b := range []string{"sponge", "sponge-search", "sponge-rank", "sponge-draft", "sponge-verify", "sponge-render"} {
		if _, err := os.Stat(filepath.Join(bin, b)); err != nil {
			return fmt.Errorf("no %s in %s (make build, or -bin DIR)", b, bin)
		}
	}
	work, err := os.MkdirTemp("", "sponge-firststatement")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	lib := filepath.Join(work, "library")
	// An empty config and models folder: the settings of the person who
	// runs the benchmark do not count.
	env := []string{"XDG_CONFIG_HOME=" + filepath.Join(work, "config"), "XDG_DATA_HOME=" + filepath.Join(work, "data"), "NO_COLOR=1"}
	add := exec.Command(filepath.Join(bin, "sponge"), "add", "--library", lib, filepath.Join("testdata", "docs"))
	add.Env = append(os.Environ(), env...)
	if out, err := add.CombinedOutput(); err != nil {
		return fmt.Errorf("sponge add: %v\n%s", err, out)
	}

	srv, err := startSlowServer(piece, pause)
	if err != nil {
		return err
	}
	defer srv.close()
	rows := []*row{
		{name: "extractive", args: []string{"--extractive"}, env: env, runs: runs},
		{name: fmt.Sprintf("slow endpoint (%d chars per %s)", piece, pause), args: []string{"--endpoint", srv.url, "--model", "slow"}, env: env, runs: runs, server: srv},
	}
	if modelRuns > 0 {
		// sponge-draft finds the writing model in the shared models folder.
		models := filepath.Join(work, "data", "sponge", "models")
		if err := os.MkdirAll(models, 0o755); err != nil {
			return err
		}
		if err := ggufgen.WriteRandom(filepath.Join(models, draft.ModelFileName), ggufgen.Tiny()); err != nil {
			return err
		}
		rows = append(rows, &row{name: "random-weight model (ggufgen Tiny, llama.cpp)", env: env, runs: modelRuns})
	}

	for _, r := range rows {
		for i := 0; i < r.runs; i++ {
			res, err := once(bin, lib, r)
			if err != nil {
				return fmt.Errorf("%s: %v", r.name, err)
			}
			r.results = append(r.results, res)
		}
	}

	fmt.Printf("sponge ask %q on testdata/docs (%d items), a new process each run; medians\n\n", question, 6)
	var table [][]string
	for _, r := range rows {
		var first, last, exit, lag []time.Duration
		n := 0
		for _, res := range r.results {
			first = append(first, res.first)
			last = append(last, res.last)
			exit = append(exit, res.exit)
			n = res.statements
			if r.server != nil {
				lag = append(lag, res.first-res.served)
			}
		}
		lagCell := "-"
		if len(lag) > 0 {
			lagCell = ms(bench.Percentile(lag, 50))
		}
		table = append(table, []string{r.name, fmt.Sprint(len(r.results)), fmt.Sprint(n),
			ms(bench.Percentile(first, 50)), ms(bench.Percentile(last, 50)), ms(bench.Percentile(exit, 50)), lagCell})
	}
	fmt.Print(bench.Table([]string{"drafter", "runs", "statements", "first statement on screen", "last statement on screen", "sponge ask exits", "server to screen (first)"}, table))
	if record {
		for _, r := range rows {
			res := r.results[len(r.results)-1]
			fmt.Printf("\nRecording: %s (ms since sponge ask started, one stdout line each)\n\n", r.name)
			if r.server != nil {
				fmt.Printf("%8s  (the server closed the first statement's JSON object)\n", ms(res.served))
			}
			for _, l := range res.lines {
				fmt.Printf("%8s  %s\n", ms(l.at), l.text)
			}
			fmt.Printf("%8s  (sponge ask exited)\n", ms(res.exit))
		}
	}
	return nil
}

func ms(d time.Duration) string { return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond)) }

// once runs sponge ask and times its lines. The statements are the lines
// before the first blank one, in an answer.
func once(bin, lib string, r *row) (result, error) {
	args := append([]string{"ask", "--library", lib}, r.args...)
	cmd := exec.Command(filepath.Join(bin, "sponge"), append(args, question)...)
	cmd.Env = append(os.Environ(), r.env...)
	cmd.Stderr = io.Discard
	out, err := cmd.StdoutPipe()
	if err != nil {
		return result{}, err
	}
	start := time.Now()
	if r.server != nil {
		r.server.begin(start)
	}
	if err := cmd.Start(); err != nil {
		return result{}, err
	}
	var res result
	rd := bufio.NewReader(out)
	inStatements := true
	for {
		s, err := rd.ReadString('\n')
		if s != "" {
			at := time.Since(start)
			s = strings.TrimSuffix(s, "\n")
			res.lines = append(res.lines, line{at, s})
			if s == "" {
				inStatements = false
			} else if inStatements {
				if res.statements == 0 {
					res.first = at
				}
				res.last = at
				res.statements++
			}
		}
		if err != nil {
			break
		}
	}
	if err := cmd.Wait(); err != nil {
		return result{}, fmt.Errorf("sponge ask: %v", err)
	}
	res.exit = time.Since(start)
	if res.statements == 0 {
		return result{}, fmt.Errorf("no statement on the screen: %d lines", len(res.lines))
	}
	if r.server != nil {
		res.served = r.server.firstClosed()
	}
	return res, nil
}

// slowServer is an OpenAI-compatible server on 127.0.0.1 that writes six
// statements, quoting the passages it is given, a few characters at a time.
type slowServer struct {
	url   string
	ln    net.Listener
	piece int
	pause time.Duration

	mu     sync.Mutex
	start  time.Time
	closed time.Duration // when the first statement's object closed
}

func startSlowServer(piece int, pause time.Duration) (*slowServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	s := &slowServer{url: "http://" + ln.Addr().String(), ln: ln, piece: max(piece, 1), pause: pause}
	go http.Serve(ln, s)
	return s, nil
}

func (s *slowServer) close() { s.ln.Close() }

func (s *slowServer) begin(start time.Time) {
	s.mu.Lock()
	s.start, s.closed = start, 0
	s.mu.Unlock()
}

func (s *slowServer) firstClosed() time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// passageHead starts a passage in the prompt the drafter sends: "[N] title".
var passageHead = regexp.MustCompile(`(?m)^\[(\d+)\] .*\n(.*)`)

func (s *slowServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/v1/chat/completions" {
		http.NotFound(w, r)
		return
	}
	var req openai.ChatRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	var prompt strings.Builder
	for _, m := range req.Messages {
		prompt.WriteString(m.Content + "\n")
	}
	// Six statements, each quoting the first words of a passage.
	var objs []string
	heads := passageHead.FindAllStringSubmatch(prompt.String(), -1)
	for i := 0; len(heads) > 0 && i < 6; i++ {
		h := heads[i%len(heads)]
		words := strings.Fields(h[2])
		quote := strings.Join(words[:min(len(words), 6+i%3)], " ")
		b, _ := json.Marshal(map[string]any{"text": fmt.Sprintf("Statement %d, from passage %s, written slowly.", i+1, h[1]), "passage": json.Number(h[1]), "quote": quote})
		objs = append(objs, string(b))
	}
	reply := `{"statements":[` + strings.Join(objs, ",") + "]}"
	firstEnd := len(`{"statements":[`) + len(objs[0])
	w.Header().Set("Content-Type", "text/event-stream")
	send := func(content string, finish *string) error {
		b, _ := json.Marshal(openai.ChatResponse{Object: "chat.completion.chunk", Model: "slow",
			Choices: []openai.Choice{{Delta: &openai.Delta{Content: content}, FinishReason: finish}}})
		_, err := fmt.Fprintf(w, "data: %s\n\n", b)
		w.(http.Flusher).Flush()
		return err
	}
	for i := 0; i < len(reply); i += s.piece {
		end := min(i+s.piece, len(reply))
		if err := send(reply[i:end], nil); err != nil {
			return
		}
		if i < firstEnd && end >= firstEnd {
			s.mu.Lock()
			s.closed = time.Since(s.start)
			s.mu.Unlock()
		}
		time.Sleep(s.pause)
	}
	stop := "stop"
	send("", &stop)
	fmt.Fprint(w, "data: [DONE]\n\n")
}
