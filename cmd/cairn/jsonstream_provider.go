package main

import (
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"sync"

	"github.com/cairn-dev/cairn/core/provider/catalog"
)

// aionrs's --provider names what protocol to speak, not whose models: its
// "openai" is Chat Completions at any OpenAI-compatible server, which is
// how AionUi starts every custom, new-api, DeepSeek, Ollama, vLLM or
// Gemini (OpenAI endpoint) platform. cairn's own --provider openai means
// OpenAI's models on the Responses API, so the translation lives here,
// for --json-stream only.

// versionSegment matches a path segment naming an API version (v1, v3,
// v1beta, v4alpha), the point where a server's routes begin.
var versionSegment = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^v[0-9]+[a-z0-9]*$`) })

// aionrsOpenAIBase turns the root AionUi passes with --base-url into the
// base URL cairn's Chat Completions provider appends /chat/completions to.
//
// aionrs has had two conventions. Before 2026-07 it appended
// /v1/chat/completions, so AionUi strips a trailing /v1 from what the
// person typed (https://api.deepseek.com/v1 arrives as
// https://api.deepseek.com, DashScope's .../compatible-mode/v1 as
// .../compatible-mode). Since then it appends /chat/completions and only
// turns a bare api.openai.com into api.openai.com/v1. cairn accepts both
// by looking at the root: one whose path already ends in a version
// segment (/v1, /api/v3, /api/paas/v4) or in Gemini's /v1beta/openai is
// used as it is; any other root gets /v1, which is what the stripped
// roots lost and what a bare api.openai.com needs. An empty root is
// OpenAI's own API.
func aionrsOpenAIBase(root string) (string, error) {
	root = strings.TrimRight(strings.TrimSpace(root), "/")
	if root == "" {
		return "https://api.openai.com/v1", nil
	}
	u, err := url.Parse(root)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("--base-url %q is not an http or https URL; pass the server's root, such as https://api.deepseek.com or http://localhost:11434", root)
	}
	segments := strings.Split(strings.Trim(u.Path, "/"), "/")
	last := segments[len(segments)-1]
	if versionSegment().MatchString(last) || strings.HasSuffix(u.Path, "/v1beta/openai") {
		return root, nil
	}
	return root + "/v1", nil
}

// aionrsProvider maps aionrs's --provider and --base-url onto cairn's
// options: openai becomes Chat Completions at the root's base URL;
// bedrock and vertex, which AionUi also passes, are refused with what to
// use instead. Other names (anthropic, or a provider from models.json)
// pass through as cairn's own.
func aionrsProvider(opts *Options, provider, baseURL string) error {
	switch provider {
	case "openai":
		base, err := aionrsOpenAIBase(baseURL)
		if err != nil {
			return err
		}
		opts.BaseURL, opts.wireAPI = base, catalog.APIOpenAIChat
	case "bedrock", "vertex":
		return fmt.Errorf("--provider %s: cairn does not speak the %s API; in AionUi pick an Anthropic platform (--provider anthropic with ANTHROPIC_API_KEY) or an OpenAI-compatible one (--provider openai with --base-url)", provider, map[string]string{"bedrock": "Amazon Bedrock", "vertex": "Google Vertex AI"}[provider])
	}
	return nil
}
