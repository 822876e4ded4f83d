package vectors

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/sponge-library/sponge/internal/base/item"
	"github.com/sponge-library/sponge/internal/library"
)

// Dir is where a library keeps its paragraph vectors.
func Dir(libDir string) string { return filepath.Join(libDir, "vectors") }

// newDir is where a store for another model, or a rebuilt one, is made
// before it replaces Dir.
func newDir(libDir string) string { return filepath.Join(libDir, "vectors.new") }

// Embedder turns texts into unit vectors (internal/embed provides them).
type Embedder interface {
	Embed(texts []string) ([][]float32, error)
}

// UpdateOptions tune Update.
type UpdateOptions struct {
	// Model is the embedder's model; its vectors go in a store of its own.
	Model Model
	// DocumentPrefix goes before each paragraph (the model's convention).
	DocumentPrefix string
	// Rebuild makes the store afresh from the library (sponge reindex):
	// vectors of items still saved are copied over when the model is the
	// same, the others are embedded, and vectors of removed items go.
	Rebuild bool
	// Changed are items whose paragraphs were read again (sponge reindex
	// --extract): a rebuild embeds them anew instead of copying.
	Changed map[string]bool
	// Only, when not nil, limits the work to these items (sponge add).
	Only []string
	// Progress is called after each batch with the paragraphs done and the
	// paragraphs to do.
	Progress func(done, total int)
	// Batch is how many paragraphs go to the embedder at once; 0 means 64.
	Batch int
	// CommitEvery is the longest time between commits; 0 means 2 seconds.
	CommitEvery time.Duration
}

// Stats says what Update did.
type Stats struct {
	Items      int // items embedded or copied now
	Paragraphs int // their paragraphs
	Copied     int // paragraphs whose vectors were copied, not embedded
	// Total is how many items the store holds at the end.
	Total int
	// Replaced is the model of a store that was replaced, if any.
	Replaced *Model
}

// ParagraphText is what is embedded of a paragraph: its heading, then its text.
func ParagraphText(p item.Paragraph) string {
	if p.Heading != "" {
		return p.Heading + "\n" + p.Text
	}
	return p.Text
}

// Update embeds the paragraphs of every item of the library that the store
// lacks. It commits as it goes: when ctx ends (or the process is killed) the
// work done so far stays, and the next Update resumes after it. When the
// store was made by another model, the new one is built beside it and
// replaces it at the end; meanwhile search refuses the old one.
func Update(ctx context.Context, lib *library.Library, emb Embedder, opt UpdateOptions) (Stats, error) {
	var st Stats
	if opt.Batch <= 0 {
		opt.Batch = 64
	}
	if opt.CommitEvery <= 0 {
		opt.CommitEvery = 2 * time.Second
	}
	main, fresh := Dir(lib.Dir), newDir(lib.Dir)
	target := main
	var from *Store
	old, oerr := readModel(main)
	switch {
	case oerr == nil && (!old.Same(opt.Model) || old.Dims != opt.Model.Dims):
		target = fresh
		st.Replaced = &old
	case opt.Rebuild:
		target = fresh
		if oerr == nil {
			s, err := Open(main)
			if err == nil {
				from = s
				defer s.Close()
			}
		}
	case oerr != nil && !errors.Is(oerr, ErrNotBuilt):
		target = fresh // a damaged store: make it again
	}
	if target == fresh && opt.Only != nil {
		// sponge add does not start a whole new store: setup or reindex do.
		return st, &OtherModelError{Dir: main, Have: old, Want: opt.Model}
	}
	w, err := Create(target, opt.Model)
	var om *OtherModelError
	if errors.As(err, &om) && target == fresh {
		// Left by an interrupted switch to a third model.
		os.RemoveAll(fresh)
		w, err = Create(target, opt.Model)
	}
	if err != nil {
		return st, err
	}
	err = fill(ctx, lib, emb, w, from, opt, &st)
	st.Total = w.Items()
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return st, err
	}
	if target == fresh {
		if err := swap(main, fresh); err != nil {
			return st, err
		}
	}
	return st, nil
}

// swap puts the store in fresh in place of main: main is moved aside first,
// so a crash leaves one or the other (and a later Update finishes the job).
func swap(main, fresh string) error {
	aside := main + ".old"
	os.RemoveAll(aside)
	if err := os.Rename(main, aside); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("cannot replace the paragraph vectors: %w", err)
	}
	if err := os.Rename(fresh, main); err != nil {
		return fmt.Errorf("cannot replace the paragraph vectors: %w", err)
	}
	os.RemoveAll(aside)
	return nil
}

type loaded struct {
	id  string
	it  *item.Item
	err error
}

// fill embeds every item of the library (or of opt.Only) that w lacks,
// listing the library again at the end for items added meanwhile.
func fill(ctx context.Context, lib *library.Library, emb Embedder, w *Writer, from *Store, opt UpdateOptions, st *Stats) error {
	for round := 0; round < 3; round++ {
		ids := opt.Only
		if ids == nil {
			var err error
			if ids, err = lib.IDs(); err != nil {
				return err
			}
		}
		var todo []string
		total := 0
		for _, id := range ids {
			if w.Has(id) || !lib.Has(id) {
				continue
			}
			todo = append(todo, id)
			if m, err := lib.Meta(id); err == nil {
				total += m.Paragraphs
			}
		}
		if len(todo) == 0 {
			return nil
		}
		if err := embedItems(ctx, lib, emb, w, from, todo, total, opt, st); err != nil {
			return err
		}
		if opt.Only != nil {
			return nil
		}
	}
	return nil
}

func embedItems(ctx context.Context, lib *library.Library, emb Embedder, w *Writer, from *Store, todo []string, total int, opt UpdateOptions, st *Stats) error {
	// Items are read (and decompressed) ahead while the model works.
	items := make(chan loaded, 32)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		defer close(items)
		for _, id := range todo {
			it, err := lib.Item(id)
			select {
			case items <- loaded{id, it, err}:
			case <-stop:
				return
			}
		}
	}()
	done := 0
	lastCommit := time.Now()
	var batch []*item.Item
	var texts []string
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		var vecs [][]float32
		if len(texts) > 0 {
			var err error
			vecs, err = emb.Embed(texts)
			if err != nil {
				return err
			}
			if len(vecs) != len(texts) {
				return fmt.Errorf("the embedder gave %d vectors for %d paragraphs", len(vecs), len(texts))
			}
		}
		for _, it := range batch {
			n := len(it.Paragraphs)
			if err := w.Add(it.ID, vecs[:n]); err != nil {
				return err
			}
			vecs = vecs[n:]
			st.Items++
			st.Paragraphs += n
			done += n
		}
		batch, texts = batch[:0], texts[:0]
		if opt.Progress != nil {
			opt.Progress(done, total)
		}
		if time.Since(lastCommit) >= opt.CommitEvery || w.Pending() >= 4096 {
			lastCommit = time.Now()
			return w.Commit()
		}
		return nil
	}
	for l := range items {
		if err := ctx.Err(); err != nil {
			if cerr := flush(); cerr != nil {
				return cerr
			}
			return err
		}
		if l.err != nil {
			return l.err
		}
		it := l.it
		if from != nil {
			if e, ok := from.lookup(it.ID); ok && int(e.count) == len(it.Paragraphs) && !opt.Changed[it.ID] {
				w.addRecords(e.id, from.recordBytes(e), int(e.count))
				st.Items++
				st.Paragraphs += int(e.count)
				st.Copied += int(e.count)
				done += int(e.count)
				continue
			}
		}
		for _, p := range it.Paragraphs {
			texts = append(texts, opt.DocumentPrefix+ParagraphText(p))
		}
		batch = append(batch, it)
		if len(texts) >= opt.Batch {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	return w.Commit()
}
