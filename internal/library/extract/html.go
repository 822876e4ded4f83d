package extract

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/sponge-library/sponge/internal/base/item"
)

// HTML is read readability-style: navigation, page header and footer,
// asides, scripts, styles, forms, hidden elements, menus and link lists are
// dropped; then <main>, else the <article> elements, else the element that
// holds most of the page's text is read, going down no further than a block
// beside which other paragraphs or sections of prose stand (the sections of
// a documentation page are siblings). Boxes among the paragraphs (DocBook's
// sidebars: TIP, CULTURE…) and tables of data whose cells are links are
// content, and so is a list of links to the files beside the page (a
// documentation site's table of contents: Sphinx's toctree, DocBook's index
// page). An article's furniture goes too: its byline and dateline (a short
// block around a <time>, named a date or that is a timestamp, schema.org's
// author, its "meta" line), a box about its writer, photo credits (named a
// credit or an attribution, or at the end of a caption: dropCredit), ads
// (and the label left beside an ad's slot once its script is gone:
// dropAdLabels), a newsletter's sign-up box (its form asks for an email:
// dropSignups), share bars, a box's "Close" control, tags, links to the
// previous and next post, paragraphs that are a link to another page
// (after a label or not), the label above such links to other stories
// ("DON'T MISS": see prune),
// teasers of other pages (by their headline too, or a card of a picture and
// a headline that link to one page), text for screen readers only or hidden
// by a CSS framework's class (hiddenClass), the notes in italics that end
// it (who wrote it, a call to subscribe; their links may be in roman); a
// figure's caption stays (once: a gallery's copy of it goes), and so does a
// post embedded in the text (a tweet) and a quotation's source. Its
// headline is its title: the first heading is left out, with a kicker above
// it, when the title holds its words (all but a quarter of a long one; or
// the og:title a site gives for sharing, when its <title> is the site's
// name or a few of its words: the headline is the title then).
// Headings h1–h6 make the Heading path of the paragraphs below; p, li,
// blockquote, pre, table rows (cells joined with " | "), dt/dd,
// figcaption and text directly in divs are paragraphs. A pre keeps its
// lines (codeText), and a short one is kept with the paragraph before it
// when that announces it (announced).
//
// Why not go-trafilatura (Apache-2.0) for pages that look like articles
// (measured with internal/bench/extract, December 2026): it is level on
// news articles (F1 0.960 to our 0.964, precision 0.940 to 0.938, recall
// 0.980 to 0.991, all 181 pages; the figure captions we keep, which the
// benchmark's text leaves out, cost us about 0.01 of precision on the
// tuning half, more than the gap) but keeps 0.76, 0.67 and 0.95 of the
// three documentation sites' words to our 0.991, 0.985 and 0.973 (it
// drops DocBook's boxes and sections), takes about 50 times our CPU a page
// (30 article pages: 7.2-8.5 s user to our 0.14-0.17 s) and adds 9.1 MB to
// a program that links it (10.5 to 19.6 MB). Telling an article from a
// documentation page would be a guess of its own, and a wrong guess loses
// most of a page.

// dropTags are never content.
var dropTags = map[atom.Atom]bool{
	atom.Head: true, atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Template: true,
	atom.Nav: true, atom.Aside: true, atom.Form: true, atom.Button: true, atom.Select: true,
	atom.Textarea: true, atom.Input: true, atom.Iframe: true, atom.Svg: true,
	atom.Canvas: true, atom.Menu: true, atom.Dialog: true, atom.Object: true, atom.Embed: true,
	atom.Img: true, atom.Picture: true, atom.Video: true, atom.Audio: true, atom.Map: true,
	atom.Link: true, atom.Meta: true, atom.Label: true, atom.Option: true,
}

// blockTags end the paragraph before them and start a new one.
var blockTags = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.Section: true, atom.Article: true, atom.Main: true,
	atom.Li: true, atom.Ul: true, atom.Ol: true, atom.Dl: true, atom.Dt: true, atom.Dd: true,
	atom.Blockquote: true, atom.Pre: true, atom.Table: true, atom.Tr: true,
	atom.Thead: true, atom.Tbody: true, atom.Tfoot: true, atom.Caption: true, atom.Figure: true,
	atom.Figcaption: true, atom.Address: true, atom.Details: true, atom.Summary: true, atom.Hr: true,
	atom.Center: true, atom.Fieldset: true, atom.Header: true, atom.Footer: true, atom.Hgroup: true,
	atom.Body: true, atom.Html: true,
}

var headingLevel = map[atom.Atom]int{atom.H1: 1, atom.H2: 2, atom.H3: 3, atom.H4: 4, atom.H5: 5, atom.H6: 6}

var (
	// Words of class and id names that mark clutter, and content. A name
	// is cut into words at spaces, "_" and "-"; two-word entries match two
	// words in a row. (A word set, not a regular expression: matching class
	// names was a tenth of all the time `sponge add` spent on linux-doc.)
	clutterWords = nameWordsOf("nav navbar navigation menu menubar footer breadcrumb breadcrumbs cookie cookies " +
		"consent banner share sharing social advert advertisement ads promo related subscribe newsletter popup modal " +
		"skip comment comments masthead toolbar pagination pager site-header hidden visually-hidden sr-only " +
		"ad byline dateline timestamp credit credits disqus tags print recommended trending " +
		"off-screen offscreen screen-reader similar login cta disclosure foot postinfo " +
		"bread-crumb prev-next next-previous previous-next " +
		"authors article-meta content-meta entry-meta post-meta " +
		"image-copyright picture-source messenger sharedaddy post-flair relatedposts rollover-block read-more readmore robots-nocontent read-time reading-time slide-count gallery-count")
	sidebarWords = nameWordsOf("sidebar")
	authorWords  = nameWordsOf("author")
	// attributionWords name a credit: of a photo ("© Amazon", "Courtesy
	// of …", "… for Quanta Magazine") or of a story ("wire services"); in
	// or beside a <blockquote> they name the quotation's source, which
	// reads with it (docutils: <p class="attribution">—Tim Peters</p>)
	attributionWords = nameWordsOf("attribution")
	dateWords        = nameWordsOf("date pubdate postdate posted-on published updated")
	commentWords     = nameWordsOf("comment comments")
	contentWords     = nameWordsOf("article content main post entry story body text")
	embedWords       = nameWordsOf("embed embedded")
	captionWords     = nameWordsOf("caption")
	closeWords       = nameWordsOf("close")
	// classClutterWords are clutterWords and the words that mark clutter
	// in a class but not in an id: "close", a control that closes a box
	// (a gallery's caption, a modal, a video's overlay: "Close", "×"),
	// for Python's docs name a function's entry by its id
	// ("difflib.get_close_matches")
	classClutterWords = clutterWords | closeWords
	hiddenRE          = lazyRE(`(?i)display\s*:\s*none|visibility\s*:\s*hidden`)
	clutterRoles      = map[string]bool{
		"navigation": true, "banner": true, "contentinfo": true, "complementary": true, "menu": true,
		"menubar": true, "search": true, "dialog": true, "alertdialog": true, "toolbar": true, "tablist": true,
	}
	titleSepRE = lazyRE(`^\s*(\||-|–|—|·|•|:|::|»)\s*`)
)

// A nameKind is a set of words of class and id names (clutterWords,
// contentWords, …), one bit each, so that a name is cut into words once
// for all of them (see nameKinds).
type nameKind uint16

// nameWordKinds are the kinds of each word (and two-word entry) of the
// kinds made by nameWordsOf.
var nameWordKinds = map[string]nameKind{}

// nameWordsOf makes a new kind of the words given.
func nameWordsOf(words string) nameKind {
	k := nameKind(1) << nameKindCount
	nameKindCount++
	for _, w := range strings.Fields(words) {
		nameWordKinds[w] |= k
	}
	return k
}

// nameKindCount is how many kinds nameWordsOf has made: at most 16.
var nameKindCount int

// nameWords cuts class and id names into lower-case words, at spaces,
// "_", "-" and where a capital follows a small letter ("relatedContent",
// "GoogleDfpAd").
func nameWords(names string) []string {
	var words []string
	start := -1
	prev := ' '
	for i, r := range names {
		cut := r == '_' || r == '-' || unicode.IsSpace(r)
		if start >= 0 && (cut || unicode.IsUpper(r) && unicode.IsLower(prev)) {
			words = append(words, strings.ToLower(names[start:i]))
			start = -1
		}
		if !cut && start < 0 {
			start = i
		}
		prev = r
	}
	if start >= 0 {
		words = append(words, strings.ToLower(names[start:]))
	}
	return words
}

// nameHas reports whether names hold a word (or two words in a row) of
// one of kinds.
func nameHas(names string, kinds nameKind) bool {
	return nameKinds(names)&kinds != 0
}

// nameKinds are the kinds of the words of names, and of each two words
// in a row joined by "-": wordKinds(nameWords(names)) without making the
// words (it runs for each class of each element): the words are cut and
// lowered in buffers on the stack, where names are ASCII.
func nameKinds(names string) nameKind {
	for i := 0; i < len(names); i++ {
		if names[i] >= utf8.RuneSelf {
			return wordKinds(nameWords(names))
		}
	}
	const most = 64
	var prev, cur [most]byte
	var pair [2*most + 1]byte
	var kinds nameKind
	nprev, start := -1, -1
	for i := 0; i <= len(names); i++ {
		c := byte(' ')
		if i < len(names) {
			c = names[i]
		}
		cut := c == '_' || c == '-' || c == ' ' || '\t' <= c && c <= '\r'
		if start >= 0 && (cut || 'A' <= c && c <= 'Z' && 'a' <= names[i-1] && names[i-1] <= 'z') {
			w := names[start:i]
			if len(w) > most {
				return wordKinds(nameWords(names))
			}
			for j := 0; j < len(w); j++ {
				b := w[j]
				if 'A' <= b && b <= 'Z' {
					b += 'a' - 'A'
				}
				cur[j] = b
			}
			kinds |= nameWordKinds[string(cur[:len(w)])]
			if nprev >= 0 {
				k := copy(pair[:], prev[:nprev])
				pair[k] = '-'
				k += 1 + copy(pair[k+1:], cur[:len(w)])
				kinds |= nameWordKinds[string(pair[:k])]
			}
			nprev = copy(prev[:], cur[:len(w)])
			start = -1
		}
		if !cut && start < 0 {
			start = i
		}
	}
	return kinds
}

// wordKinds are the kinds of words, and of each two in a row joined by
// "-".
func wordKinds(words []string) nameKind {
	var kinds nameKind
	for i, w := range words {
		kinds |= nameWordKinds[w]
		if i+1 < len(words) {
			kinds |= nameWordKinds[w+"-"+words[i+1]]
		}
	}
	return kinds
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

func extractHTML(data []byte, contentType string, allText bool) (*Document, error) {
	text, err := decodeMarkup(data, contentType)
	if err != nil {
		return nil, err
	}
	root, err := html.Parse(strings.NewReader(text))
	if err != nil {
		return nil, err
	}
	title, ogTitle := pageTitles(root)
	body := find(root, func(n *html.Node) bool { return n.DataAtom == atom.Body })
	if body == nil {
		body = root
	}
	scripted, emails := pruneHidden(body)
	shown, _ := textLen(body)
	roots := []*html.Node{body}
	if !allText {
		dropAdLabels(scripted)
		dropSignups(emails)
		dropCommentNotes(body)
		pr := newPruner(body)
		pr.prune(body, false)
		roots = pr.contentRoots(body)
	}
	var b builder
	h := &headings{}
	h1 := ""
	for _, c := range roots {
		if n := find(c, func(n *html.Node) bool { return n.DataAtom == atom.H1 }); n != nil {
			h1 = cleanText(textOf(n))
			break
		}
	}
	switch {
	case title != "" && h1 != "" && strings.HasPrefix(title, h1) && (len(title) == len(h1) || titleSepRE.MatchString(title[len(h1):])):
		title = h1 // "Steeping tea | Example Blog" → "Steeping tea"
	case title == "" && ogTitle != "":
		title = ogTitle
	case title == "":
		title = h1
	}
	h.title = title
	w := &htmlWalker{b: &b, h: h, og: ogTitle}
	w.dedupe = !allText
	w.headline = !allText
	for _, c := range roots {
		w.walk(c)
		w.flush()
	}
	if w.retitle != "" {
		title = w.retitle
	}
	paras := b.paras
	if !allText {
		paras = dropCopies(dropItalicTail(paras, w.italics))
	}
	author, published := pageMeta(root)
	return &Document{Title: title, Paragraphs: paras, Shown: shown, Author: author, Published: published}, nil
}

// dropItalicTail leaves out the paragraphs (<p>s) all in italics at the
// end of the text, an article's notes about itself: who wrote it and
// where to follow them ("Have a tip? Amy Kuperinsky may be reached at …"),
// a call to subscribe, the magazine it first ran in. A page all in
// italics is kept. Any language: the rule reads no words.
func dropItalicTail(paras []item.Paragraph, italics []bool) []item.Paragraph {
	k := len(paras)
	for k > 0 && k <= len(italics) && italics[k-1] {
		k--
	}
	if k == 0 {
		return paras
	}
	return paras[:k]
}

// dropCopies leaves out a gallery's copies of a caption: a paragraph cut
// short (ending in "..." or "…", and at most a word after it: "… more")
// whose text up to there begins another paragraph of the page, and the
// repeats of that other paragraph. A gallery writes each caption whole
// and cut short, in the slide and again in its full-screen view (Hearst's
// news sites: four copies of each). Other repeats stay: a meal plan names
// the same meal under each day. Any language: the rule reads no words.
func dropCopies(paras []item.Paragraph) []item.Paragraph {
	var cut []bool
	whole := map[string]bool{}
	for i, p := range paras {
		if j := cutCopy(p.Text, paras, i); j >= 0 {
			if cut == nil {
				cut = make([]bool, len(paras))
			}
			cut[i] = true
			whole[paras[j].Text] = true
		}
	}
	if cut == nil {
		return paras
	}
	out := paras[:0:0]
	seen := map[string]bool{}
	for i, p := range paras {
		if cut[i] || whole[p.Text] && seen[p.Text] {
			continue
		}
		seen[p.Text] = true
		out = append(out, p)
	}
	return out
}

// cutCopy returns the index of the paragraph that text, paras[i], is cut
// short from, or -1.
func cutCopy(text string, paras []item.Paragraph, i int) int {
	head := strings.TrimSpace(text)
	if k := strings.LastIndexByte(head, ' '); k >= 0 && !strings.ContainsRune(head[k:], '.') && !strings.ContainsRune(head[k:], '…') {
		head = strings.TrimSpace(head[:k]) // "… more"
	}
	switch {
	case strings.HasSuffix(head, "..."):
		head = head[:len(head)-3]
	case strings.HasSuffix(head, "…"):
		head = head[:len(head)-len("…")]
	default:
		return -1
	}
	head = strings.TrimSpace(head)
	if utf8.RuneCountInString(head) < minCutCopy {
		return -1
	}
	for j, q := range paras {
		if j != i && len(q.Text) > len(head) && strings.HasPrefix(q.Text, head) && !strings.HasPrefix(q.Text, text) {
			return j
		}
	}
	return -1
}

// minCutCopy is the least text a paragraph cut short keeps before its
// "…" for cutCopy to match it: a few words could begin anything.
const minCutCopy = 40

// pruneHidden removes what a person never sees: scripts, styles, hidden
// elements, comments. (prune then takes the page's furniture away too.)
// It returns the elements it took a script out of, for dropAdLabels,
// and the inputs of an email address it met, for dropSignups.
func pruneHidden(n *html.Node) (scripted, emails []*html.Node) {
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; {
			next := c.NextSibling
			if c.DataAtom == atom.Input && strings.EqualFold(attr(c, "type"), "email") {
				emails = append(emails, c)
			}
			if isHidden(c) {
				if c.DataAtom == atom.Script && (len(scripted) == 0 || scripted[len(scripted)-1] != n) {
					scripted = append(scripted, n)
				}
				n.RemoveChild(c)
			} else {
				walk(c)
			}
			c = next
		}
	}
	walk(n)
	return scripted, emails
}

// dropAdLabels removes the label left beside an ad's slot once its script
// is gone: "Advert" above a script in a <center> (Morebikes), "Iklan" in
// WordPress.com's ad box, whose script is three <div>s down, "スポンサード
// リンク" above Google's. The box around each element a script was taken
// out of (scripted) that holds at most adLabelChars of text goes
// (boxAround). Any language: the rule reads no words.
func dropAdLabels(scripted []*html.Node) {
	for _, n := range scripted {
		if box := boxAround(n, adLabelChars); box != nil {
			box.Parent.RemoveChild(box)
		}
	}
}

// boxAround is the highest block above n, or n, that holds text of at
// most max characters, in elements of its own, with no paragraph of
// prose (holdsProse) in it: the box a removed thing (an ad's script, a
// sign-up form) stood in, with its label or blurb. It goes up while the
// element above holds no more; a paragraph, an item, a cell, a heading
// or a block with words of its own (bareText) stops it (text that held
// the thing among its words), and so do a caption, body, main and
// article. It is nil when no such block holds text.
func boxAround(n *html.Node, max int) *html.Node {
	var box *html.Node
	for m := n; m != nil && m.Parent != nil && m.Type == html.ElementNode; m = m.Parent {
		if m.DataAtom == atom.Body || m.DataAtom == atom.Main || m.DataAtom == atom.Article || isCaption(m) {
			break
		}
		k := textUpTo(m, max+1)
		if k > max || k > 0 && (textBlocks[m.DataAtom] || headingLevel[m.DataAtom] > 0 || bareText(m)) ||
			k >= proseChars && holdsProse(m) {
			break
		}
		if k > 0 && blockTags[m.DataAtom] {
			box = m
		}
	}
	return box
}

// dropSignups removes a box that asks for an email address to send a
// newsletter to: a <form> with an <input type="email"> (emails, from
// pruneHidden), and the heading and blurb around it, up to signupChars
// of text with no paragraph of prose ("Subscribe to the Morning Review
// newsletter / Get the day's top headlines delivered to your inbox …",
// the Spokesman-Review). The form would go anyway (dropTags); the words
// that ask for the address are furniture too. Any language: the rule
// reads no words.
func dropSignups(emails []*html.Node) {
	for _, in := range emails {
		form := in
		for form != nil && form.DataAtom != atom.Form {
			form = form.Parent
		}
		if form == nil || form.Parent == nil {
			continue
		}
		parent := form.Parent
		parent.RemoveChild(form)
		if box := boxAround(parent, signupChars); box != nil {
			box.Parent.RemoveChild(box)
		}
	}
}

// dropCommentNotes removes the heading and note above a box of readers'
// comments that a script fills (Facebook's "fb-comments", Disqus's
// "disqus_thread": a block named so that holds no text once its script is
// gone): the blocks of text just before it, back to a heading (h2–h6), up
// to commentNoteChars of text and no paragraph of prose ("Tell us what YOU
// think..." above "0 comments"; "ATENÇÃO: Comentários … não serão
// aprovados pelo moderador"). The box would go anyway (its name); the
// words that invite to it are furniture too. Any language: the rule reads
// names.
func dropCommentNotes(body *html.Node) {
	if find(body, isCommentBox) == nil {
		return // most pages: no list of all their nodes to make
	}
	var order []*html.Node // body's nodes in document order
	var boxes []int        // the places in order of the comment boxes
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		order = append(order, n)
		if isCommentBox(n) {
			boxes = append(boxes, len(order)-1)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(body)
	for _, i := range boxes {
		for _, b := range commentNotes(order[:i], order[i]) {
			if b.Parent != nil {
				b.Parent.RemoveChild(b)
			}
		}
	}
}

// isCommentBox reports whether n is a box of comments that dropCommentNotes
// takes the note above: a <div> or <section> named so that holds no text.
func isCommentBox(n *html.Node) bool {
	return (n.DataAtom == atom.Div || n.DataAtom == atom.Section) && nameHas(attr(n, "class")+" "+attr(n, "id"), commentBoxWords) &&
		textUpTo(n, 1) == 0
}

// commentNotes are the blocks that dropCommentNotes takes above box, of
// the nodes before it in document order.
func commentNotes(before []*html.Node, box *html.Node) []*html.Node {
	var notes []*html.Node
	total := 0
	for j := len(before) - 1; j >= 0; j-- {
		t := before[j]
		if t.Type != html.TextNode || strings.TrimSpace(t.Data) == "" {
			continue
		}
		b := t.Parent
		for b != nil && !blockTags[b.DataAtom] && headingLevel[b.DataAtom] == 0 {
			b = b.Parent
		}
		if len(notes) > 0 && notes[len(notes)-1] == b {
			continue
		}
		if b == nil || contains(b, box) || !beside(b, box) {
			break // text around the box, or an article's that the box is outside of
		}
		k, _ := textLen(b)
		if total += k; total > commentNoteChars || headingLevel[b.DataAtom] == 1 || holdsProse(b) || inCaption(b) {
			break
		}
		notes = append(notes, b)
		if headingLevel[b.DataAtom] > 0 {
			break
		}
	}
	return notes
}

// beside reports whether b is in the block that holds box, and not in an
// <article> or <main> there: text that a comment box's heading and note
// can be, not an article's last lines with the box after it.
func beside(b, box *html.Node) bool {
	for p := b; p != nil; p = p.Parent {
		if p == box.Parent {
			return true
		}
		if p.DataAtom == atom.Article || p.DataAtom == atom.Main {
			return false
		}
	}
	return false
}

// inCaption reports whether n is a caption or in one (see isCaption).
func inCaption(n *html.Node) bool {
	for ; n != nil; n = n.Parent {
		if n.Type == html.ElementNode && isCaption(n) {
			return true
		}
	}
	return false
}

// contains reports whether m is n or under it.
func contains(n, m *html.Node) bool {
	for ; m != nil; m = m.Parent {
		if m == n {
			return true
		}
	}
	return false
}

// commentNoteChars is the most text above a comment box that
// dropCommentNotes takes with it: a heading and a line.
const commentNoteChars = 120

// commentBoxWords name a box of readers' comments.
var commentBoxWords = nameWordsOf("comment comments disqus")

// signupChars is the most text around a sign-up form that dropSignups
// takes with it: a heading, a sentence or two, the messages shown after.
const signupChars = 400

// bareText reports whether n holds words directly, not in an element.
func bareText(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.TextNode && strings.TrimSpace(c.Data) != "" {
			return true
		}
	}
	return false
}

// textBlocks are the blocks whose text is a paragraph's.
var textBlocks = map[atom.Atom]bool{
	atom.P: true, atom.Li: true, atom.Td: true, atom.Th: true, atom.Dd: true, atom.Dt: true,
	atom.Blockquote: true, atom.Pre: true, atom.Caption: true, atom.Summary: true, atom.Address: true,
}

// adLabelChars is the most text an ad's label holds ("Advertisement",
// "Story continues below").
const adLabelChars = 24

// textUpTo counts n's characters of text (less the white space around
// each text node), stopping once it has max.
func textUpTo(n *html.Node, max int) int {
	k := 0
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			k += utf8.RuneCountInString(strings.TrimSpace(n.Data))
			return
		}
		for c := n.FirstChild; c != nil && k < max; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return k
}

// isHidden reports whether n is never shown.
func isHidden(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return n.Type == html.CommentNode
	}
	switch n.DataAtom {
	case atom.Head, atom.Script, atom.Style, atom.Noscript, atom.Template:
		return true
	}
	return hiddenByAttr(n)
}

// containsFold reports whether s holds word, an ASCII word in small
// letters, in any case.
func containsFold(s, word string) bool {
	for i := 0; i+len(word) <= len(s); i++ {
		j := 0
		for j < len(word) && s[i+j]|0x20 == word[j] {
			j++
		}
		if j == len(word) {
			return true
		}
	}
	return false
}

// hiddenByAttr reports whether an element's attributes hide it: hidden,
// aria-hidden="true", or a style that does not display it.
func hiddenByAttr(n *html.Node) bool {
	if hasAttr(n, "hidden") || attr(n, "aria-hidden") == "true" {
		return true
	}
	style := attr(n, "style")
	return style != "" && (containsFold(style, "none") || containsFold(style, "hidden")) && hiddenRE.MatchString(style)
}

// pageTitles returns the <title> and og:title of a page.
func pageTitles(root *html.Node) (title, og string) {
	if t := find(root, func(n *html.Node) bool { return n.DataAtom == atom.Title }); t != nil {
		title = cleanText(textOf(t))
	}
	if m := find(root, func(n *html.Node) bool {
		return n.DataAtom == atom.Meta && (attr(n, "property") == "og:title" || attr(n, "name") == "og:title")
	}); m != nil {
		og = cleanText(attr(m, "content"))
	}
	return title, og
}

func find(n *html.Node, f func(*html.Node) bool) *html.Node {
	if f(n) {
		return n
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if m := find(c, f); m != nil {
			return m
		}
	}
	return nil
}

func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			b.WriteString(n.Data)
		case html.ElementNode:
			if blockTags[n.DataAtom] || n.DataAtom == atom.Br {
				b.WriteByte(' ')
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// textLen counts the characters of text in n, and those inside links.
func textLen(n *html.Node) (all, linked int) {
	var walk func(*html.Node, bool)
	walk = func(n *html.Node, inLink bool) {
		if n.Type == html.TextNode {
			k := utf8.RuneCountInString(strings.TrimSpace(n.Data))
			all += k
			if inLink {
				linked += k
			}
		}
		inLink = inLink || isLink(n)
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, inLink)
		}
	}
	walk(n, false)
	return all, linked
}

// isLink reports whether n is a link. An <a> without href is an anchor:
// DocBook's XHTML writes them as <a id="x"/>, which HTML parsing leaves
// open, so that one wraps the rest of the page (Debian Reference).
func isLink(n *html.Node) bool {
	return n.DataAtom == atom.A && hasAttr(n, "href")
}

// A pruner removes a page's furniture. ids are the page's own ids: a
// link to one of them goes nowhere else. lead are the blocks that hold
// the page's longest paragraph, mains those that hold its main content.
type pruner struct {
	ids   map[string]bool
	lead  map[*html.Node]bool
	mains map[*html.Node]bool
	// article is the text of the page's longest <article>: one of a
	// tenth of it is a teaser of another page ("Most popular")
	article int
	// texts are the blocks' linkText, counted once each: a block is
	// judged before its children are, and each rule that counts a block's
	// text would walk it again (on DocBook's pages, whose anchors left
	// open wrap the rest of the page, a walk for each of thousands of
	// nested elements). A block's count is forgotten, with its
	// ancestors', when a child of it is removed (see forget).
	texts map[*html.Node]linkText
}

// newPruner learns what the pruner needs of the page in one walk: its
// ids and anchor names; the elements that are or wrap its main content
// (<main>, role="main" or an <article> that is not a teaser: more than a
// tenth of the longest; a side column of teasers wraps no content, and is
// judged by its name and links), which are not clutter, whatever
// their class or share of links (Sphinx pages, for one, put everything in
// a <div class="wy-grid-for-nav"> that also holds the sidebar's long
// menu); its longest <article>; and the elements that hold its longest
// paragraph (its own text outside blocks and links): the page's text is
// in them, however many links stand beside it (a town hall's news page
// wraps its one paragraph, its menus and eight years of archive links in
// one <div>).
func newPruner(body *html.Node) *pruner {
	pr := &pruner{ids: map[string]bool{}, lead: map[*html.Node]bool{}, mains: map[*html.Node]bool{}}
	var best *html.Node
	most, elements := 0, 0
	var articles []*html.Node
	var sizes []int
	// walk returns n's characters of text and those in links, and counts
	// each element's own text (ownText) from its children's
	var walk func(n *html.Node, inLink bool) (all, linked int)
	walk = func(n *html.Node, inLink bool) (all, linked int) {
		if n.Type == html.TextNode {
			k := utf8.RuneCountInString(strings.TrimSpace(n.Data))
			if inLink {
				return k, k
			}
			return k, 0
		}
		for _, a := range n.Attr {
			if a.Key == "id" || a.Key == "name" && n.DataAtom == atom.A {
				pr.ids[a.Val] = true
			}
		}
		if n.DataAtom == atom.Main || n.Type == html.ElementNode && attr(n, "role") == "main" {
			for m := n; m != nil && !pr.mains[m]; m = m.Parent {
				pr.mains[m] = true
			}
		}
		elements++
		inLink = inLink || isLink(n)
		own, ownLinked := 0, 0
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			k, l := walk(c, inLink)
			all, linked = all+k, linked+l
			if c.Type == html.TextNode || c.Type == html.ElementNode && !blockTags[c.DataAtom] {
				own, ownLinked = own+k, ownLinked+l
			}
		}
		if n.Type == html.ElementNode && n != body && own-ownLinked > most {
			best, most = n, own-ownLinked
		}
		if n.DataAtom == atom.Article {
			articles = append(articles, n)
			sizes = append(sizes, all)
			pr.article = max(pr.article, all)
		}
		return all, linked
	}
	walk(body, false)
	pr.texts = make(map[*html.Node]linkText, elements) // made once: most blocks are counted
	for i, a := range articles {
		if 10*sizes[i] < pr.article {
			continue // a teaser: it wraps nothing
		}
		for m := a; m != nil && !pr.mains[m]; m = m.Parent {
			pr.mains[m] = true
		}
	}
	for n := best; n != nil; n = n.Parent {
		pr.lead[n] = true
	}
	return pr
}

// insideLink reports whether n is inside a link.
func insideLink(n *html.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if isLink(p) {
			return true
		}
	}
	return false
}

// isClutter reports whether an element is navigation, chrome or hidden.
func (pr *pruner) isClutter(n *html.Node, inContent bool) bool {
	if n.Type != html.ElementNode {
		return n.Type == html.CommentNode
	}
	if dropTags[n.DataAtom] && !(n.DataAtom == atom.Form && holdsProse(n)) {
		return true // a form that holds prose wraps the page, as ASP.NET's do
	}
	if n.DataAtom == atom.Footer || n.DataAtom == atom.Header && !inContent {
		return true // an article's own <header> holds its title: keep that one
	}
	if hiddenByAttr(n) {
		return true
	}
	if clutterRoles[strings.ToLower(attr(n, "role"))] {
		return true
	}
	switch n.DataAtom {
	case atom.Body, atom.Html, atom.Main:
		return false
	case atom.Article:
		// an <article> is content, unless it is a reader's comment
		// (WordPress: <article class="comment-body">) or a teaser: a card
		// whose text is a link to another article
		t := pr.linkText(n)
		all, linked := t.all, t.linked
		return nameHas(attr(n, "class")+" "+ownID(n), commentWords) || all > 0 && 10*linked >= 7*all || insideLink(n) ||
			10*all < pr.article
	}
	if n.DataAtom == atom.A && (isPermalink(n) || shareButton(n)) {
		return true
	}
	if pr.teaser(n) {
		return true
	}
	if metaProps[attr(n, "itemprop")] || n.DataAtom == atom.A && relWords(attr(n, "rel")) {
		return true
	}
	if pr.mains[n] {
		return false
	}
	if hiddenClass(attr(n, "class")) && !pr.lead[n] {
		return true
	}
	if pr.namedFurniture(n) {
		return true
	}
	if k := nameKinds(attr(n, "class") + " " + ownID(n)); k&sidebarWords != 0 && k&contentWords == 0 && !amongParagraphs(n) {
		return true // a page's side column, not a box in the text (DocBook's sidebars)
	}
	// Blocks judged by their text and links, counted once: datelines,
	// paragraphs that are a link, and lists and blocks that are mostly
	// links (menus, tag clouds, "related" lists). A paragraph is judged
	// after its own furniture is gone (see prune).
	if n.DataAtom == atom.Span && namedDate(n) {
		return pr.linkText(n).all <= datelineChars
	}
	return n.DataAtom != atom.P && pr.linkClutter(n)
}

// linkClutter reports whether a block is furniture by its text and
// links: a dateline, a paragraph that is a link, a list or block that is
// mostly links.
func (pr *pruner) linkClutter(n *html.Node) bool {
	switch n.DataAtom {
	case atom.Ul, atom.Ol, atom.Div, atom.Section, atom.Table, atom.P:
		t := pr.linkText(n)
		all, linked, links, local := t.all, t.linked, t.links, t.local
		if isDateline(n, all) || n.DataAtom == atom.P && pr.linkOnly(n, all, linked) {
			return true
		}
		if n.DataAtom != atom.P && all > 0 && linked == all && !pr.lead[n] && pictureCard(n) {
			return true
		}
		if links >= 3 && all > 0 && float64(linked) > 0.7*float64(all) && !titled(n) && 2*local <= links && !pr.lead[n] {
			return true
		}
	}
	return false
}

// pictureCard reports whether n, all its text in links, is a card that
// leads to another page: its links all go to one page, and one of them is
// a picture (CNN's "The United States once again kicks the Huawei can down
// the road" between two paragraphs, its photo and headline each a link to
// that story). A picture that links to itself at full size leads nowhere
// else, nor does a link into the page. Any language: the rule reads no
// words.
func pictureCard(n *html.Node) bool {
	href, picture, one := "", false, true
	var walk func(*html.Node)
	walk = func(m *html.Node) {
		if !one {
			return
		}
		if isLink(m) {
			h := strings.TrimSpace(attr(m, "href"))
			if href != "" && h != href || h == "" || h[0] == '#' {
				one = false
				return
			}
			href = h
			picture = picture || find(m, func(k *html.Node) bool { return k.DataAtom == atom.Img || k.DataAtom == atom.Picture }) != nil
			return
		}
		for c := m.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return one && picture && !imageFile(href)
}

// imageFile reports whether a link's address names a picture's file.
func imageFile(href string) bool {
	if i := strings.IndexAny(href, "?#"); i >= 0 {
		href = href[:i]
	}
	href = strings.ToLower(href)
	for _, ext := range []string{".jpg", ".jpeg", ".png", ".gif", ".webp", ".svg", ".avif"} {
		if strings.HasSuffix(href, ext) {
			return true
		}
	}
	return false
}

// teaser reports whether n is a teaser of another page by its headline:
// a card that is a link to another page and holds a heading (h2–h6), or
// such a heading in a list's item ("Related", "Most read"), all its text
// a link to another page. A documentation page's headings are no links,
// or links into the page (a permalink, DocBook's anchors); an article's
// section under a heading that links to a product is in no list. Any
// language: the rule reads no words.
func (pr *pruner) teaser(n *html.Node) bool {
	if isLink(n) {
		return !intoPage(n) && find(n, func(m *html.Node) bool { return headingLevel[m.DataAtom] > 1 }) != nil
	}
	if headingLevel[n.DataAtom] < 2 {
		return false
	}
	inList := false
	for p := n.Parent; p != nil && !inList; p = p.Parent {
		inList = p.DataAtom == atom.Li
	}
	return inList && pr.linkedHeading(n)
}

// linkedHeading reports whether the heading n is all a link to another
// page: nine tenths of its text in links, none of them into the page.
func (pr *pruner) linkedHeading(n *html.Node) bool {
	t := pr.linkText(n)
	if t.all == 0 || 10*t.linked < 9*t.all {
		return false
	}
	return find(n, func(m *html.Node) bool { return isLink(m) && intoPage(m) }) == nil
}

// intoPage reports whether a link names a place in its own page ("#intro").
func intoPage(a *html.Node) bool {
	return strings.HasPrefix(strings.TrimSpace(attr(a, "href")), "#")
}

// namedFurniture reports whether n's class or id names it furniture: one
// of its names (a class, or the id) holds a clutter word, and no other
// names content. A name is read whole: "post-pagination" and
// "share-text" are furniture, "entry-content" beside "has-share" is not;
// but a name of both kinds on the block that holds the page's longest
// paragraph ("ad_body" on the wrapper of a page) names content.
func (pr *pruner) namedFurniture(n *html.Node) bool {
	furniture, content := false, false
	check := func(name string, clutter nameKind) {
		k := nameKinds(name)
		c := k&contentWords != 0 && contentName(name)
		switch {
		case k&embedWords != 0:
			content = true // a post quoted in the text: "social-media-embed" holds a tweet
		case (k&clutter != 0 || k&authorWords != 0 && authorName(name) || k&attributionWords != 0 && !inQuote(n)) && !(c && pr.lead[n]):
			furniture = true
		case c && !bemElement(name):
			content = true
		}
	}
	class := attr(n, "class")
	for class != "" {
		i := strings.IndexAny(class, " \t\n\f\r")
		if i < 0 {
			i = len(class)
		}
		if i > 0 {
			check(class[:i], classClutterWords)
		}
		class = class[min(i+1, len(class)):]
	}
	check(ownID(n), clutterWords)
	return furniture && !content
}

// contentName reports whether a class or id names content (contentWords).
// A name that begins "text-" is a CSS framework's class for how text looks
// ("text-center", "text-muted", "text-low": Bootstrap's, Tailwind's), not
// what it is: it names content only by its other words ("text-body").
// Any language: the rule reads names.
func contentName(name string) bool {
	if len(name) > 5 && strings.EqualFold(name[:5], "text-") {
		name = name[5:]
	}
	return nameHas(name, contentWords)
}

// hiddenClasses are the classes with which CSS frameworks hide a block
// (Tachyons' "dn", Bootstrap's "d-none", Foundation's "hide"): a
// newsletter form's "You have been successfully subscribed!", shown when
// a script says so. A class is matched whole ("hide-for-small" hides on
// phones only; "hidden" is a clutter word).
var hiddenClasses = map[string]bool{"dn": true, "d-none": true, "hide": true, "display-none": true}

// hiddenClass reports whether class hides a block on every screen: a
// hiding class (hiddenClasses), and none that shows it on a wider one
// (Bootstrap's "d-none d-md-block", Tachyons' "dn db-l"). Any language:
// the rule reads names.
func hiddenClass(class string) bool {
	if class == "" {
		return false
	}
	hidden := false
	for _, c := range strings.Fields(class) {
		switch {
		case hiddenClasses[c]:
			hidden = true
		case strings.HasPrefix(c, "d-") || strings.HasSuffix(c, "-ns") || strings.HasSuffix(c, "-m") || strings.HasSuffix(c, "-l"):
			return false // shown on some screen
		}
	}
	return hidden
}

// bemElement reports whether a name is a BEM element of a block whose
// name is content ("article-main__explore": the "explore" part of the
// "article-main" block), and no content itself: the words after its last
// "__" name what it is. Any language: the rule reads names.
func bemElement(name string) bool {
	i := strings.LastIndex(name, "__")
	return i >= 0 && !nameHas(name[i+2:], contentWords)
}

// inQuote reports whether n is inside a <blockquote> or beside one, as
// a quotation's source is (docutils writes it inside, the Los Angeles
// Times' pull quotes after it).
func inQuote(n *html.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p.DataAtom == atom.Blockquote {
			return true
		}
	}
	if n.Parent == nil {
		return false
	}
	for c := n.Parent.FirstChild; c != nil; c = c.NextSibling {
		if c.DataAtom == atom.Blockquote {
			return true
		}
	}
	return false
}

// authorName reports whether a class or id names a box about an
// article's writer: "author" and another word ("post-author",
// "author-bio", "about-the-author"). A name that is "author" alone is
// DocBook's, on a book's title page, whose authors are its text.
func authorName(name string) bool {
	if !nameHas(name, authorWords) {
		return false
	}
	return len(nameWords(name)) > 1
}

// metaProps are the schema.org properties (itemprop) of an article that
// are about it, not of it: who wrote it and when.
var metaProps = map[string]bool{"author": true, "datePublished": true, "dateModified": true, "dateCreated": true}

// linkOnly reports whether a paragraph is a link to another page and
// little else (a headline in capitals under the text): nine tenths of its
// text in links, or four fifths after a label that ends in a colon
// ("Related: …", "SEE MORE: …"; see labelled); none of them to a file
// beside this one by a relative path, as a documentation page's "see
// also" links are.
func (pr *pruner) linkOnly(n *html.Node, all, linked int) bool {
	if p := n.Parent; p != nil && (p.DataAtom == atom.Li || p.DataAtom == atom.Td || p.DataAtom == atom.Dd || p.DataAtom == atom.Th) {
		return false // an item of a list or a table (DocBook's <li><p><a>…</a></p></li>), judged with it
	}
	if all == 0 || 10*linked < 9*all && !(5*linked >= 4*all && labelled(n)) {
		return false
	}
	return find(n, func(m *html.Node) bool { return isLink(m) && pr.isLocal(attr(m, "href")) }) == nil
}

// labelled reports whether the text of n before its first link is a
// label: a few words that end in a colon ("Related:", "Lesen Sie auch:").
// Any language that ends a label with a colon.
func labelled(n *html.Node) bool {
	var b strings.Builder
	var walk func(*html.Node) bool // false once the first link is met
	walk = func(m *html.Node) bool {
		if isLink(m) {
			return false
		}
		if m.Type == html.TextNode {
			b.WriteString(m.Data)
		}
		for c := m.FirstChild; c != nil; c = c.NextSibling {
			if !walk(c) {
				return false
			}
		}
		return true
	}
	walk(n)
	label := strings.TrimSpace(b.String())
	return strings.HasSuffix(label, ":") && utf8.RuneCountInString(label) <= 24
}

// relWords reports whether a link's rel names the previous or next page.
func relWords(rel string) bool {
	for _, w := range strings.Fields(strings.ToLower(rel)) {
		if w == "prev" || w == "next" {
			return true
		}
	}
	return false
}

// datelineChars is the most text a block about a <time> holds: "Updated
// 3:27 am PST, Wednesday, November 20, 2019 | By A. Writer".
const datelineChars = 100

// isDateline reports whether n, of all characters of text, is a short
// block (a <p>, <div> or <section>) around a <time>, named a date (see
// namedDate) or that is a timestamp (isTimestamp): when an article was
// posted or updated, and by whom. A <time> in a sentence stands in a
// longer paragraph, and a table's dates are cells. (A short <span> named
// a date is one too: isClutter.)
func isDateline(n *html.Node, all int) bool {
	if n.DataAtom != atom.P && n.DataAtom != atom.Div && n.DataAtom != atom.Section || all > datelineChars {
		return false
	}
	return namedDate(n) || find(n, func(m *html.Node) bool { return m.DataAtom == atom.Time }) != nil ||
		all <= timestampChars && isTimestamp(textOf(n)) && !inCell(n) &&
			find(n, func(m *html.Node) bool {
				return m.DataAtom == atom.Pre || m.DataAtom == atom.Code || m.DataAtom == atom.Samp
			}) == nil
}

// inCell reports whether n is in a list's item or a table's cell: data
// (a table of date formats, "Tue Aug 16 21:30:00 1988"), not a story's
// dateline.
func inCell(n *html.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		switch p.DataAtom {
		case atom.Li, atom.Td, atom.Th, atom.Dd:
			return true
		}
	}
	return false
}

// timestampChars is the most text of a block that is a timestamp
// (isTimestamp), outside a list, a table and code: "First Published on
// Nov 20, 2019 01:38 pm".
const timestampChars = 60

var (
	clockRE = lazyRE(`\b([01]?[0-9]|2[0-3]):[0-5][0-9]\b`)
	whenRE  = lazyRE(`(?i)\b(?:[ap]\.?m\.?|gmt|utc|(?:19|20)[0-9][0-9])\b`)
)

// isTimestamp reports whether text, a short block's, says when a story
// was posted: a time of day (h:mm) with a year, "am"/"pm" or "GMT"/"UTC",
// in at most eight words: "Published November 20th, 2019 - 07:29 GMT",
// "Nov. 18, 2019 12:02 PM". A verse ("John 3:16") has neither; a time in
// a sentence stands in a longer paragraph. Languages that write a time of
// day as h:mm.
func isTimestamp(text string) bool {
	return strings.IndexByte(text, ':') >= 0 && len(strings.Fields(text)) <= 8 && clockRE.MatchString(text) && whenRE.MatchString(text)
}

// namedDate reports whether n's class or id names the date an article
// was posted or updated: "post-date", "entry-date published", "storyDate",
// "posted-on", hAtom's "published" and "updated".
func namedDate(n *html.Node) bool {
	return nameHas(attr(n, "class")+" "+ownID(n), dateWords)
}

// linkText is what a block holds: characters of text, those inside
// links, links, and links to files beside the page (see isLocal).
type linkText struct{ all, linked, links, local int }

// linkText counts n's text and links, each block's once (see texts).
func (pr *pruner) linkText(n *html.Node) linkText {
	if n.Type == html.TextNode {
		k := utf8.RuneCountInString(strings.TrimSpace(n.Data))
		return linkText{all: k}
	}
	if t, ok := pr.texts[n]; ok {
		return t
	}
	var t linkText
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		ct := pr.linkText(c)
		t.all, t.linked, t.links, t.local = t.all+ct.all, t.linked+ct.linked, t.links+ct.links, t.local+ct.local
	}
	if isLink(n) {
		t.linked = t.all
		t.links++
		if pr.isLocal(attr(n, "href")) {
			t.local++
		}
	}
	pr.texts[n] = t
	return t
}

// forget drops the counts of n and its ancestors, once a child of n is
// removed. A block counted has each block inside it counted too, so the
// first ancestor not counted ends the climb.
func (pr *pruner) forget(n *html.Node) {
	for ; n != nil; n = n.Parent {
		if _, ok := pr.texts[n]; !ok {
			return
		}
		delete(pr.texts, n)
	}
}

// ownID is n's id, or "" where the id is made from n's own heading, as
// Sphinx and most documentation tools make a section's: such an id names
// the section ("file-menu-shell-and-editor" under "File menu (Shell and
// Editor)", IDLE's page), not a part of the page's furniture.
func ownID(n *html.Node) string {
	id := attr(n, "id")
	if !nameHas(id, clutterWords|sidebarWords|commentWords) {
		return id // nothing to look for: the id marks no furniture
	}
	if n.DataAtom == atom.A && !hasAttr(n, "href") {
		return "" // an anchor's: DocBook's <a id="_the_print_server"/> in a heading, left open over its section
	}
	h := find(n, func(m *html.Node) bool { return headingLevel[m.DataAtom] > 0 })
	if h != nil && strings.EqualFold(id, slug(textOf(h))) {
		return ""
	}
	return id
}

// titleHolds reports whether title holds each word of heading (in any
// case, without its punctuation): an article's headline, which is its
// title, the title less its site's name ("Steeping tea" under "Steeping
// tea | Example Blog") or in other capitals; or, of a headline of six
// words or more, all but a quarter of them (a title that shortens it).
// Any language whose words are letters and digits between other
// characters.
func titleHolds(title, heading string) bool {
	if title == heading {
		return true
	}
	have := map[string]bool{}
	for _, w := range strings.Split(slug(title), "-") {
		have[w] = true
	}
	words := strings.Split(slug(heading), "-")
	missing := 0
	for _, w := range words {
		if !have[w] {
			missing++
		}
	}
	if missing == 0 {
		return words[0] != ""
	}
	// a long headline the title shortens: "HS Roundup: …" for "High
	// School Roundup: …"
	return len(words) >= minShortened && 4*missing <= len(words)
}

// minShortened is the fewest words of a headline that a title may hold
// all but a quarter of.
const minShortened = 6

// slug is text as an id made from it: lower case, each run of other
// characters than letters and digits one "-", none at either end.
func slug(text string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), "-")
}

// isLocal reports whether href names another file beside this one, by a
// relative path ("email.html", "../library/os.html#os.walk"), as the
// tables of contents of a documentation site do; a site's menus of
// articles name pages from its root or by their whole URL, and a page's
// own table of contents names places in it ("#intro", or
// "ch11.en.html#_text_data" in chapter 11 of Debian Reference).
func (pr *pruner) isLocal(href string) bool {
	href = strings.TrimSpace(href)
	if !relativeFile(href) {
		return false
	}
	if _, frag, ok := strings.Cut(href, "#"); ok && pr.ids[frag] {
		return false
	}
	return true
}

// relativeFile reports whether href, trimmed, names a file by a relative
// path (see isLocal), or maybe a place in this page by its file's name.
func relativeFile(href string) bool {
	if href == "" || href[0] == '#' || href[0] == '/' || href[0] == '?' {
		return false
	}
	if i := strings.IndexAny(href, ":/?#"); i >= 0 && href[i] == ':' {
		return false // a scheme: http:, mailto:, javascript:
	}
	return true
}

// titled reports whether n, full of links, is still content: a table of
// data whose cells are links (a list of packages, under its header cells),
// or a section under its own heading that holds prose. The link lists
// inside it are judged on their own.
func titled(n *html.Node) bool {
	if find(n, func(m *html.Node) bool { return m.DataAtom == atom.Th }) != nil {
		return true
	}
	return find(n, func(m *html.Node) bool { return headingLevel[m.DataAtom] > 0 }) != nil && holdsProse(n)
}

// shareTargets are the addresses, less their scheme and "www.", at which
// social networks and messengers take a page to share: a share button
// links there, whatever its bar is named ("Share this on WhatsApp",
// "Tweet"). A link to follow a site's account is not one.
var shareTargets = []string{
	"facebook.com/sharer", "twitter.com/intent/tweet", "twitter.com/share", "x.com/intent/tweet",
	"x.com/intent/post", "linkedin.com/sharearticle", "linkedin.com/share", "pinterest.com/pin/create",
	"reddit.com/submit", "api.whatsapp.com/send", "wa.me/", "t.me/share", "telegram.me/share",
	"tumblr.com/share", "tumblr.com/widgets/share", "getpocket.com/save", "vk.com/share", "bsky.app/intent/compose",
}

// shareButton reports whether a link is a button that shares the page:
// a few words ("Share this on WhatsApp", "Tweet") that link to a share
// target (shareLink). A quotation set to be tweeted whole ("Click To
// Tweet" boxes) is longer, and is text.
func shareButton(a *html.Node) bool {
	if !shareLink(attr(a, "href")) {
		return false
	}
	all, _ := textLen(a)
	return all <= shareChars
}

// shareChars is the most text a share button holds.
const shareChars = 40

// shareLink reports whether href shares the page: a share target's
// address (shareTargets), or a messenger's own scheme ("whatsapp:",
// "fb-messenger:", "viber:", "sms:"). Any language: the rule reads
// addresses.
func shareLink(href string) bool {
	href = strings.ToLower(strings.TrimSpace(href))
	for _, scheme := range []string{"whatsapp:", "fb-messenger:", "viber:", "sms:"} {
		if strings.HasPrefix(href, scheme) {
			return true
		}
	}
	rest, ok := strings.CutPrefix(href, "https://")
	if !ok {
		if rest, ok = strings.CutPrefix(href, "http://"); !ok {
			if rest, ok = strings.CutPrefix(href, "//"); !ok {
				return false
			}
		}
	}
	rest = strings.TrimPrefix(rest, "www.")
	for _, t := range shareTargets {
		if strings.HasPrefix(rest, t) {
			return true
		}
	}
	return false
}

// isPermalink reports whether a link is a heading's permalink anchor (a
// lone "¶", "#", "§" or "🔗" pointing into the page), which would otherwise
// end up glued to the heading: "SELinux¶".
func isPermalink(n *html.Node) bool {
	if !strings.HasPrefix(attr(n, "href"), "#") {
		return false
	}
	switch strings.TrimSpace(textOf(n)) {
	case "¶", "#", "§", "🔗", "":
		return true
	}
	return false
}

// prune removes clutter under n, and the label of links it removes (see
// isLabel): "DON'T MISS" or "You may also like..." in a <p> above
// paragraphs that are links to other stories. The label is the last child
// with text kept before the blocks removed, and goes when they (up to the
// next child with text kept, or the end) held half their text or more in
// links and two headlines or more (see removedLinks): a label beside a
// share button or an ad's slot, above a link to one product, or above a
// box of prose (a documentation page's abstract in an <aside>) stays.
// Any language: the rule reads no words.
func (pr *pruner) prune(n *html.Node, inContent bool) (closed bool) {
	inContent = inContent || n.DataAtom == atom.Article || n.DataAtom == atom.Main
	var label *html.Node  // the last child kept with text, when it is a label
	var gone removedLinks // what was removed after it
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		removed := pr.isClutter(c, inContent)
		var before removedLinks // what c held, when a label waits: all of it may go inside it
		if label != nil && !removed {
			before = pr.removedLinks(c)
		}
		if removed {
			n.RemoveChild(c)
			pr.forget(n)
			if c.Type == html.ElementNode && nameHas(attr(c, "class"), closeWords) {
				closed = true
			}
		} else {
			// a box left with a few words (adLabelChars) once its
			// "Close" control is gone is the toggle the control was
			// one of: "Caption" beside "Close" on each of a gallery's
			// slides (Hearst's news sites); a caption stays
			if pr.prune(c, inContent) && !pr.mains[c] && !pr.lead[c] && !isCaption(c) && textUpTo(c, adLabelChars+1) <= adLabelChars {
				n.RemoveChild(c)
				pr.forget(n)
				removed = true
			} else if c.DataAtom == atom.P && !pr.mains[c] && pr.linkClutter(c) {
				// a paragraph by its text and links once its own furniture
				// is gone: a person's card of links to stories about them,
				// shown on hover inside a sentence (The Hill), made the
				// sentence a "paragraph that is a link"
				n.RemoveChild(c)
				pr.forget(n)
				removed = true
			}
		}
		switch {
		case label == nil:
		case removed:
			gone.add(pr.removedLinks(c))
		case textUpTo(c, 1) == 0:
			// a block whose text all went inside it (a list whose items'
			// headlines went one by one, as teasers) went as much as one
			// removed whole
			gone.add(before)
		default:
			pr.dropLabel(n, label, gone)
			label = nil
		}
		if !removed && pr.isLabel(c) {
			label, gone = c, removedLinks{}
		}
		c = next
	}
	pr.dropLabel(n, label, gone)
	return closed
}

// removedLinks is what blocks removed after a label held: characters of
// text, those in links, and headlines: links to another page (not into
// this one, nor to a file beside it: see isLocal) whose text is three
// words or more (a share button's "Facebook", a tag's "Asia" are none).
// teasers are headings (h2–h6) that are a link to another page (see
// linkedHeading): a teaser's headline.
// titled: the first block removed opens with text outside a link, a title
// of its own (a table of contents' "Table of Contents"), so the short block
// above it is not its label (a book's "Copyright 2024 Ann Leaf").
type removedLinks struct {
	all, linked, headlines, teasers int
	titled                          bool
}

func (pr *pruner) removedLinks(n *html.Node) removedLinks {
	if n.Type != html.ElementNode {
		return removedLinks{}
	}
	t := removedLinks{titled: opensUnlinked(n)}
	lt := pr.linkText(n)
	t.all, t.linked = lt.all, lt.linked
	var walk func(*html.Node)
	walk = func(m *html.Node) {
		if headingLevel[m.DataAtom] > 1 && pr.linkedHeading(m) {
			t.teasers++
		}
		if isLink(m) {
			if h := strings.TrimSpace(attr(m, "href")); h != "" && h[0] != '#' && !pr.isLocal(h) && len(strings.Fields(textOf(m))) >= 3 {
				t.headlines++
			}
			return
		}
		for c := m.FirstChild; c != nil && (t.headlines < 2 || t.teasers < 2); c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return t
}

func (t *removedLinks) add(u removedLinks) {
	if t.all == 0 {
		t.titled = u.titled
	}
	t.all, t.linked, t.headlines, t.teasers = t.all+u.all, t.linked+u.linked, t.headlines+u.headlines, t.teasers+u.teasers
}

// opensUnlinked reports whether the first text in n is outside a link.
func opensUnlinked(n *html.Node) bool {
	var walk func(*html.Node) (found, unlinked bool)
	walk = func(m *html.Node) (bool, bool) {
		if m.Type == html.TextNode && strings.TrimSpace(m.Data) != "" {
			return true, true
		}
		if isLink(m) {
			return textUpTo(m, 1) > 0, false
		}
		for c := m.FirstChild; c != nil; c = c.NextSibling {
			if found, unlinked := walk(c); found {
				return true, unlinked
			}
		}
		return false, false
	}
	_, unlinked := walk(n)
	return unlinked
}

// dropLabel removes label, a child of n, when the blocks removed after
// it were links to other stories, and had no title of their own: two
// teasers' headlines or more ("More:" above a list of three, Al Jazeera),
// or, below a label that is no heading, half their text or more in links
// and two headlines or more (a heading above a share bar names its
// section, and the share buttons' "Share on Facebook" are headlines).
func (pr *pruner) dropLabel(n, label *html.Node, gone removedLinks) {
	if label == nil || gone.titled {
		return
	}
	headed := find(label, func(m *html.Node) bool { return headingLevel[m.DataAtom] > 0 }) != nil
	if gone.teasers >= 2 || !headed && gone.headlines >= 2 && 2*gone.linked >= gone.all {
		n.RemoveChild(label)
		pr.forget(n)
	}
}

// isLabel reports whether n is a block or a heading (h2–h6) that can
// only name what follows it: at most labelChars of text, none of it in a
// link nor in a headline (h1), and no sentence (it ends in no stop: "..."
// is no stop). Any language that ends a sentence with ".", "!", "?" or
// "。".
func (pr *pruner) isLabel(n *html.Node) bool {
	if n.Type != html.ElementNode || !blockTags[n.DataAtom] && headingLevel[n.DataAtom] < 2 {
		return false
	}
	if k := textUpTo(n, labelChars+1); k == 0 || k > labelChars || pr.lead[n] || pr.mains[n] || isCaption(n) {
		return false
	}
	if find(n, func(m *html.Node) bool { return isLink(m) || m.DataAtom == atom.H1 }) != nil {
		return false
	}
	t := strings.TrimSpace(textOf(n))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "..."), "…")
	r, _ := utf8.DecodeLastRuneInString(t)
	return !strings.ContainsRune(".!?。！？", r)
}

// labelChars is the most text a label holds: "You may also like...".
const labelChars = 30

// contentRoots picks what to read: <main>, else the <article>s where they
// hold most of the text, else the block that holds most of it.
func (pr *pruner) contentRoots(body *html.Node) []*html.Node {
	if m := find(body, func(n *html.Node) bool {
		return n.DataAtom == atom.Main || n.Type == html.ElementNode && attr(n, "role") == "main"
	}); m != nil {
		if pr.linkText(m).all > 0 {
			return []*html.Node{m}
		}
	}
	var articles []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.DataAtom == atom.Article {
			articles = append(articles, n) // not nested ones: they are read inside this
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(body)
	// The articles are the page's text when they hold most of it; else
	// they are teasers of other pages, or a wrapper closed early.
	inArticles := 0
	for _, a := range articles {
		inArticles += pr.linkText(a).all
	}
	if all := pr.linkText(body).all; len(articles) > 0 && 2*inArticles >= all {
		return articles
	}
	// Go down while one child holds two thirds of the text and none of
	// the others holds prose: the sections of a documentation page are
	// siblings, and the largest of them is not the page.
	n := body
	for {
		all := pr.linkText(n).all
		if all == 0 {
			break
		}
		var best *html.Node
		bestAll, bestLinked := 0, 0
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if t := pr.linkText(c); 3*t.all >= 2*all {
				best, bestAll, bestLinked = c, t.all, t.linked
			}
		}
		if best == nil || headingLevel[best.DataAtom] > 0 || isParagraph(best) {
			break
		}
		// Nor into a list of links away from prose beside it: a book's
		// front page is its title page (authors, legal notice) and its
		// table of contents, the larger.
		links := 2*bestLinked > bestAll
		prose := false
		for c := n.FirstChild; c != nil && !prose; c = c.NextSibling {
			prose = c != best && (links || isParagraph(c) || c.DataAtom == best.DataAtom && attr(c, "class") == attr(best, "class")) && holdsProse(c)
		}
		if prose {
			break
		}
		n = best
	}
	if n != body {
		// A heading right before the block names it.
		for p := n.PrevSibling; p != nil; p = p.PrevSibling {
			if p.Type == html.ElementNode {
				if headingLevel[p.DataAtom] > 0 {
					return []*html.Node{p, n}
				}
				break
			}
		}
	}
	return []*html.Node{n}
}

// holdsProse reports whether n holds a paragraph of prose: a block of
// at least proseChars characters outside links, and few of them in links.
func holdsProse(n *html.Node) bool {
	if n.Type == html.TextNode {
		return utf8.RuneCountInString(strings.TrimSpace(n.Data)) >= proseChars
	}
	if n.Type != html.ElementNode {
		return false
	}
	switch n.DataAtom {
	case atom.P, atom.Blockquote, atom.Dd, atom.Li, atom.Td:
		all, linked := textLen(n)
		return all-linked >= proseChars && 2*linked < all
	}
	if all, linked := ownText(n); all-linked >= proseChars && 2*linked < all {
		return true // DocBook's <div class="para">
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && blockTags[c.DataAtom] && holdsProse(c) {
			return true
		}
	}
	return false
}

// ownText counts the characters of n's text outside its blocks, and
// those in links.
func ownText(n *html.Node) (all, linked int) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		switch {
		case c.Type == html.TextNode:
			all += utf8.RuneCountInString(strings.TrimSpace(c.Data))
		case c.Type == html.ElementNode && !blockTags[c.DataAtom]:
			k, l := textLen(c)
			if isLink(c) {
				l = k
			}
			all, linked = all+k, linked+l
		}
	}
	return all, linked
}

// amongParagraphs reports whether n sits among paragraphs of text, as a
// box inside the text does (a TIP, a CULTURE note), and a page's side
// column does not.
func amongParagraphs(n *html.Node) bool {
	if n.Parent == nil {
		return false
	}
	for c := n.Parent.FirstChild; c != nil; c = c.NextSibling {
		if c != n && isParagraph(c) {
			return true
		}
	}
	return false
}

// isParagraph reports whether n is a paragraph of text: a <p>, or an
// element with text of its own, outside blocks (DocBook's <div class="para">).
func isParagraph(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	if n.DataAtom == atom.P {
		return true
	}
	all, _ := ownText(n)
	return all >= 20
}

// proseChars is the least paragraph holdsProse counts: two sentences.
const proseChars = 150

// htmlWalker turns the content tree into paragraphs.
type htmlWalker struct {
	b       *builder
	h       *headings
	buf     strings.Builder
	brs     int  // consecutive <br>s
	hasText bool // buf holds more than white space
	// broken is whether the paragraph in buf began after a <br><br>, and
	// brEnd whether a <br><br> ends it; chars counts the bytes of its
	// text, linked those in links, href is its links' one address ("" for
	// none, hrefs whether it has others): a paragraph of old markup that
	// is a link to another page is left out (see linkParagraph)
	broken, brEnd bool
	chars, linked int
	href          string
	hrefs         bool
	// last is the paragraph last kept, when a paragraph that repeats the
	// one before it is left out: a gallery's caption, written whole and
	// cut short for the same slide.
	last   string
	dedupe bool
	// headline is whether the text's first heading is left out when the
	// item's title or the page's og:title holds its words (see
	// titleHolds); headed is whether a heading has been met; retitle is
	// the headline, left out, that the og:title held and the title did
	// not: the item's title then
	headline, headed bool
	og, retitle      string
	// italic counts the <i> and <em> the walk is in, link the links;
	// plain is whether the paragraph in buf has text outside them both,
	// slanted whether it has text in italics; endP whether buf is a <p>
	// that ends; italics marks each kept paragraph (by its place in
	// b.paras) that is a <p> all in italics but its links (a note that
	// names "<i>Follow us on </i><a>Instagram</a>")
	italic  int
	link    int
	plain   bool
	slanted bool
	endP    bool
	italics []bool
	// pre counts the <pre> the walk is in; code is whether buf is a <pre>
	// that ends, whose lines are kept (codeText)
	pre  int
	code bool
	// caption counts the captions the walk is in (see isCaption), whose
	// photo credits are left out (dropCredit); captioned is whether buf
	// holds a caption's text (in a <span class="caption">, the paragraph
	// ends after it)
	caption   int
	captioned bool
	// captions are the captions kept: a gallery writes a caption again
	// whole, under its slide and in its full-screen view (Hearst's news
	// sites), and the copy is left out; other paragraphs that repeat one
	// stay (a meal plan's breakfast each day)
	captions map[string]bool
}

// isCaption reports whether n is a photo's caption or holds one: a
// <figure>, a <figcaption>, or a block named a caption ("wp-caption",
// "newsCaption").
func isCaption(n *html.Node) bool {
	return n.DataAtom == atom.Figure || n.DataAtom == atom.Figcaption || nameHas(attr(n, "class"), captionWords)
}

// creditRE matches a photo's credit at the end of a caption, or a caption
// that is one: "(AP Photo/Alan Diaz, File)", "(Image: GETTY )",
// "Credit: ESA", "Photograph: AFP via Getty", "photos © Inexhibit, 2018",
// "Photo: Getty Images". English labels.
var creditRE = lazyRE(`(?i)\s*[(\[]?\b(?:AP Photo|Photo|Photograph|Image|Credit|Picture)s?\s*(?::|/|©)\s*[^()\[\]]{1,60}[)\]]?$`)

// dropCredit is a caption's text less the photo's credit at its end: who
// took it is not what a person reads it for (the article benchmark's
// people left credits out, and most captions).
func dropCredit(text string) string {
	loc := creditRE.FindStringIndex(text)
	if loc == nil {
		return text
	}
	return strings.TrimSpace(text[:loc[0]])
}

func (w *htmlWalker) flush() {
	captioned := w.captioned
	w.captioned = false
	if w.code && w.hasText && w.announced() {
		w.buf.Reset()
		w.brs = 0
		w.hasText = false
		w.plain, w.slanted = false, false
		w.broken, w.brEnd = false, false
		w.chars, w.linked, w.href, w.hrefs = 0, 0, "", false
		return
	}
	if w.dedupe && w.hasText {
		t := w.clean(w.buf.String())
		if captioned && !w.code {
			t = dropCredit(t)
		}
		if t != w.last && t != "" && !(captioned && w.captions[t]) && !w.linkParagraph() {
			w.last = t
			if captioned {
				if w.captions == nil {
					w.captions = map[string]bool{}
				}
				w.captions[t] = true
			}
			w.b.add(item.Paragraph{Text: t, Heading: w.h.path()})
			for len(w.italics) < len(w.b.paras) {
				w.italics = append(w.italics, w.endP && !w.plain && w.slanted)
			}
		}
		w.buf.Reset()
		w.brs = 0
		w.hasText = false
		w.plain, w.slanted = false, false
		w.broken, w.brEnd = false, false
		w.chars, w.linked, w.href, w.hrefs = 0, 0, "", false
		return
	}
	w.b.add(item.Paragraph{Text: w.clean(w.buf.String()), Heading: w.h.path()})
	w.buf.Reset()
	w.brs = 0
	w.hasText = false
	w.broken, w.brEnd = false, false
	w.chars, w.linked, w.href, w.hrefs = 0, 0, "", false
}

// linkParagraph reports whether the paragraph in buf is one that old
// markup makes with <br><br> (it begins or ends with one) and that is a
// link to another page: nine tenths of its text in links, all to one
// address that is not a file beside this one (see isLocal): a promotion
// after the text ("<br><br><a href=…/promos/pro.php>Get access to …
// Moneycontrol Pro …</a>", Moneycontrol), as a <p> that is a link is
// (linkOnly). Any language: the rule reads no words.
func (w *htmlWalker) linkParagraph() bool {
	if !w.broken && !w.brEnd || w.code || w.chars == 0 || 10*w.linked < 9*w.chars || w.hrefs {
		return false
	}
	h := strings.TrimSpace(w.href)
	return h != "" && h[0] != '#' && !relativeFile(h)
}

// announced adds the short block of code in buf to the paragraph before
// it when that announces it (builder.announce). It reports whether it did.
func (w *htmlWalker) announced() bool {
	if !w.b.announce(codeText(w.buf.String()), w.h.path()) {
		return false
	}
	w.last = w.b.paras[len(w.b.paras)-1].Text
	return true
}

// clean is the text of the paragraph in buf: a <pre>'s with its lines
// (codeText), any other's on one line (cleanText).
func (w *htmlWalker) clean(s string) string {
	if w.code {
		return codeText(s)
	}
	return cleanText(s)
}

// dropKicker leaves out the few short lines kept above an article's
// headline: its kicker (the site's section: "Opinion", "TECH", "News >
// Nation"), a date, a byline. Longer text above it stays. Any language:
// the rule reads no words.
func (w *htmlWalker) dropKicker() {
	if len(w.b.paras) > maxKicker {
		return
	}
	for _, p := range w.b.paras {
		if utf8.RuneCountInString(p.Text) > kickerChars {
			return
		}
	}
	w.b.paras, w.b.bytes = w.b.paras[:0], 0
	w.italics = w.italics[:0]
}

// maxKicker and kickerChars bound what dropKicker takes for a kicker:
// a few lines of a few words.
const (
	maxKicker   = 3
	kickerChars = 40
)

func (w *htmlWalker) walk(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		if strings.TrimSpace(n.Data) != "" {
			w.brs = 0
			w.hasText = true
			// (a stop after the last link, "… listen back <a>here</a>.",
			// is no plain text)
			w.plain = w.plain || w.italic == 0 && w.link == 0 && strings.IndexFunc(n.Data, isWord) >= 0
			w.slanted = w.slanted || w.italic > 0
			w.captioned = w.captioned || w.caption > 0
			k := len(strings.TrimSpace(n.Data))
			w.chars += k
			if w.link > 0 {
				w.linked += k
			}
		}
		w.buf.WriteString(n.Data)
		return
	case html.ElementNode:
	case html.DocumentNode:
	default:
		return
	}
	if lvl := headingLevel[n.DataAtom]; lvl > 0 {
		w.flush()
		if t := cleanText(textOf(n)); t != "" {
			if !w.headed && w.headline && (titleHolds(w.h.title, t) || w.og != "" && titleHolds(w.og, t)) {
				w.headed = true
				if !titleHolds(w.h.title, t) {
					w.retitle = t // the <title> is the site's name, or less than the headline
				}
				w.dropKicker()
				return // the headline: the item's title, shown above the text, says it
			}
			w.headed = true
			w.h.push(lvl, t)
		}
		return
	}
	if n.DataAtom == atom.Br {
		w.brs++
		if w.brs >= 2 && w.pre == 0 {
			w.brEnd = true
			w.flush() // <br><br> is how old pages make paragraphs
			w.broken = true
			return
		}
		w.buf.WriteByte('\n')
		return
	}
	block := blockTags[n.DataAtom]
	if block {
		w.flush()
		w.broken = false
	} else if (n.DataAtom == atom.Td || n.DataAtom == atom.Th) && w.hasText {
		// A table row is a paragraph, its cells joined as in Markdown.
		// (Whether the row has text yet is kept as it is written: trimming
		// the buffer at each cell made a row of many cells quadratic.)
		w.buf.WriteString(" | ")
	}
	italic := n.DataAtom == atom.I || n.DataAtom == atom.Em
	if italic {
		w.italic++
	}
	link := isLink(n)
	if link {
		w.link++
		if h := attr(n, "href"); w.href == "" {
			w.href = h
		} else if h != w.href {
			w.hrefs = true
		}
	}
	pre := n.DataAtom == atom.Pre
	if pre {
		w.pre++
	}
	caption := n.Type == html.ElementNode && isCaption(n)
	if caption {
		w.caption++
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.walk(c)
	}
	if italic {
		w.italic--
	}
	if link {
		w.link--
	}
	if pre {
		w.pre--
	}
	if block {
		w.endP = n.DataAtom == atom.P
		w.code = pre
		w.flush()
		w.endP, w.code = false, false
	}
	if caption {
		w.caption--
	}
}
