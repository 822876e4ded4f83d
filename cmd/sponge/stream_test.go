package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sponge-library/sponge/internal/testsupport/home"

	"github.com/sponge-library/sponge/internal/model/openai"
)

// The two statements the held-back server writes, with quotes from one
// paragraph of testdata/docs/tea-brewing.md.
var heldStatements = []struct{ text, quote string }{
	{"Green tea wants cooler water than black tea.", "Green tea is steeped at a lower temperature than black tea"},
	{"It steeps for a minute or two.", "wait one to two minutes"},
}

// heldBackServer is an OpenAI-compatible server on 127.0.0.1 that streams
// the first statement, then holds the second back until shown is closed:
// until the first statement is on the screen of the person asking.
type heldBackServer struct {
	shown chan struct{}
	mu    sync.Mutex
	late  bool // the first statement had not appeared when the guard ran out
}

// guard only keeps a broken pipeline from hanging the test: with a render
// that waits for the whole stream, the first statement never appears while
// the second is held back. It measures nothing.
const guard = 2 * time.Minute

// passageHead starts a passage in the prompt the drafter sends.
var passageHead = regexp.MustCompile(`(?m)^\[(\d+)\] `)

// passageOf is the number of the passage of prompt whose text holds quote.
func passageOf(prompt, quote string) (int, error) {
	i := strings.Index(prompt, quote)
	if i < 0 {
		return 0, fmt.Errorf("no passage holds %q", quote)
	}
	heads := passageHead.FindAllStringSubmatchIndex(prompt[:i], -1)
	if len(heads) == 0 {
		return 0, fmt.Errorf("no passage number before %q", quote)
	}
	h := heads[len(heads)-1]
	var n int
	fmt.Sscan(prompt[h[2]:h[3]], &n)
	return n, nil
}

func (s *heldBackServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
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
	var objs []string
	for _, st := range heldStatements {
		n, err := passageOf(prompt.String(), st.quote)
		if err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		b, _ := json.Marshal(map[string]any{"text": st.text, "passage": n, "quote": st.quote})
		objs = append(objs, string(b))
	}
	w.Header().Set("Content-Type", "text/event-stream")
	send := func(content string, finish *string) {
		b, _ := json.Marshal(openai.ChatResponse{Object: "chat.completion.chunk", Model: "tiny",
			Choices: []openai.Choice{{Delta: &openai.Delta{Content: content}, FinishReason: finish}}})
		fmt.Fprintf(w, "data: %s\n\n", b)
		w.(http.Flusher).Flush()
	}
	send(`{"statements":[`+objs[0], nil)
	select {
	case <-s.shown:
	case <-r.Context().Done():
		return
	case <-time.After(guard):
		s.mu.Lock()
		s.late = true
		s.mu.Unlock()
	}
	send(","+objs[1]+"]}", nil)
	stop := "stop"
	send("", &stop)
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// TestAskStreams: the whole chain streams, through `sponge ask` and ask.sh
// alike. The server holds the second statement back until the first is on
// the driver's stdout: sponge-draft must write the first as soon as its JSON
// object closes, sponge-verify pass it on at once, sponge-render print it
// before the stream ends, and the driver not buffer. Any stage that waits
// for the whole stream leaves the first statement off the screen while the
// second is held back.
func TestAskStreams(t *testing.T) {
	lib, askSh := askLibrary(t)
	for name, driver := range map[string][]string{"sponge ask": {"sponge", "ask"}, "ask.sh": {askSh}} {
		t.Run(name, func(t *testing.T) {
			srv := &heldBackServer{shown: make(chan struct{})}
			ts := httptest.NewServer(srv)
			defer ts.Close()
			args := append(driver[1:], "--library", lib, "--endpoint", ts.URL, "--model", "tiny", "how hot should the water be for green tea?")
			cmd := exec.Command(driver[0], args...)
			pr, pw, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			var stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = pw, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			pw.Close()
			var lines []string
			sc := bufio.NewScanner(pr)
			for sc.Scan() {
				lines = append(lines, sc.Text())
				if strings.HasPrefix(sc.Text(), heldStatements[0].text) && len(lines) == 1 {
					close(srv.shown)
				}
			}
			io.Copy(io.Discard, pr)
			err = cmd.Wait()
			out := strings.Join(lines, "\n")
			if err != nil {
				t.Fatalf("%s: %v\n%s\n%s", name, err, out, stderr.String())
			}
			srv.mu.Lock()
			late := srv.late
			srv.mu.Unlock()
			if late {
				t.Fatalf("%s: the first statement was not on the screen while the second was held back:\n%s", name, out)
			}
			want := heldStatements[0].text + " [1]\n" + heldStatements[1].text + " [1]\n\n[1] Brewing tea at home"
			if !strings.HasPrefix(out, want) {
				t.Errorf("%s printed:\n%s\nwant it to start with:\n%s", name, out, want)
			}
		})
	}
}

// askLibrary makes a library of testdata/docs/tea-brewing.md, with its own
// empty settings, and a copy of ask.sh; it returns both.
func askLibrary(t *testing.T) (lib, askSh string) {
	t.Helper()
	work := home.Dir(t)
	lib = filepath.Join(work, "lib")
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(work, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(work, "data"))
	t.Setenv("NO_COLOR", "1")
	root := filepath.Join("..", "..")
	if out, err := exec.Command("sponge", "add", "--library", lib, filepath.Join(root, "testdata", "docs", "tea-brewing.md")).CombinedOutput(); err != nil {
		t.Fatalf("sponge add: %v\n%s", err, out)
	}
	sh, err := os.ReadFile(filepath.Join(root, "ask.sh"))
	if err != nil {
		t.Fatal(err)
	}
	askSh = filepath.Join(work, "ask.sh")
	if err := os.WriteFile(askSh, sh, 0o755); err != nil {
		t.Fatal(err)
	}
	return lib, askSh
}
