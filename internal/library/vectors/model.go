package vectors

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"

	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/model/catalog"
)

// Installed returns the path and the name of the embedding model the library
// uses (catalog.Find: the one in the shared models folder, else the
// library's own),
// or an empty path when none is installed. The SHA-256 comes from the
// model's manifest; a file copied in by hand is hashed. Dims is left 0: the
// model says it once loaded.
func Installed(models string, lib *library.Library) (string, Model, error) {
	dir, mf, err := catalog.Find(models, lib.Dir, catalog.Embedding)
	if err != nil || mf == nil {
		return "", Model{}, err
	}
	path := filepath.Join(dir, catalog.Embedding.File())
	m := Model{Name: mf.Name, SHA256: mf.SHA256}
	if m.SHA256 == "" {
		f, err := os.Open(path)
		if err != nil {
			return "", Model{}, err
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			return "", Model{}, err
		}
		m.SHA256 = hex.EncodeToString(h.Sum(nil))
	}
	if m.Name == "" {
		m.Name = catalog.Embedding.File()
	}
	return path, m, nil
}
