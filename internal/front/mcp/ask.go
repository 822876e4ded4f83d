package mcp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/pipeline"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/jsonl"
	"github.com/sponge-library/sponge/stages/rank"
	"github.com/sponge-library/sponge/stages/render"
	"github.com/sponge-library/sponge/stages/search"
	"github.com/sponge-library/sponge/stages/verify"
)

// The MCP tools run the stages of sponge ask in this process, joined by
// pipeline.Chain: the same stage values the programs run, with two
// differences. Search uses the index the server keeps open, and sponge-draft
// runs as a child program (pipeline.Process), as sponge ask runs it, so
// that it uses the same writer (a running sponge serve, the model, else the
// extractive drafter) and only it links the model runtime. The index is not
// held while the model writes.

// stream runs the stages for a question and reads what the last one wrote.
func (s *Server) stream(ctx context.Context, stages ...pipeline.Stage) (*render.Stream, error) {
	var out bytes.Buffer
	if err := pipeline.Chain(ctx, strings.NewReader(""), &out, stages...); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("the call was cancelled before the answer was written")
		}
		return nil, err
	}
	return render.Read(jsonl.NewReader(&out, "the stages' output"))
}

// searchStage is sponge-search on the index the server keeps open.
func (s *Server) searchStage(lib *library.Library, q string, limit int) pipeline.Stage {
	return &search.Stage{Library: lib.Dir, Question: q, Limit: limit,
		Find: func(q string, limit int) (*search.Result, error) { return s.find(lib, q, limit) }}
}

// passages runs search and rank: what sponge ask --passages shows.
func (s *Server) passages(ctx context.Context, text string, limitArg *int) (*render.Stream, error) {
	q, limit, err := question(text, limitArg)
	if err != nil {
		return nil, err
	}
	lib, err := s.open()
	if err != nil {
		return nil, err
	}
	return s.stream(ctx, s.searchStage(lib, q, limit), &rank.Stage{Library: lib.Dir})
}

// ask runs the whole pipeline for a question, and answers with the checked
// answer of sponge ask --json.
func (s *Server) ask(ctx context.Context, in *questionArgs) (*reply, error) {
	q, limit, err := question(in.Question, in.Limit)
	if err != nil {
		return nil, err
	}
	lib, err := s.open()
	if err != nil {
		return nil, err
	}
	if s.opts.FindStage == nil {
		return nil, errors.New("this server cannot run sponge-draft, so it has no ask")
	}
	var draft *pipeline.Process
	for _, step := range (pipeline.Ask{Library: lib.Dir, Models: s.opts.Models, Question: q, Limit: limit, Endpoint: s.opts.Endpoint, Model: s.opts.Model, EndpointFrom: s.opts.EndpointFrom}).Steps() {
		if step.Name == "sponge-draft" {
			path, err := s.opts.FindStage(step.Name)
			if err != nil {
				return nil, err
			}
			// Warnings of a drafter that succeeded go to the server's log.
			draft = &pipeline.Process{Path: path, Args: step.Args, Stderr: s.opts.Stderr}
		}
	}
	v := verify.New(lib)
	v.Warn = func(msg string) { console.PrintWarning(s.opts.Stderr, "sponge mcp", msg) }
	answer, err := s.stream(ctx, s.searchStage(lib, q, limit), &rank.Stage{Library: lib.Dir}, draft, v)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := render.WriteJSON(&b, answer); err != nil {
		return nil, err
	}
	return &reply{text: b.String(), structured: jsonRaw(b.Bytes())}, nil
}
