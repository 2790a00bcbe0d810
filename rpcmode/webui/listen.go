package webui

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log"
	"net"
	"net/http"
	"net/netip"
	"strconv"
	"strings"
	"time"
)

// DefaultAddr is where the page listens unless the person names another
// address: the loopback interface, which only this machine reaches.
const DefaultAddr = "127.0.0.1"

// ListenConfig says where the page listens.
type ListenConfig struct {
	// Addr is the address to listen on; "" is DefaultAddr. Any address but
	// a loopback one (127.0.0.0/8, ::1, localhost) needs TLSCert and
	// TLSKey.
	Addr string
	// Port is the port; 0 takes a free one.
	Port int
	// TLSCert and TLSKey are the PEM files of a certificate and its key;
	// with them the page is served over HTTPS (and wss:).
	TLSCert, TLSKey string
}

// ErrNeedsTLS is returned by Start for an address other than loopback
// without a certificate and key.
var ErrNeedsTLS = errors.New("listening on an address other than loopback needs TLS")

// isLoopback reports whether host names only this machine.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// tlsConfig checks where lc listens and loads its certificate: nil
// without TLS.
func (lc ListenConfig) tlsConfig() (*tls.Config, error) {
	host := lc.Addr
	if host == "" {
		host = DefaultAddr
	}
	if lc.Port < 0 || lc.Port > 65535 {
		return nil, fmt.Errorf("the port must be between 0 (a free one) and 65535, not %d", lc.Port)
	}
	if (lc.TLSCert == "") != (lc.TLSKey == "") {
		return nil, errors.New("TLS needs both a certificate and its key: give both --tls-cert and --tls-key")
	}
	if lc.TLSCert == "" {
		if !isLoopback(host) {
			return nil, fmt.Errorf("%w: %s is reachable from other machines, so give --tls-cert and --tls-key (a certificate for that address and its key), or leave --addr out to listen on %s only",
				ErrNeedsTLS, host, DefaultAddr)
		}
		return nil, nil
	}
	cert, err := tls.LoadX509KeyPair(lc.TLSCert, lc.TLSKey)
	if err != nil {
		return nil, fmt.Errorf("load the TLS certificate %s and key %s: %w", lc.TLSCert, lc.TLSKey, err)
	}
	return &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}, nil
}

// Server is a listening page: Start opens it, Serve serves it.
type Server struct {
	ln      net.Listener
	srv     *http.Server
	handler *Handler
	url     string
}

// Start checks lc, listens and builds the Handler for cfg; nothing is
// served before Serve. An address other than loopback without TLS fails
// with ErrNeedsTLS, before anything listens.
func Start(lc ListenConfig, cfg Config) (*Server, error) {
	tc, err := lc.tlsConfig()
	if err != nil {
		return nil, err
	}
	h, err := New(cfg)
	if err != nil {
		return nil, err
	}
	host := lc.Addr
	if host == "" {
		host = DefaultAddr
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(lc.Port)))
	if err != nil {
		return nil, fmt.Errorf("listen on %s port %d: %w", host, lc.Port, err)
	}
	scheme := "http"
	if tc != nil {
		scheme = "https"
		ln = tls.NewListener(ln, tc)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	s := &Server{
		ln:      ln,
		handler: h,
		srv: &http.Server{
			Handler:           h,
			ReadHeaderTimeout: 10 * time.Second,
			IdleTimeout:       2 * time.Minute,
			// net/http's own complaints (a TLS handshake that failed) go
			// where cairn's warnings go.
			ErrorLog: log.New(warnWriter(h.cfg.Warn), "", 0),
		},
		url: fmt.Sprintf("%s://%s/%s/", scheme, net.JoinHostPort(host, strconv.Itoa(port)), cfg.Token),
	}
	return s, nil
}

// warnWriter passes each write on to warn as one message.
type warnWriter func(string)

func (w warnWriter) Write(p []byte) (int, error) {
	w(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// URL is the page's address, the token included: print it once.
func (s *Server) URL() string { return s.url }

// Addr is the address the server listens on.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Serve serves the page until ctx ends, then stops listening, closes every
// page's connection and stream, and returns once they are closed. It
// returns an error only when serving failed.
func (s *Server) Serve(ctx context.Context) error {
	served := make(chan error, 1)
	go func() { served <- s.srv.Serve(s.ln) }()
	var err error
	select {
	case err = <-served:
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// The WebSockets are hijacked connections Shutdown does not wait for:
	// the Handler closes them.
	_ = s.srv.Shutdown(shutdown)
	s.handler.Close()
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}
