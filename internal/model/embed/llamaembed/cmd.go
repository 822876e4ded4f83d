package llamaembed

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/base/termtext"
	"github.com/sponge-library/sponge/internal/model/embed"
)

// Prog is the helper's name in messages.
const Prog = embed.HelperName

type cmdOptions struct {
	Model       string `long:"model" value-name:"FILE" description:"the embedding model (GGUF)"`
	Serve       bool   `long:"serve" description:"answer embedding requests on stdin and stdout (how sponge uses it)"`
	CheckModel  string `long:"check-model" value-name:"FILE" description:"load FILE and exit 0 if it is an embedding model that runs"`
	Query       bool   `long:"query" description:"embed the TEXTs as search questions (with the model's query prefix)"`
	Threads     int    `long:"threads" value-name:"N" description:"CPU threads (default: one per core)"`
	BatchTokens int    `long:"batch-tokens" value-name:"N" description:"tokens encoded in one step (default 512)"`
}

// Main runs sponge-embed, the program that runs the embedding model for the
// programs built without cgo (sponge itself). With TEXTs it prints one JSON
// line per text: the text and its vector.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	embed.Mark("sponge-embed: main")
	var opts cmdOptions
	rest, done, code := console.Parse(&opts, Prog, "--model FILE [--serve | --query] [TEXT...]",
		"Run an embedding model (a GGUF such as bge-small-en-v1.5) with llama.cpp. sponge runs it\n"+
			"with --serve; given TEXTs it prints each text's unit vector as JSON.", args, stdout, stderr)
	if done {
		return code
	}
	if opts.CheckModel != "" {
		m, err := Load(opts.CheckModel, embed.Options{Threads: opts.Threads, BatchTokens: opts.BatchTokens})
		if err != nil {
			return console.Report(stderr, Prog, err)
		}
		defer m.Close()
		if _, err := m.Embed([]string{"a test sentence"}); err != nil {
			return console.Report(stderr, Prog, fmt.Errorf("%s loads but does not embed: %v", opts.CheckModel, err))
		}
		info := m.Info()
		// The name is the GGUF file's own, and may hold escape sequences.
		fmt.Fprintf(stdout, "%s: %s, %d dimensions, %s pooling\n", termtext.Safe(opts.CheckModel), termtext.Safe(info.Name), info.Dims, termtext.Safe(info.Pooling))
		return console.ExitOK
	}
	if opts.Model == "" {
		return console.Report(stderr, Prog, console.Usage("--model FILE is needed"))
	}
	if opts.Serve && len(rest) > 0 {
		return console.Report(stderr, Prog, console.Usage("--serve reads its texts from stdin, not the command line"))
	}
	m, err := Load(opts.Model, embed.Options{Threads: opts.Threads, BatchTokens: opts.BatchTokens})
	if err != nil {
		return console.Report(stderr, Prog, err)
	}
	if opts.Serve {
		// The model is not freed: the program ends when its input does, and
		// freeing takes CPU (about 5 ms) from the program that ran it.
		return console.Report(stderr, Prog, embed.Serve(m, stdin, stdout))
	}
	defer m.Close()
	conv := embed.ConventionsFor(m.Info().Name)
	prefix := conv.DocumentPrefix
	if opts.Query {
		prefix = conv.QueryPrefix
	}
	texts := make([]string, len(rest))
	for i, t := range rest {
		texts[i] = prefix + t
	}
	vs, err := m.Embed(texts)
	if err != nil {
		return console.Report(stderr, Prog, err)
	}
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	for i, v := range vs {
		if err := enc.Encode(struct {
			Text   string    `json:"text"`
			Vector []float32 `json:"vector"`
		}{rest[i], v}); err != nil {
			return console.Report(stderr, Prog, err)
		}
	}
	return console.ExitOK
}
