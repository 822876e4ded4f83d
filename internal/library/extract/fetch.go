package extract

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"syscall"
	"time"
)

// FetchOptions limit a fetch; zero values mean the defaults (30 s,
// MaxBytes, a client of our own).
type FetchOptions struct {
	Timeout  time.Duration
	MaxBytes int64
	Client   *http.Client
}

const defaultFetchTimeout = 30 * time.Second

// Fetch gets a URL (http/https only) with a timeout and a size limit,
// returning the body and its content type. Errors name the URL and say why.
func Fetch(ctx context.Context, rawURL string, opt FetchOptions) (body []byte, contentType string, err error) {
	if opt.Timeout <= 0 {
		opt.Timeout = defaultFetchTimeout
	}
	if opt.MaxBytes <= 0 {
		opt.MaxBytes = MaxBytes
	}
	client := opt.Client
	if client == nil {
		client = &http.Client{}
	}
	u, err := url.Parse(rawURL)
	if err != nil || u.Host == "" {
		return nil, "", fmt.Errorf("%s: not a valid URL", rawURL)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, "", fmt.Errorf("%s: only http and https URLs can be fetched", rawURL)
	}
	ctx, cancel := context.WithTimeout(ctx, opt.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, rawURL, nil)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %v", rawURL, err)
	}
	req.Header.Set("User-Agent", "sponge/1 (personal library)")
	req.Header.Set("Accept", "text/html, application/xhtml+xml, application/pdf, text/markdown, text/plain;q=0.9, */*;q=0.5")
	resp, err := client.Do(req)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %s", rawURL, fetchReason(ctx, err, opt.Timeout))
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, "", fmt.Errorf("%s: server answered %s", rawURL, resp.Status)
	}
	body, err = ReadAll(resp.Body, opt.MaxBytes, max(resp.ContentLength, 0))
	var tooLarge *TooLargeError
	if errors.As(err, &tooLarge) {
		return nil, "", fmt.Errorf("%s: %w", rawURL, err)
	} else if err != nil {
		return nil, "", fmt.Errorf("%s: %s", rawURL, fetchReason(ctx, err, opt.Timeout))
	}
	return body, resp.Header.Get("Content-Type"), nil
}

// fetchReason says in a few words why a request failed.
func fetchReason(ctx context.Context, err error, timeout time.Duration) string {
	var dnsErr *net.DNSError
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, os.ErrDeadlineExceeded):
		return fmt.Sprintf("timed out after %v", timeout)
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset by the server"
	case errors.As(err, &dnsErr):
		return fmt.Sprintf("cannot find host %s", dnsErr.Name)
	}
	var uerr *url.Error
	if errors.As(err, &uerr) {
		err = uerr.Err
	}
	msg := err.Error()
	if strings.Contains(msg, "stopped after 10 redirects") {
		return "too many redirects"
	}
	return msg
}

func size(n int64) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
