package mcp_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// rawServer is `sponge mcp` as a child process spoken to line by line.
type rawServer struct {
	t     *testing.T
	in    io.WriteCloser
	lines chan string
}

func startRaw(t *testing.T) (*rawServer, *exec.Cmd) {
	cmd := exec.Command(filepath.Join(binDir, "sponge"), "mcp", "--library", docsLib)
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &rawServer{t: t, in: in, lines: make(chan string)}
	go func() {
		defer close(s.lines)
		sc := bufio.NewScanner(out)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
		if t.Failed() {
			t.Logf("stderr:\n%s", stderr)
		}
	})
	return s, cmd
}

// send writes one line; reply reads the next line the server writes.
func (s *rawServer) send(line string) {
	s.t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.t.Fatalf("writing %.60q: %v", line, err)
	}
}

type rpcReply struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

func (s *rawServer) reply() rpcReply {
	s.t.Helper()
	select {
	case l, ok := <-s.lines:
		if !ok {
			s.t.Fatal("the server ended")
		}
		var r rpcReply
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			s.t.Fatalf("reply %q: %v", l, err)
		}
		return r
	case <-time.After(30 * time.Second):
		s.t.Fatal("no reply in 30s")
	}
	return rpcReply{}
}

// Issue 19: a malformed line gets a JSON-RPC error and the server stays up;
// a 48 MB line is refused (TestReadLineCap shows it is not held in memory);
// the request after them is answered.
func TestMalformedFrames(t *testing.T) {
	s, cmd := startRaw(t)
	huge := `{"jsonrpc":"2.0","id":99,"method":"ping","params":{"pad":"` + strings.Repeat("x", 48<<20) + `"}}`
	frames := []struct {
		name, line string
		code       int
		id         string
	}{
		{"not JSON", "hello", -32700, "null"},
		{"truncated JSON", `{"jsonrpc":"2.0","id":7,"method":"tools/list"`, -32700, "null"},
		{"batch", `[{"jsonrpc":"2.0","id":8,"method":"ping"}]`, -32600, "null"},
		{"null", "null", -32600, "null"},
		{"number", "42", -32600, "null"},
		{"wrong version", `{"jsonrpc":"1.0","id":9,"method":"ping"}`, -32600, "9"},
		{"object id", `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, -32600, "null"},
		{"method not a string", `{"jsonrpc":"2.0","id":"x","method":3}`, -32600, `"x"`},
		{"48 MB line", huge, -32600, "null"},
		// Issue 42: number ids the SDK would not give back as sent.
		{"id 1e308", `{"jsonrpc":"2.0","id":1e308,"method":"ping"}`, -32600, "1e308"},
		{"id 1.5", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, -32600, "1.5"},
		{"id 2^53+1", `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, -32600, "9007199254740993"},
		{"id -0", `{"jsonrpc":"2.0","id":-0,"method":"ping"}`, -32600, "-0"},
	}
	// Before the session starts, then within it.
	s.send(frames[0].line)
	if r := s.reply(); r.Error == nil || r.Error.Code != -32700 {
		t.Errorf("before initialize: %+v", r)
	}
	s.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"0"}}}`)
	if r := s.reply(); r.Error != nil || string(r.ID) != "1" {
		t.Fatalf("initialize: %+v", r)
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	for _, f := range frames {
		s.send(f.line)
		r := s.reply()
		if r.Error == nil || r.Error.Code != f.code || string(r.ID) != f.id || r.Result != nil {
			t.Errorf("%s: reply id %s, error %+v; want id %s, code %d", f.name, r.ID, r.Error, f.id, f.code)
		} else {
			t.Logf("%-20s -> %d %s", f.name, r.Error.Code, r.Error.Message)
		}
	}
	for _, id := range []string{"9007199254740991", "-9007199254740991", "0"} {
		s.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		if r := s.reply(); r.Error != nil || string(r.ID) != id {
			t.Errorf("ping with id %s: reply id %s, error %+v", id, r.ID, r.Error)
		}
	}
	s.send("") // an empty line is no message, and gets no reply
	s.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search","arguments":{"question":"green tea"}}}`)
	r := s.reply()
	if r.Error != nil || string(r.ID) != "2" || !strings.Contains(string(r.Result), "Brewing tea at home") {
		t.Fatalf("the call after the bad lines: id %s, error %+v, result %.200s", r.ID, r.Error, r.Result)
	}
	s.in.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("sponge mcp ended with %v", err)
	}
}

// Issue 43: a client that writes its requests and then closes stdin gets
// every one answered before the server ends (it was answered only
// initialize: the end of input cancelled the rest).
func TestAnswersAllBeforeEOF(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(filepath.Join(binDir, "sponge"), "mcp", "--library", docsLib)
	cmd.Stdin = strings.NewReader(strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"pipe","version":"0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search","arguments":{"question":"green tea"}}}`,
		`{"jsonrpc":"2.0","id":"four","method":"tools/call","params":{"name":"find_passages","arguments":{"question":"green tea"}}}`,
	}, "\n") + "\n")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("sponge mcp: %v\n%s", err, stderr.String())
	}
	replies := map[string]rpcReply{}
	for _, l := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		var r rpcReply
		if err := json.Unmarshal([]byte(l), &r); err != nil {
			t.Fatalf("reply %.200q: %v", l, err)
		}
		replies[string(r.ID)] = r
	}
	for id, want := range map[string]string{"1": `"serverInfo"`, "2": `"find_passages"`, "3": "Brewing tea at home", `"four"`: `"passages"`} {
		r, ok := replies[id]
		switch {
		case !ok:
			t.Errorf("request %s: no answer (the answers: %.300s)", id, out)
		case r.Error != nil || !strings.Contains(string(r.Result), want):
			t.Errorf("request %s: error %+v, result %.200s; want one with %s", id, r.Error, r.Result, want)
		}
	}
	if len(replies) != 4 {
		t.Errorf("%d answers, want 4:\n%s", len(replies), out)
	}
}
