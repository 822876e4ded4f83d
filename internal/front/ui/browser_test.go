package ui

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/go-pdf/fpdf"

	"github.com/sponge-library/sponge/internal/library/ingest"
)

// The browser tests: the pages in Debian's chromium, driven with chromedp
// (headless, a profile of each test's own in a temporary folder, the
// server on 127.0.0.1). Each test saves screenshots in a temporary folder,
// kept and named in the log when the test fails; -screenshots DIR writes
// the README's two (ask.png, pdf-page.png) into DIR (make screenshots).
// Without chromium the tests skip, saying so; with CI set they fail.

var screenshotsTo = flag.String("screenshots", "", "write the README's screenshots (ask.png, pdf-page.png) into this folder")

// chromiumPath is Debian's chromium, or another Chromium or Chrome on PATH.
func chromiumPath(t testing.TB) string {
	t.Helper()
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	msg := "no chromium on PATH: the browser tests need it (make deps installs Debian's chromium)"
	if os.Getenv("CI") != "" {
		t.Fatal(msg + " (CI is set, so the browser tests must run)")
	}
	t.Skip(msg)
	return ""
}

// browser is a headless chromium of the test's own, with a blank tab; its
// context ends after timeout.
type browser struct {
	ctx   context.Context
	t     testing.TB
	shots string // the folder of this test's screenshots

	mu      sync.Mutex
	dialogs []string // the messages of the dialogs a page opened (alert)
	console []string // what pages logged as errors (a CSP refusal, an exception)
}

func newBrowser(t testing.TB) *browser {
	t.Helper()
	exe := chromiumPath(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1100, 900),
		chromedp.DisableGPU,
		// The pages are the tests' own, on 127.0.0.1; a CI container that
		// runs the tests as a user without user namespaces has no sandbox
		// to give (as root chromedp leaves it out anyway).
		chromedp.NoSandbox,
		chromedp.Flag("no-proxy-server", true),
		// Tests never leave 127.0.0.1: no name resolves but the server's
		// address, and the browser's own fetches (components, reports,
		// pings) are off.
		chromedp.Flag("host-resolver-rules", "MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-domain-reliability", true),
		chromedp.Flag("no-pings", true),
		chromedp.Flag("lang", "en-US"),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelTab := chromedp.NewContext(actx)
	shots, err := os.MkdirTemp("", "sponge-ui-screenshots-")
	if err != nil {
		t.Fatal(err)
	}
	b := &browser{t: t, shots: shots}
	t.Cleanup(func() {
		cancelTab()
		cancelAlloc()
		if t.Failed() {
			t.Logf("screenshots kept in %s", shots)
		} else {
			os.RemoveAll(shots)
		}
	})
	// The browser starts with no timeout (a timeout on the first run would
	// stop it); each action after has one of its own.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", exe, err)
	}
	b.ctx = ctx
	dialogs := chromedp.Events(ctx, page.JavascriptDialogOpening)
	go func() {
		for ev, err := range dialogs {
			if err != nil {
				return
			}
			b.mu.Lock()
			b.dialogs = append(b.dialogs, ev.Message)
			b.mu.Unlock()
			chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
		}
	}()
	messages := chromedp.Console(ctx)
	go func() {
		for m, err := range messages {
			if err != nil {
				return
			}
			if m.Type == chromedp.ConsoleError || m.IsException() {
				b.mu.Lock()
				b.console = append(b.console, m.URL+": "+m.String())
				b.mu.Unlock()
			}
		}
	}()
	return b
}

// actionTimeout bounds each step of a test: a page that never shows what
// is waited for fails the test rather than hanging it.
const actionTimeout = 30 * time.Second

// do runs actions, failing the test with what was being done.
func (b *browser) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		b.shot("failed")
		b.t.Fatalf("%s: %v", what, err)
	}
}

// browserValue runs one action and returns its value.
func browserValue[T any](b *browser, what string, action chromedp.Action[T]) T {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, action)
	if err != nil {
		b.shot("failed")
		b.t.Fatalf("%s: %v", what, err)
	}
	return v
}

// browserJS is the value of a script expression.
func browserJS[T any](b *browser, expr string) T {
	b.t.Helper()
	return browserValue(b, "evaluating "+expr, chromedp.Evaluate[T](expr))
}

// shot saves a screenshot of the viewport as name.png in the test's
// folder, and in -screenshots when readme; it checks it is a PNG.
func (b *browser) shot(name string, readme ...bool) {
	b.t.Helper()
	ctx, cancel := context.WithTimeout(b.ctx, actionTimeout)
	defer cancel()
	buf, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		b.t.Errorf("screenshot %s: %v", name, err)
		return
	}
	if _, err := png.Decode(bytes.NewReader(buf)); err != nil {
		b.t.Errorf("screenshot %s is no PNG: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(b.shots, name+".png"), buf, 0o644); err != nil {
		b.t.Error(err)
	}
	if len(readme) > 0 && readme[0] && *screenshotsTo != "" {
		if err := os.WriteFile(filepath.Join(*screenshotsTo, name+".png"), buf, 0o644); err != nil {
			b.t.Error(err)
		}
	}
}

// clean fails the test if a page opened a dialog or logged an error (a
// script's exception, a refusal of the Content-Security-Policy).
func (b *browser) clean() {
	b.t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.dialogs) > 0 {
		b.t.Errorf("a page opened dialogs: %q", b.dialogs)
	}
	if len(b.console) > 0 {
		b.t.Errorf("pages logged errors:\n%s", strings.Join(b.console, "\n"))
	}
}

// pdfLine is a line of text on a page of a test PDF, at y points from the top.
type pdfLine struct {
	y    float64
	size float64
	text string
}

// lighthousePDF is a PDF of three pages, laid out as a word processor
// would: a title, a paragraph on each page, the one on page 2 with a word
// hyphenated at a line's end.
func lighthousePDF(t testing.TB) []byte {
	t.Helper()
	pages := [][]pdfLine{
		{
			{80, 22, "The Keeper's Handbook"},
			{130, 11, "A lighthouse stands where the coast is most dangerous to ships, and its light"},
			{145, 11, "is kept burning from sunset to sunrise by the keeper and an assistant."},
		},
		{
			{80, 16, "Fog"},
			{110, 11, "In thick weather the keeper sounds the fog signal every thirty seconds and"},
			{125, 11, "writes the hours of fog in the station log, with the direction of the wind and"},
			{140, 11, "the state of the sea. The fog signal is tested each Sunday at noon, whatever"},
			{155, 11, "the weather, so that a fault is found before it is needed by the pass-"},
			{170, 11, "ing ships."},
		},
		{
			{80, 16, "Supplies"},
			{110, 11, "Paraffin for the lamp arrives by boat once a month, with the keeper's food."},
		},
	}
	f := fpdf.New("P", "pt", "A4", "")
	f.SetAutoPageBreak(false, 0)
	for i, lines := range pages {
		f.AddPage()
		for _, l := range lines {
			f.SetFont("Helvetica", "", l.size)
			f.Text(72, l.y, l.text)
		}
		f.SetFont("Helvetica", "", 9)
		f.Text(297, 800, fmt.Sprint(i+1))
	}
	f.SetTitle("The Keeper's Handbook", true)
	var buf bytes.Buffer
	if err := f.Output(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// addFiles saves files (name: bytes) into the library at dir as sponge
// add does (the real readers), each with the title given, or its own
// when "". It returns the ids, by name.
func addFiles(t testing.TB, dir string, files map[string][]byte, titles map[string]string) map[string]string {
	t.Helper()
	src := t.TempDir()
	w, err := ingest.OpenWriter(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for name, data := range files {
		p := filepath.Join(src, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		err := ingest.Add(context.Background(), w, []ingest.Input{{Name: p, Path: p}}, ingest.AddOptions{Title: titles[name]}, func(a ingest.Added) {
			if a.Err != nil {
				t.Errorf("adding %s: %v", name, a.Err)
				return
			}
			ids[name] = a.ID
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return ids
}

// pdfTiming is what the PDF page's performance marks say, in milliseconds
// from the navigation's start.
type pdfTiming struct {
	Script float64 `json:"script"`
	Loaded float64 `json:"loaded"`
	Drawn  float64 `json:"drawn"`
	Task   float64 `json:"-"` // the page's main thread's CPU time, ms (BenchmarkBrowserPDFPage)
}

const pdfTimingJS = `(() => {
	const at = (n) => { const m = performance.getEntriesByName(n); return m.length ? m[0].startTime : -1; };
	return { script: at("pdf-page-script"), loaded: at("pdf-page-loaded"), drawn: at("pdf-page-drawn") };
})()`

// TestBrowserPDFPage: page 2 of a PDF drawn on a canvas, its text layer
// over it with the quote marked across the spans of three lines and a
// hyphen, the mark where the words are drawn; the page's links and keys
// go to pages 1 and 3, and past the last page there is no next.
func TestBrowserPDFPage(t *testing.T) {
	b := newBrowser(t)
	dir := filepath.Join(t.TempDir(), "library")
	ids := addFiles(t, dir, map[string][]byte{"keeper.pdf": lighthousePDF(t)}, nil)
	id := ids["keeper.pdf"]
	_, ts := newServer(t, Options{Library: dir})

	quote := "The fog signal is tested each Sunday at noon, whatever the weather, so that a fault is found before it is needed by the passing ships."
	b.do("opening page 2", chromedp.Navigate(ts.URL+PageLink(id, 2, quote)),
		chromedp.WaitVisible(chromedp.CSS(`#pdf-page[data-state="drawn"]`)))
	type pageState struct {
		Status    string   `json:"status"`
		Marks     []string `json:"marks"`
		Count     string   `json:"count"`
		CanvasW   int      `json:"canvasW"`
		InView    bool     `json:"inView"`
		Inked     bool     `json:"inked"`
		OnCanvas  bool     `json:"onCanvas"`
		LayerText string   `json:"layerText"`
	}
	state := browserJS[pageState](b, `(() => {
		const marks = [...document.querySelectorAll("#pdf-page .textLayer .highlight")];
		const canvas = document.querySelector("#pdf-page canvas");
		const c = canvas.getBoundingClientRect();
		const r = marks.length ? marks[0].getBoundingClientRect() : null;
		// Some dark pixels under the first mark: the words are drawn where they are marked.
		let inked = false;
		if (r && r.width > 0) {
			const ctx = canvas.getContext("2d");
			const sx = canvas.width / c.width, sy = canvas.height / c.height;
			const px = ctx.getImageData((r.left - c.left) * sx, (r.top - c.top) * sy, Math.max(1, r.width * sx), Math.max(1, r.height * sy)).data;
			for (let i = 0; i < px.length; i += 4) if (px[i] < 100 && px[i+3] > 0) { inked = true; break; }
		}
		return {
			status: document.getElementById("pdf-status").textContent,
			marks: marks.map((m) => m.textContent),
			count: document.getElementById("pdf-count").textContent,
			canvasW: canvas.width,
			inView: !!r && r.top >= 0 && r.bottom <= innerHeight,
			inked,
			onCanvas: !!r && r.left >= c.left && r.right <= c.right + 1 && r.top >= c.top && r.bottom <= c.bottom,
			layerText: document.querySelector("#pdf-page .textLayer").textContent,
		};
	})()`)
	if got := strings.Join(state.Marks, ""); !strings.Contains(got, "The fog signal is tested") || !strings.Contains(got, "pass-") || !strings.HasSuffix(got, "ships.") {
		t.Errorf("marked %q; want the quote, across its lines and the hyphen (status %q; text layer %q)", state.Marks, state.Status, state.LayerText)
	}
	if len(state.Marks) < 3 {
		t.Errorf("%d marks, want one per line the quote is on (3 or more)", len(state.Marks))
	}
	if state.Status != "The quote is marked on page 2." || state.Count != "3" || state.CanvasW < 400 {
		t.Errorf("status %q, %s pages, canvas %d px wide", state.Status, state.Count, state.CanvasW)
	}
	if !state.InView || !state.OnCanvas || !state.Inked {
		t.Errorf("the first mark: in view %v, on the canvas %v, over drawn words %v", state.InView, state.OnCanvas, state.Inked)
	}
	timing := browserJS[pdfTiming](b, pdfTimingJS)
	t.Logf("page 2 of a 3-page PDF, ms from the navigation's start: PDF.js loaded %.0f, the PDF opened %.0f, drawn with the quote marked %.0f", timing.Script, timing.Loaded, timing.Drawn)
	b.shot("pdf-hyphen")

	// The keys: right to page 3, which has no next; left back to 2, 1.
	b.do("pressing the right arrow", chromedp.KeyEvent(kb.ArrowRight),
		chromedp.WaitVisible(chromedp.CSS(`#pdf-page[data-page="3"][data-state="drawn"]`)))
	if browserJS[bool](b, `!!document.querySelector('a[rel="next"]')`) {
		t.Error("page 3 of 3 links a next page")
	}
	timing = browserJS[pdfTiming](b, pdfTimingJS)
	t.Logf("page 3, the next: PDF.js loaded %.0f, the PDF opened %.0f, drawn %.0f", timing.Script, timing.Loaded, timing.Drawn)
	b.do("clicking the previous page", chromedp.Click(chromedp.CSS(`a[rel="prev"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#pdf-page[data-page="2"][data-state="drawn"]`)),
		chromedp.KeyEvent(kb.ArrowLeft),
		chromedp.WaitVisible(chromedp.CSS(`#pdf-page[data-page="1"][data-state="drawn"]`)))
	prev := browserJS[bool](b, `!!document.querySelector('a[rel="prev"]')`)
	status := browserJS[string](b, `document.getElementById("pdf-status").textContent`)
	if prev || status != "The quote is not in the text of page 1." {
		t.Errorf("page 1: a previous link %v, status %q", prev, status)
	}

	// A quote that runs from page 2 onto page 3: page 3 marks its end.
	b.do("opening page 3 at a quote from page 2", chromedp.Navigate(ts.URL+PageLink(id, 3, "needed by the passing ships. Paraffin for the lamp arrives by boat once a month")),
		chromedp.WaitVisible(chromedp.CSS(`#pdf-page[data-state="drawn"]`)))
	marked := browserJS[string](b, `[...document.querySelectorAll("#pdf-page .highlight")].map((m) => m.textContent).join("")`)
	status = browserJS[string](b, `document.getElementById("pdf-status").textContent`)
	if marked != "Paraffin for the lamp arrives by boat once a month" || status != "Part of the quote is marked on page 3: it runs over a page break." {
		t.Errorf("page 3 at a quote from page 2: marked %q, status %q", marked, status)
	}
	// Past the last page: said, and no next.
	b.do("opening page 9 of 3", chromedp.Navigate(ts.URL+PageLink(id, 9, "")),
		chromedp.WaitVisible(chromedp.CSS(`#pdf-page[data-state="failed"]`)))
	status = browserJS[string](b, `document.getElementById("pdf-status").textContent`)
	if status != "This page cannot be drawn: it has 3 pages." || browserJS[bool](b, `!!document.querySelector('a[rel="next"]')`) {
		t.Errorf("page 9 of 3: status %q, or a next link", status)
	}
	b.clean()
}

// docsLibrary is a library of the project's sample documents
// (testdata/docs: notes, a PDF of three pages, a web page, transcripts),
// saved as sponge add saves them, and the ids by file name.
func docsLibrary(t *testing.T) (string, map[string]string) {
	t.Helper()
	const docs = "../../../testdata/docs"
	entries, err := os.ReadDir(docs)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(docs, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = data
	}
	// In a home folder of a person's name, where sponge keeps a library
	// when none is named: the pages (and the README's screenshots) show
	// ~/.local/share/sponge, not a test's temporary folder.
	dir := filepath.Join(t.TempDir(), "home", "ana", ".local", "share", "sponge")
	return dir, addFiles(t, dir, files, nil)
}

// serve serves the library at dir, with sponge-draft for statements; a
// library in a home folder (docsLibrary's) is shown under it, as ~/….
func serve(t *testing.T, dir string) string {
	t.Helper()
	home := ""
	if before, _, ok := strings.Cut(dir, filepath.Join("home", "ana")); ok {
		home = filepath.Join(before, "home", "ana")
	}
	_, ts := newServer(t, Options{Library: dir, FindStage: findDraft(t), Home: home})
	return ts.URL
}

// answered waits for the answer on the ask page to end.
var answered = chromedp.WaitVisible(chromedp.CSS(`#answer[aria-busy="false"] .end`))

// until waits until the script expression is true.
func until(expr string) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := chromedp.Poll[bool](expr, chromedp.WithPollingTimeout(10*time.Second))(ctx, t)
		return chromedp.Void{}, err
	}
}

// markInView is true once the item page's mark is on the screen.
const markInView = `(() => {
	const m = document.querySelector("mark#quote");
	if (!m) return false;
	const r = m.getBoundingClientRect();
	return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight;
})()`

// quoteText is a quote as the page shows it, without its quotation marks.
func quoteText(s string) string {
	return strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(s), "“"), "”")
}

// TestBrowserAsk: a question typed on the ask page, a statement appears;
// its quote opens the item page scrolled to the quote, its words marked.
func TestBrowserAsk(t *testing.T) {
	b := newBrowser(t)
	dir, ids := docsLibrary(t)
	url := serve(t, dir)

	b.do("asking", chromedp.Navigate(url+"/"),
		chromedp.SendKeys(chromedp.ID("q"), "How hot should the water be for green tea?"),
		chromedp.Click(chromedp.CSS(`form.ask button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#statements .statement blockquote a`)),
		answered)
	b.shot("ask", true)
	type link struct {
		Href  string `json:"href"`
		Quote string `json:"quote"`
		Item  string `json:"item"`
	}
	first := browserJS[link](b, `(() => {
		const a = document.querySelector("#statements .statement blockquote a");
		return { href: a.getAttribute("href"), quote: a.textContent, item: a.closest(".statement").dataset.item };
	})()`)
	if first.Item != ids["tea-brewing.md"] {
		t.Errorf("the first statement is from %s, want the tea notes (%s)", first.Item, ids["tea-brewing.md"])
	}
	b.do("opening the first quote", chromedp.Click(chromedp.CSS(`#statements .statement blockquote a`)),
		chromedp.WaitVisible(chromedp.CSS(`mark#quote`)),
		until(markInView))
	path := browserValue(b, "reading the address", chromedp.Location())
	mark := browserJS[string](b, `document.querySelector("mark#quote").textContent`)
	if !strings.Contains(path, "/item/"+first.Item) || mark != quoteText(first.Quote) {
		t.Errorf("the quote %q opened %s, marked %q", quoteText(first.Quote), path, mark)
	}
	b.shot("item-quote")
	b.clean()
}

// TestBrowserKeyboard: the ask page by keyboard alone: it opens in the
// question box, Tab reaches its submit, Enter asks; on the answer's page
// Tab reaches the question box, the submit, then the first quote, and
// Enter opens it.
func TestBrowserKeyboard(t *testing.T) {
	b := newBrowser(t)
	dir, _ := docsLibrary(t)
	url := serve(t, dir)

	// focused names the element that has the focus.
	const focused = `(() => {
		const e = document.activeElement;
		if (!e || e === document.body) return "body";
		if (e.id) return "#" + e.id;
		if (e.closest(".statement blockquote")) return "quote:" + e.textContent;
		return e.tagName.toLowerCase() + (e.type ? "[" + e.type + "]" : "") + ":" + e.textContent.trim();
	})()`
	// tabTo presses Tab until want(focused) holds, at most max times, and
	// returns what had the focus on the way.
	tabTo := func(want func(string) bool, max int) []string {
		var seen []string
		for range max {
			b.do("pressing Tab", chromedp.KeyEvent(kb.Tab))
			f := browserJS[string](b, focused)
			seen = append(seen, f)
			if want(f) {
				return seen
			}
		}
		t.Fatalf("%d presses of Tab never reached it: %q", max, seen)
		return nil
	}

	// The page opens with the focus in the question box (autofocus).
	b.do("opening the ask page", chromedp.Navigate(url+"/"), chromedp.WaitVisible(chromedp.ID("q")))
	seen := []string{browserJS[string](b, focused)}
	if seen[0] != "#q" {
		t.Errorf("the ask page opens with the focus on %s, not the question box", seen[0])
	}
	b.do("typing the question", chromedp.KeyEvent("How hot should the water be for green tea?"))
	seen = append(seen, tabTo(func(f string) bool { return strings.HasPrefix(f, "button[submit]") }, 1)...)
	t.Logf("Tab on the ask page: %q", seen)
	b.do("pressing Enter on Ask", chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(chromedp.CSS(`#statements .statement blockquote a`)), answered)
	if q := browserJS[string](b, `new URLSearchParams(location.search).get("q")`); q != "How hot should the water be for green tea?" {
		t.Fatalf("Enter asked %q", q)
	}
	// The answer's page has no autofocus: Tab starts at its top.
	seen = tabTo(func(f string) bool { return strings.HasPrefix(f, "quote:") }, 15)
	t.Logf("Tab on the answer: %q", seen)
	at := func(f string) int {
		for i, s := range seen {
			if s == f || strings.HasPrefix(s, f) {
				return i
			}
		}
		return -1
	}
	if q, ask := at("#q"), at("button[submit]"); q < 0 || ask < q {
		t.Errorf("Tab on the answer's page: the question box at %d, Ask at %d, the first quote at %d: %q", q, ask, len(seen)-1, seen)
	}
	first := quoteText(strings.TrimPrefix(seen[len(seen)-1], "quote:"))
	b.do("pressing Enter on the first quote", chromedp.KeyEvent(kb.Enter),
		chromedp.WaitVisible(chromedp.CSS(`mark#quote`)),
		until(markInView))
	if mark := browserJS[string](b, `document.querySelector("mark#quote").textContent`); mark != first {
		t.Errorf("Enter on the quote %q marked %q", first, mark)
	}
	b.shot("keyboard")
	b.clean()
}

// hostileTitle is a title that runs script if it is not escaped.
const hostileTitle = `<img src=x onerror=alert(1)>`

// TestBrowserHostileTitle: an item titled with HTML that would run script
// shows the title as text on every page that names it (the library, the
// item, the PDF page, an answer's source), and no script runs: no
// dialog, no image made of it.
func TestBrowserHostileTitle(t *testing.T) {
	b := newBrowser(t)
	dir := filepath.Join(t.TempDir(), "library")
	ids := addFiles(t, dir, map[string][]byte{"keeper.pdf": lighthousePDF(t)}, map[string]string{"keeper.pdf": hostileTitle})
	id := ids["keeper.pdf"]
	url := serve(t, dir)

	pages := map[string]string{
		"library":  url + "/library",
		"item":     url + "/item/" + id,
		"PDF page": url + PageLink(id, 2, ""),
		"answer":   url + "/?q=" + "How+often+is+the+fog+signal+tested%3F",
	}
	for _, name := range []string{"library", "item", "PDF page", "answer"} {
		steps := []chromedp.Action[chromedp.Void]{chromedp.Navigate(pages[name])}
		switch name {
		case "PDF page":
			steps = append(steps, chromedp.WaitVisible(chromedp.CSS(`#pdf-page[data-state="drawn"]`)))
		case "answer":
			steps = append(steps, chromedp.WaitVisible(chromedp.CSS(`#statements .statement cite`)), answered)
		}
		b.do("opening the "+name, steps...)
		type view struct {
			Text   bool `json:"text"`
			Images int  `json:"images"`
			Title  bool `json:"title"`
		}
		v := browserJS[view](b, `({
			text: document.body.innerText.includes(`+"`"+hostileTitle+"`"+`),
			images: document.images.length,
			title: document.title.includes(`+"`"+hostileTitle+"`"+`),
		})`)
		if !v.Text || v.Images != 0 {
			t.Errorf("the %s: the title shown as text %v, %d images", name, v.Text, v.Images)
		}
		if name != "answer" && name != "library" && !v.Title {
			t.Errorf("the %s: the page's title does not name the item as text", name)
		}
		b.shot("hostile-" + strings.ReplaceAll(name, " ", "-"))
	}
	b.clean()
}

// TestBrowserPDFQuote: a statement quoting a PDF links its page; the
// page is drawn with the quote marked on it, on the screen.
func TestBrowserPDFQuote(t *testing.T) {
	b := newBrowser(t)
	dir, ids := docsLibrary(t)
	url := serve(t, dir)
	pdf := ids["composting-guide.pdf"]

	b.do("asking", chromedp.Navigate(url+"/?q="+"How+long+until+a+hot+heap+reaches+fifty-five+degrees%3F"),
		chromedp.WaitVisible(chromedp.CSS(`#statements .statement`)), answered)
	b.shot("ask-pdf")
	type statement struct {
		Quote string `json:"quote"`
		Where string `json:"where"`
		Href  string `json:"href"`
	}
	st := browserJS[statement](b, `(() => {
		const s = document.querySelector(`+"`"+`#statements .statement[data-item="`+pdf+`"]`+"`"+`);
		if (!s) return { quote: "", where: "", href: "" };
		const a = s.querySelector("a.where");
		return { quote: s.querySelector("blockquote").textContent, where: a ? a.textContent : "", href: a ? a.getAttribute("href") : "" };
	})()`)
	if st.Href == "" {
		t.Fatalf("no statement quotes the compost guide with a link to its page: %+v", st)
	}
	b.do("opening the quote's page", chromedp.Click(chromedp.CSS(`#statements .statement[data-item="`+pdf+`"] a.where`)),
		chromedp.WaitVisible(chromedp.CSS(`#pdf-page[data-state="drawn"]`)))
	type drawn struct {
		Page   string `json:"page"`
		Marked string `json:"marked"`
		Status string `json:"status"`
		InView bool   `json:"inView"`
	}
	d := browserJS[drawn](b, `(() => {
		const marks = [...document.querySelectorAll("#pdf-page .textLayer .highlight")];
		const r = marks.length ? marks[0].getBoundingClientRect() : null;
		return {
			page: document.getElementById("pdf-page").dataset.page,
			marked: marks.map((m) => m.textContent).join(" "),
			status: document.getElementById("pdf-status").textContent,
			inView: !!r && r.top >= 0 && r.bottom <= innerHeight,
		};
	})()`)
	fold := func(s string) string { return strings.Join(strings.Fields(s), "") }
	if "p. "+d.Page != st.Where || fold(d.Marked) != fold(quoteText(st.Quote)) || !d.InView {
		t.Errorf("the quote %q (%s) opened page %s, marked %q (in view %v): %s", quoteText(st.Quote), st.Where, d.Page, d.Marked, d.InView, d.Status)
	}
	timing := browserJS[pdfTiming](b, pdfTimingJS)
	t.Logf("page %s of the compost guide (3 pages), ms from the navigation's start: PDF.js loaded %.0f, the PDF opened %.0f, drawn with the quote marked %.0f",
		d.Page, timing.Script, timing.Loaded, timing.Drawn)
	// The README's picture: the whole page, its title and links above.
	b.do("showing the whole page", chromedp.EmulateViewport(1100, 1400), chromedp.Evaluate[chromedp.Void](`scrollTo(0, 0)`))
	b.shot("pdf-page", true)
	b.clean()
}

var benchPDF = flag.String("pdf", "../../../testdata/docs/composting-guide.pdf", "the PDF BenchmarkBrowserPDFPage draws a page of")

// BenchmarkBrowserPDFPage draws a page of -pdf (the middle page that has
// text, a quote of it marked) b.N times in chromium, and reports the
// milliseconds from the navigation's start to PDF.js loaded, the PDF
// opened and the page drawn with its mark: the median of the runs after
// the first, and the first (nothing compiled or kept yet) alone.
//
//	go test ./internal/front/ui -run '^$' -bench BrowserPDFPage -benchtime 10x -pdf FILE
func BenchmarkBrowserPDFPage(b *testing.B) {
	data, err := os.ReadFile(*benchPDF)
	if err != nil {
		b.Fatal(err)
	}
	dir := filepath.Join(b.TempDir(), "library")
	name := filepath.Base(*benchPDF)
	id := addFiles(b, dir, map[string][]byte{name: data}, nil)[name]
	s, ts := newServer(b, Options{Library: dir})
	lib, err := s.open()
	if err != nil {
		b.Fatal(err)
	}
	it, err := lib.Item(id)
	if err != nil {
		b.Fatal(err)
	}
	// The middle page that a paragraph starts on, and that paragraph's
	// first words, whole, up to 80 characters.
	var starts []int
	for i, p := range it.Paragraphs {
		if p.Page > 0 && len(strings.Fields(p.Text)) >= 4 && (len(starts) == 0 || it.Paragraphs[starts[len(starts)-1]].Page != p.Page) {
			starts = append(starts, i)
		}
	}
	if len(starts) == 0 {
		b.Fatalf("%s has no page with text", *benchPDF)
	}
	p := it.Paragraphs[starts[len(starts)/2]]
	quote := ""
	for _, w := range strings.Fields(p.Text) {
		if len(quote)+len(w) > 80 {
			break
		}
		quote = strings.TrimSpace(quote + " " + w)
	}
	br := newBrowser(b)
	// The page's main thread's own CPU time (threadTicks), beside the
	// wall time the marks give, which a busy machine stretches.
	if _, err := chromedp.Call(br.ctx, performance.Enable, performance.EnableParams{TimeDomain: performance.EnableTimeDomainThreadTicks}); err != nil {
		b.Fatal(err)
	}
	taskTime := func() float64 {
		m, err := chromedp.Call(br.ctx, performance.GetMetrics, cdp.Empty{})
		if err != nil {
			b.Fatal(err)
		}
		for _, x := range m.Metrics {
			if x.Name == "TaskDuration" {
				return x.Value * 1000
			}
		}
		return 0
	}
	var runs []pdfTiming
	marked, pages := 0, ""
	b.ResetTimer()
	for range b.N {
		before := taskTime()
		br.do("drawing the page", chromedp.Navigate(ts.URL+PageLink(id, p.Page, quote)),
			chromedp.WaitVisible(chromedp.CSS(`#pdf-page[data-state="drawn"]`)))
		r := browserJS[pdfTiming](br, pdfTimingJS)
		// The count starts again with a new page's process.
		if after := taskTime(); after >= before {
			r.Task = after - before
		} else {
			r.Task = after
		}
		runs = append(runs, r)
		marked = browserJS[int](br, `document.querySelectorAll("#pdf-page .highlight").length`)
		pages = browserJS[string](br, `document.getElementById("pdf-count").textContent`)
	}
	b.StopTimer()
	median := func(f func(pdfTiming) float64) float64 {
		rest := runs[min(1, len(runs)-1):]
		v := make([]float64, len(rest))
		for i, r := range rest {
			v[i] = f(r)
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
	b.ReportMetric(median(func(r pdfTiming) float64 { return r.Script }), "ms-script")
	b.ReportMetric(median(func(r pdfTiming) float64 { return r.Loaded }), "ms-opened")
	b.ReportMetric(median(func(r pdfTiming) float64 { return r.Drawn }), "ms-drawn")
	b.ReportMetric(median(func(r pdfTiming) float64 { return r.Task }), "ms-main-thread-cpu")
	b.ReportMetric(runs[0].Drawn, "ms-drawn-first")
	b.ReportMetric(0, "ns/op")
	b.Logf("%s (%d KB, %s pages): page %d, %d marks of %q; ms drawn, each run: %v", name, len(data)>>10, pages, p.Page, marked, quote, drawnTimes(runs))
}

func drawnTimes(runs []pdfTiming) []int {
	out := make([]int, len(runs))
	for i, r := range runs {
		out[i] = int(r.Drawn)
	}
	return out
}

// TestBrowserLibraryPages: the library's pages are reached by keyboard:
// Tab from the page's last item goes to Next page, Enter opens the next
// page, and from its last item Tab and Enter go back by Previous page.
func TestBrowserLibraryPages(t *testing.T) {
	b := newBrowser(t)
	var items []saved
	for i := range LibraryPageSize + 3 {
		items = append(items, note(fmt.Sprintf("Note number %03d", i), "note", fmt.Sprintf("/home/ana/notes/%03d.md", i), day.Add(time.Duration(i)*time.Minute),
			texts(fmt.Sprintf("The kettle of note %d whistles.", i))...))
	}
	url := serve(t, newLibrary(t, items...))
	const lastItem = `(() => { const a = document.querySelectorAll("ul.items li a"); a[a.length - 1].focus(); return a.length; })()`
	const focused = `(() => { const e = document.activeElement; return !e || e === document.body ? "body" : e.tagName.toLowerCase() + ":" + e.textContent.trim(); })()`
	b.do("opening the library", chromedp.Navigate(url+"/library"), chromedp.WaitVisible(chromedp.CSS(`ul.items`)))
	if n := browserJS[int](b, lastItem); n != LibraryPageSize {
		t.Errorf("the first page lists %d items, want %d", n, LibraryPageSize)
	}
	b.do("pressing Tab after the last item", chromedp.KeyEvent(kb.Tab))
	if f := browserJS[string](b, focused); f != "a:Next page →" {
		t.Fatalf("Tab after the first page's last item reached %q, not Next page", f)
	}
	// Page 2 has a Previous page link, which page 1 has not.
	b.do("pressing Enter on Next page", chromedp.KeyEvent(kb.Enter), chromedp.WaitVisible(chromedp.CSS(`a[rel="prev"]`)))
	if at := browserJS[string](b, `location.search`); at != "?page=2" {
		t.Errorf("Next page opened %q", at)
	}
	if n := browserJS[int](b, lastItem); n != 3 {
		t.Errorf("the second page lists %d items, want 3", n)
	}
	b.do("pressing Tab after the last item", chromedp.KeyEvent(kb.Tab))
	if f := browserJS[string](b, focused); f != "a:← Previous page" {
		t.Fatalf("Tab after the second page's last item reached %q, not Previous page", f)
	}
	b.do("pressing Enter on Previous page", chromedp.KeyEvent(kb.Enter), chromedp.WaitVisible(chromedp.CSS(`a[rel="next"]`)))
	if at := browserJS[string](b, `location.pathname + location.search`); at != "/library" {
		t.Errorf("Previous page opened %q", at)
	}
	b.shot("library-pages")
	b.clean()
}

// TestBrowserItemPageToPDF: the item page opened at a quote of a PDF links
// the page the quote is on with the quote, and that link opens the drawn
// page with the quote marked, as a statement's page link does.
func TestBrowserItemPageToPDF(t *testing.T) {
	b := newBrowser(t)
	dir, ids := docsLibrary(t)
	url := serve(t, dir)
	pdf := ids["composting-guide.pdf"]
	const quote = "Within two or three days the centre reaches fifty-five to sixty-five degrees Celsius."

	b.do("opening the compost guide's text", chromedp.Navigate(url+"/item/"+pdf), chromedp.WaitVisible(chromedp.CSS(`section.text`)))
	para := browserJS[string](b, `[...document.querySelectorAll("p.para")].find((p) => p.textContent.includes("Within two or three days"))?.id ?? ""`)
	n, err := strconv.Atoi(strings.TrimPrefix(para, "p"))
	if err != nil {
		t.Fatalf("no paragraph of the guide holds the quote (%q)", para)
	}
	b.do("opening the text at the quote", chromedp.Navigate(url+QuoteLink(pdf, n, quote)), chromedp.WaitVisible(chromedp.CSS(`mark#quote`)))
	link := `section.text a[href="` + PageLink(pdf, 2, quote) + `"]`
	if !browserJS[bool](b, `!!document.querySelector(`+"`"+link+"`"+`)`) {
		t.Fatalf("the text opened at the quote has no link to page 2 with it: %q", browserJS[[]string](b, `[...document.querySelectorAll(".marker.page a, a.marker.page")].map((a) => a.getAttribute("href"))`))
	}
	b.do("following the page's link", chromedp.Click(chromedp.CSS(link)), chromedp.WaitVisible(chromedp.CSS(`#pdf-page[data-state="drawn"]`)))
	marked := browserJS[string](b, `[...document.querySelectorAll("#pdf-page .textLayer .highlight")].map((m) => m.textContent).join(" ")`)
	fold := func(s string) string { return strings.Join(strings.Fields(s), "") }
	if fold(marked) != fold(quote) {
		t.Errorf("page 2 marked %q, want %q", marked, quote)
	}
	b.clean()
}

// TestBrowserCodeLines: a block of code (an HTML <pre>, item.CodeOf) is
// shown with its lines and their indentation, on the item page under the
// sentence that announces it and in an answer's quote. Fails with the
// style before it (the item page kept the lines, not the indentation; the
// quote neither).
func TestBrowserCodeLines(t *testing.T) {
	b := newBrowser(t)
	dir := filepath.Join(t.TempDir(), "library")
	page := `<html><head><title>Errors and Exceptions</title></head><body><main><h1>Errors and Exceptions</h1>
<p>Syntax errors, also known as parsing errors, are perhaps the most common kind of complaint you get while you are still learning Python:</p>
<pre>&gt;&gt;&gt; while True print('Hello world')
  File "&lt;stdin&gt;", line 1
SyntaxError: invalid syntax</pre>
<p>The parser repeats the offending line and displays a little arrow pointing at the earliest point in the line where the error was detected.</p>
</main></body></html>`
	ids := addFiles(t, dir, map[string][]byte{"errors.html": []byte(page)}, nil)
	url := serve(t, dir)
	lines := "learning Python:\n\n>>> while True print('Hello world')\n  File \"<stdin>\", line 1\nSyntaxError: invalid syntax"
	b.do("opening the item", chromedp.Navigate(url+"/item/"+ids["errors.html"]))
	if got := browserJS[string](b, `document.querySelector("p.para").innerText`); !strings.Contains(got, lines) {
		t.Errorf("the item page shows %q, want its lines %q", got, lines)
	}
	b.do("asking", chromedp.Navigate(url+"/?q="+"What+do+syntax+errors+look+like+when+learning+Python%3F"),
		chromedp.WaitVisible(chromedp.CSS(`#statements .statement cite`)), answered)
	if got := browserJS[string](b, `document.querySelector("blockquote.quote").innerText`); !strings.Contains(got, lines) {
		t.Errorf("the answer shows %q, want its lines %q", got, lines)
	}
	b.clean()
}
