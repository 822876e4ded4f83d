package main

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"time"
)

// officeFiles are real EPUB, DOCX and ODT files from Debian packages
// (under -work/pkgs): calibre's quick start guides in six languages,
// the examples and template of R's officer, relatorio's examples and
// odfpy's manual.
var officeFiles = []struct{ kind, glob string }{
	{"EPUB", "calibre/usr/share/calibre/quick_start/*.epub"},
	{"DOCX", "r-cran-officer/usr/lib/R/site-library/officer/*/*.docx"},
	{"ODT", "python3-relatorio/usr/share/doc/python3-relatorio/examples/*.odt"},
	{"ODT", "python3-relatorio/usr/share/python3-relatorio/tests/*.odt"},
	{"ODT", "python-odf-doc/usr/share/python-odf/*.odt"},
}

// office scores sponge's EPUB, DOCX and ODT readers against pandoc's
// plain text of each file (-t plain --wrap=none).
func office(sponge []reader) {
	byKind := map[string][]string{}
	var kinds []string
	for _, f := range officeFiles {
		m, _ := filepath.Glob(filepath.Join(*work, "pkgs", f.glob))
		if len(m) == 0 {
			fmt.Fprintf(os.Stderr, "extract: office: nothing matches %s in %s (make extract-corpora fetches it)\n", f.glob, filepath.Join(*work, "pkgs"))
			continue
		}
		if byKind[f.kind] == nil {
			kinds = append(kinds, f.kind)
		}
		byKind[f.kind] = append(byKind[f.kind], m...)
	}
	var all []string
	for _, k := range kinds {
		all = append(all, byKind[k]...)
	}
	var refs map[string][]string
	timed(fmt.Sprintf("office: pandoc of %d files", len(all)), func() {
		refs = parallel(all, func(p string) []string { return words(pandoc(p)) })
	})
	for _, r := range sponge {
		docs := readAll("office", r, all)
		for _, k := range kinds {
			var ref, kept, got, gotKept, scored int
			var per []string
			worstKept, failed := 1.0, 0
			timed(fmt.Sprintf("office: scoring %s's %s", r.name, k), func() {
				for _, p := range byKind[k] {
					if len(refs[p]) == 0 {
						per = append(per, fmt.Sprintf("%s (pandoc: no words; not scored)", filepath.Base(p)))
						continue
					}
					scored++
					have := docWords(docs[p], false)
					n := lcs(refs[p], have)
					ref += len(refs[p])
					kept += n
					got += len(have)
					gotKept += n
					s := float64(n) / float64(max(1, len(refs[p])))
					worstKept = min(worstKept, s)
					if docs[p].Err != "" {
						failed++
					}
					// the share of sponge's words pandoc lacks, per file: pandoc
					// 2.17 leaves out an ODT's text:section (api-for-odfpy.odt's
					// "The Element classes", 19,846 words, is one), which
					// alone makes most of the ODT row's figure
					per = append(per, fmt.Sprintf("%.2f %s (%d words; not in pandoc's %.2f)", s, filepath.Base(p), len(refs[p]),
						1-float64(n)/float64(max(1, len(have)))))
				}
			})
			rows = append(rows, row{"office", k, r.name, scored, []string{
				fmt.Sprintf("kept %.3f of %d words", float64(kept)/float64(max(1, ref)), ref),
				fmt.Sprintf("worst file %.3f", worstKept),
				fmt.Sprintf("not in pandoc's %.3f", 1-float64(gotKept)/float64(max(1, got))),
				fmt.Sprintf("failed %d", failed),
			}, 0})
			details = append(details, fmt.Sprintf("  office %s, %s: %s", k, r.name, strings.Join(per, ", ")))
		}
	}
}

// pandoc is a file's plain text by pandoc (kept in -work/ref/pandoc). An
// EPUB pandoc cannot read is read by w3m instead (epubByW3m).
func pandoc(p string) string {
	key := filepath.Join(*work, "ref", "pandoc", strings.ReplaceAll(strings.TrimPrefix(p, *work), "/", "_")+".txt")
	if b, err := os.ReadFile(key); err == nil && len(b) > 0 {
		return string(b)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, "pandoc", "-t", "plain", "--wrap=none", p).Output()
	if err != nil && strings.EqualFold(filepath.Ext(p), ".epub") {
		var werr error
		if out, werr = epubByW3m(p); werr == nil {
			err = nil
		}
	}
	if err != nil {
		// kept as no text: the table lists the file as one pandoc gives no words for
		fmt.Fprintf(os.Stderr, "extract: pandoc %s: %v\n", p, err)
		out = nil
	}
	os.MkdirAll(filepath.Dir(key), 0o755)
	os.WriteFile(key, out, 0o644)
	return string(out)
}

// epubByW3m is an EPUB's text as w3m -dump shows each document of its
// spine, in the spine's order: the reference where pandoc 2.17 fails
// ("No entry on path: OEBPS/../text/titlepage.xhtml" for calibre's German,
// French and Italian quick start guides, whose package file names its
// documents by "../").
func epubByW3m(p string) ([]byte, error) {
	z, err := zip.OpenReader(p)
	if err != nil {
		return nil, err
	}
	defer z.Close()
	read := func(name string) ([]byte, error) {
		f, err := z.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		return io.ReadAll(f)
	}
	var container struct {
		Rootfiles []struct {
			Path string `xml:"full-path,attr"`
		} `xml:"rootfiles>rootfile"`
	}
	b, err := read("META-INF/container.xml")
	if err == nil {
		err = xml.Unmarshal(b, &container)
	}
	if err != nil || len(container.Rootfiles) == 0 {
		return nil, fmt.Errorf("no package file: %v", err)
	}
	opfPath := container.Rootfiles[0].Path
	var opf struct {
		Items []struct {
			ID   string `xml:"id,attr"`
			Href string `xml:"href,attr"`
		} `xml:"manifest>item"`
		Spine []struct {
			IDRef string `xml:"idref,attr"`
		} `xml:"spine>itemref"`
	}
	if b, err = read(opfPath); err == nil {
		err = xml.Unmarshal(b, &opf)
	}
	if err != nil {
		return nil, err
	}
	href := map[string]string{}
	for _, it := range opf.Items {
		href[it.ID] = it.Href
	}
	var out bytes.Buffer
	for _, ref := range opf.Spine {
		doc, err := read(path.Clean(path.Join(path.Dir(opfPath), href[ref.IDRef])))
		if err != nil {
			return nil, err
		}
		cmd := exec.Command("w3m", "-dump", "-cols", "10000", "-T", "text/html", "-O", "UTF-8", "-I", "UTF-8")
		cmd.Stdin = bytes.NewReader(doc)
		text, err := cmd.Output()
		if err != nil {
			return nil, fmt.Errorf("w3m: %v", err)
		}
		out.Write(text)
	}
	return out.Bytes(), nil
}
