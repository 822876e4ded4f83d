//go:build cgo

package main

// The warm rows: the same draft through sponge serve, the model loaded once.
// The server is the real sponge-draft --serve (what sponge serve runs),
// built from this tree; the client is the --endpoint drafter, which finds it
// is sponge serve and sends the question and passages, asking for drafts of
// the benchmark's fixed length (draft.OpenFixedEndpoint).

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/sponge-library/sponge/jsonl"
	"github.com/sponge-library/sponge/stages/draft"
)

// warmQuestions are asked in turn, one per warm draft: the server keeps
// the prompt it read last, so asking the same question again would skip
// reading the passages, which a new question does not.
var warmQuestions = []string{
	question, // the cold runs' question
	"Which treatments do these studies test, and what effects on patients do they report?",
	"What do these studies say about the genes and proteins that control how cells grow?",
	"How were the people or animals in these studies chosen, and how many were there?",
	"What risks and side effects do these studies find, and how large are they?",
}

// warmResult is what one server did over its drafts.
type warmResult struct {
	Ready  time.Duration // from starting the process to /health answering
	New    warmDrafts    // a new question each time
	Repeat warmDrafts    // the last question again: its prompt is still read
	RSS    int64         // bytes, the server's after its drafts
	Peak   int64         // bytes, the server's peak
}

type warmDrafts struct {
	FirstStatement []time.Duration // from sending the request
	Total          []time.Duration
	CPU            []time.Duration // the server's CPU time
}

// buildDraft builds sponge-draft from this tree into dir, with the cgo flags
// of the environment (make bench-draft exports the Makefile's).
func buildDraft(dir string) (string, error) {
	bin := filepath.Join(dir, "sponge-draft")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/sponge-draft")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build ./cmd/sponge-draft: %v\n%s", err, out)
	}
	return bin, nil
}

// measureWarm starts sponge-draft --serve with model, waits until it
// answers, drafts runs times through it with new questions, then once more
// with the last question again.
func measureWarm(bin, model string, passages []*jsonl.Passage, threads, runs int) (*warmResult, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	lib, err := os.MkdirTemp("", "bench-draft-serve-*") // serve.json goes here, not in the person's library
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(lib)
	start := time.Now()
	cmd := exec.Command(bin, "--serve", "--port", strconv.Itoa(port), "--model-file", model, "--library", lib, "--threads", strconv.Itoa(threads), "--passage-tokens", strconv.Itoa(passageTokens))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		select {
		case <-exited:
			return
		default:
		}
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	}()

	endpoint := "http://127.0.0.1:" + strconv.Itoa(port)
	if err := waitHealth(endpoint, exited, 3*time.Minute); err != nil {
		return nil, fmt.Errorf("sponge-draft --serve: %v\n%s", err, stderr.String())
	}
	r := &warmResult{Ready: time.Since(start)}

	d, err := draft.OpenFixedEndpoint(endpoint, draft.Fixed{Statements: statements, TextTokens: textTokens, QuoteTokens: quoteTokens})
	if err != nil {
		return nil, err
	}
	pid := cmd.Process.Pid
	for i := 0; i <= runs; i++ {
		q, into := warmQuestions[i%len(warmQuestions)], &r.New
		if i == runs {
			q, into = warmQuestions[(i-1)%len(warmQuestions)], &r.Repeat
		}
		c0, err := processCPU(pid)
		if err != nil {
			return nil, err
		}
		t0 := time.Now()
		var first time.Duration
		var quotes []string
		err = d.Draft(context.Background(), q, passages, func(s *jsonl.Statement) error {
			if quotes == nil {
				first = time.Since(t0)
			}
			quotes = append(quotes, s.Quote)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("draft %d through sponge serve: %v\n%s", i+1, err, stderr.String())
		}
		total := time.Since(t0)
		c1, err := processCPU(pid)
		if err != nil {
			return nil, err
		}
		if len(quotes) != statements {
			return nil, fmt.Errorf("draft %d through sponge serve: %d statements, want %d", i+1, len(quotes), statements)
		}
		for _, q := range quotes {
			if !inSomePassage(q, passages) {
				return nil, fmt.Errorf("through sponge serve: quote %q is not in a passage", q)
			}
		}
		into.FirstStatement = append(into.FirstStatement, first)
		into.Total = append(into.Total, total)
		into.CPU = append(into.CPU, c1-c0)
	}
	r.RSS, r.Peak, err = processRSS(pid)
	if err != nil {
		return nil, err
	}
	return r, nil
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// waitHealth polls GET /health until it answers 200, the process exits, or
// the time is up.
func waitHealth(endpoint string, exited <-chan error, limit time.Duration) error {
	c := &http.Client{Timeout: 2 * time.Second}
	deadline := time.Now().Add(limit)
	for {
		resp, err := c.Get(endpoint + "/health")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case err := <-exited:
			if err == nil {
				err = errors.New("exit 0")
			}
			return fmt.Errorf("ended before it answered: %v", err)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("/health did not answer within %s", limit)
		}
	}
}

// processCPU reads the user and system CPU time a process has used.
func processCPU(pid int) (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The command name, in brackets, may hold spaces: count fields after it.
	i := bytes.LastIndexByte(b, ')')
	f := strings.Fields(string(b[i+1:]))
	if i < 0 || len(f) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: %q", pid, b)
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64) // field 14 of the whole line
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: %q", pid, b)
	}
	const tick = 10 * time.Millisecond // USER_HZ is 100 on Linux
	return time.Duration(utime+stime) * tick, nil
}

// processRSS reads the resident and peak resident memory of a process.
func processRSS(pid int) (rss, peak int64, err error) {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || (k != "VmRSS" && k != "VmHWM") {
			continue
		}
		fs := strings.Fields(v) // "123456 kB"
		if len(fs) != 2 || fs[1] != "kB" {
			return 0, 0, fmt.Errorf("/proc/%d/status: %s is %q", pid, k, v)
		}
		n, err := strconv.ParseInt(fs[0], 10, 64)
		if err != nil {
			return 0, 0, err
		}
		if k == "VmRSS" {
			rss = n * 1024
		} else {
			peak = n * 1024
		}
	}
	if rss == 0 || peak == 0 {
		return 0, 0, fmt.Errorf("/proc/%d/status has no VmRSS or VmHWM", pid)
	}
	return rss, peak, sc.Err()
}

// spread is the median of ds and, with more than one, the fastest and
// slowest: "5.3 s (5.1–5.9)".
func spread(ds []time.Duration) string {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	med := s[len(s)/2]
	if len(s)%2 == 0 {
		med = (s[len(s)/2-1] + s[len(s)/2]) / 2
	}
	if len(s) == 1 {
		return fmt.Sprintf("%.1f s", med.Seconds())
	}
	return fmt.Sprintf("%.1f s (%.1f–%.1f)", med.Seconds(), s[0].Seconds(), s[len(s)-1].Seconds())
}
