package cmdline

import (
	"time"
)

// The commands that write summaries, install or serve models, or serve
// coding agents: their code is in sponge-full (package cli), which links
// the downloads and the MCP server.
func init() {
	declare[SummarizeOptions]("summarize", "write a summary of items, every quote checked",
		"[OPTIONS] ID ... | --all", summarizeAbout)
	declare[SetupOptions]("setup", "show the installed models, or install one (--digest, --embedding, --from)",
		"[OPTIONS]", setupAbout)
	declare[ServeOptions]("serve", "keep the writing model loaded and serve it on 127.0.0.1 (OpenAI-compatible)",
		"[OPTIONS]", serveAbout)
	declare[MCPOptions]("mcp", "serve the library to coding agents (Model Context Protocol over stdio)",
		"[OPTIONS]", mcpAbout)
}

const summarizeAbout = "Write a summary of each item: a few short statements on what it says, each with the\n" +
	"exact words of the item that support it, checked word for word, taken from all of the item\n" +
	"(its pages, sections or times). The summary is saved with the item; 'sponge show' prints it\n" +
	"first and 'sponge list --long' its first statement. The stages are those of ask:\n" +
	"sponge-rank --item ID | sponge-draft | sponge-verify (see ask.sh). Without a model the\n" +
	"statements are the item's most central sentences, quoted.\n\n" +
	"--all summarizes every item that has no summary yet, or one written by another model, so\n" +
	"a stopped run (Ctrl-C) goes on where it stopped, and a new model does not mix with the old." +
	"\n\nExamples:\n\n" +
	"  sponge summarize 0a57\n" +
	"  sponge summarize --all\n" +
	"  sponge summarize --all --extractive"

type SummarizeOptions struct {
	LibraryOpt
	All        bool          `long:"all" description:"every item with no summary yet, or with one written by another model"`
	Extractive bool          `long:"extractive" description:"quote the item's most central sentences, without a model"`
	Endpoint   string        `long:"endpoint" value-name:"URL" description:"an OpenAI-compatible server to write the statements (default $SPONGE_ENDPOINT, else the config file's endpoint)"`
	Model      string        `long:"model" value-name:"NAME" description:"the model name to ask the --endpoint for (default $SPONGE_MODEL, else the config file's model)"`
	Timeout    time.Duration `long:"timeout" default:"5m" value-name:"DURATION" description:"how long to wait for the statements of a server, for each item"`
	Quiet      bool          `short:"q" long:"quiet" description:"print only errors"`
}

const setupAbout = "Without options, show which models are installed and how to install the others.\n" +
	"Models are installed once for every library, in the shared models folder (shown here);\n" +
	"a model a library has in its own models/ folder (from an older sponge) is moved there.\n" +
	"--digest downloads the default writing model (resuming an\n" +
	"interrupted download, checking its SHA-256); --from installs any GGUF model instead.\n" +
	"A model replaces the installed one only once it is checked, so a failure keeps the old one." +
	"\n\nExamples:\n\n" +
	"  sponge setup\n" +
	"  sponge setup --digest\n" +
	"  sponge setup --from ~/models/qwen2.5-0.5b-instruct-q8_0.gguf"

type SetupOptions struct {
	LibraryOpt
	Digest bool   `long:"digest" description:"download and install the default writing model"`
	From   string `long:"from" value-name:"FILE|URL" description:"install this GGUF file as the writing model, after checking it loads"`
	Force  bool   `long:"force" description:"with --digest: download again even if the model is installed"`
	// Meaning search (issue 7): see embedding.go.
	Embedding bool `long:"embedding" description:"install the default embedding model (or the one given by --from) and embed every paragraph, for meaning search; run again to resume"`
}

// The port and file of sponge serve (openai.DefaultPort, openai.ServeFile;
// a test checks they agree): the sponge front does not link package openai,
// whose net/http would cost every question its package initialisation. The
// help is a constant, not made by fmt in the package's initialisation.
const (
	servePort = "7701"
	serveFile = "serve.json"
)

const serveAbout = "Load the writing model once and serve it until stopped (Ctrl-C), so each\n" +
	"'sponge ask' skips loading it. Listens on http://127.0.0.1:" + servePort + " (--port) with an\n" +
	"OpenAI-compatible API: POST /v1/chat/completions (streamed or not), GET /v1/models,\n" +
	"GET /health. While it runs, <library>/" + serveFile + " names it, and sponge ask and\n" +
	"sponge-draft use it by themselves; other tools can use it as an --endpoint." +
	"\n\nExamples:\n\n" +
	"  sponge serve\n" +
	"  sponge serve --port 7702"

type ServeOptions struct {
	LibraryOpt
	Port      int    `long:"port" value-name:"PORT" description:"the port to listen on, on 127.0.0.1 (default 7701)"`
	ModelFile string `long:"model-file" value-name:"PATH" description:"a GGUF model to serve (default the installed writing model, see sponge setup)"`
	Threads   int    `long:"threads" value-name:"N" description:"CPU threads for the model (default one per core)"`
	// sponge-draft's --passage-tokens, passed on.
	PassageTokens int `long:"passage-tokens" default:"320" value-name:"N" description:"the most passage text the model reads for an answer, in tokens: passages are cut to their sentences with the question's words, marked …, so that a CPU model starts writing in seconds (320: read in about 2 s on two cores by Qwen2.5 0.5B); 0: as much as the model's context holds"`
}

const mcpAbout = "Serve the library to a coding agent over the Model Context Protocol, on stdin and stdout. " +
	"An MCP client (Claude Code, Claude Desktop, VS Code, Cursor, ...) starts it. Its tools only read:\n\n" +
	"  find_passages  the passages of 'sponge ask --passages --json'\n" +
	"  search         items with id, title, source, score and a snippet\n" +
	"  show           an item's text, with headings and page or time markers\n" +
	"  ask            the checked answer of 'sponge ask --json'\n\n" +
	"Register it with a client as the command \"sponge\" with the arguments [\"mcp\"], " +
	"adding \"--library\", \"DIR\" for a library other than the default." +
	"\n\nExamples:\n\n" +
	"  claude mcp add sponge -- sponge mcp\n" +
	"  claude mcp add sponge -- sponge mcp --library ~/work-library"

type MCPOptions struct {
	LibraryOpt
}
