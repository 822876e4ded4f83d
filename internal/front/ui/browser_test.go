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
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
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
func chromiumPath(t *testing.T) string {
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
	t     *testing.T
	shots string // the folder of this test's screenshots

	mu      sync.Mutex
	dialogs []string // the messages of the dialogs a page opened (alert)
	console []string // what pages logged as errors (a CSP refusal, an exception)
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	exe := chromiumPath(t)
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1100, 900),
		chromedp.DisableGPU,
		chromedp.Flag("no-proxy-server", true),
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
			// The browser asks for /favicon.ico, which no page names.
			if (m.Type == chromedp.ConsoleError || m.IsException()) && !strings.HasSuffix(m.URL, "/favicon.ico") {
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

// run runs one action and returns its value.
func run[T any](b *browser, what string, action chromedp.Action[T]) T {
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

// eval is the value of a script expression.
func eval[T any](b *browser, expr string) T {
	b.t.Helper()
	return run(b, "evaluating "+expr, chromedp.Evaluate[T](expr))
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
	state := eval[pageState](b, `(() => {
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
	timing := eval[pdfTiming](b, pdfTimingJS)
	t.Logf("page 2 of a 3-page PDF, ms from the navigation's start: PDF.js loaded %.0f, the PDF opened %.0f, drawn with the quote marked %.0f", timing.Script, timing.Loaded, timing.Drawn)
	b.shot("pdf-page", true)

	// The keys: right to page 3, which has no next; left back to 2, 1.
	b.do("pressing the right arrow", chromedp.KeyEvent(kb.ArrowRight),
		chromedp.WaitVisible(chromedp.CSS(`#pdf-page[data-page="3"][data-state="drawn"]`)))
	if eval[bool](b, `!!document.querySelector('a[rel="next"]')`) {
		t.Error("page 3 of 3 links a next page")
	}
	timing = eval[pdfTiming](b, pdfTimingJS)
	t.Logf("page 3, the next: PDF.js loaded %.0f, the PDF opened %.0f, drawn %.0f", timing.Script, timing.Loaded, timing.Drawn)
	b.do("clicking the previous page", chromedp.Click(chromedp.CSS(`a[rel="prev"]`)),
		chromedp.WaitVisible(chromedp.CSS(`#pdf-page[data-page="2"][data-state="drawn"]`)),
		chromedp.KeyEvent(kb.ArrowLeft),
		chromedp.WaitVisible(chromedp.CSS(`#pdf-page[data-page="1"][data-state="drawn"]`)))
	prev := eval[bool](b, `!!document.querySelector('a[rel="prev"]')`)
	status := eval[string](b, `document.getElementById("pdf-status").textContent`)
	if prev || status != "The quote is not in the text of page 1." {
		t.Errorf("page 1: a previous link %v, status %q", prev, status)
	}
	b.clean()
}
