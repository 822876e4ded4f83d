// Package extract gets readable paragraphs, and where each came from, out
// of the documents sponge saves: Markdown and plain text (any text file),
// HTML pages, PDFs, WebVTT and SubRip transcripts, EPUB books, DOCX and ODT
// documents, reStructuredText, Org and manual pages. It also fetches
// http(s) URLs.
//
// Every paragraph's Text is clean: valid UTF-8, white space collapsed to
// single spaces, never empty, and at most about 2,000 characters (longer
// blocks are cut at a sentence end). Where a paragraph came from:
//   - Markdown and HTML: Heading is the path of headings above it, joined
//     with " › " ("Brewing › Green tea"), leaving out the heading that
//     became the document's title when there are headings below it.
//   - PDF: Page (1-based), Pages for a paragraph running across a page
//     break, and Heading, the nearest heading found by font size or weight.
//   - EPUB: as HTML, the path starting with the chapter's name from the
//     book's table of contents. DOCX, ODT, reStructuredText, Org and man
//     pages: the heading path, as for Markdown.
//   - WebVTT and SubRip: StartMs of the first cue, every cue's start in
//     Cues, and Heading, the speaker (from <v Name> or a "NAME:" prefix,
//     which is removed from the text so quotes read as spoken).
package extract

//go:generate go run ./cmd/makepdf -o ../../../testdata/docs/composting-guide.pdf

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path"
	"runtime"
	"strings"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/base/item"
)

// Document is what an extractor gets out of a source.
type Document struct {
	Title      string
	Kind       string           // item.KindMarkdown, KindText, KindHTML, KindPDF, KindVTT, KindSRT, KindEPUB, …
	Paragraphs []item.Paragraph // Text, Heading, Page (1-based, PDFs), StartMs + Cues (transcripts), Pages (page starts inside a paragraph)
	// Shown is how many characters of text the source shows a person,
	// furniture included (HTML: every visible word of the page), where
	// that is known; 0 where it is not. See KeptLittle.
	Shown int
	// Author and Published are who wrote it and when it was published,
	// as the source says of itself (HTML: its JSON-LD or <meta> tags; see
	// pageMeta); empty where it does not.
	Author, Published string
}

// KeptLittle reports whether the document keeps under a fifth of the text
// its source shows (a page read as mostly menus and links, or one whose
// text the reader took for furniture), and how much it keeps.
func (d *Document) KeptLittle() (little bool, kept, shown int) {
	if d.Shown == 0 {
		return false, 0, 0
	}
	heading := ""
	for _, p := range d.Paragraphs {
		kept += utf8.RuneCountInString(p.Text)
		if p.Heading != heading {
			kept += utf8.RuneCountInString(p.Heading)
			heading = p.Heading
		}
	}
	return 5*kept < d.Shown, kept, d.Shown
}

// Options change how a source is read.
type Options struct {
	// AllText keeps every word a page shows, its menus, links and footers
	// too: for a page a person knows is all content (sponge add --all-text).
	AllText bool
}

// ErrNoText is in the error of a source that holds no readable text: an
// empty file, an HTML page of navigation only, a scanned PDF. Nothing is
// wrong with it, so sponge add skips it rather than failing; errors.Is finds
// it in the error, whose text says what was found ("no readable text (the
// file is empty)").
var ErrNoText = errors.New("no readable text")

// noText is ErrNoText with what was found instead.
func noText(why string) error { return fmt.Errorf("%w (%s)", ErrNoText, why) }

var kindByExt = map[string]string{
	".md": item.KindMarkdown, ".markdown": item.KindMarkdown,
	".txt": item.KindText, ".text": item.KindText,
	".html": item.KindHTML, ".htm": item.KindHTML,
	".pdf":   item.KindPDF,
	".vtt":   item.KindVTT,
	".srt":   item.KindSRT,
	".log":   item.KindText,
	".xhtml": item.KindHTML,
	".epub":  item.KindEPUB,
	".docx":  item.KindDOCX,
	".odt":   item.KindODT,
	".rst":   item.KindRST, ".rest": item.KindRST,
	".org": item.KindOrg,
}

// imageExts are pictures written as text: drawing instructions and pixel
// rows, not words a person reads (a documentation folder's icons), which
// the folder walk leaves out as it does PNG files. Named, a file is read.
var imageExts = map[string]bool{".svg": true, ".svgz": true, ".xpm": true, ".xbm": true, ".eps": true,
	".pbm": true, ".pgm": true, ".ppm": true, ".pnm": true}

// Supported reports whether a file name has a format sponge reads by its
// extension (.md .txt .log .html .pdf .vtt .srt .epub .docx .odt .rst .org,
// a manual page's section such as .1 or .3p, and any of them compressed
// with gzip, bzip2 or xz). A file with another extension may still be
// text: see SniffFile.
func Supported(name string) bool {
	name = trimCompressedExt(name)
	_, ok := kindByExt[ext(name)]
	return ok || manPageExtRE.MatchString(ext(name))
}

// SniffFile says whether a file whose extension sponge does not know
// holds text, from its first 8 KiB: a folder's text files are saved
// whatever they are called. why says what the file is when it is not.
func SniffFile(path string) (text bool, why string) {
	if imageExts[ext(trimCompressedExt(path))] {
		return false, "an image, not a format sponge reads"
	}
	f, err := os.Open(path)
	if err != nil {
		return false, "cannot be read (" + errors.Unwrap(err).Error() + ")"
	}
	defer f.Close()
	head := make([]byte, 8<<10)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	if c := compressed(head); c != "" {
		// A compressed file is what it holds (grep_NEWS.gz): its first
		// 8 KiB unpacked say what that is. Up to 1 MiB of it is read, as
		// bzip2 gives nothing before its first block (900 KiB unpacked) ends.
		if n == len(head) {
			more, _ := io.ReadAll(io.LimitReader(f, 1<<20))
			head = append(head, more...)
		}
		// One corrupt from its first bytes is read, as it is when named,
		// so that it fails saying how ("corrupt gzip file: unexpected EOF").
		var corrupt bool
		if head, corrupt = unpackHead(head, c, 8<<10); corrupt {
			return true, ""
		}
		n = len(head)
	}
	switch k := sniff(head); {
	case n == 0:
		return false, "empty"
	case k == "" && bytes.HasPrefix(head, []byte("PK\x03\x04")):
		return false, "an archive, not a format sponge reads"
	case k == "":
		return false, "not text (binary data), and not a format sponge reads"
	}
	return true, ""
}

// ext is the lower-case extension of a file name or of a URL's path.
func ext(name string) string {
	if strings.Contains(name, "://") {
		if u, err := url.Parse(name); err == nil {
			name = u.Path
		}
	}
	e := path.Ext(strings.ReplaceAll(name, `\`, "/"))
	return strings.ToLower(e)
}

func unescapePath(s string) string {
	if u, err := url.PathUnescape(s); err == nil {
		return u
	}
	return s
}

// Bytes extracts a document from data. name is the file name or URL (used
// for the extension and the fallback title); contentType, if not empty
// (from HTTP), decides the extractor over the extension. Errors are for
// people: "unsupported format .docx", "no readable text (…)" (ErrNoText), "corrupt PDF: …",
// "encrypted PDF: sponge cannot read it".
func Bytes(data []byte, name, contentType string) (doc *Document, err error) {
	return BytesWith(data, name, contentType, Options{})
}

// BytesWith is Bytes, read with options.
func BytesWith(data []byte, name, contentType string, o Options) (doc *Document, err error) {
	if c := compressed(data); c != "" {
		// A compressed file is what it holds: ls.1.gz is a manual page.
		name = trimCompressedExt(name)
		if data, err = unpack(data, c); err != nil {
			return nil, err
		}
	}
	kind, err := kindOf(data, name, contentType)
	if err != nil {
		return nil, err
	}
	return ReadWith(data, name, kind, contentType, o)
}

// Read extracts a document of a known kind (item.KindPDF, …), which is how
// a saved item is read again from its original bytes; name is as for Bytes.
func Read(data []byte, name, kind, contentType string) (doc *Document, err error) {
	return ReadWith(data, name, kind, contentType, Options{})
}

// ReadWith is Read, read with options.
func ReadWith(data []byte, name, kind, contentType string, o Options) (doc *Document, err error) {
	defer func() {
		// An extractor bug must cost one document, not the whole command.
		if r := recover(); r != nil {
			doc, err = nil, fmt.Errorf("cannot read this %s: internal error: %v", kind, r)
			if e, ok := r.(tooMuchText); ok {
				doc, err = nil, fmt.Errorf("cannot read this %s: %w", kind, e)
			}
		}
	}()
	var params map[string]string
	if contentType != "" {
		_, params, _ = mime.ParseMediaType(contentType)
	}
	if c := compressed(data); c != "" {
		name = trimCompressedExt(name)
		if data, err = unpack(data, c); err != nil {
			return nil, err
		}
	}
	zipped := kind == item.KindEPUB || kind == item.KindDOCX || kind == item.KindODT
	if kind != item.KindPDF && !zipped && looksBinary(data, params["charset"]) {
		return nil, errors.New("not text: it looks like binary data")
	}
	switch kind {
	case item.KindPDF:
		doc, err = extractPDF(data)
	case item.KindEPUB:
		doc, err = extractEPUB(data)
	case item.KindDOCX:
		doc, err = extractDOCX(data)
	case item.KindODT:
		doc, err = extractODT(data)
	case item.KindHTML:
		doc, err = extractHTML(data, contentType, o.AllText)
	default:
		text, terr := decodeText(data, params["charset"])
		if terr != nil {
			return nil, terr
		}
		switch kind {
		case item.KindMarkdown:
			doc = extractMarkdown(text)
		case item.KindText:
			doc = extractPlain(text)
		case item.KindVTT:
			doc, err = extractTranscript(text, true)
		case item.KindSRT:
			doc, err = extractTranscript(text, false)
		case item.KindRST:
			doc = extractRST(text)
		case item.KindOrg:
			doc = extractOrg(text)
		case item.KindMan:
			doc = extractMan(text)
		default:
			return nil, fmt.Errorf("unsupported kind %q", kind)
		}
	}
	if err != nil {
		var e tooMuchText
		if errors.As(err, &e) { // from the PDF reader's goroutine
			err = fmt.Errorf("cannot read this %s: %w", kind, e)
		}
		return nil, err
	}
	if kind != item.KindPDF && !zipped {
		n := 0
		for _, p := range doc.Paragraphs {
			n += len(p.Text)
		}
		if n > maxExpansion*len(data)+1<<20 {
			return nil, fmt.Errorf("cannot read this %s: its %s make %s of text, more than %d times its size", kind, size(int64(len(data))), size(int64(n)), maxExpansion)
		}
	}
	if len(doc.Paragraphs) == 0 {
		switch {
		case len(data) == 0:
			return nil, noText("the file is empty")
		case len(bytes.TrimSpace(data)) == 0:
			return nil, noText("the file holds only spaces and blank lines")
		case kind == item.KindHTML && doc.Shown == 0:
			return nil, noText("the page shows no text")
		case kind == item.KindHTML:
			return nil, noText("the page has only navigation, scripts or other page furniture")
		}
		return nil, noText("nothing but blank lines and markup")
	}
	doc.Kind = kind
	if doc.Title == "" {
		doc.Title = titleFromName(name)
	}
	if doc.Title == "" {
		doc.Title = firstWords(doc.Paragraphs[0].Text, 8)
	}
	return doc, nil
}

// firstWords is the title of last resort: the start of the first paragraph.
func firstWords(text string, n int) string {
	w := strings.Fields(text)
	if len(w) > n {
		return strings.Join(w[:n], " ") + " …"
	}
	return strings.Join(w, " ")
}

// kindOf picks the extractor: the content type when there is a telling
// one, else the extension, else (no extension at all) what the bytes look like.
func kindOf(data []byte, name, contentType string) (string, error) {
	e := ext(name)
	byExt, extOK := kindByExt[e]
	if contentType != "" {
		mt, _, err := mime.ParseMediaType(contentType)
		if err != nil {
			mt = strings.ToLower(strings.TrimSpace(strings.Split(contentType, ";")[0]))
		}
		switch mt {
		case "text/html", "application/xhtml+xml":
			return item.KindHTML, nil
		case "application/pdf", "application/x-pdf":
			return item.KindPDF, nil
		case "text/vtt":
			return item.KindVTT, nil
		case "application/x-subrip", "text/srt", "application/srt", "text/x-srt":
			return item.KindSRT, nil
		case "text/markdown", "text/x-markdown":
			return item.KindMarkdown, nil
		case "application/epub+zip":
			return item.KindEPUB, nil
		case "application/vnd.openxmlformats-officedocument.wordprocessingml.document":
			return item.KindDOCX, nil
		case "application/vnd.oasis.opendocument.text":
			return item.KindODT, nil
		case "text/x-rst", "text/prs.fallenstein.rst":
			return item.KindRST, nil
		case "text/org", "text/x-org":
			return item.KindOrg, nil
		case "text/troff", "application/x-troff-man":
			return item.KindMan, nil
		case "text/plain":
			// Servers send text/plain for Markdown and transcripts too.
			if extOK && byExt != item.KindHTML && byExt != item.KindPDF {
				return byExt, nil
			}
			if k := sniff(data); k == item.KindVTT || k == item.KindSRT {
				return k, nil
			}
			return item.KindText, nil
		case "application/octet-stream", "binary/octet-stream", "application/unknown", "":
			// no information: fall through to the extension
		default:
			if !extOK {
				return "", fmt.Errorf("unsupported content type %s", mt)
			}
		}
	}
	if extOK {
		return byExt, nil
	}
	if manPageExtRE.MatchString(e) {
		if k := sniff(data); k == item.KindMan || k == item.KindText {
			return k, nil
		}
	}
	if k := sniff(data); k != "" {
		return k, nil
	}
	if e != "" && !strings.ContainsAny(e, " ") && len(e) <= 10 {
		return "", fmt.Errorf("unsupported format %s: the content is not text", e)
	}
	return "", errors.New("unsupported format: no file extension, and the content is not text, HTML or PDF")
}

var srtStartRE = lazyRE(`^\s*\d+\s*\r?\n\s*\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}\s*-->`)

// sniff recognises a format from the first bytes.
func sniff(data []byte) string {
	head := data
	if len(head) > 1024 {
		head = head[:1024]
	}
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	switch {
	case bytes.Contains(head, []byte("%PDF-")):
		return item.KindPDF
	case bytes.HasPrefix(head, []byte("WEBVTT")):
		return item.KindVTT
	case srtStartRE.Match(head):
		return item.KindSRT
	}
	if bytes.HasPrefix(head, []byte("PK\x03\x04")) {
		return zipKind(data)
	}
	ct := http.DetectContentType(data)
	switch {
	case strings.HasPrefix(ct, "text/html"):
		return item.KindHTML
	case looksBinary(head, ""):
		return ""
	case looksTroff(string(data[:min(len(data), 16<<10)])):
		return item.KindMan
	}
	return item.KindText
}

// zipKind tells an EPUB, a DOCX and an ODT apart by what they hold.
func zipKind(data []byte) string {
	c, err := openContainer(data, "zip")
	if err != nil {
		return ""
	}
	switch {
	case c.has("word/document.xml"):
		return item.KindDOCX
	case c.has("META-INF/container.xml"):
		return item.KindEPUB
	case c.has("content.xml"):
		return item.KindODT
	}
	return ""
}

// looksBinary says whether data, to be read as text, is binary data
// instead (an image, an archive, a program renamed .md or .txt): more than
// 1% of its bytes (and one stray) are control characters that no text
// holds. Random bytes are 11% such, a program or an image more, and text
// none but tab, line and page breaks, backspace and escape (in terminal
// logs) and DOS's end of file, which do not count. A share of bytes that
// are not UTF-8 is no sign: text in Windows-1252, read as such, is all
// that, and so is text in another 8-bit code. UTF-16 text, whose every
// other byte is 0, is known by its byte-order mark or charset.
func looksBinary(data []byte, charset string) bool {
	if bytes.HasPrefix(data, []byte("\xff\xfe")) || bytes.HasPrefix(data, []byte("\xfe\xff")) ||
		strings.HasPrefix(strings.ToLower(charset), "utf-16") {
		return false
	}
	n := 0
	for _, c := range data {
		n += int(binaryBytes[c])
	}
	return n > len(data)/100+1
}

// binaryBytes are 1 for the bytes looksBinary counts: a look-up costs less
// than the comparisons, for every byte of every file added.
var binaryBytes = func() (t [256]uint8) {
	for c := range 0x20 {
		t[c] = 1
	}
	for _, c := range []byte{'\t', '\n', '\v', '\f', '\r', '\b', 0x1b, 0x1a} {
		t[c] = 0
	}
	t[0x7f] = 1
	return t
}()

// panicError turns a recovered panic into an error; runtime errors keep
// their message but not their stack.
func panicError(r any) error {
	switch e := r.(type) {
	case runtime.Error:
		return fmt.Errorf("internal error: %v", e)
	case error:
		return e
	}
	return fmt.Errorf("%v", r)
}
