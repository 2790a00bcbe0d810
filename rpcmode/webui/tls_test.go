package webui

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// selfSigned writes a certificate for 127.0.0.1 and its key, and returns
// their paths and a pool trusting the certificate.
func selfSigned(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "cairn test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		IPAddresses:  []net.IP{net.ParseIP("127.0.0.1")},
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// With a certificate the page is served over HTTPS and its WebSocket over
// wss:, from the https origin only.
func TestServesOverTLS(t *testing.T) {
	certFile, keyFile, pool := selfSigned(t)
	cairn := newPipeCairn()
	s, err := Start(ListenConfig{TLSCert: certFile, TLSKey: keyFile}, Config{Dial: cairn.Dial, Token: testToken})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx) }()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Error(err)
		}
	}()
	if !strings.HasPrefix(s.URL(), "https://127.0.0.1:") {
		t.Fatalf("URL %q, want https", s.URL())
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	defer client.CloseIdleConnections()
	resp, err := client.Get(s.URL())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET over TLS: %d", resp.StatusCode)
	}
	// Plain HTTP gets net/http's 400 ("an HTTP request to an HTTPS
	// server"), never the page.
	if r, err := http.Get("http" + strings.TrimPrefix(s.URL(), "https")); err == nil {
		r.Body.Close()
		if r.StatusCode == http.StatusOK {
			t.Fatal("the page was served over plain HTTP on the TLS port")
		}
	}
	host := strings.TrimPrefix(strings.Split(s.URL(), "/"+testToken)[0], "https://")
	ws := "wss://" + host + "/" + testToken + "/acp"
	for origin, want := range map[string]bool{"http://" + host: false, "https://" + host: true} {
		wctx, wcancel := context.WithTimeout(context.Background(), waitLimit)
		c, _, err := websocket.Dial(wctx, ws, &websocket.DialOptions{HTTPClient: client, HTTPHeader: http.Header{"Origin": {origin}}})
		wcancel()
		if (err == nil) != want {
			t.Errorf("Origin %s over TLS: %v, want accepted %v", origin, err, want)
		}
		if err == nil {
			cairn.next(t)
			c.Close(websocket.StatusNormalClosure, "")
		}
	}
}
