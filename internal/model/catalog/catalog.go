// Package catalog is the models sponge runs and where they are: the models
// folder every library shares (settings.Environ.ModelsDir: the front end
// resolves it and hands it down) holds the writing model (digest.gguf)
// and the embedding model (embedding.gguf), each with a manifest beside it
// (digest.json) saying where it came from, its size and SHA-256. Package
// install (below this one) downloads and installs them; it is apart so that
// the programs that only look a model up (sponge-search, for a question) do
// not link net/http and the progress bar, whose package initialisation every
// question would pay.
package catalog

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Kind is what a model is for.
type Kind string

// Kinds of model.
const (
	Digest    Kind = "digest"    // writes the statements of an answer
	Embedding Kind = "embedding" // turns paragraphs into vectors for meaning search
)

// File is the model's file name in the models folder.
func (k Kind) File() string { return string(k) + ".gguf" }

// ManifestFile is the name of the manifest beside the model.
func (k Kind) ManifestFile() string { return string(k) + ".json" }

// Spec is a model sponge knows how to download.
type Spec struct {
	Kind    Kind
	Name    string // for people: family, size, quantization
	URL     string // pinned to a commit, so the bytes cannot change under the checksum
	Size    int64  // bytes
	SHA256  string // hex, as published
	License string
	Page    string // where the model is described
}

// Known is the table of models `sponge setup` installs by default, one per
// kind. Tests replace entries to point at a local server.
//
// The writing model is Qwen2.5 0.5B Instruct at Q4_K_M (Apache-2.0): on a
// 2-core CPU it reads a prompt of ~3,000 tokens and writes six statements in
// seconds, follows the JSON-shaped framing reliably for its size, and at
// 398 MB fits beside a small library. The bartowski quantization is used
// because its LFS pointer (exact size and SHA-256) is published per commit.
var Known = map[Kind]Spec{
	Digest: {
		Kind:    Digest,
		Name:    "Qwen2.5 0.5B Instruct Q4_K_M",
		URL:     "https://huggingface.co/bartowski/Qwen2.5-0.5B-Instruct-GGUF/resolve/21ef23001f314d0895bd8439b08157c2d4cd9bb7/Qwen2.5-0.5B-Instruct-Q4_K_M.gguf",
		Size:    397808192,
		SHA256:  "6eb923e7d26e9cea28811e1a8e852009b21242fb157b26149d3b188f3a8c8653",
		License: "Apache-2.0",
		Page:    "https://huggingface.co/bartowski/Qwen2.5-0.5B-Instruct-GGUF",
	},
	// The embedding model (issue 7) is bge-small-en-v1.5 at Q8_0 (MIT): 33M
	// parameters, 384 dimensions (388 bytes a paragraph as int8), strong on
	// retrieval for its size (BEIR/MTEB retrieval ≈ 51.7), CLS pooling
	// (bert.pooling_type 2 in the file), 512 tokens. Questions take the
	// prefix "Represent this sentence for searching relevant passages: ";
	// paragraphs none (internal/embed.ConventionsFor). The ggml-org build is
	// the llama.cpp project's own conversion; its page publishes the SHA-256
	// and "36.7 MB" but not the exact byte count, so Size is left 0 (the
	// checksum still guards the download).
	Embedding: {
		Kind:    Embedding,
		Name:    "bge-small-en-v1.5 Q8_0",
		URL:     "https://huggingface.co/ggml-org/bge-small-en-v1.5-Q8_0-GGUF/resolve/21e40c8008c7ea7ac18788916d18fd1e443ab036/bge-small-en-v1.5-q8_0.gguf",
		SHA256:  "f046db1dc724cf4f6f0a0c5917e922823b73eb1d27b8f9a9c2797f7866974804",
		License: "MIT",
		Page:    "https://huggingface.co/ggml-org/bge-small-en-v1.5-Q8_0-GGUF",
	},
}

// Manifest describes an installed model; it is <kind>.json in the models folder.
type Manifest struct {
	Kind         Kind      `json:"kind"`
	Name         string    `json:"name,omitempty"`
	File         string    `json:"file"`
	Source       string    `json:"source"` // the URL or file it was installed from
	SHA256       string    `json:"sha256"`
	Size         int64     `json:"size"`
	Architecture string    `json:"architecture,omitempty"`
	Installed    time.Time `json:"installed"`
}

// Installed returns the manifest of the installed model of this kind, or
// nil when none is installed. A model file without a manifest (copied in by
// hand) is reported with what can be seen: its size and modification time.
func Installed(dir string, kind Kind) (*Manifest, error) {
	path := filepath.Join(dir, kind.File())
	st, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	m := &Manifest{Kind: kind, File: kind.File(), Size: st.Size(), Installed: st.ModTime().UTC().Truncate(time.Second)}
	b, err := os.ReadFile(filepath.Join(dir, kind.ManifestFile()))
	if errors.Is(err, os.ErrNotExist) {
		return m, nil
	}
	if err != nil {
		return nil, err
	}
	var mf Manifest
	if err := json.Unmarshal(b, &mf); err != nil {
		return nil, fmt.Errorf("%s is damaged: %v", filepath.Join(dir, kind.ManifestFile()), err)
	}
	if mf.Size != st.Size() {
		// The manifest speaks of another file (a copy over it by hand).
		return m, nil
	}
	return &mf, nil
}

// WriteManifest writes the manifest atomically, and syncs the folder so
// that the model renamed into it and its manifest stay.
func WriteManifest(dir string, m *Manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(dir, m.Kind.ManifestFile()), append(b, '\n')); err != nil {
		return err
	}
	syncDir(dir)
	return nil
}

func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

// Bytes formats a size for people: 398 MB, 1.2 GB.
func Bytes(n int64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.1f GB", float64(n)/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.0f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.0f kB", float64(n)/1e3)
	}
	return fmt.Sprintf("%d bytes", n)
}

// OwnDir is the library's own models folder, where models were installed
// before they were shared. A model there is still used, when the shared
// folder has none of its kind, and 'sponge setup' moves it to the shared one.
func OwnDir(libDir string) string { return filepath.Join(libDir, "models") }

// Find returns the folder and manifest of the model of this kind a library
// uses: the shared models folder's (shared: settings.Environ.ModelsDir,
// resolved by the front end), else the library's own (OwnDir); "" and nil
// when neither has one.
func Find(shared, libDir string, kind Kind) (string, *Manifest, error) {
	for i, dir := range []string{shared, OwnDir(libDir)} {
		if dir == "" || i == 1 && libDir == "" {
			continue // no shared folder; no library
		}
		m, err := Installed(dir, kind)
		if err != nil || m != nil {
			return dir, m, err
		}
	}
	return "", nil, nil
}

// Path is the model file of this kind the library uses, or "" when none is
// installed (or its manifest cannot be read).
func Path(shared, libDir string, kind Kind) string {
	dir, m, err := Find(shared, libDir, kind)
	if err != nil || m == nil {
		return ""
	}
	return filepath.Join(dir, kind.File())
}

// Moved is a model Share moved from a library's own folder to the shared one.
type Moved struct {
	Kind     Kind
	From, To string // folders
}

// Left is a model of a library's own folder that stays there: the shared
// folder has one of its kind already (so it is not used), or it could not
// be moved (so it is used still).
type Left struct {
	Kind   Kind
	Dir    string
	Size   int64
	Used   bool
	Reason string
}

// Share moves each model of the library's own folder to the shared one
// when the shared folder has none of its kind, by rename: on one file
// system that is instant, and a model is never copied or deleted. What it
// cannot move stays where it is and is reported.
func Share(shared, libDir string) (moved []Moved, left []Left, err error) {
	own := OwnDir(libDir)
	if shared == "" || sameDir(own, shared) {
		return nil, nil, nil
	}
	for _, kind := range []Kind{Digest, Embedding} {
		m, err := Installed(own, kind)
		if err != nil {
			return moved, left, err
		}
		if m == nil {
			continue
		}
		if cur, err := Installed(shared, kind); err != nil || cur != nil {
			left = append(left, Left{Kind: kind, Dir: own, Size: m.Size, Reason: "the shared models folder has one"})
			continue
		}
		if err := os.MkdirAll(shared, 0o755); err != nil {
			left = append(left, Left{Kind: kind, Dir: own, Size: m.Size, Used: true, Reason: err.Error()})
			continue
		}
		// The manifest first: a model file found without one is still
		// reported (by size), while a manifest alone would be no model.
		mf := filepath.Join(own, kind.ManifestFile())
		if _, err := os.Stat(mf); err == nil {
			if err := os.Rename(mf, filepath.Join(shared, kind.ManifestFile())); err != nil {
				left = append(left, Left{Kind: kind, Dir: own, Size: m.Size, Used: true, Reason: err.Error()})
				continue
			}
		}
		if err := os.Rename(filepath.Join(own, kind.File()), filepath.Join(shared, kind.File())); err != nil {
			// Put the manifest back beside its model.
			os.Rename(filepath.Join(shared, kind.ManifestFile()), mf)
			left = append(left, Left{Kind: kind, Dir: own, Size: m.Size, Used: true, Reason: err.Error()})
			continue
		}
		syncDir(shared)
		syncDir(own)
		moved = append(moved, Moved{Kind: kind, From: own, To: shared})
	}
	return moved, left, nil
}

func sameDir(a, b string) bool {
	if filepath.Clean(a) == filepath.Clean(b) {
		return true
	}
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}
