package quality

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Multilingual is one file of ../shared/bench/multilingual (SQuAD's format,
// one language) saved as a library as its README says: one item per
// article of its data. Its Ans are answerable; its Un are the questions of
// its held-out articles, which the library does not hold.
type Multilingual struct {
	Name     string // the file's name without .json: "bn-tydiqa"
	Language string
	Dir      string // the library
	*SquadSet
}

// MultilingualFiles are the sets of ../shared/bench/multilingual, by name.
func MultilingualFiles() ([]string, error) {
	dir, err := SharedBench("multilingual", "README.md")
	if err != nil {
		return nil, err
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%w: no *.json in %s", ErrNoShared, dir)
	}
	sort.Strings(files)
	return files, nil
}

// LoadMultilingual reads the set at path and saves its articles in a new
// library in work, as its eval_public.py does: each article a Markdown file
// ("# title", then its paragraphs between blank lines) saved as sponge add
// saves files. With ans above 0, only ans answerable questions evenly
// spaced over the file are asked (as eval_public.py --n), and only the
// articles they were asked on are saved; with held above 0, held held-out
// questions evenly spaced.
func LoadMultilingual(path, work string, ans, held int) (*Multilingual, error) {
	f, err := ReadSquadFile(path)
	if err != nil {
		return nil, err
	}
	name := strings.TrimSuffix(filepath.Base(path), ".json")
	m := &Multilingual{Name: name, Language: f.Language, Dir: filepath.Join(work, "library"), SquadSet: ItemsOf(f, name).Sample(ans, held)}
	articles := filepath.Join(work, "articles")
	if err := os.MkdirAll(articles, 0o755); err != nil {
		return nil, err
	}
	for i, src := range m.Sources {
		if err := os.WriteFile(filepath.Join(articles, fmt.Sprintf("a%03d.md", i)), src, 0o644); err != nil {
			return nil, err
		}
	}
	if err := AddFiles(m.Dir, articles); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return m, nil
}
