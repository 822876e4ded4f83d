package extract

import (
	"strings"
	"testing"
)

// A book's front page (Debian Reference's index.en.html, trimmed; GPL):
// a few lines and a long table of contents, links to the book's other
// files. It was taken for a menu and saved as its title page alone (2% of
// its words); a table of contents is what such a page shows a person, and
// is kept, beside a chapter's own contents (links into the page), which
// repeat its headings and are not (TestHTMLDebianReferenceChapter).
var tocPage = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>Debian Reference</title><style>body{}</style></head><body>
<div class="navheader"><table><tr><td> </td><td> </td><td><a accesskey="n" href="pr01.en.html">Next</a></td></tr></table></div>
<div class="book"><div class="titlepage"><h1 class="title"><a id="index"/>Debian Reference</h1>
<h3 class="author"><span class="firstname">Osamu</span> <span class="surname">Aoki</span></h3>
<p class="copyright">Copyright © 2013-2021 Osamu Aoki</p>
<div class="abstract"><p>This Debian Reference (version 2.100) (2023-02-04 11:59:01 UTC) is intended to provide a broad overview of the Debian system as a post-installation user's guide. It covers many aspects of system administration through shell-command examples for non-developers.</p></div></div>
<div class="toc"><p><strong>Table of Contents</strong></p><dl class="toc">` + strings.Repeat(`
<dt><span class="chapter"><a href="ch01.en.html">1. GNU/Linux tutorials</a></span></dt>
<dd><dl><dt><span class="section"><a href="ch01.en.html#_console_basics">1.1. Console basics</a></span></dt>
<dt><span class="section"><a href="ch01.en.html#_unix_like_filesystem">1.2. Unix-like filesystem</a></span></dt></dl></dd>`, 30) + `
</dl></div></div>
<div class="navfooter"><table><tr><td> </td><td> </td><td><a accesskey="n" href="pr01.en.html">Next</a></td></tr><tr><td> </td><td> </td><td>Preface</td></tr></table></div>
<script>var hidden = "never shown";</script><div style="display:none">Hidden words.</div></body></html>`

func TestHTMLBookContents(t *testing.T) {
	d := mustBytes(t, tocPage, "index.en.html", "")
	if little, kept, shown := d.KeptLittle(); little {
		t.Errorf("kept %d of %d characters shown", kept, shown)
	}
	text := strings.Join(provenance(d), "\n")
	if strings.Count(text, "1.2. Unix-like filesystem") != 30 || !strings.Contains(text, "is intended to provide a broad overview") {
		t.Errorf("table of contents or abstract lost:\n%s", text)
	}
	for _, furniture := range []string{"Next", "Preface"} {
		if strings.Contains(text, furniture) {
			t.Errorf("furniture %q kept", furniture)
		}
	}
}

// A short note among long menus of the site (links from its root, in
// plain lists, as many pages have them): what is kept is under a fifth of
// what the page shows, and the document says so (KeptLittle, which sponge
// add reports); read with AllText, every word shown is kept (issue 39).
var menuPage = `<!DOCTYPE html><html><head><title>Kettle descaling</title><style>body{}</style></head><body>
<div class="top"><ul>` + strings.Repeat(`
<li><a href="/teas/green">Green teas from Japan and China</a></li><li><a href="/teas/black">Black teas of Assam and Darjeeling</a></li>
<li><a href="/teas/oolong">Oolong teas of Taiwan</a></li><li><a href="/kettles">Kettles, teapots and cups</a></li>`, 20) + `
</ul></div>
<div class="story"><h1>Kettle descaling</h1><p>Boil a litre of water with two spoons of citric acid, leave it for an hour, then rinse the kettle twice.</p></div>
<script>var hidden = "never shown";</script><div style="display:none">Hidden words.</div></body></html>`

func TestHTMLKeptLittle(t *testing.T) {
	d := mustBytes(t, menuPage, "descaling.html", "")
	little, kept, shown := d.KeptLittle()
	if !little {
		t.Errorf("kept %d of %d characters shown: not reported as little", kept, shown)
	}
	all, err := BytesWith([]byte(menuPage), "descaling.html", "", Options{AllText: true})
	if err != nil {
		t.Fatal(err)
	}
	checkDoc(t, all)
	if little, kept, shown := all.KeptLittle(); little || kept < shown*9/10 {
		t.Errorf("all text: kept %d of %d characters shown", kept, shown)
	}
	text := strings.Join(provenance(all), "\n")
	if strings.Count(text, "Oolong teas of Taiwan") != 20 || !strings.Contains(text, "citric acid") {
		t.Errorf("all text: menus or note lost:\n%s", text)
	}
	for _, hidden := range []string{"never shown", "Hidden words", "body{}"} {
		if strings.Contains(text, hidden) {
			t.Errorf("all text: %q, which the page never shows, kept", hidden)
		}
	}
	// An article is not little: what it leaves out is furniture.
	if little, kept, shown := mustBytes(t, teaArticle, "oolong.html", "").KeptLittle(); little {
		t.Errorf("article: kept %d of %d characters shown, reported as little", kept, shown)
	}
}
