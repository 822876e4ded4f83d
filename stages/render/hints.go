package render

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/sponge-library/sponge/jsonl"
)

// SeenTimes is how many times a person is shown a setup warning (a
// warning record with setup: true: no embedding model, no writing model)
// and its hint before sponge ask stops showing it: they know by then, and
// four lines on every answer hide the warnings that matter.
const SeenTimes = 3

// SeenFile is the name of the file, in the library folder, that counts
// how many times each setup warning has been shown (sponge ask's
// --setup-hints).
const SeenFile = "hints-seen.json"

// Hints chooses which setup warnings a text view shows: each until it has
// been shown SeenTimes times, counted in File; none when Off. A nil Hints
// shows every warning (sponge-render alone, ask.sh). Warnings that are not
// about setup are always shown.
type Hints struct {
	File string // the counts; "" for none (every setup warning shown)
	Off  bool   // 'sponge config set hints off': no setup warning shown
}

// seenKey names a setup warning in the counts: its code and message, so
// that a warning worded anew is shown anew.
func seenKey(w *jsonl.Warning) string { return w.Code + ": " + w.Message }

// Filter returns the warnings of ws to show now and counts, in h.File, the
// setup warnings among them as seen. A counts file that cannot be read is
// taken as empty, and one that cannot be written leaves the warnings shown
// next time: a hint shown again is better than an answer that fails.
func (h *Hints) Filter(ws []*jsonl.Warning) []*jsonl.Warning {
	if h == nil {
		return ws
	}
	var seen map[string]int
	if h.File != "" && !h.Off {
		seen = readSeen(h.File)
	}
	var out []*jsonl.Warning
	shown := false
	for _, w := range ws {
		switch {
		case !w.Setup:
		case h.Off:
			continue
		case h.File == "":
		case seen[seenKey(w)] >= SeenTimes:
			continue
		default:
			seen[seenKey(w)]++
			shown = true
		}
		out = append(out, w)
	}
	if shown {
		writeSeen(h.File, seen)
	}
	return out
}

func readSeen(file string) map[string]int {
	seen := map[string]int{}
	if b, err := os.ReadFile(file); err == nil {
		if json.Unmarshal(b, &seen) != nil {
			seen = map[string]int{}
		}
	}
	return seen
}

// writeSeen replaces file with the counts at once (a new file renamed over
// it), so that two answers ending together leave one count or the other,
// never a torn file; only in a folder that is there (the library's).
func writeSeen(file string, seen map[string]int) {
	b, err := json.Marshal(seen)
	if err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(file), "."+filepath.Base(file)+".*")
	if err != nil {
		return
	}
	_, err = tmp.Write(append(b, '\n'))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), file)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
}
