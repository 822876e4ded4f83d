package library

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/sponge-library/sponge/internal/base/fault"
)

// Sources maps each source (an absolute file path or a URL) to the items
// that name it, read from the items' Meta: the store says which item is a
// source's current version. Saved standard input is no source of this kind
// ("stdin" names no one thing), so it is left out. More than one item for a
// source is the trace of an add or update killed before it removed the old
// version; the next one finishes the job.
func (l *Library) Sources() (map[string][]*Meta, error) {
	ids, err := l.IDs()
	if err != nil {
		return nil, err
	}
	out := map[string][]*Meta{}
	for _, id := range ids {
		m, err := l.Meta(id)
		if err != nil {
			continue // a damaged item is reported by list and set aside by reindex
		}
		for _, s := range append([]string{m.Source}, m.Also...) {
			if Versioned(s) {
				out[s] = append(out[s], m)
			}
		}
	}
	return out, nil
}

// A file's path is bytes, and need not be UTF-8 (a name written in Latin-1,
// Caf\xe9), while a JSON string holds UTF-8 only: encoding/json writes each
// byte that is not UTF-8 as U+FFFD, and the path read back names no file
// (sponge update took such files for gone, and --prune removed their items).
// So in the library's files (items, their Meta, folders.json, stat.json,
// removed.json) a source that is not UTF-8 is written Go-quoted, as
// strconv.Quote writes it ("/docs/Caf\xe9/menu.txt", the quotes included),
// and read back to its very bytes. No path or URL starts with a quote: any
// other source is written as it is, so libraries saved before read the same.

// EncodeSource is how a source is written in the library's files.
func EncodeSource(s string) string {
	if utf8.ValidString(s) && !strings.HasPrefix(s, `"`) {
		return s
	}
	return strconv.Quote(s)
}

// DecodeSource gives back the source EncodeSource wrote.
func DecodeSource(s string) string {
	if strings.HasPrefix(s, `"`) {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return s
}

// encodeSources and decodeSources are EncodeSource and DecodeSource of
// each source of a list, in a new list when one changes.
func encodeSources(ss []string) []string { return mapSources(ss, EncodeSource) }
func decodeSources(ss []string) []string { return mapSources(ss, DecodeSource) }

func mapSources(ss []string, f func(string) string) []string {
	var out []string
	for i, s := range ss {
		if t := f(s); t != s {
			if out == nil {
				out = append([]string(nil), ss...)
			}
			out[i] = t
		}
	}
	if out == nil {
		return ss
	}
	return out
}

// Versioned says whether a new version of source replaces the old one: a
// file or a URL does, standard input does not.
func Versioned(source string) bool { return source != "" && source != "stdin" }

// Folder is a folder given to sponge add: sponge update adds the files
// that appear under it.
type Folder struct {
	Path string `json:"path"`
	Link bool   `json:"link,omitempty"`
	// NoIgnore and Hidden: added with --no-ignore or --hidden, the folder
	// is walked so by sponge update too.
	NoIgnore bool `json:"noIgnore,omitempty"`
	Hidden   bool `json:"hidden,omitempty"`
}

func (l *Library) foldersPath() string { return filepath.Join(l.Dir, "folders.json") }

// Folders lists the folders given to sponge add, sorted.
func (l *Library) Folders() ([]Folder, error) {
	data, err := os.ReadFile(l.foldersPath())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fault.New(fault.Failed, "cannot read %s: %v", l.foldersPath(), err)
	}
	var fs []Folder
	if err := json.Unmarshal(data, &fs); err != nil {
		return nil, fault.New(fault.Damaged, "%s is damaged: %v", l.foldersPath(), err)
	}
	for i := range fs {
		fs[i].Path = DecodeSource(fs[i].Path)
	}
	return fs, nil
}

// AddFolder notes a folder given to sponge add (its absolute path); noted
// again, its settings are the latest one's. The caller holds the write lock.
func (l *Library) AddFolder(f Folder) error {
	fs, err := l.Folders()
	if err != nil {
		return err
	}
	for i := range fs {
		if fs[i].Path == f.Path {
			if fs[i] == f {
				return nil
			}
			fs = append(fs[:i], fs[i+1:]...)
			break
		}
	}
	fs = append(fs, f)
	sort.Slice(fs, func(i, j int) bool { return fs[i].Path < fs[j].Path })
	for i := range fs {
		fs[i].Path = EncodeSource(fs[i].Path)
	}
	data, err := json.MarshalIndent(fs, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(l.foldersPath(), append(data, '\n'))
}

// Stat is what a file was when it was last read: if it still has the same
// size and modification time, sponge update takes it for unchanged without
// reading it. Checked is when it was read: a file changed within the same
// tick of its clock as it was read could keep its time, so a Stat taken too
// soon after the file's time is not trusted (git calls these entries racy).
type Stat struct {
	Size    int64     `json:"size"`
	ModTime time.Time `json:"mtime"`
	ID      string    `json:"id"`
	Checked time.Time `json:"checked"`
	// NoText: the file was skipped, with no readable text (ID is empty).
	NoText bool `json:"noText,omitempty"`
}

// Unchanged says whether a file of this size and time is, by s, still the
// bytes of s.ID.
func (s Stat) Unchanged(size int64, mtime time.Time) bool {
	return (s.ID != "" || s.NoText) && s.Size == size && s.ModTime.Equal(mtime) && s.Checked.Sub(mtime) > racyWindow
}

// racyWindow is how long after a file's modification time its Stat is
// trusted: more than any file system's time stamp resolution.
const racyWindow = 2 * time.Second

func (l *Library) statsPath() string { return filepath.Join(l.Dir, "stat.json") }

// Stats reads the file stats of the last add or update: a cache, derived
// from the files, and nothing else. Missing or damaged, it is empty, and
// update reads every file again.
func (l *Library) Stats() map[string]Stat {
	saved := map[string]Stat{}
	data, err := os.ReadFile(l.statsPath())
	if err == nil {
		json.Unmarshal(data, &saved)
	}
	out := make(map[string]Stat, len(saved))
	for p, s := range saved {
		out[DecodeSource(p)] = s
	}
	return out
}

// SaveStats writes the file stats (atomically). The caller holds the write lock.
func (l *Library) SaveStats(stats map[string]Stat) error {
	encoded := make(map[string]Stat, len(stats))
	for p, s := range stats {
		encoded[EncodeSource(p)] = s
	}
	data, err := json.Marshal(encoded)
	if err != nil {
		return err
	}
	return writeAtomic(l.statsPath(), data)
}

func (l *Library) removedPath() string { return filepath.Join(l.Dir, "removed.json") }

// Removed lists the files whose items sponge rm removed: sponge update does
// not add them again from their folder. Adding one by hand takes it off.
func (l *Library) Removed() (map[string]bool, error) {
	data, err := os.ReadFile(l.removedPath())
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]bool{}, nil
	}
	if err != nil {
		return nil, fault.New(fault.Failed, "cannot read %s: %v", l.removedPath(), err)
	}
	var paths []string
	if err := json.Unmarshal(data, &paths); err != nil {
		return nil, fault.New(fault.Damaged, "%s is damaged: %v", l.removedPath(), err)
	}
	out := make(map[string]bool, len(paths))
	for _, p := range paths {
		out[DecodeSource(p)] = true
	}
	return out, nil
}

// NoteRemoved adds paths to the list of Removed, and takes back off it
// those in unremoved. The caller holds the write lock.
func (l *Library) NoteRemoved(removed, unremoved []string) error {
	have, err := l.Removed()
	if err != nil {
		return err
	}
	changed := false
	for _, p := range removed {
		if !have[p] {
			have[p], changed = true, true
		}
	}
	for _, p := range unremoved {
		if have[p] {
			delete(have, p)
			changed = true
		}
	}
	if !changed {
		return nil
	}
	paths := make([]string, 0, len(have))
	for p := range have {
		paths = append(paths, EncodeSource(p))
	}
	sort.Strings(paths)
	data, err := json.MarshalIndent(paths, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(l.removedPath(), append(data, '\n'))
}
