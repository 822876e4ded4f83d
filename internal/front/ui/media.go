package ui

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"github.com/sponge-library/sponge/internal/base/item"
)

// A transcript's media: when the audio or video a transcript was made for
// sits beside the transcript's saved source file (talk.vtt or talk.en.srt
// beside talk.mp4), the item page plays it from a quote's time. The route
// serves that one file and nothing else on disk: the path comes from the
// saved item, never from the request.

// mediaTypes are the files a browser plays, by extension, in the order
// they are looked for.
var mediaTypes = []struct{ ext, kind, mime string }{
	{".mp4", "video", "video/mp4"},
	{".webm", "video", "video/webm"},
	{".m4v", "video", "video/mp4"},
	{".mov", "video", "video/quicktime"},
	{".mkv", "video", "video/x-matroska"},
	{".mp3", "audio", "audio/mpeg"},
	{".m4a", "audio", "audio/mp4"},
	{".ogg", "audio", "audio/ogg"},
	{".opus", "audio", "audio/ogg"},
	{".oga", "audio", "audio/ogg"},
	{".wav", "audio", "audio/wav"},
	{".flac", "audio", "audio/flac"},
}

// transcriptExts are the extensions of transcripts whose media is looked for.
var transcriptExts = map[string]bool{".vtt": true, ".srt": true}

// mediaBeside is the media file beside the item's transcript source, or "".
func (s *Server) mediaBeside(it *item.Item) string {
	for _, src := range it.Sources() {
		if !filepath.IsAbs(src) || !transcriptExts[strings.ToLower(filepath.Ext(src))] {
			continue
		}
		// talk.en.vtt is talk's: drop the transcript's extension, then
		// a language's.
		stems := []string{strings.TrimSuffix(src, filepath.Ext(src))}
		if ext := filepath.Ext(stems[0]); ext != "" && len(ext) <= 6 {
			stems = append(stems, strings.TrimSuffix(stems[0], ext))
		}
		for _, stem := range stems {
			for _, t := range mediaTypes {
				p := stem + t.ext
				if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
					return p
				}
			}
		}
	}
	return ""
}

// mediaKind is "audio" or "video" for a media file's path, "" for none.
func mediaKind(path string) string {
	if t, ok := mediaTypeOf(path); ok {
		return t.kind
	}
	return ""
}

func mediaTypeOf(path string) (struct{ ext, kind, mime string }, bool) {
	ext := strings.ToLower(filepath.Ext(path))
	for _, t := range mediaTypes {
		if path != "" && t.ext == ext {
			return t, true
		}
	}
	return struct{ ext, kind, mime string }{}, false
}

// media serves the media file beside an item's transcript, with ranges
// (seeking).
func (s *Server) media(w http.ResponseWriter, r *http.Request) {
	lib, err := s.open()
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	id := r.PathValue("id")
	if !item.IsID(id) {
		s.fail(w, r, http.StatusNotFound, "no item has the id "+id, "")
		return
	}
	it, err := lib.Item(id)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	path := s.mediaBeside(it)
	t, ok := mediaTypeOf(path)
	if !ok {
		s.fail(w, r, http.StatusNotFound, "no audio or video file sits beside this item's transcript", "")
		return
	}
	f, err := os.Open(path)
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		s.failErr(w, r, err)
		return
	}
	w.Header().Set("Content-Type", t.mime)
	http.ServeContent(w, r, "", st.ModTime(), f)
}
