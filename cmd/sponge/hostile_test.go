package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/model/openai"
)

// pwned sets the window title; the rest clear the screen (CSI as a C1
// control), reorder the line (a bidi override) and ring the bell.
const pwned = "\x1b]0;pwned\x07 \u009b2J \u202egnp\x7f"

// shownPwned is pwned as a person sees it: every character a terminal acts
// on written as a visible escape.
const shownPwned = `\x1b]0;pwned\x07 \u009b2J \u202egnp\x7f`

// rawControl is the first character of s that a terminal would act on, or 0.
func rawControl(s string) rune {
	for _, r := range s {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f || r >= 0x80 && r <= 0x9f ||
			r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
			return r
		}
	}
	return 0
}

// hostileServer is an OpenAI-compatible server on 127.0.0.1 whose model
// names, error bodies and statements hold escape sequences.
type hostileServer struct {
	mode string // "statement", "error", "models"
}

func (s *hostileServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.URL.Path == "/v1/models" && s.mode == "models":
		json.NewEncoder(w).Encode(openai.ModelList{Object: "list", Data: []openai.ModelInfo{{ID: "tiny" + pwned, Object: "model"}}})
		return
	case r.URL.Path != "/v1/chat/completions":
		http.NotFound(w, r)
		return
	case s.mode == "error":
		w.WriteHeader(500)
		b, _ := json.Marshal(map[string]any{"error": map[string]string{"message": "the model " + pwned + " crashed", "type": "server_error"}})
		w.Write(b)
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
	quote := heldStatements[0].quote
	n, err := passageOf(prompt.String(), quote)
	if err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	// The model writes the escapes in its JSON, as \u001b and so on.
	reply, _ := json.Marshal(map[string]any{"statements": []any{map[string]any{"text": "Green tea " + pwned + " is cooler.", "passage": n, "quote": quote}}})
	w.Header().Set("Content-Type", "text/event-stream")
	stop := "stop"
	for _, c := range []openai.Choice{{Delta: &openai.Delta{Content: string(reply)}}, {Delta: &openai.Delta{}, FinishReason: &stop}} {
		b, _ := json.Marshal(openai.ChatResponse{Object: "chat.completion.chunk", Model: "tiny", Choices: []openai.Choice{c}})
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// TestAskHostileEndpoint (issue 14): what a model or a server writes
// reaches the terminal inert through sponge ask and ask.sh, on stdout and
// stderr: a statement's words, a server's error body, the model names it
// lists. --json keeps the statement's words exact.
func TestAskHostileEndpoint(t *testing.T) {
	lib, askSh := askLibrary(t)
	for _, c := range []struct {
		mode      string
		json      bool
		wantCode  int
		wantShown string // on stdout+stderr, as a person sees it
	}{
		{mode: "statement", wantShown: "Green tea " + shownPwned + " is cooler. [1]\n"},
		{mode: "error", wantCode: 1, wantShown: "the model " + shownPwned + " crashed"},
		{mode: "models", wantCode: 1, wantShown: `it has: tiny` + shownPwned},
		{mode: "statement", json: true},
	} {
		for name, driver := range map[string][]string{"sponge ask": {"sponge", "ask"}, "ask.sh": {askSh}} {
			ts := httptest.NewServer(&hostileServer{mode: c.mode})
			args := append(driver[1:], "--library", lib, "--endpoint", ts.URL, "--model", "tiny")
			if c.json {
				args = append(args, "--json")
			}
			cmd := exec.Command(driver[0], append(args, "how hot should the water be for green tea?")...)
			var out, errb bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errb
			err := cmd.Run()
			ts.Close()
			code := 0
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			} else if err != nil {
				t.Fatal(err)
			}
			what := fmt.Sprintf("%s, server %s, json %v", name, c.mode, c.json)
			all := out.String() + errb.String()
			if code != c.wantCode {
				t.Errorf("%s: exit %d, want %d\n%s", what, code, c.wantCode, all)
			}
			if r := rawControl(all); r != 0 {
				t.Errorf("%s: %U reached the terminal raw:\n%q", what, r, all)
			}
			if !strings.Contains(all, c.wantShown) {
				t.Errorf("%s: %q is not shown:\n%s", what, c.wantShown, all)
			}
			if c.json {
				var doc struct {
					Claims []struct{ Text string } `json:"claims"`
				}
				if err := json.Unmarshal(out.Bytes(), &doc); err != nil || len(doc.Claims) != 1 || doc.Claims[0].Text != "Green tea "+pwned+" is cooler." {
					t.Errorf("%s: --json does not keep the words exact: %v %+v", what, err, doc.Claims)
				}
			}
		}
	}
}
