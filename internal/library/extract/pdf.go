package extract

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/library/extract/pdf"
)

// Limits that keep one bad PDF from stalling a whole `sponge add`.
const (
	maxPDFBytes = 512 << 20
	maxPDFPages = 100_000
)

// pdfTimeBudget is how long one PDF may take. The texlive-latex-base-doc
// PDFs read at hundreds of pages per second, so only a pathological file
// comes near it.
var pdfTimeBudget = 2 * time.Minute

var (
	errEncrypted = errors.New("encrypted PDF: sponge cannot read it")
	errNoText    = noText("a PDF of scanned images, which sponge does not read")
	errTooSlow   = errors.New("PDF too slow to read: sponge gave up after the time limit")
	errNotPDF    = errors.New("corrupt PDF: not a PDF file (no %PDF header)")
	// errPassword is a PDF whose encryption the reader knows and whose
	// empty user password does not open it.
	errPassword = fmt.Errorf("%w", errEncrypted)
)

// extractPDF reads the text of a PDF page by page.
func extractPDF(data []byte) (*Document, error) {
	if len(data) > maxPDFBytes {
		return nil, fmt.Errorf("PDF too large (%d MiB; the limit is %d MiB)", len(data)>>20, maxPDFBytes>>20)
	}
	type result struct {
		doc *Document
		err error
	}
	done := make(chan result, 1)
	deadline := time.Now().Add(pdfTimeBudget)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{nil, corrupt(panicError(r))}
			}
		}()
		doc, err := readPDF(data, deadline)
		done <- result{doc, err}
	}()
	// The reader checks the deadline itself; this timer is the last resort
	// should the parser loop somewhere it cannot check.
	timer := time.NewTimer(time.Until(deadline) + 5*time.Second)
	defer timer.Stop()
	select {
	case r := <-done:
		return r.doc, r.err
	case <-timer.C:
		return nil, errTooSlow
	}
}

// corrupt words a parser error for people.
func corrupt(err error) error {
	var big tooMuchText
	if errors.Is(err, errTooSlow) || errors.Is(err, errEncrypted) || errors.As(err, &big) {
		return err
	}
	msg := printable(err.Error())
	for _, p := range []string{"malformed PDF file: ", "malformed PDF: ", "not a PDF file: "} {
		msg = strings.TrimPrefix(msg, p)
	}
	if strings.Contains(strings.ToLower(msg), "encrypt") {
		return errEncrypted
	}
	return fmt.Errorf("corrupt PDF: %s", msg)
}

// printable keeps an error message readable: parsers quote raw bytes.
func printable(s string) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() >= 120 {
			b.WriteString("…")
			break
		}
		if r == utf8.RuneError || !unicode.IsPrint(r) {
			return strings.TrimRight(strings.TrimSpace(b.String()), ":")
		}
		b.WriteRune(r)
	}
	return strings.TrimSpace(b.String())
}

// openPDF opens a PDF held in memory.
func openPDF(data []byte) (*pdf.Doc, error) {
	d, err := pdf.Open(data)
	switch {
	case errors.Is(err, pdf.ErrNotPDF):
		return nil, errNotPDF
	case errors.Is(err, pdf.ErrPassword):
		return nil, errPassword
	case err != nil:
		return nil, corrupt(err)
	}
	return d, nil
}

func readPDF(data []byte, deadline time.Time) (*Document, error) {
	r, err := openPDF(data)
	if err != nil {
		return nil, err
	}
	all, err := pageList(r, deadline)
	if errors.Is(err, errTooSlow) {
		return nil, errTooSlow
	}
	if err != nil {
		return nil, corrupt(err)
	}
	n := len(all)
	if n == 0 {
		return nil, errors.New("corrupt PDF: no pages")
	}
	var pages [][]pdfLine
	doc := newDocCache(r)
	var firstErr error
	failed := 0
	for i := 1; i <= n; i++ {
		if time.Now().After(deadline) {
			return nil, errTooSlow
		}
		p := all[i-1]
		gs, err := pageGlyphs(p, doc, deadline)
		if errors.Is(err, errTooSlow) {
			return nil, errTooSlow
		}
		if over, ok := err.(*budgetError); ok {
			over.page = i
			return nil, over
		}
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			failed++
		}
		pages = append(pages, glyphLines(gs, i))
	}
	// The document is not used past this point, so the collector can free
	// its objects while the pages are laid out, which allocates much.
	title := infoTitle(r)
	paras, bigTitle := layoutParagraphs(pages)
	var b builder
	for _, p := range paras {
		b.add(p)
	}
	if len(b.paras) == 0 {
		if failed == n && firstErr != nil {
			return nil, corrupt(firstErr)
		}
		return nil, errNoText
	}
	if title == "" {
		title = bigTitle
	}
	return &Document{Title: title, Paragraphs: b.paras}, nil
}

// pageList lists the document's pages, giving up at the deadline.
func pageList(d *pdf.Doc, deadline time.Time) (pages []pdf.Page, err error) {
	defer func() {
		if x := recover(); x != nil {
			err = panicError(x)
		}
	}()
	return d.Pages(maxPDFPages, func() error {
		if time.Now().After(deadline) {
			return errTooSlow
		}
		return nil
	})
}

// infoTitle is the document's Title entry when it looks like a title and
// not like the name of the file it was made from.
func infoTitle(d *pdf.Doc) (title string) {
	defer func() {
		if recover() != nil {
			title = ""
		}
	}()
	return usableTitle(d.Trailer().Key("Info").Key("Title").Text())
}

func usableTitle(t string) string {
	t = cleanText(t)
	l := strings.ToLower(t)
	if len([]rune(t)) > 300 || item.GenericTitle(l) {
		return ""
	}
	return t
}
