package openai

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/cairn-dev/cairn/core/provider"
)

// decodeError reads an error response. OpenAI and most compatible servers
// send {"error":{"message","type","param","code"}}; Ollama sends
// {"error":"text"}; some gateways wrap it in an array or send only
// {"message"}. A body that is none of these is kept as the message, cut
// short, since it is usually a proxy's HTML or plain-text page.
func decodeError(status int, _ http.Header, body []byte) *provider.Error {
	if w := parseErrorBody(body); w != nil {
		return errorFrom(w, status)
	}
	text := strings.TrimSpace(string(body))
	if len(text) > 300 {
		text = text[:300] + "…"
	}
	return &provider.Error{Message: text}
}

func parseErrorBody(body []byte) *wireError {
	body = bytes.TrimSpace(body)
	if len(body) > 0 && body[0] == '[' {
		var list []json.RawMessage
		if json.Unmarshal(body, &list) != nil || len(list) == 0 {
			return nil
		}
		body = list[0]
	}
	var env struct {
		Error   *wireError `json:"error"`
		Message string     `json:"message"`
		Detail  string     `json:"detail"`
	}
	if json.Unmarshal(body, &env) != nil {
		return nil
	}
	switch {
	case env.Error != nil && (env.Error.Message != "" || env.Error.Code != "" || env.Error.Type != ""):
		return env.Error
	case env.Message != "":
		return &wireError{Message: env.Message}
	case env.Detail != "":
		return &wireError{Message: env.Detail}
	}
	return nil
}

// errorFrom types a wire error. Code prefers the provider's code and falls
// back to its type. A status of 0 means the error came inside a stream,
// where only the code or a numeric HTTP-like code can say whether a retry
// may help.
func errorFrom(w *wireError, status int) *provider.Error {
	e := &provider.Error{Message: w.Message, Code: w.Code}
	if e.Code == "" {
		e.Code = w.Type
	}
	if raw := upstreamDetail(w.Metadata.Raw); raw != "" && !strings.Contains(e.Message, raw) {
		// OpenRouter puts the upstream provider's own explanation here.
		e.Message = strings.TrimSpace(e.Message + "\n" + raw)
	}
	switch {
	case isQuotaCode(w.Code) || isQuotaCode(w.Type):
		e.Hint = "The account is out of credit or quota; check the provider's billing page"
	case retryableCode(w.Code) || retryableCode(w.Type):
		e.Retryable = true
	}
	if status == 0 && numericRetryable(w.Code) {
		e.Retryable = true
	}
	return e
}

func upstreamDetail(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return strings.TrimSpace(s)
	}
	return string(raw)
}

// retryableCode reports error codes and types that mean "try again later".
func retryableCode(code string) bool {
	code = strings.ToLower(code)
	for _, s := range []string{"rate_limit", "overloaded", "server_error", "timeout", "unavailable", "internal_error", "capacity"} {
		if strings.Contains(code, s) {
			return true
		}
	}
	return false
}

func isQuotaCode(code string) bool {
	return code == "insufficient_quota" || code == "billing_hard_limit_reached"
}

// numericRetryable handles OpenRouter's in-stream errors, whose code is the
// HTTP status the upstream answered with.
func numericRetryable(code string) bool {
	status, err := strconv.Atoi(code)
	return err == nil && status >= 400 && status < 600 && provider.RetryableStatus(status)
}
