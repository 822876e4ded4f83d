package extract

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/text/encoding/charmap"
)

const teaArticle = `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>How to steep oolong | The Leaf Journal</title>
  <meta property="og:title" content="Steeping oolong (og)">
  <style>body { font-family: serif }</style>
  <script>window.analytics = { track: function() {} };</script>
</head>
<body>
  <header class="site-header"><a href="/">The Leaf Journal</a> <nav><a href="/a">Home</a> <a href="/b">Shop</a></nav></header>
  <div id="cookie-banner">We use cookies to improve your experience.</div>
  <div class="layout">
    <aside class="sidebar"><h3>Popular</h3><ul><li><a href="/1">Matcha</a></li><li><a href="/2">Puerh</a></li><li><a href="/3">Chai</a></li></ul></aside>
    <article class="post">
      <header><h1>How to steep oolong</h1><p class="byline">By Mei Lin</p></header>
      <p>Oolong sits between green and black tea: it is <em>partly</em> oxidised, and it rewards
         several short infusions.</p>
      <h2>Water</h2>
      <p>Use water at ninety degrees &amp; rinse the leaves once.&nbsp;Soft water tastes best.</p>
      <div style="display:none">Hidden promotional text.</div>
      <h3>Time</h3>
      <ul>
        <li>First infusion: forty-five seconds.</li>
        <li>Each further infusion: fifteen seconds longer.</li>
      </ul>
      <blockquote>Tea is drunk to forget the din of the world.</blockquote>
      <pre>gongfu: 5 g / 100 ml</pre>
      <table><tr><th>Style</th><th>Degrees</th></tr><tr><td>Rolled</td><td>95</td></tr></table>
      <form><input name="email"><button>Subscribe</button></form>
      <div class="share-buttons"><a href="#">Share</a></div>
      <footer>Tags: <a href="/t/oolong">oolong</a></footer>
    </article>
  </div>
  <footer class="site-footer">© 2024 The Leaf Journal · <a href="/privacy">Privacy</a></footer>
  <noscript>Enable JavaScript.</noscript>
</body>
</html>`

func TestHTMLArticle(t *testing.T) {
	d := mustBytes(t, teaArticle, "oolong.html", "")
	if d.Title != "How to steep oolong" {
		t.Errorf("title %q", d.Title)
	}
	type para struct{ Heading, Text string }
	var got []para
	for _, p := range d.Paragraphs {
		got = append(got, para{p.Heading, p.Text})
	}
	want := []para{
		{"", "Oolong sits between green and black tea: it is partly oxidised, and it rewards several short infusions."},
		{"Water", "Use water at ninety degrees & rinse the leaves once. Soft water tastes best."},
		{"Water › Time", "First infusion: forty-five seconds."},
		{"Water › Time", "Each further infusion: fifteen seconds longer."},
		{"Water › Time", "Tea is drunk to forget the din of the world."},
		{"Water › Time", "gongfu: 5 g / 100 ml"},
		{"Water › Time", "Style | Degrees"}, {"Water › Time", "Rolled | 95"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
	all := strings.Join(texts(d), "\n")
	for _, clutter := range []string{"cookies", "Matcha", "Home", "analytics", "font-family", "Subscribe", "Privacy", "Hidden", "JavaScript", "Share", "Tags", "Mei Lin"} {
		if strings.Contains(all, clutter) {
			t.Errorf("clutter %q kept", clutter)
		}
	}
}

func TestHTMLDensestBlock(t *testing.T) {
	// No <main> or <article>: the block with most of the text wins.
	page := `<html><head><title>Kettles</title></head><body>
	<div id="top"><a href="/">Logo</a> <a href="/x">Deals</a> <a href="/y">Cart</a></div>
	<div id="wrap">
	  <div class="menu-left"><p><a href="/1">One</a> <a href="/2">Two</a> <a href="/3">Three</a></p></div>
	  <div class="text">
	    <h2>Choosing a kettle</h2>
	    <p>A gooseneck spout lets you pour slowly over the leaves.</p>
	    <p>A thermometer in the lid saves guessing the temperature.</p>
	    <div>Stainless steel keeps no taste of old water.<br><br>Glass shows when the water starts to boil.</div>
	  </div>
	</div>
	<div>Short note.</div>
	</body></html>`
	d := mustBytes(t, page, "k.html", "")
	want := []string{
		"A gooseneck spout lets you pour slowly over the leaves.",
		"A thermometer in the lid saves guessing the temperature.",
		"Stainless steel keeps no taste of old water.",
		"Glass shows when the water starts to boil.",
	}
	if diff := cmp.Diff(want, texts(d)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if d.Paragraphs[0].Heading != "Choosing a kettle" || d.Title != "Kettles" {
		t.Errorf("heading %q title %q", d.Paragraphs[0].Heading, d.Title)
	}
}

func TestHTMLTitleFallbacks(t *testing.T) {
	d := mustBytes(t, `<html><head><meta property="og:title" content="From OG"></head><body><p>x y z</p></body></html>`, "a.html", "")
	if d.Title != "From OG" {
		t.Errorf("og:title: %q", d.Title)
	}
	d = mustBytes(t, `<html><body><main><h1>From H1</h1><p>x y z</p></main></body></html>`, "a.html", "")
	if d.Title != "From H1" || d.Paragraphs[0].Heading != "" {
		t.Errorf("h1: %q %q", d.Title, d.Paragraphs[0].Heading)
	}
	d = mustBytes(t, `<p>x y z</p>`, "https://example.org/posts/first-post.html", "text/html")
	if d.Title != "first-post" {
		t.Errorf("from URL: %q", d.Title)
	}
}

func TestHTMLCharset(t *testing.T) {
	page := `<html><head><meta charset="iso-8859-1"><title>Caf` + "\xe9" + `</title></head><body><p>Cr` + "\xe8" + `me br` + "\xfb" + `l` + "\xe9" + `e &eacute; &#8364;</p></body></html>`
	d := mustBytes(t, page, "c.html", "")
	if d.Title != "Café" || d.Paragraphs[0].Text != "Crème brûlée é €" {
		t.Errorf("meta charset: %q %q", d.Title, d.Paragraphs[0].Text)
	}
	// The HTTP charset wins.
	body, _ := charmap.Windows1252.NewEncoder().String("<p>na\u00efve \u201cquotes\u201d</p>")
	d = mustBytes(t, body, "https://example.org/x", "text/html; charset=windows-1252")
	if d.Paragraphs[0].Text != "naïve “quotes”" {
		t.Errorf("http charset: %q", d.Paragraphs[0].Text)
	}
}

// Three pages of the article benchmark's tuning half that were saved as
// nothing (issue 39), each trimmed to its cause.
func TestHTMLArticleFound(t *testing.T) {
	story := `<p>The three prisoners were flown to Qatar on Tuesday, officials said, in an exchange that both governments described as a first step towards talks about the future of the country and its foreign troops.</p>
<p>Their release had been delayed for months while the two sides argued over where the exchange would take place and who would watch it.</p>`
	for _, c := range []struct{ name, page string }{
		// ASP.NET wraps the whole page in one <form>.
		{"page in a form", `<html><body><form id="aspnetForm" method="post"><input type="hidden" name="state" value="x">
<div class="navbar"><a href="/">Home</a> <a href="/news">News</a> <a href="/sport">Sport</a></div>
<div class="article-body">` + story + `</div></form></body></html>`},
		// The <article>s are teasers of other posts and readers' comments;
		// the post itself is in plain divs.
		{"articles are teasers and comments", `<html><body><div class="post-content">` + story + `</div>
<div class="more"><article class="post teaser"><a href="/other">Another post</a></article><article class="post teaser"><a href="/third">A third post</a></article></div>
<article class="comment-body" id="div-comment-5334"><p>Thanks so much for this long article, I read it twice and shared it with my sister, who runs a bakery and has the same trouble with her prices.</p></article></body></html>`},
		// An <article> that holds nothing: the page's text is beside it.
		{"empty article", `<html><body><article itemscope itemtype="https://schema.org/NewsArticle"><meta itemprop="url" content="https://example.com/a"></article>
<div class="story">` + story + `</div></body></html>`},
	} {
		d := mustBytes(t, c.page, "story.html", "")
		want := []string{
			"The three prisoners were flown to Qatar on Tuesday, officials said, in an exchange that both governments described as a first step towards talks about the future of the country and its foreign troops.",
			"Their release had been delayed for months while the two sides argued over where the exchange would take place and who would watch it.",
		}
		if diff := cmp.Diff(want, texts(d)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", c.name, diff)
		}
	}
}

// Teasers of other articles are <article>s too: cards whose text is a link
// (CBS News: 50 of them beside the story), or a card inside a link
// (phys.org's "Related Stories"). Read as articles, they were most of the
// page saved (CBS News' precision 0.17 on the article benchmark).
func TestHTMLTeaserArticles(t *testing.T) {
	card := `<article class="item"><a href="https://example.com/news/zebra-cows"><h4>Why farmers may want to paint their cows with zebra stripes</h4><p>Some people thought the stripy cattle in a Japanese pasture were a practical joke.</p></a><p>32M ago</p></article>`
	wrapped := `<a href="https://example.com/news/flare" class="news-link"><article class="selection-article"><h5>Caught in the act: a telescope spies a stellar flare</h5><p>1 hour ago</p></article></a>`
	page := `<html><body><article class="content-article"><h1>Video shows rescue</h1>
<p>Police in Fort Worth released video on Monday showing officers storming a motel room and rescuing an eight-year-old girl who had been taken from her mother on Saturday.</p>
</article><section class="more">` + strings.Repeat(card, 6) + strings.Repeat(wrapped, 6) + `</section></body></html>`
	d := mustBytes(t, page, "rescue.html", "")
	want := []string{"Police in Fort Worth released video on Monday showing officers storming a motel room and rescuing an eight-year-old girl who had been taken from her mother on Saturday."}
	if diff := cmp.Diff(want, texts(d)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// A page whose <meta charset="utf-8"> begins before its 1,024th byte and
// ends after it (cleveland.com's, after its scripts and style links):
// the declaration was seen, but not what it says, and the UTF-8 page was
// read as windows-1252 ("CLEVELAND, Ohio â€“ The Doobie Brothers").
func TestHTMLCharsetCutAt1024(t *testing.T) {
	head := `<html lang="en"><head><link rel="stylesheet" href="/style.css?d=`
	head += strings.Repeat("1", 1024-len(head)-len(`"><meta charset`)) + `"><meta charset="utf-8"><title>Doobie Brothers</title></head>`
	page := head + `<body><p>CLEVELAND, Ohio – The Doobie Brothers will ride a Rock and Roll Hall of Fame induction into a 50th anniversary tour in 2020.</p></body></html>`
	d := mustBytes(t, page, "doobie.html", "")
	want := []string{"CLEVELAND, Ohio – The Doobie Brothers will ride a Rock and Roll Hall of Fame induction into a 50th anniversary tour in 2020."}
	if diff := cmp.Diff(want, texts(d)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// An article's headline is its title, which the item shows above its
// text: the first heading is no heading of the paragraphs below it when
// the title holds its words, in whatever capitals and with the site's name
// after them, and the few short lines above it (a kicker, a date) go with
// it. A first heading the title does not hold stays, and so does a
// longer paragraph above the headline.
func TestHTMLHeadlineIsTitle(t *testing.T) {
	page := `<html><head><title>Hunter diagnosed with plague after eating a rabbit – The Daily Planet</title></head><body><article>
<p><a href="/health">Health</a></p><p>BLACK DEATH FEARS</p>
<h1>Hunter Diagnosed With Plague After Eating a Rabbit</h1>
<p>A hunter in the north of the country has been found to have the plague, health officials said on Monday.</p>
<h2>Eating a rabbit</h2>
<p>He had killed and eaten a wild rabbit a week before he fell ill.</p>
</article></body></html>`
	d := mustBytes(t, page, "plague.html", "")
	if d.Title != "Hunter diagnosed with plague after eating a rabbit – The Daily Planet" {
		t.Errorf("title %q", d.Title)
	}
	want := []string{
		": A hunter in the north of the country has been found to have the plague, health officials said on Monday.",
		"Eating a rabbit: He had killed and eaten a wild rabbit a week before he fell ill.",
	}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
	d = mustBytes(t, strings.Replace(page, "<h1>Hunter Diagnosed With Plague After Eating a Rabbit</h1>", "<h1>A rare case</h1>", 1), "plague.html", "")
	want = []string{
		": BLACK DEATH FEARS",
		"A rare case: A hunter in the north of the country has been found to have the plague, health officials said on Monday.",
		"A rare case › Eating a rabbit: He had killed and eaten a wild rabbit a week before he fell ill.",
	}
	if diff := cmp.Diff(want, provenance(d)); diff != "" {
		t.Errorf("a first heading the title does not hold: paragraphs (-want +got):\n%s", diff)
	}
	long := "Health officials in the north of the country were told on Monday."
	d = mustBytes(t, strings.Replace(page, "BLACK DEATH FEARS", long, 1), "plague.html", "")
	if got := texts(d); got[0] != long {
		t.Errorf("a longer paragraph above the headline: paragraphs %q, want %q first", got, long)
	}
	// A title that shortens a long headline, a quarter of its words
	// or fewer left out or written otherwise ("Man" for "Hunter"); a
	// short heading the title holds all but one word of is a heading.
	for _, c := range []struct {
		title, heading string
		headline       bool
	}{
		{"Man diagnosed with plague after eating a rabbit – The Daily Planet", "Hunter Diagnosed With Plague After Eating a Rabbit", true},
		{"Plague after eating a rabbit – The Daily Planet", "Plague after eating rabbits", false},
	} {
		d = mustBytes(t, strings.Replace(strings.Replace(page, "Hunter diagnosed with plague after eating a rabbit – The Daily Planet", c.title, 1),
			"Hunter Diagnosed With Plague After Eating a Rabbit", c.heading, 1), "plague.html", "")
		got := provenance(d)
		if headline := !strings.HasPrefix(got[len(got)-1], c.heading); headline != c.headline {
			t.Errorf("title %q, first heading %q: left out as the headline %v, want %v; paragraphs %q", c.title, c.heading, headline, c.headline, got)
		}
	}
	// A <title> that is the site's name, or a few words of the headline,
	// with the headline in og:title: the headline is the item's title.
	for _, title := range []string{"The Daily Planet", "Rabbit plague – The Daily Planet"} {
		d = mustBytes(t, strings.Replace(page, "<title>Hunter diagnosed with plague after eating a rabbit – The Daily Planet</title>",
			"<title>"+title+`</title><meta property="og:title" content="Hunter Diagnosed With Plague After Eating a Rabbit">`, 1), "plague.html", "")
		if d.Title != "Hunter Diagnosed With Plague After Eating a Rabbit" {
			t.Errorf("title %q, the headline in og:title: the item's title is %q, not the headline", title, d.Title)
		}
		want = []string{
			": A hunter in the north of the country has been found to have the plague, health officials said on Monday.",
			"Eating a rabbit: He had killed and eaten a wild rabbit a week before he fell ill.",
		}
		if diff := cmp.Diff(want, provenance(d)); diff != "" {
			t.Errorf("title %q, the headline in og:title: paragraphs (-want +got):\n%s", title, diff)
		}
	}
}

// A <pre> keeps its lines: "\n" between them, a run of blank lines one
// break, indentation kept less what all lines share, spaces at a line's
// end gone (Python's tutorial, errors.html; issue 39). A short one after
// a sentence that announces it (a colon) is kept with that sentence.
func TestHTMLPreKeepsLines(t *testing.T) {
	page := `<html><head><title>Errors and Exceptions</title></head><body><main>
<h1>Errors and Exceptions</h1>
<p>Syntax errors, also known as parsing errors, are perhaps the most common kind of complaint you get while you are still learning Python:</p>
<pre>&gt;&gt;&gt; while True print('Hello world')   
  File "&lt;stdin&gt;", line 1


	while True print('Hello world')
                   ^
SyntaxError: invalid syntax
</pre>
<p>The parser repeats the offending line and displays a little arrow pointing at the earliest point in the line where the error was detected.</p>
<pre>
    def f(x):
        return x  

    f(1)
</pre>
</main></body></html>`
	d := mustBytes(t, page, "errors.html", "")
	var got []string
	for _, p := range d.Paragraphs {
		got = append(got, p.Text)
	}
	want := []string{
		"Syntax errors, also known as parsing errors, are perhaps the most common kind of complaint you get while you are still learning Python:\n\n" +
			">>> while True print('Hello world')\n  File \"<stdin>\", line 1\n        while True print('Hello world')\n                   ^\nSyntaxError: invalid syntax",
		"The parser repeats the offending line and displays a little arrow pointing at the earliest point in the line where the error was detected.",
		"def f(x):\n    return x\nf(1)",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("paragraphs (-want +got):\n%s", diff)
	}
}
