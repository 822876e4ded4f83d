// Package progress shows a progress bar for long work on a terminal, and
// nothing when stderr is not a terminal (a pipe, a file, CI).
// It wraps github.com/schollz/progressbar, which is maintained, draws counts,
// rates and ETAs, and throttles its redraws.
package progress

import (
	"io"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/sponge-library/sponge/internal/base/termtext"
	"github.com/sponge-library/sponge/internal/base/tty"
)

// Bar is a progress bar; a nil *Bar is valid and shows nothing.
type Bar struct {
	pb *progressbar.ProgressBar
}

// New returns a bar counting to total on w, or nil when w is not a terminal.
// bytes makes it count bytes (for downloads) rather than things. The
// description may name a file, whose control characters are shown inert.
func New(w io.Writer, total int64, description string, bytes bool) *Bar {
	if !tty.IsTerminal(w) {
		return nil
	}
	opts := []progressbar.Option{
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription(termtext.Safe(description)),
		progressbar.OptionThrottle(100 * time.Millisecond),
		progressbar.OptionSetPredictTime(true),
		progressbar.OptionShowCount(),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionSetWidth(30),
	}
	if bytes {
		opts = append(opts, progressbar.OptionShowBytes(true))
	} else {
		opts = append(opts, progressbar.OptionShowIts(), progressbar.OptionSetItsString("items"))
	}
	return &Bar{pb: progressbar.NewOptions64(total, opts...)}
}

// Add moves the bar on by n.
func (b *Bar) Add(n int64) {
	if b != nil {
		b.pb.Add64(n)
	}
}

// Set puts the bar at n.
func (b *Bar) Set(n int64) {
	if b != nil {
		b.pb.Set64(n)
	}
}

// Clear wipes the bar so a message can be printed; it is drawn again on the next Add.
func (b *Bar) Clear() {
	if b != nil {
		b.pb.Clear()
	}
}

// Finish ends the bar and clears it.
func (b *Bar) Finish() {
	if b != nil {
		b.pb.Finish()
	}
}
