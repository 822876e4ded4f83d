// Command dump reads the files named on stdin, one a line, with sponge's
// readers (internal/library/extract), and writes each as one JSON line:
// its title, paragraphs (heading path, text, PDF page, its heading's page
// and page starts) or error, and the time it took. internal/bench/extract
// builds it from the working tree and, with -before, from an earlier commit
// (it imports only the extract package, whose Bytes and item.Paragraph it
// has long had; a field item.Paragraph has not always had, such as
// headingPage, it reads from the paragraph's JSON, so that it builds with
// an older commit's too).
package main

import (
	"bufio"
	"encoding/json"
	"os"
	"sync"
	"time"

	"github.com/sponge-library/sponge/internal/library/extract"
)

type pageStart struct {
	O int `json:"o"`
	P int `json:"p"`
}

type para struct {
	H  string      `json:"h,omitempty"`
	T  string      `json:"t"`
	P  int         `json:"p,omitempty"`
	HP int         `json:"hp,omitempty"`
	Ps []pageStart `json:"ps,omitempty"`
}

// newer are item.Paragraph's fields that an older commit's may lack.
type newer struct {
	HeadingPage int `json:"headingPage"`
}

type doc struct {
	Path  string  `json:"path"`
	Err   string  `json:"err,omitempty"`
	Title string  `json:"title,omitempty"`
	Paras []para  `json:"paras,omitempty"`
	Sec   float64 `json:"sec"`
}

func read(path string) doc {
	start := time.Now()
	data, err := os.ReadFile(path)
	if err != nil {
		return doc{Path: path, Err: err.Error()}
	}
	d, err := extract.Bytes(data, path, "")
	out := doc{Path: path, Sec: time.Since(start).Seconds()}
	if err != nil {
		out.Err = err.Error()
		return out
	}
	out.Title = d.Title
	for _, q := range d.Paragraphs {
		p := para{H: q.Heading, T: q.Text, P: q.Page}
		if raw, err := json.Marshal(q); err == nil {
			var n newer
			json.Unmarshal(raw, &n)
			p.HP = n.HeadingPage
		}
		for _, s := range q.Pages {
			p.Ps = append(p.Ps, pageStart{s.Offset, s.Page})
		}
		out.Paras = append(out.Paras, p)
	}
	return out
}

func main() {
	paths := make(chan string)
	var mu sync.Mutex
	w := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range paths {
				d := read(p)
				mu.Lock()
				enc.Encode(d)
				mu.Unlock()
			}
		}()
	}
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		paths <- sc.Text()
	}
	close(paths)
	wg.Wait()
	w.Flush()
}
