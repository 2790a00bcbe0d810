package openairesp

import (
	"encoding/json"
	"errors"
	"net/http"
	"runtime"
	"strings"

	"github.com/cairn-dev/cairn/core/oauth"
	"github.com/cairn-dev/cairn/core/provider"
)

// APICodex is pi's name for the wire format of ChatGPT's Codex backend.
const APICodex = "openai-codex-responses"

// CodexBaseURL is where ChatGPT's Codex backend answers.
const CodexBaseURL = "https://chatgpt.com/backend-api"

// NewCodex returns a provider for ChatGPT's Codex backend (pi's
// "openai-codex-responses", used by the openai-codex provider with a
// ChatGPT Plus/Pro login): the Responses API at {baseUrl}/codex/responses,
// authenticated by the ChatGPT access token and the account it names, with
// the request pi 0.87.1 builds (the system prompt as instructions, nothing
// stored, encrypted reasoning returned, no output limit). The answer is
// the Responses API's event stream, read as New's is.
func NewCodex(opts provider.Options) *Provider {
	return &Provider{opts: opts, codex: true}
}

// codexEndpoint is pi's resolveCodexUrl.
func codexEndpoint(baseURL string) string {
	base := strings.TrimRight(provider.BaseURL(baseURL, CodexBaseURL), "/")
	switch {
	case strings.HasSuffix(base, "/codex/responses"):
		return base
	case strings.HasSuffix(base, "/codex"):
		return base + "/responses"
	}
	return base + "/codex/responses"
}

// codexBody is the body pi sends to the Codex backend.
type codexBody struct {
	Model             string          `json:"model"`
	Store             bool            `json:"store"`
	Stream            bool            `json:"stream"`
	Instructions      string          `json:"instructions"`
	Input             []any           `json:"input"`
	Text              codexText       `json:"text"`
	Include           []string        `json:"include"`
	PromptCacheKey    string          `json:"prompt_cache_key,omitempty"`
	ToolChoice        string          `json:"tool_choice"`
	ParallelToolCalls bool            `json:"parallel_tool_calls"`
	Temperature       *float64        `json:"temperature,omitempty"`
	Tools             []codexTool     `json:"tools,omitempty"`
	Reasoning         *reasoningParam `json:"reasoning,omitempty"`
}

type codexText struct {
	Verbosity string `json:"verbosity"`
}

// codexTool is a function tool as pi sends it to Codex: strict is null.
type codexTool struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      *bool           `json:"strict"`
}

// codexRequest turns r, built for the Responses API, into the Codex
// backend's request.
func codexRequest(req *provider.Request, r provider.JSONRequest) (provider.JSONRequest, error) {
	account := oauth.CodexAccountID(req.APIKey)
	if account == "" {
		return r, errors.New("the openai-codex key is not a ChatGPT login token naming an account: log in with `cairn login openai-codex` (or pi's /login)")
	}
	r.URL = codexEndpoint(req.Model.BaseURL)
	r.Body = buildCodexBody(req)
	session := req.SessionID
	r.APIHeaders = func(h http.Header, key string) {
		provider.BearerAuth(h, key)
		h.Set("chatgpt-account-id", account)
		h.Set("originator", "pi")
		h.Set("User-Agent", "pi ("+runtime.GOOS+"; "+runtime.GOARCH+")")
		h.Set("OpenAI-Beta", "responses=experimental")
		if session != "" {
			h.Set("session-id", session)
			h.Set("x-client-request-id", session)
		}
	}
	return r, nil
}

func buildCodexBody(req *provider.Request) *codexBody {
	model := &req.Model
	instructions := req.System
	if instructions == "" {
		instructions = "You are a helpful assistant."
	}
	noSystem := *req
	noSystem.System = ""
	body := &codexBody{
		Model:             model.ID,
		Stream:            true,
		Instructions:      instructions,
		Input:             buildInput(&noSystem),
		Text:              codexText{Verbosity: "low"},
		Include:           []string{"reasoning.encrypted_content"},
		PromptCacheKey:    req.SessionID,
		ToolChoice:        "auto",
		ParallelToolCalls: true,
		Temperature:       req.Temperature,
	}
	for _, t := range req.Tools {
		body.Tools = append(body.Tools, codexTool{Type: "function", Name: t.Name, Description: t.Description, Parameters: provider.ToolParameters(t)})
	}
	if effort := reasoningEffort(model, req.Thinking); effort != "" {
		if effort == "minimal" {
			effort = "low" // every Codex model maps it so in pi's list
		}
		body.Reasoning = &reasoningParam{Effort: effort, Summary: "auto"}
	} else if model.Reasoning {
		body.Reasoning = &reasoningParam{Effort: "none"}
	}
	return body
}
