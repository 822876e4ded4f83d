package ui

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"strings"

	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/ingest"
)

// Adding and removing: only with sponge ui --write, and only a request
// that carries this run's token, which only the pages of this run hold (a
// page of another site cannot read them). The forms are POSTed as
// application/x-www-form-urlencoded, bounded.

// MaxNoteBytes bounds a note added from the page.
const MaxNoteBytes = 1 << 20

// writable checks a writing request: --write, its form, its token. It says
// why not on the page and returns false.
func (s *Server) writable(w http.ResponseWriter, r *http.Request) bool {
	if !s.opts.Write {
		s.fail(w, r, http.StatusForbidden, "this sponge ui only reads the library", "start it with 'sponge ui --write' to add and remove from the page")
		return false
	}
	if ct, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); ct != "application/x-www-form-urlencoded" {
		s.fail(w, r, http.StatusUnsupportedMediaType, "the request is not a form of this page", "")
		return false
	}
	r.Body = http.MaxBytesReader(w, r.Body, MaxNoteBytes+64<<10)
	if err := r.ParseForm(); err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			s.fail(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("the note is larger than %d MiB", MaxNoteBytes>>20), "save a larger text from a file: sponge add FILE")
			return false
		}
		s.fail(w, r, http.StatusBadRequest, "cannot read the form: "+err.Error(), "")
		return false
	}
	if subtle.ConstantTimeCompare([]byte(r.PostForm.Get("token")), []byte(s.token)) != 1 {
		s.fail(w, r, http.StatusForbidden, "the form's token is not this sponge ui's", "reload the page (a page of an earlier run of sponge ui holds an old token)")
		return false
	}
	return true
}

// add saves a note (title and text) from the library page, as sponge add
// saves text on its stdin.
func (s *Server) add(w http.ResponseWriter, r *http.Request) {
	if !s.writable(w, r) {
		return
	}
	text := r.PostForm.Get("text")
	title := strings.TrimSpace(r.PostForm.Get("title"))
	if strings.TrimSpace(text) == "" {
		s.fail(w, r, http.StatusBadRequest, "the note is empty", "write the text to save")
		return
	}
	if len(text) > MaxNoteBytes {
		s.fail(w, r, http.StatusRequestEntityTooLarge, fmt.Sprintf("the note is larger than %d MiB", MaxNoteBytes>>20), "save a larger text from a file: sponge add FILE")
		return
	}
	wr, err := ingest.OpenWriter(s.dir, nil)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	var added ingest.Added
	err = ingest.Add(context.Background(), wr, []ingest.Input{{Name: "stdin", Stdin: true}},
		ingest.AddOptions{Title: title, Stdin: strings.NewReader(text)}, func(a ingest.Added) { added = a })
	if cerr := wr.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = added.Err
	}
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	http.Redirect(w, r, "/item/"+added.ID, http.StatusSeeOther)
}

// remove removes an item (sponge rm), from its page.
func (s *Server) remove(w http.ResponseWriter, r *http.Request) {
	if !s.writable(w, r) {
		return
	}
	id := r.PathValue("id")
	if !item.IsID(id) {
		s.fail(w, r, http.StatusNotFound, "no item has the id "+id, "")
		return
	}
	if _, err := library.Open(s.dir); err != nil {
		s.failErr(w, r, err)
		return
	}
	wr, err := ingest.OpenWriter(s.dir, nil)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	// As sponge rm: the files are noted as removed, so that sponge update
	// does not add them back.
	_, _, err = wr.RemoveNoted(id)
	if cerr := wr.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	http.Redirect(w, r, "/library", http.StatusSeeOther)
}
