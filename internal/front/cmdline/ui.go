package cmdline

// sponge ui: its code is in sponge-full (package cli), which links net/http
// and the page server (internal/front/ui).
func init() {
	declare[UIOptions]("ui", "read and ask the library in a web browser, on 127.0.0.1",
		"[OPTIONS]", uiAbout)
}

// uiPort is sponge ui's port, sponge serve's and one (openai.DefaultPort+1,
// which sponge-full uses; a test checks they agree).
const uiPort = "7702"

const uiAbout = "Serve the library as web pages on http://127.0.0.1:" + uiPort + " (--port; sponge serve's port\n" +
	"and one), until stopped (Ctrl-C). Ask: a question's statements appear as sponge-verify checks\n" +
	"their quotes, through the same stages as 'sponge ask'; no statement whose quote is not in the\n" +
	"item word for word is shown. Library: the items, newest first, filtered by kind and by words.\n" +
	"Each item's page shows its text with headings and page or time markers, opened at a quote with\n" +
	"its words marked; a transcript plays the audio or video file beside it from the quote's time.\n\n" +
	"It answers only this computer (127.0.0.1, and pages of 127.0.0.1 or localhost). It only reads,\n" +
	"unless --write: then its pages can add a note and remove an item, each request carrying a\n" +
	"token made anew for each run." +
	"\n\nExamples:\n\n" +
	"  sponge ui --open\n" +
	"  sponge ui --port 8080 --write"

type UIOptions struct {
	LibraryOpt
	Port  int  `long:"port" value-name:"PORT" description:"the port to listen on, on 127.0.0.1 (default 7702: sponge serve's and one)"`
	Open  bool `long:"open" description:"open the ask page in the web browser (xdg-open, or open on macOS)"`
	Write bool `long:"write" description:"let the pages add notes and remove items (each request carries this run's token)"`
}
