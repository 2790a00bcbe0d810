package pi

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// FakeLLMFactory starts a server that makes a fake model (fakeLLM) for each
// POST: the body is a script in fakellm.js's format, the answer the new
// model's base URL. It lets a client outside the test (client.mjs, driving
// pi itself) play the repository's scripted model without ../shared. The
// server and its models stop when the test ends.
func FakeLLMFactory(t *testing.T) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			http.Error(w, "POST a fakellm.js script", http.StatusMethodNotAllowed)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, 16<<20))
		var check fakeScript
		if err == nil {
			err = json.Unmarshal(body, &check)
		}
		if err != nil {
			http.Error(w, "not a fakellm.js script: "+err.Error(), http.StatusBadRequest)
			return
		}
		io.WriteString(w, newFakeLLM(t, body).srv.URL)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}
