package openai

import (
	"net"
	"net/http"
	"net/url"
	"time"
)

// The guard of every server sponge runs on 127.0.0.1 (sponge serve, sponge
// ui): a web page elsewhere must not reach it.

// LocalOnly refuses requests whose Host is not this machine, so a web page
// cannot reach the server through a DNS name rebound to 127.0.0.1, and
// requests a browser sends for a page from elsewhere (its Origin is not
// this machine). prog names the server in the refusal ("sponge serve").
func LocalOnly(h http.Handler, prog string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !LoopbackHost(r.Host) {
			http.Error(w, prog+" answers only requests to 127.0.0.1", http.StatusForbidden)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" {
			u, err := url.Parse(origin)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || !LoopbackHost(u.Host) {
				http.Error(w, prog+" answers no requests from web pages of other sites", http.StatusForbidden)
				return
			}
		}
		h.ServeHTTP(w, r)
	})
}

// LoopbackHost reports whether host, with or without a port, names this
// machine.
func LoopbackHost(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	switch host {
	case "127.0.0.1", "localhost", "::1", "[::1]":
		return true
	}
	return false
}

// NewLocalServer is an HTTP server for h that bounds how long a client may
// take to send a request and how long an idle connection is kept. There is
// no WriteTimeout: a streamed reply on a CPU takes minutes, and ends when
// the client hangs up.
func NewLocalServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute, // the request, body included (at most MaxRequestBytes)
		IdleTimeout:       2 * time.Minute,
	}
}
