package ui

import (
	"bufio"
	"bytes"
	"fmt"
	"html"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/base/quote"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/jsonl"
)

const hostile = `<img src=x onerror=alert(1)>`

// teaLibrary is a small library: notes on tea and bicycles, a PDF of three
// pages, a transcript, and an item whose title is hostile.
func teaLibrary(t testing.TB) (dir string, items map[string]saved) {
	t.Helper()
	ms := func(v int64) *int64 { return &v }
	items = map[string]saved{
		"tea": note("Green tea", "note", "/notes/tea.md", day,
			item.Paragraph{Text: "Green tea is steeped in water at eighty degrees for two minutes.", Heading: "Steeping"},
			item.Paragraph{Text: "Black tea wants boiling water and four minutes in the pot.", Heading: "Steeping"},
			item.Paragraph{Text: "Store the leaves in a dark tin, away from light and air.", Heading: "Keeping"}),
		"bike": note("Bicycle chains", "note", "/notes/bike.md", day.Add(time.Hour),
			texts("A bicycle chain wants oil every few hundred kilometres.", "Wipe the chain clean before oiling it.")...),
		"pdf": note("Kettles", "pdf", "/papers/kettles.pdf", day.Add(2*time.Hour),
			item.Paragraph{Text: "Kettles boil water quickly.", Page: 1, Heading: "Kettles"},
			item.Paragraph{Text: "An electric kettle switches itself off at the boil. A stovetop kettle whistles instead.", Page: 2,
				Pages: []item.PageStart{{Offset: 52, Page: 3}}}),
		"talk": note("A talk on tea", "transcript", "/talks/tea-talk.vtt", day.Add(3*time.Hour),
			item.Paragraph{Text: "Welcome to the tea talk.", StartMs: ms(0)},
			item.Paragraph{Text: "Oolong tea is rolled and partly oxidised before drying.", StartMs: ms(83000)}),
		"hostile": note(hostile, "note", "/notes/"+hostile+".md", day.Add(4*time.Hour),
			texts("Hostile titles are shown as text, and oolong tea is steeped twice.")...),
	}
	var all []saved
	for _, s := range items {
		all = append(all, s)
	}
	return newLibrary(t, all...), items
}

// TestHostileTitleIsText: a title (and a source) that is HTML shows as its
// text on every page, and no page carries inline script.
func TestHostileTitleIsText(t *testing.T) {
	t.Parallel()
	dir, items := teaLibrary(t)
	_, ts := newServer(t, Options{Library: dir})
	h := items["hostile"].it.ID
	for _, path := range []string{"/library", "/library?q=" + url.QueryEscape("hostile titles"), "/item/" + h, "/?q=" + url.QueryEscape(hostile)} {
		code, body, _ := get(t, ts.URL+path)
		if code != 200 {
			t.Fatalf("%s: %d\n%s", path, code, body)
		}
		if strings.Contains(body, "<img") {
			t.Errorf("%s: the title is HTML on the page:\n%s", path, body)
		}
		if path != "/?q="+url.QueryEscape(hostile) && !strings.Contains(body, "&lt;img src=x onerror=alert(1)&gt;") {
			t.Errorf("%s: the title is not shown as text:\n%s", path, body)
		}
		noInlineScript(t, path, body)
	}
	// In the passages of the ask stream too.
	events := askEvents(t, ts.URL, "hostile titles oolong", true)
	var sawTitle bool
	for _, ev := range events {
		if strings.Contains(ev.data, "<img") {
			t.Errorf("a %s event holds the title as HTML: %s", ev.name, ev.data)
		}
		sawTitle = sawTitle || strings.Contains(ev.data, "&lt;img src=x onerror=alert(1)&gt;")
	}
	if !sawTitle {
		t.Errorf("no passage of the hostile item: %v", events)
	}
}

var scriptTag = regexp.MustCompile(`(?is)<script([^>]*)>(.*?)</script>`)

// noInlineScript: every script of the page is a file of this server.
func noInlineScript(t *testing.T, path, body string) {
	t.Helper()
	for _, m := range scriptTag.FindAllStringSubmatch(body, -1) {
		if !strings.Contains(m[1], `src="/assets/`) || strings.TrimSpace(m[2]) != "" {
			t.Errorf("%s: a script not from /assets/, or inline: %s", path, m[0])
		}
	}
	for _, tag := range regexp.MustCompile(`<[a-zA-Z][^>]*>`).FindAllString(body, -1) {
		// The attributes' names, their quoted values left out.
		names := regexp.MustCompile(`"[^"]*"`).ReplaceAllString(tag, `""`)
		if regexp.MustCompile(`(?i)\son[a-z]+\s*=`).MatchString(names) {
			t.Errorf("%s: an inline event handler: %s", path, tag)
		}
	}
}

// TestHeaders: every response, pages and refusals alike, carries the strict
// policy: scripts only from this server, none inline.
func TestHeaders(t *testing.T) {
	t.Parallel()
	dir, _ := teaLibrary(t)
	_, ts := newServer(t, Options{Library: dir})
	for _, path := range []string{"/", "/library", "/assets/ui.js", "/no-such-page", "/item/0000"} {
		resp, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		csp := resp.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") || !strings.Contains(csp, "default-src 'none'") ||
			!strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("%s: Content-Security-Policy %q", path, csp)
		}
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: no nosniff", path)
		}
	}
}

// TestFavicon: /favicon.ico, which every browser asks for, is the pages'
// icon (an SVG), and every page names it.
func TestFavicon(t *testing.T) {
	t.Parallel()
	dir, _ := teaLibrary(t)
	_, ts := newServer(t, Options{Library: dir})
	code, body, h := get(t, ts.URL+"/favicon.ico")
	if code != 200 || h.Get("Content-Type") != "image/svg+xml" || !strings.HasPrefix(body, "<svg ") {
		t.Errorf("/favicon.ico: %d %s\n%.80s", code, h.Get("Content-Type"), body)
	}
	if code, icon, _ := get(t, ts.URL+"/assets/icon.svg"); code != 200 || icon != body {
		t.Errorf("/assets/icon.svg: %d, the same as /favicon.ico: %v", code, icon == body)
	}
	for _, path := range []string{"/", "/library", "/no-such-page"} {
		if _, page, _ := get(t, ts.URL+path); !strings.Contains(page, `<link rel="icon" href="/assets/icon.svg" type="image/svg+xml">`) {
			t.Errorf("%s names no icon", path)
		}
	}
}

// TestLibraryFolderShown: the pages name the library they read, under the
// home folder as ~/… (as the README's screenshots show it), else whole.
func TestLibraryFolderShown(t *testing.T) {
	t.Parallel()
	home := filepath.Join(t.TempDir(), "ana")
	dir := filepath.Join(home, ".local", "share", "sponge")
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	lib := newLibrary(t, note("Tea", "note", "/notes/tea.md", day, texts("Green tea is steeped at eighty degrees.")...))
	if err := os.Rename(lib, dir); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ home, want string }{
		{home, "~/.local/share/sponge"},
		{home + string(filepath.Separator), "~/.local/share/sponge"},
		{dir, "~"},
		{home[:len(home)-1], dir}, // …/an is not the home of …/ana
		{"", dir},
		{"relative", dir},
	} {
		_, ts := newServer(t, Options{Library: dir, Home: c.home})
		_, body, _ := get(t, ts.URL+"/library")
		if want := `<p class="lib" title="the library folder">` + c.want + `</p>`; !strings.Contains(body, want) {
			t.Errorf("home %q: no %s in\n%.600s", c.home, want, body)
		}
	}
}

// TestLocalOnly: another Host (a DNS name rebound to 127.0.0.1) and a page
// of another site are refused, as sponge serve refuses them.
func TestLocalOnly(t *testing.T) {
	t.Parallel()
	dir, _ := teaLibrary(t)
	_, ts := newServer(t, Options{Library: dir})
	for _, tt := range []struct{ host, origin string }{{"evil.example", ""}, {"", "https://evil.example"}, {"", "null"}} {
		req, _ := http.NewRequest("GET", ts.URL+"/library", nil)
		if tt.host != "" {
			req.Host = tt.host
		}
		if tt.origin != "" {
			req.Header.Set("Origin", tt.origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("Host %q, Origin %q: %d", tt.host, tt.origin, resp.StatusCode)
		}
	}
	// What a page of another site fetches (an <img src> of a question: no
	// Origin on a GET) is refused; a person following a link is not.
	for mode, want := range map[string]int{"no-cors": 403, "cors": 403, "navigate": 200} {
		req, _ := http.NewRequest("GET", ts.URL+"/library", nil)
		req.Header.Set("Sec-Fetch-Site", "cross-site")
		req.Header.Set("Sec-Fetch-Mode", mode)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("Sec-Fetch-Site cross-site, mode %s: %d, want %d", mode, resp.StatusCode, want)
		}
	}
	req, _ := http.NewRequest("GET", ts.URL+"/library", nil)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("Sec-Fetch-Mode", "cors")
	req.Header.Set("Origin", ts.URL)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
		t.Errorf("its own Origin: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}
}

// TestLibraryPages: a library of more items than a page lists is paged,
// newest first, LibraryPageSize a page, with links to the pages before and
// after that keep the filter; a page past the last is not found.
func TestLibraryPages(t *testing.T) {
	t.Parallel()
	const n = 2*LibraryPageSize + 5
	var items []saved
	for i := range n {
		kind := "note"
		if i%2 == 1 {
			kind = "markdown"
		}
		items = append(items, note(fmt.Sprintf("Note number %03d", i), kind, fmt.Sprintf("/notes/%03d.md", i), day.Add(time.Duration(i)*time.Minute),
			texts(fmt.Sprintf("The kettle of note %d whistles.", i))...))
	}
	_, ts := newServer(t, Options{Library: newLibrary(t, items...)})
	listed := func(body string) []string {
		return regexp.MustCompile(`Note number (\d+)`).FindAllString(body, -1)
	}
	for _, c := range []struct {
		path            string
		first, last     string
		count           int
		prev, next, say string
	}{
		{"/library", "Note number 204", "Note number 105", LibraryPageSize, "", "/library?page=2", "1–100 of 205 items, newest first"},
		{"/library?page=2", "Note number 104", "Note number 005", LibraryPageSize, "/library", "/library?page=3", "101–200 of 205 items"},
		{"/library?page=3", "Note number 004", "Note number 000", 5, "/library?page=2", "", "201–205 of 205 items"},
		{"/library?kind=markdown&page=2", "Note number 003", "Note number 001", 2, "/library?kind=markdown", "", "101–102 of 102 items (205 in the library)"},
	} {
		code, body, _ := get(t, ts.URL+c.path)
		got := listed(body)
		if code != 200 || len(got) != c.count || got[0] != c.first || got[len(got)-1] != c.last {
			t.Errorf("%s: %d, %d items from %v to %v; want %d from %s to %s", c.path, code, len(got), got[:min(1, len(got))], got[max(0, len(got)-1):], c.count, c.first, c.last)
		}
		if !strings.Contains(body, c.say) {
			t.Errorf("%s does not say %q", c.path, c.say)
		}
		for rel, want := range map[string]string{"prev": c.prev, "next": c.next} {
			m := regexp.MustCompile(`<a rel="` + rel + `" href="([^"]*)"`).FindStringSubmatch(body)
			switch {
			case want == "" && m != nil:
				t.Errorf("%s: a %s link to %s", c.path, rel, m[1])
			case want != "" && (m == nil || html.UnescapeString(m[1]) != want):
				t.Errorf("%s: %s link %v; want %s", c.path, rel, m, want)
			}
		}
	}
	for path, want := range map[string]int{"/library?page=4": 404, "/library?page=0": 400, "/library?page=x": 400} {
		if code, _, _ := get(t, ts.URL+path); code != want {
			t.Errorf("%s: %d, want %d", path, code, want)
		}
	}
}

// TestBounds: a question or quote longer than MaxWords is refused, not
// searched for.
func TestBounds(t *testing.T) {
	t.Parallel()
	dir, items := teaLibrary(t)
	_, ts := newServer(t, Options{Library: dir})
	long := url.QueryEscape(strings.Repeat("tea ", MaxWords/4+1))
	for _, path := range []string{"/?q=" + long, "/ask?q=" + long, "/library?q=" + long, "/item/" + items["tea"].it.ID + "?p=0&q=" + long} {
		if code, body, _ := get(t, ts.URL+path); code != http.StatusRequestEntityTooLarge {
			t.Errorf("%s…: %d\n%s", path[:20], code, body)
		}
	}
	if code, _, _ := get(t, ts.URL+"/ask?q="); code != http.StatusBadRequest {
		t.Errorf("an empty question: %d", code)
	}
}

// TestLibraryPage: newest first, filtered by kind and by words (the search
// stage's order), each with its summary's first statement.
func TestLibraryPage(t *testing.T) {
	t.Parallel()
	dir, items := teaLibrary(t)
	lib, err := library.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	tea := items["tea"].it
	if err := lib.PutSummary(&item.Summary{ItemID: tea.ID, Model: "extractive", Made: day, Fingerprint: item.Fingerprint(tea),
		Statements: []item.SummaryStatement{{Text: "Green tea is steeped in water at eighty degrees for two minutes.", Quote: "Green tea is steeped in water at eighty degrees for two minutes.", End: 64}}}); err != nil {
		t.Fatal(err)
	}
	_, ts := newServer(t, Options{Library: dir})
	_, body, _ := get(t, ts.URL+"/library")
	order := []string{"&lt;img", "A talk on tea", "Kettles", "Bicycle chains", "Green tea"}
	last := -1
	for _, title := range order {
		i := strings.Index(body, title)
		if i < last {
			t.Errorf("%q is not newest first:\n%s", title, body)
		}
		last = i
	}
	if !strings.Contains(body, `<p class="gist">Green tea is steeped in water at eighty degrees for two minutes.</p>`) {
		t.Errorf("no gist:\n%s", body)
	}
	_, body, _ = get(t, ts.URL+"/library?kind=pdf")
	if !strings.Contains(body, "Kettles") || strings.Contains(body, "Bicycle chains") || !strings.Contains(body, "1 of 5 items") {
		t.Errorf("kind=pdf:\n%s", body)
	}
	_, body, _ = get(t, ts.URL+"/library?q=bicycle+chain+oil")
	if !strings.Contains(body, "Bicycle chains") || strings.Contains(body, "Kettles") {
		t.Errorf("q=bicycle chain oil:\n%s", body)
	}
}

// TestItemPage: title, source, kind, the text with headings and page and
// time markers; opened at a quote, its paragraph is the target and the
// quote's words are marked, found as sponge-verify finds them.
func TestItemPage(t *testing.T) {
	t.Parallel()
	dir, items := teaLibrary(t)
	_, ts := newServer(t, Options{Library: dir})
	tea := items["tea"].it
	code, body, _ := get(t, ts.URL+QuoteLink(tea.ID, 1, "boiling water and four minutes"))
	if code != 200 {
		t.Fatalf("%d\n%s", code, body)
	}
	for _, want := range []string{"<h1>Green tea</h1>", "/notes/tea.md", `<h2 class="heading">Steeping</h2>`, `<h2 class="heading">Keeping</h2>`,
		`<p id="p1" class="para target" tabindex="-1">Black tea wants <mark id="quote">boiling water and four minutes</mark> in the pot.</p>`,
		`<article class="itempage" data-target="1">`} {
		if !strings.Contains(body, want) {
			t.Errorf("no %s in\n%s", want, body)
		}
	}
	if strings.Count(body, `<h2 class="heading">Steeping</h2>`) != 1 {
		t.Errorf("a heading is repeated for each paragraph under it:\n%s", body)
	}
	// A quote as a model may give it (other quotes, spaces, case at its
	// start) is marked as the saved words it matched.
	_, body, _ = get(t, ts.URL+QuoteLink(tea.ID, 2, "store the leaves in a dark   tin"))
	if !strings.Contains(body, `<mark id="quote">Store the leaves in a dark tin</mark>`) {
		t.Errorf("the saved words are not marked:\n%s", body)
	}
	// A prefix of the id is the item, at its full address.
	resp, err := http.Get(ts.URL + "/item/" + tea.ID[:8] + "?p=1")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.Request.URL.Path != "/item/"+tea.ID || resp.Request.URL.RawQuery != "p=1" {
		t.Errorf("a prefix went to %s", resp.Request.URL)
	}
	for path, want := range map[string]int{"/item/" + tea.ID + "?p=9": 400, "/item/ffffffffffff": 404, "/item/zz": 400} {
		if code, body, _ := get(t, ts.URL+path); code != want {
			t.Errorf("%s: %d, want %d\n%s", path, code, want, body)
		}
	}

	// A PDF: its pages, one of them inside a paragraph.
	pdf := items["pdf"].it
	_, body, _ = get(t, ts.URL+QuoteLink(pdf.ID, 1, "A stovetop kettle whistles"))
	for _, want := range []string{`<a href="/item/` + pdf.ID + `/page/1">p. 1</a>`, `<a href="/item/` + pdf.ID + `/page/2">p. 2</a>`,
		`An electric kettle switches itself off at the boil. <a class="marker page inline" id="page3" href="/item/` + pdf.ID + `/page/3?q=A&#43;stovetop&#43;kettle&#43;whistles">p. 3</a> <mark id="quote">A stovetop kettle whistles</mark> instead.`, "3 pages"} {
		if !strings.Contains(body, want) {
			t.Errorf("no %s in\n%s", want, body)
		}
	}
	// The links of the pages a quote is on carry its saved words to the
	// PDF page, which marks them there: a quote across a page break, both
	// pages; the others none.
	_, body, _ = get(t, ts.URL+QuoteLink(pdf.ID, 1, "itself off at the boil. A stovetop"))
	for _, want := range []string{`<a href="/item/` + pdf.ID + `/page/1">p. 1</a>`,
		`<a href="/item/` + pdf.ID + `/page/2?q=itself&#43;off&#43;at&#43;the&#43;boil.&#43;A&#43;stovetop">p. 2</a>`,
		`href="/item/` + pdf.ID + `/page/3?q=itself&#43;off&#43;at&#43;the&#43;boil.&#43;A&#43;stovetop">p. 3</a>`} {
		if !strings.Contains(body, want) {
			t.Errorf("no %s in\n%s", want, body)
		}
	}

	// A transcript: its times; no recording beside it, so no player.
	talk := items["talk"].it
	_, body, _ = get(t, ts.URL+QuoteLink(talk.ID, 1, "Oolong tea is rolled"))
	if !strings.Contains(body, `<p class="marker time">1:23</p>`) || strings.Contains(body, "<audio") || strings.Contains(body, "<video") {
		t.Errorf("the transcript's page:\n%s", body)
	}
	if code, _, _ := get(t, ts.URL+"/item/"+talk.ID+"/media"); code != 404 {
		t.Errorf("media with none beside the transcript: %d", code)
	}
}

// TestMediaBeside: a transcript's recording beside its file plays from a
// quote's time; the route serves that file alone.
func TestMediaBeside(t *testing.T) {
	t.Parallel()
	folder := t.TempDir()
	vtt := filepath.Join(folder, "talk.en.vtt")
	mp3 := filepath.Join(folder, "talk.mp3")
	os.WriteFile(vtt, []byte("WEBVTT\n"), 0o644)
	os.WriteFile(mp3, []byte("ID3 not really audio, but bytes to serve"), 0o644)
	os.WriteFile(filepath.Join(folder, "secret.txt"), []byte("not for the page"), 0o644)
	ms := int64(83000)
	talk := note("A talk", "transcript", vtt, day, item.Paragraph{Text: "Welcome."},
		item.Paragraph{Text: "Oolong tea is rolled. Then it is dried.", StartMs: &ms, Cues: []item.Cue{{Offset: 0, StartMs: 83000}, {Offset: 22, StartMs: 95000}}})
	dir := newLibrary(t, talk)
	_, ts := newServer(t, Options{Library: dir})
	_, body, _ := get(t, ts.URL+QuoteLink(talk.it.ID, 1, "Then it is dried."))
	if !strings.Contains(body, `<audio id="media" controls preload="metadata" src="/item/`+talk.it.ID+`/media#t=95">`) ||
		!strings.Contains(body, `<button type="button" class="seek" data-t="83">▶ 1:23</button>`) {
		t.Errorf("no player from the quote's cue, 1:35:\n%s", body)
	}
	req, _ := http.NewRequest("GET", ts.URL+"/item/"+talk.it.ID+"/media", nil)
	req.Header.Set("Range", "bytes=4-6")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 16)
	n, _ := resp.Body.Read(b)
	resp.Body.Close()
	if resp.StatusCode != http.StatusPartialContent || string(b[:n]) != "not" || resp.Header.Get("Content-Type") != "audio/mpeg" {
		t.Errorf("a range of the recording: %d %q %s", resp.StatusCode, b[:n], resp.Header.Get("Content-Type"))
	}
	for _, path := range []string{"/item/" + talk.it.ID + "/media/../secret.txt", "/item/secret.txt/media", "/assets/../server.go"} {
		if code, body, _ := get(t, ts.URL+path); code == 200 || strings.Contains(body, "not for the page") || strings.Contains(body, "package ui") {
			t.Errorf("%s: %d\n%s", path, code, body)
		}
	}
}

// TestWriteToken: a read-only server refuses to add or remove; a --write
// one does so only for a form with this run's token.
func TestWriteToken(t *testing.T) {
	t.Parallel()
	dir, items := teaLibrary(t)
	post := func(ts string, path string, form url.Values, ct string) (int, string) {
		t.Helper()
		req, _ := http.NewRequest("POST", ts+path, strings.NewReader(form.Encode()))
		req.Header.Set("Content-Type", ct)
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode, resp.Header.Get("Location")
	}
	const formCT = "application/x-www-form-urlencoded"
	ro, rots := newServer(t, Options{Library: dir})
	if code, _ := post(rots.URL, "/add", url.Values{"token": {ro.Token()}, "text": {"a note"}}, formCT); code != http.StatusForbidden {
		t.Errorf("a read-only server's add: %d", code)
	}
	_, body, _ := get(t, rots.URL+"/library")
	if strings.Contains(body, ro.Token()) || strings.Contains(body, `action="/add"`) {
		t.Errorf("a read-only page has the writing form or the token")
	}

	s, ts := newServer(t, Options{Library: dir, Write: true})
	if s.Token() == ro.Token() || len(s.Token()) < 32 {
		t.Errorf("tokens %q and %q: each run makes its own", s.Token(), ro.Token())
	}
	_, body, _ = get(t, ts.URL+"/library")
	if !strings.Contains(body, `<input type="hidden" name="token" value="`+s.Token()+`">`) {
		t.Errorf("the library page has no add form with the token:\n%s", body)
	}
	text := "Rooibos is no tea at all, but a bush of the Cederberg."
	for _, tt := range []struct {
		form url.Values
		ct   string
		want int
	}{
		{url.Values{"text": {text}}, formCT, http.StatusForbidden},
		{url.Values{"token": {ro.Token()}, "text": {text}}, formCT, http.StatusForbidden},
		{url.Values{"token": {s.Token()}, "text": {text}}, "text/plain", http.StatusUnsupportedMediaType},
		{url.Values{"token": {s.Token()}, "text": {" "}}, formCT, http.StatusBadRequest},
	} {
		if code, _ := post(ts.URL, "/add", tt.form, tt.ct); code != tt.want {
			t.Errorf("add %v (%s): %d, want %d", tt.form, tt.ct, code, tt.want)
		}
	}
	lib, _ := library.Open(dir)
	if ids, _ := lib.IDs(); len(ids) != len(items) {
		t.Fatalf("refused adds changed the library: %d items", len(ids))
	}
	code, loc := post(ts.URL, "/add", url.Values{"token": {s.Token()}, "title": {"Rooibos"}, "text": {text}}, formCT)
	if code != http.StatusSeeOther || !strings.HasPrefix(loc, "/item/") {
		t.Fatalf("add: %d %s", code, loc)
	}
	id := strings.TrimPrefix(loc, "/item/")
	if it, err := lib.Item(id); err != nil || it.Title != "Rooibos" {
		t.Fatalf("the added note: %v %v", it, err)
	}
	if _, body, _ := get(t, ts.URL+"/library?q=rooibos+cederberg"); !strings.Contains(body, "Rooibos") {
		t.Errorf("the added note is not searched:\n%s", body)
	}
	if code, _ := post(ts.URL, "/item/"+id+"/remove", url.Values{"token": {"nope"}}, formCT); code != http.StatusForbidden || !lib.Has(id) {
		t.Errorf("remove with a wrong token: %d", code)
	}
	if code, loc := post(ts.URL, "/item/"+id+"/remove", url.Values{"token": {s.Token()}}, formCT); code != http.StatusSeeOther || loc != "/library" || lib.Has(id) {
		t.Errorf("remove: %d %s, still there: %v", code, loc, lib.Has(id))
	}
}

// sseEvent is one server-sent event.
type sseEvent struct{ name, data string }

// askEvents asks the stream and reads its events to the end.
func askEvents(t testing.TB, base, q string, passages bool) []sseEvent {
	t.Helper()
	u := base + "/ask?q=" + url.QueryEscape(q)
	if passages {
		u += "&passages=1"
	}
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("%s: %d %s", u, resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var events []sseEvent
	var ev sseEvent
	// Lines end as a browser ends them: at \r\n, \n or \r.
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		if i := bytes.IndexAny(data, "\r\n"); i >= 0 {
			if data[i] == '\r' && i+1 == len(data) && !atEOF {
				return 0, nil, nil // a \r\n may be cut between reads
			}
			if data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n' {
				return i + 2, data[:i], nil
			}
			return i + 1, data[:i], nil
		}
		if atEOF && len(data) > 0 {
			return len(data), data, nil
		}
		return 0, nil, nil
	})
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			ev.name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			if ev.data != "" {
				ev.data += "\n"
			}
			ev.data += strings.TrimPrefix(line, "data: ")
		case line == "":
			events = append(events, ev)
			ev = sseEvent{}
		}
	}
	return events
}

// quoteOf is a statement's quote and its link: item, paragraph, words.
var quoteOf = regexp.MustCompile(`<a href="/item/([0-9a-f]{64})\?p=(\d+)&amp;q=[^"]*#p\d+">“([^”]*)”</a>`)

// TestAskStream: the statements of an answer come as events, each with a
// quote that stands, word for word, in its item at the paragraph its link
// opens; then the end, with the left-out count. A question the library
// cannot answer ends with "Nothing in your library answers that." and the
// closest items as links.
func TestAskStream(t *testing.T) {
	t.Parallel()
	dir, _ := teaLibrary(t)
	_, ts := newServer(t, Options{Library: dir, FindStage: findDraft(t)})
	events := askEvents(t, ts.URL, "At what temperature is green tea steeped?", false)
	if len(events) < 2 || events[len(events)-1].name != "end" {
		t.Fatalf("events: %v", events)
	}
	lib, _ := library.Open(dir)
	for _, ev := range events[:len(events)-1] {
		if ev.name != "statement" {
			t.Fatalf("a %s event before the end: %v", ev.name, ev)
		}
		m := quoteOf.FindStringSubmatch(ev.data)
		if m == nil {
			t.Fatalf("a statement with no quote link: %s", ev.data)
		}
		it, err := lib.Item(m[1])
		if err != nil {
			t.Fatal(err)
		}
		var p int
		fmt.Sscan(m[2], &p)
		saved := strings.NewReplacer("&#39;", "'", "&amp;", "&", "&lt;", "<", "&gt;", ">", "&#34;", `"`).Replace(m[3])
		if _, ok := quote.NewText(it.Paragraphs[p].Text).Find(quote.NewQuote(saved)); !ok {
			t.Errorf("the quote %q is not in paragraph %d of %s", saved, p, it.Title)
		}
		if !strings.Contains(ev.data, "<cite>") {
			t.Errorf("no source title: %s", ev.data)
		}
	}
	if !strings.Contains(events[0].data, "eighty degrees") {
		t.Errorf("the first statement does not answer: %s", events[0].data)
	}

	events = askEvents(t, ts.URL, "quantum chromodynamics of gluons", false)
	end := events[len(events)-1]
	if end.name != "end" || !strings.Contains(end.data, "Nothing in your library answers that.") {
		t.Errorf("an unanswerable question: %v", events)
	}
}

// TestAskPassages: the passages-only switch streams the ranked passages,
// each linking to its paragraph, and no statement.
func TestAskPassages(t *testing.T) {
	t.Parallel()
	dir, items := teaLibrary(t)
	_, ts := newServer(t, Options{Library: dir})
	events := askEvents(t, ts.URL, "bicycle chain oil", true)
	if len(events) < 2 || events[0].name != "passage" || events[len(events)-1].name != "end" {
		t.Fatalf("events: %v", events)
	}
	if !regexp.MustCompile(`href="/item/`+items["bike"].it.ID+`\?p=\d+#p\d+"`).MatchString(events[0].data) || !strings.Contains(events[0].data, "Bicycle chains") {
		t.Errorf("the first passage: %s", events[0].data)
	}
	for _, ev := range events {
		if ev.name == "statement" {
			t.Errorf("a statement among passages: %v", ev)
		}
	}
	if strings.Contains(events[len(events)-1].data, "Left out") {
		t.Errorf("passages have no left-out count: %s", events[len(events)-1].data)
	}
}

// TestShowOnlyVerified: of a stream's statements only the verified are
// shown, each as it comes; statements never checked and those left out are
// counted as the CLI counts them ("Left out: 2"), never shown.
func TestShowOnlyVerified(t *testing.T) {
	t.Parallel()
	dir, items := teaLibrary(t)
	s, _ := newServer(t, Options{Library: dir})
	tea := items["tea"].it
	var b strings.Builder
	w := jsonl.NewWriter(&b)
	for _, rec := range []jsonl.Record{
		&jsonl.Question{Text: "green tea?"},
		&jsonl.Warning{Code: jsonl.WarnModelUnavailable, Message: "no writing model is set up", Hint: "run sponge setup --digest", Setup: true},
		&jsonl.Hit{ItemID: tea.ID, Title: tea.Title, Source: tea.Source, Score: 1, Rank: 1, FoundBy: []string{"keyword"}},
		&jsonl.Passage{Number: 1, ItemID: tea.ID, Title: tea.Title, Paragraph: 0, Text: tea.Paragraphs[0].Text, Score: 1},
		&jsonl.Model{Name: "extractive"},
		&jsonl.Verified{Text: "Green tea is steeped at eighty degrees.", Passage: 1, Quote: "steeped in water at eighty degrees", ItemID: tea.ID, Title: tea.Title,
			Paragraph: 0, Start: 13, End: 47, Saved: "steeped in water at eighty degrees"},
		&jsonl.Statement{Text: "Green tea cures everything.", Passage: 1, Quote: "cures everything"},
		&jsonl.LeftOut{Text: "Tea is blue.", Passage: 1, Quote: "tea is blue", Reason: jsonl.ReasonNotFound},
		&jsonl.Done{Stage: "sponge-draft", Statements: 3},
	} {
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	lib, _ := library.Open(dir)
	var events []sseEvent
	err := s.show(lib, jsonl.NewReader(strings.NewReader(b.String()), "the test stream"), false, func(ev event) error {
		events = append(events, sseEvent{ev.name, ev.html})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(events) != 2 || events[0].name != "statement" || events[1].name != "end" {
		t.Fatalf("events: %v", events)
	}
	if !strings.Contains(events[0].data, "Green tea is steeped at eighty degrees.") || !strings.Contains(events[0].data, "“steeped in water at eighty degrees”") ||
		!strings.Contains(events[0].data, "<cite>Green tea</cite>") {
		t.Errorf("the statement: %s", events[0].data)
	}
	for _, ev := range events {
		if strings.Contains(ev.data, "cures everything") || strings.Contains(ev.data, "blue") {
			t.Errorf("an unverified statement is shown: %s", ev.data)
		}
	}
	if !strings.Contains(events[1].data, `<p class="leftout">Left out: 2</p>`) || !strings.Contains(events[1].data, "never checked") {
		t.Errorf("the end: %s", events[1].data)
	}
	if !strings.Contains(events[1].data, `<details class="setup"><summary>Set-up notes (1)</summary><p>no writing model is set up <span class="hint">(run sponge setup --digest)</span></p></details>`) ||
		!strings.Contains(events[1].data, `<p class="warning">1 statement was never checked`) {
		t.Errorf("the end's warnings: a part not set up folded, the others shown: %s", events[1].data)
	}
	if !strings.Contains(events[1].data, "Sentences quoted from your library, without a writing model") {
		t.Errorf("the end does not say the extractive drafter quoted: %s", events[1].data)
	}
	// Nothing left out: no count, as the CLI prints none.
	whole := strings.Join(strings.SplitAfter(b.String(), "\n")[:6], "") + `{"v":1,"type":"done","stage":"sponge-draft","statements":1}` + "\n"
	events = events[:0]
	if err := s.show(lib, jsonl.NewReader(strings.NewReader(whole), "the test stream"), false, func(ev event) error {
		events = append(events, sseEvent{ev.name, ev.html})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(events) != 2 || strings.Contains(events[1].data, "Left out") {
		t.Errorf("nothing left out: %v", events)
	}
}

// TestAskWithoutScript: a browser without script gets the whole answer in
// the page (the noscript link), the same statements as the stream's.
func TestAskWithoutScript(t *testing.T) {
	t.Parallel()
	dir, _ := teaLibrary(t)
	_, ts := newServer(t, Options{Library: dir, FindStage: findDraft(t)})
	q := "At what temperature is green tea steeped?"
	_, body, _ := get(t, ts.URL+"/?q="+url.QueryEscape(q))
	link := `<a href="/?q=At&#43;what&#43;temperature&#43;is&#43;green&#43;tea&#43;steeped%3F&amp;whole=1">`
	if !strings.Contains(body, "<noscript>") || !strings.Contains(body, link) {
		t.Fatalf("no noscript link %s:\n%s", link, body)
	}
	_, body, _ = get(t, ts.URL+"/?whole=1&q="+url.QueryEscape(q))
	events := askEvents(t, ts.URL, q, false)
	for _, ev := range events {
		if !strings.Contains(body, ev.data) {
			t.Errorf("the whole answer lacks the stream's %s: %s\n%s", ev.name, ev.data, body)
		}
	}
	if strings.Contains(body, "data-stream") || strings.Contains(body, "<noscript>") {
		t.Errorf("the whole answer still streams:\n%s", body)
	}
	noInlineScript(t, "/?whole=1", body)
}

// TestNoLibrary: with no library in the folder, the pages and the stream
// say so with sponge's hint, as the command line does.
func TestNoLibrary(t *testing.T) {
	t.Parallel()
	_, ts := newServer(t, Options{Library: filepath.Join(t.TempDir(), "none")})
	code, body, _ := get(t, ts.URL+"/library")
	if code != http.StatusNotFound || !strings.Contains(body, `<p class="hint">save something first: sponge add FILE|FOLDER|URL`) {
		t.Errorf("the library page: %d\n%s", code, body)
	}
	events := askEvents(t, ts.URL, "green tea", true)
	if len(events) != 1 || events[0].name != "failure" || !strings.Contains(events[0].data, `role="alert"`) || !strings.Contains(events[0].data, "save something first") {
		t.Errorf("the stream: %v", events)
	}
}

// TestNothingAnswers: an answer with no statement says "Nothing in your
// library answers that." and lists the closest items as links, two items
// of one title told apart by their files (item.Labels).
func TestNothingAnswers(t *testing.T) {
	t.Parallel()
	a := note("Notes", "note", "/home/a/garden/notes.md", day, texts("Tomatoes want sun.")...)
	b := note("Notes", "note", "/home/a/kitchen/notes.md", day, texts("Bread wants time.")...)
	dir := newLibrary(t, a, b)
	s, _ := newServer(t, Options{Library: dir})
	var in strings.Builder
	w := jsonl.NewWriter(&in)
	for _, rec := range []jsonl.Record{
		&jsonl.Question{Text: "what do plants want?"},
		&jsonl.Hit{ItemID: a.it.ID, Title: "Notes", Source: a.it.Source, Score: 2, Rank: 1, FoundBy: []string{"keyword"}},
		&jsonl.Hit{ItemID: b.it.ID, Title: "Notes", Source: b.it.Source, Score: 1, Rank: 2, FoundBy: []string{"keyword"}},
		&jsonl.Model{Name: "extractive"},
		&jsonl.Done{Stage: "sponge-draft", Statements: 0},
	} {
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
	}
	lib, _ := library.Open(dir)
	var events []sseEvent
	if err := s.show(lib, jsonl.NewReader(strings.NewReader(in.String()), "the test stream"), false, func(ev event) error {
		events = append(events, sseEvent{ev.name, ev.html})
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(events) != 1 || events[0].name != "end" {
		t.Fatalf("events: %v", events)
	}
	end := events[0].data
	for _, want := range []string{`<p class="nothing">Nothing in your library answers that.</p>`,
		`<a href="/item/` + a.it.ID + `">Notes (garden/notes.md)</a>`, `<a href="/item/` + b.it.ID + `">Notes (kitchen/notes.md)</a>`} {
		if !strings.Contains(end, want) {
			t.Errorf("no %s in %s", want, end)
		}
	}
}

// TestStreamCarriageReturn: a saved text with carriage returns cannot
// start a field of the event stream ("\revent: end\rdata: …" in a
// paragraph stays data of its passage).
func TestStreamCarriageReturn(t *testing.T) {
	t.Parallel()
	sly := note("Sly", "note", "/notes/sly.md", day, texts("Kettle descaling with vinegar.\revent: end\rdata: forged\r\nid: 9\rretry: 1")...)
	dir := newLibrary(t, sly)
	_, ts := newServer(t, Options{Library: dir})
	events := askEvents(t, ts.URL, "kettle descaling vinegar", true)
	if len(events) != 2 || events[0].name != "passage" || events[1].name != "end" {
		t.Fatalf("events: %q", events)
	}
	if !strings.Contains(events[0].data, "event: end\ndata: forged\nid: 9\nretry: 1") {
		t.Errorf("the passage's text: %q", events[0].data)
	}
}
