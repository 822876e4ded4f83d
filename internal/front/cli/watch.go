package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/sponge-library/sponge/internal/base/console"
	"github.com/sponge-library/sponge/internal/front/cmdline"
	"github.com/sponge-library/sponge/internal/library"
	"github.com/sponge-library/sponge/internal/library/ingest"
)

// How long sponge update --watch waits before it saves what changed: until
// no change has come for settle (an editor's save is several events: a
// write, a rename, a chmod), and at most most after the first, so that a
// file written without a pause is still saved every few seconds.
const (
	watchSettle = 500 * time.Millisecond
	watchMost   = 3 * time.Second
)

// watch is sponge update --watch: an update, then one more each time what
// it watches changes, until ctx ends (Ctrl-C), which waits for the update
// under way. It watches the folders given to sponge add and every folder
// under them that the walk goes into (ingest.Dirs: hidden and ignored ones
// are not), and the folder of each saved file (an editor saves by writing
// a new file and renaming it over the old, which a watch on the file itself
// would lose). Each update is a whole sponge update pass, taking the write
// lock only while it saves, so other commands write in between. passed, if
// not nil, is called after each pass (for tests).
func watch(ctx context.Context, env *Env, opts *cmdline.UpdateOptions, passed func()) int {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return console.Report(env.Stderr, Prog, fmt.Errorf("cannot watch the files: %w", err))
	}
	defer w.Close()
	watched := map[string]bool{}
	// look watches the folders not watched yet, and says how many.
	look := func() (added int) {
		dirs, err := watchedDirs(opts)
		if err != nil {
			console.Report(env.Stderr, Prog, err)
			return 0
		}
		for _, d := range dirs {
			if watched[d] {
				continue
			}
			if err := w.Add(d); err != nil {
				console.PrintWarning(env.Stderr, Prog, fmt.Sprintf("%s: cannot watch it: %v", d, err))
				continue
			}
			watched[d] = true
			added++
		}
		return added
	}
	code := updatePass(env, opts, false)
	if code != console.ExitOK && code != console.ExitFailure {
		return code // no library, or a damaged one: nothing to watch
	}
	look()
	if passed != nil {
		passed()
	}
	if !opts.Quiet {
		fmt.Fprintf(env.Stderr, "%s: watching %s; Ctrl-C ends\n", Prog, cmdline.Count(len(watched), "folder"))
	}
	var (
		first, last time.Time // of the changes not yet saved
		timer       = time.NewTimer(time.Hour)
	)
	timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return console.ExitOK
		case ev, ok := <-w.Events:
			if !ok {
				return console.ExitOK
			}
			if ev.Op == fsnotify.Chmod {
				continue
			}
			now := time.Now()
			if first.IsZero() {
				first = now
			}
			last = now
			timer.Reset(min(watchSettle, watchMost-last.Sub(first)))
		case err, ok := <-w.Errors:
			if ok {
				console.PrintWarning(env.Stderr, Prog, "watching: "+err.Error())
			}
		case <-timer.C:
			if wait := watchSettle - time.Since(last); wait > 0 && time.Since(first) < watchMost {
				timer.Reset(wait)
				continue
			}
			first, last = time.Time{}, time.Time{}
			updatePass(env, opts, true)
			if look() > 0 {
				// New folders: a file made in one before it was watched
				// sent no event, and the next pass finds it.
				first, last = time.Now(), time.Now()
				timer.Reset(0)
			}
			if passed != nil {
				passed()
			}
		}
	}
}

// watchedDirs are the folders sponge update --watch watches: each added
// folder and those under it that the walk goes into, and the folder of
// each saved file.
func watchedDirs(opts *cmdline.UpdateOptions) ([]string, error) {
	lib, err := library.Open(opts.Library)
	if err != nil {
		return nil, err
	}
	folders, err := lib.Folders()
	if err != nil {
		return nil, err
	}
	var dirs []string
	for _, f := range folders {
		ds, _ := ingest.Dirs(f.Path, ingest.WalkOptions{Follow: opts.Follow, NoIgnore: f.NoIgnore, Hidden: f.Hidden})
		dirs = append(dirs, ds...)
	}
	sources, err := lib.Sources()
	if err != nil {
		return nil, err
	}
	for s := range sources {
		if filepath.IsAbs(s) {
			dirs = append(dirs, filepath.Dir(s))
		}
	}
	return dirs, nil
}
