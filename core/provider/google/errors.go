package google

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/cairn-dev/cairn/core/provider"
)

// apiError is Google's error envelope body: {"error":{code,message,status,details}}.
type apiError struct {
	Code    int           `json:"code"`
	Message string        `json:"message"`
	Status  string        `json:"status"`
	Details []errorDetail `json:"details"`
}

// errorDetail is one google.rpc detail; only the fields cairn uses are read.
type errorDetail struct {
	Type       string `json:"@type"`
	RetryDelay string `json:"retryDelay"`
	Reason     string `json:"reason"`
}

// decodeError is the provider.ErrorDecoder for Gemini's HTTP errors. The
// body is usually an object but some endpoints wrap it in an array.
func decodeError(status int, _ http.Header, body []byte) *provider.Error {
	var env struct {
		Error *apiError `json:"error"`
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		var list []json.RawMessage
		if json.Unmarshal(trimmed, &list) == nil && len(list) > 0 {
			trimmed = list[0]
		}
	}
	if json.Unmarshal(trimmed, &env) != nil || env.Error == nil {
		e := &provider.Error{Hint: provider.StatusHint(status, keyEnv)}
		if text := strings.TrimSpace(string(body)); text != "" && len(text) < 512 {
			e.Message = text
		}
		return e
	}
	e := fromAPIError(env.Error)
	if e.Hint == "" {
		e.Hint = provider.StatusHint(status, keyEnv)
	}
	return e
}

// fromAPIError types an error envelope, whether it came as an HTTP error or
// inside the stream.
func fromAPIError(a *apiError) *provider.Error {
	e := &provider.Error{Code: a.Status, Message: a.Message}
	switch a.Status {
	case "RESOURCE_EXHAUSTED", "UNAVAILABLE", "INTERNAL", "DEADLINE_EXCEEDED":
		e.Retryable = true
	}
	if a.Status == "" && (a.Code == http.StatusTooManyRequests || a.Code >= 500) {
		e.Retryable = true
	}
	for _, d := range a.Details {
		switch {
		case strings.HasSuffix(d.Type, "google.rpc.RetryInfo"):
			e.RetryAfter = parseDuration(d.RetryDelay)
		case strings.HasSuffix(d.Type, "google.rpc.ErrorInfo") && strings.HasPrefix(d.Reason, "API_KEY_"):
			// Gemini answers a bad key with 400 INVALID_ARGUMENT, whose
			// generic hint would send the person looking at their request.
			e.Hint = provider.StatusHint(http.StatusUnauthorized, keyEnv)
		}
	}
	return e
}

// parseDuration reads a google.protobuf.Duration in its JSON form ("34.4s").
func parseDuration(s string) time.Duration {
	s = strings.TrimSpace(s)
	if !strings.HasSuffix(s, "s") {
		return 0
	}
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "s"), 64)
	if err != nil || v <= 0 || v > 1e9 {
		return 0
	}
	return time.Duration(v * float64(time.Second))
}

// promptBlocked explains promptFeedback.blockReason: Gemini refused the
// request before answering. The reason goes in Code only, since Error
// prints the code after the message.
func promptBlocked(name, reason, detail string) *provider.Error {
	msg := "Gemini refused the prompt"
	if detail != "" {
		msg += ": " + detail
	}
	return &provider.Error{
		Provider: name,
		Code:     reason,
		Message:  msg,
		Hint:     "Rephrase the request; sending it again unchanged will be refused again",
	}
}

// maxDetail bounds the part of an explanation Gemini writes itself: a
// malformed call's finishMessage quotes the whole call, which can be a file.
const maxDetail = 300

// finishError explains a finishReason that is neither a normal end nor the
// output limit; blocked is the safety category that stopped it, if one
// did. Only a malformed function call is worth retrying as is: the others
// are policy decisions that will repeat.
func finishError(name, reason, blocked, detail string) *provider.Error {
	var msg string
	switch reason {
	case "SAFETY", "IMAGE_SAFETY":
		msg = "Gemini blocked the response for safety reasons"
	case "RECITATION", "IMAGE_RECITATION":
		msg = "Gemini stopped the response because it was reciting existing material"
	case "BLOCKLIST":
		msg = "Gemini stopped the response because it contained blocklisted terms"
	case "PROHIBITED_CONTENT", "IMAGE_PROHIBITED_CONTENT":
		msg = "Gemini blocked the response as prohibited content"
	case "SPII":
		msg = "Gemini stopped the response because it contained sensitive personal information"
	case "LANGUAGE":
		msg = "Gemini stopped the response because it was in an unsupported language"
	case "MALFORMED_FUNCTION_CALL":
		msg = "Gemini produced a malformed tool call"
	case "UNEXPECTED_TOOL_CALL":
		msg = "Gemini called a tool that was not offered"
	case "TOO_MANY_TOOL_CALLS":
		msg = "Gemini made too many tool calls in one turn"
	default:
		msg = "Gemini stopped the response unexpectedly"
	}
	if blocked != "" {
		msg += ", rated " + categoryName(blocked)
	}
	if detail != "" {
		msg += ": " + clip(detail, maxDetail)
	}
	return &provider.Error{
		Provider:  name,
		Code:      reason,
		Message:   msg,
		Retryable: reason == "MALFORMED_FUNCTION_CALL",
	}
}

// categoryName words a harm category for a person:
// HARM_CATEGORY_DANGEROUS_CONTENT reads "dangerous content".
func categoryName(c string) string {
	c = strings.TrimPrefix(c, "HARM_CATEGORY_")
	return strings.ToLower(strings.ReplaceAll(c, "_", " "))
}

// clip shortens s to at most n bytes, on a rune boundary, marking the cut.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
