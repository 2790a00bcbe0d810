// Package provider is cairn's model provider layer: one Provider interface
// that streams a normalized sequence of events for one model request, and the
// pieces every wire format shares (the history clean-up every request
// replays the conversation through, the SSE decoder, the message builder that
// turns deltas into an AssistantMessage in linear time, typed errors, and the
// HTTP transport that posts a request, with optional retries and the time
// limits that end a request that stops making progress). A request body is
// written while it is sent (WriteJSON, SendJSON): the wire formats carry
// tool results kept in the session file as Text values, read back one at a
// time as the body reaches them, so replaying a long conversation does not
// hold it in memory.
//
// Each wire format lives in its own subpackage: anthropic (Messages API),
// openai (Chat Completions and every compatible server), openairesp
// (Responses API), google (Gemini) and faux (a scripted model for tests and
// demos). The catalog subpackage knows the built-in models, reads models.json
// and opens the right Provider for a model.
package provider
