package main

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/sponge-library/sponge/internal/base/settings"
	"github.com/sponge-library/sponge/internal/testsupport"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/sponge-library/sponge/internal/front/cli"
	"github.com/sponge-library/sponge/internal/front/cmdline"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/stages/draft"
	"github.com/sponge-library/sponge/stages/rank"
	"github.com/sponge-library/sponge/stages/render"
	"github.com/sponge-library/sponge/stages/search"
	"github.com/sponge-library/sponge/stages/verify"
)

// TestMain makes this test binary every sponge program, so the scripts run
// the real pipes: `sponge ask` finds the stages beside itself, and `sponge
// add` runs in sponge-full as it does when installed.
func TestMain(m *testing.M) {
	main := func(f func([]string, *os.File, *os.File, *os.File) int) func() {
		return func() { os.Exit(f(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
	}
	testscript.Main(testsupport.Isolated(m), map[string]func(){
		"sponge":        main(func(a []string, i, o, e *os.File) int { return cmdline.Main(a, i, o, e) }),
		"sponge-full":   main(func(a []string, i, o, e *os.File) int { return cli.Main(a, i, o, e) }),
		"sponge-search": main(func(a []string, i, o, e *os.File) int { return search.MainIn(settings.FromOS(), a, i, o, e) }),
		"sponge-rank":   main(func(a []string, i, o, e *os.File) int { return rank.MainIn(settings.FromOS(), a, i, o, e) }),
		"sponge-draft":  main(func(a []string, i, o, e *os.File) int { return draft.MainIn(settings.FromOS(), a, i, o, e) }),
		"sponge-verify": main(func(a []string, i, o, e *os.File) int { return verify.MainIn(settings.FromOS(), a, i, o, e) }),
		"sponge-render": main(func(a []string, i, o, e *os.File) int { return render.MainIn(settings.FromOS(), a, i, o, e) }),
	})
}

// TestScripts runs testdata/script/*.txtar. Each script has the sample
// documents in $WORK/docs, ask.sh in $WORK, SPONGE_HOME=$WORK/library, and
// XDG_CONFIG_HOME and XDG_DATA_HOME under $WORK.
func TestScripts(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join(root, "testdata", "script"),
		Setup: func(env *testscript.Env) error {
			// testscript starts from an allow-listed environment (PATH,
			// TMPDIR, HOME=/no-home ...): the home, settings and shared
			// models of the script are its own, never the person's.
			env.Setenv("SPONGE_HOME", filepath.Join(env.WorkDir, "library"))
			for k, sub := range map[string]string{"HOME": "home", "XDG_CONFIG_HOME": "config", "XDG_DATA_HOME": "data"} {
				env.Setenv(k, filepath.Join(env.WorkDir, sub))
			}
			env.Setenv(settings.IsolatedEnv, env.WorkDir)
			env.Setenv("NO_COLOR", "1")
			if err := os.CopyFS(filepath.Join(env.WorkDir, "docs"), os.DirFS(filepath.Join(root, "testdata", "docs"))); err != nil {
				return err
			}
			sh, err := os.ReadFile(filepath.Join(root, "ask.sh"))
			if err != nil {
				return err
			}
			return os.WriteFile(filepath.Join(env.WorkDir, "ask.sh"), sh, 0o755)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"status": cmdStatus,
			"setid":  cmdSetID,
			"zip":    cmdZip,
			"gzip":   cmdGzip,
		},
	})
}

// cmdStatus runs a command and checks its exit code: status N COMMAND ARGS...
func cmdStatus(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: status CODE COMMAND [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("status: %v", err)
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		got = ee.ExitCode()
	} else if err != nil {
		ts.Fatalf("status: %v", err)
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}

// cmdSetID sets an environment variable to the full id of the item whose
// title starts with the given words: setid VAR TITLE-PREFIX
func cmdSetID(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: setid VAR TITLE-PREFIX")
	}
	lib, err := library.Open(ts.Getenv("SPONGE_HOME"))
	ts.Check(err)
	ids, err := lib.IDs()
	ts.Check(err)
	prefix := strings.Join(args[1:], " ")
	for _, id := range ids {
		m, err := lib.Meta(id)
		ts.Check(err)
		if strings.HasPrefix(m.Title, prefix) {
			ts.Setenv(args[0], id)
			return
		}
	}
	ts.Fatalf("no item titled %q...", prefix)
}

// cmdZip writes a zip of files of the script, stored under their names
// (EPUB, DOCX and ODT are zips): zip OUT FILE...
func cmdZip(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: zip OUT FILE...")
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, name := range args[1:] {
		w, err := zw.Create(name)
		ts.Check(err)
		_, err = w.Write([]byte(ts.ReadFile(name)))
		ts.Check(err)
	}
	ts.Check(zw.Close())
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), buf.Bytes(), 0o644))
}

// cmdGzip writes FILE.gz: gzip FILE
func cmdGzip(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: gzip FILE")
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, err := zw.Write([]byte(ts.ReadFile(args[0])))
	ts.Check(err)
	ts.Check(zw.Close())
	ts.Check(os.WriteFile(ts.MkAbs(args[0]+".gz"), buf.Bytes(), 0o644))
}
