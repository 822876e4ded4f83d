package verify

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/sponge-library/sponge/internal/base/settings"
	"github.com/sponge-library/sponge/internal/testsupport"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/testsupport/stagetest"
	"github.com/sponge-library/sponge/jsonl"
)

var update = flag.Bool("update", false, "write the golden files instead of comparing")

// testLibrary builds the fixture library once per test binary.
func testLibrary() string { return stagetest.Library() }

func TestMain(m *testing.M) {
	code := testsupport.Isolated(m).Run()
	stagetest.Cleanup()
	os.Exit(code)
}

func TestGolden(t *testing.T) {
	stagetest.Golden(t, filepath.Join("..", "..", "golden", "verify"), Main, testLibrary(), *update, "want.jsonl", nil)
}

// TestStreams checks that each verified or left-out record is written before
// the next line of input is read: an answer appears as it is checked.
func TestStreams(t *testing.T) {
	in, err := os.ReadFile(filepath.Join("..", "..", "golden", "verify", "answer", "in.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	code := make(chan int, 1)
	go func() {
		code <- Main([]string{"--library", testLibrary()}, inR, outW, io.Discard)
		outW.Close()
	}()
	out := bufio.NewReader(outR)
	for i, line := range strings.SplitAfter(strings.TrimSuffix(string(in), "\n"), "\n") {
		if _, err := io.WriteString(inW, strings.TrimSuffix(line, "\n")+"\n"); err != nil {
			t.Fatal(err)
		}
		got := make(chan string, 1)
		go func() { l, _ := out.ReadString('\n'); got <- l }()
		select {
		case l := <-got:
			if l == "" {
				t.Fatalf("no output for input line %d", i+1)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("input line %d gave no output line before the next input line", i+1)
		}
	}
	inW.Close()
	if rest, _ := io.ReadAll(out); len(rest) != 0 {
		t.Errorf("output after the input ended: %q", rest)
	}
	if c := <-code; c != 0 {
		t.Errorf("exit code %d", c)
	}
}

func TestLibraryFromEnvironment(t *testing.T) {
	t.Setenv("SPONGE_HOME", testLibrary())
	in := `{"v":1,"type":"passage","number":1,"itemId":"` + stagetest.TeaNotes + `","title":"Tea notes","paragraph":0,"text":"x","score":1}
{"v":1,"type":"statement","text":"Cooler.","passage":1,"quote":"so the leaves do not turn bitter"}
`
	// The program resolves the library from the environment its main took.
	fromOS := func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		return MainIn(settings.FromOS(), args, stdin, stdout, stderr)
	}
	r := stagetest.Run(fromOS, nil, []byte(in), "whole")
	if r.Code != 0 || !strings.Contains(r.Stdout, `"type":"verified"`) {
		t.Errorf("with SPONGE_HOME: code %d, stdout %s, stderr %s", r.Code, r.Stdout, r.Stderr)
	}
	t.Setenv("SPONGE_HOME", filepath.Join(t.TempDir(), "none"))
	r = stagetest.Run(fromOS, nil, []byte(in), "whole")
	if r.Code != console.ExitFailure || !strings.Contains(r.Stderr, "sponge-verify: hint: save something first") || strings.Contains(r.Stdout, `"type":"verified"`) {
		t.Errorf("missing library: code %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
	// Run inside another program, with no environment, a stage reads only
	// the library its flags name.
	r = stagetest.Run(Main, nil, []byte(in), "whole")
	if r.Code != console.ExitUsage || r.Stderr != "sponge-verify: error: no library folder was given (--library DIR)\n" {
		t.Errorf("no environment: code %d, stderr %q", r.Code, r.Stderr)
	}
	r = stagetest.Run(fromOS, nil, []byte(in), "whole")
	if r.Code != console.ExitFailure || !strings.Contains(r.Stderr, "sponge-verify: hint: save something first") || strings.Contains(r.Stdout, `"type":"verified"`) {
		t.Errorf("missing library: code %d, stdout %q, stderr %q", r.Code, r.Stdout, r.Stderr)
	}
}

func TestHelp(t *testing.T) {
	r := stagetest.Run(Main, []string{"--help"}, nil, "whole")
	if r.Code != 0 || !strings.Contains(r.Stdout, "--library") || !strings.Contains(r.Stdout, "Exit codes:") {
		t.Errorf("--help: code %d, stdout %q", r.Code, r.Stdout)
	}
}

// TestLongLine checks a stream with a passage of more than 1 MiB.
func TestLongLine(t *testing.T) {
	text := strings.Repeat("Green tea is steeped at a lower temperature. ", 25000)
	p, _ := json.Marshal(map[string]any{"v": 1, "type": "passage", "number": 1, "itemId": stagetest.TeaNotes, "title": "Tea notes", "paragraph": 0, "text": text, "score": 1})
	in := string(p) + "\n" + `{"v":1,"type":"statement","text":"Cooler.","passage":1,"quote":"usually around eighty degrees"}` + "\n"
	r := stagetest.Run(Main, []string{"--library", testLibrary()}, []byte(in), "chunks")
	lines := strings.Split(strings.TrimSuffix(r.Stdout, "\n"), "\n")
	if r.Code != 0 || len(lines) != 2 || lines[0] != string(p) || !strings.Contains(lines[1], `"type":"verified"`) {
		t.Errorf("long line: code %d, %d lines, stderr %q", r.Code, len(lines), r.Stderr)
	}
}

// decodeAll decodes a stage's output, failing the test on a bad record.
func decodeAll(t testing.TB, out string) []jsonl.Record {
	var recs []jsonl.Record
	rd := jsonl.NewReader(bytes.NewReader([]byte(out)), "<stdout>")
	for {
		l, err := rd.Next()
		if err == io.EOF {
			return recs
		}
		if err != nil {
			t.Fatalf("the output is not a valid stream: %v", err)
		}
		recs = append(recs, l.Record)
	}
}

func runWhole(lib string, in []byte) stagetest.Result {
	return stagetest.Run(Main, []string{"--library", lib}, in, "whole")
}

// BenchmarkVerifyAnswer checks the statements of a five-statement answer,
// loading the items from the store as a fresh process would.
func BenchmarkVerifyAnswer(b *testing.B) {
	in, err := os.ReadFile(filepath.Join("..", "..", "golden", "verify", "answer", "in.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	lib := testLibrary()
	for b.Loop() {
		if r := runWhole(lib, in); r.Code != 0 {
			b.Fatal(r.Stderr)
		}
	}
}
