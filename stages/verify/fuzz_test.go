package verify

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/jsonl"
)

// decodeError is what stderr holds after a malformed line: perhaps warnings
// about items, then one error naming the line.
var decodeError = regexp.MustCompile(`^(sponge-verify: warning: .+\n)*sponge-verify: error: <stdin>:[0-9]+: .+\n$`)

// FuzzVerify feeds arbitrary streams to sponge-verify: it must never panic, a
// malformed line must give one clear error naming the line and exit 3, and a
// valid stream must give a valid stream with one record out for each in.
func FuzzVerify(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("..", "..", "golden", "verify", "*", "in.jsonl"))
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"v":1,"type":"passage","number":1,"itemId":"` + strings.Repeat("0", 64) + `","title":"x","paragraph":-5,"text":"x","score":1}` + "\n" +
		`{"v":1,"type":"statement","text":"x","passage":1,"quote":"a b c"}`))
	f.Add([]byte("{\"v\":1,\"type\":\"statement\",\"text\":\"\\u00ad\",\"passage\":1,\"quote\":\"\\ufeff\\u200b\"}\n\xff\n"))
	lib := testLibrary()
	f.Fuzz(func(t *testing.T, in []byte) {
		r := runWhole(lib, in)
		switch r.Code {
		case console.ExitOK:
			if r.Stderr != "" && !strings.HasPrefix(r.Stderr, "sponge-verify: warning: ") {
				t.Fatalf("stderr on success: %q", r.Stderr)
			}
			recs := decodeAll(t, r.Stdout)
			for _, rec := range recs {
				if _, ok := rec.(*jsonl.Statement); ok {
					t.Fatalf("a statement passed through unchecked")
				}
			}
		case console.ExitBadInput:
			if !decodeError.MatchString(r.Stderr) {
				t.Fatalf("malformed input gave %q", r.Stderr)
			}
			decodeAll(t, r.Stdout)
		default:
			t.Fatalf("exit code %d, stderr %q", r.Code, r.Stderr)
		}
	})
}
