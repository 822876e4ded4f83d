package extract

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/klippa-app/go-pdfium"
	pdfiumerrors "github.com/klippa-app/go-pdfium/errors"
	"github.com/klippa-app/go-pdfium/requests"
	"github.com/klippa-app/go-pdfium/webassembly"
	"github.com/tetratelabs/wazero"
)

// PDFium (compiled to WebAssembly, run by wazero: no cgo) is the fallback
// for the PDFs the pure-Go reader cannot open: it rebuilds broken
// cross-reference tables and reads AES-256 files that only have an owner
// password. Compiling its module takes seconds, so it starts on first need.

var fallback struct {
	once sync.Once
	mu   sync.Mutex // one document at a time: the instance is single-threaded
	inst pdfium.Pdfium
	err  error
}

func pdfiumInstance() (pdfium.Pdfium, error) {
	fallback.once.Do(func() {
		pool, err := webassembly.Init(webassembly.Config{
			MinIdle: 1, MaxIdle: 1, MaxTotal: 1,
			// The document comes as bytes: PDFium sees no file system.
			FSConfig: wazero.NewFSConfig(),
			Stdout:   io.Discard, Stderr: io.Discard,
		})
		if err != nil {
			fallback.err = err
			return
		}
		fallback.inst, fallback.err = pool.GetInstance(30 * time.Second)
	})
	return fallback.inst, fallback.err
}

// readPDFium reads a PDF's text with PDFium: glyph boxes and font sizes,
// laid out into paragraphs as the pure-Go reader's glyphs are.
func readPDFium(ctx context.Context, data []byte, deadline time.Time) (doc *Document, err error) {
	inst, err := pdfiumInstance()
	if err != nil {
		return nil, err
	}
	fallback.mu.Lock()
	defer fallback.mu.Unlock()
	defer func() {
		if r := recover(); r != nil {
			doc, err = nil, corrupt(panicError(r))
		}
	}()
	opened, err := inst.OpenDocument(&requests.OpenDocument{File: &data})
	if err != nil {
		if errors.Is(err, pdfiumerrors.ErrPassword) {
			return nil, errEncrypted
		}
		return nil, errors.New("corrupt PDF: " + strings.TrimLeft(err.Error(), "0123456789: "))
	}
	defer inst.FPDF_CloseDocument(&requests.FPDF_CloseDocument{Document: opened.Document})
	count, err := inst.FPDF_GetPageCount(&requests.FPDF_GetPageCount{Document: opened.Document})
	if err != nil {
		return nil, corrupt(err)
	}
	n := min(count.PageCount, maxPDFPages)
	pages := make([][]pdfLine, 0, n)
	for i := 0; i < n; i++ {
		if time.Now().After(deadline) || ctx.Err() != nil {
			return nil, errTooSlow
		}
		st, err := inst.GetPageTextStructured(&requests.GetPageTextStructured{
			Page:                   requests.Page{ByIndex: &requests.PageByIndex{Document: opened.Document, Index: i}},
			Mode:                   requests.GetPageTextStructuredModeChars,
			CollectFontInformation: true,
		})
		if err != nil {
			pages = append(pages, nil)
			continue
		}
		gs := make([]glyph, 0, len(st.Chars))
		for _, c := range st.Chars {
			if c.Text == "" || c.Text == "\r" || c.Text == "\n" {
				continue
			}
			if c.Text == "\x02" {
				c.Text = "-" // PDFium's mark for a hyphen at a line end
			}
			g := glyph{s: c.Text, x: c.PointPosition.Left, y: c.PointPosition.Bottom, w: c.PointPosition.Right - c.PointPosition.Left, size: 10}
			if fi := c.FontInformation; fi != nil {
				g.size = fi.RenderedSize
				if g.size <= 0 {
					g.size = fi.Size
				}
				g.bold = fi.Weight >= 600 || strings.Contains(strings.ToLower(fi.Name), "bold")
			}
			if strings.TrimSpace(g.s) == "" && g.w == 0 && g.x == 0 {
				g.x, g.y = -1e9, -1e9 // a space PDFium made up: no position
			}
			gs = append(gs, g)
		}
		pages = append(pages, glyphLines(gs, i+1, false))
	}
	paras, bigTitle := layoutParagraphs(pages)
	var b builder
	for _, p := range paras {
		b.add(p)
	}
	if len(b.paras) == 0 {
		return nil, errNoText
	}
	title := bigTitle
	if meta, err := inst.FPDF_GetMetaText(&requests.FPDF_GetMetaText{Document: opened.Document, Tag: "Title"}); err == nil {
		if t := usableTitle(meta.Value); t != "" {
			title = t
		}
	}
	return &Document{Title: title, Paragraphs: b.paras}, nil
}
