// Package webui serves cairn's web page: a page for following and
// answering cairn's sessions from a browser, a phone's included. It adds no
// protocol of its own: the page is an ACP client (the Agent Client
// Protocol, JSON-RPC 2.0, as `cairn --mode acp` speaks it), and this
// package only carries its frames between a WebSocket and an ACP stream.
//
// # The contract with the rest of cairn
//
// Config.Dial is the whole of it: it opens a newline-delimited ACP stream
// to cairn's sessions and is called once per WebSocket connection, when a
// page connects. Each text message of the WebSocket is one JSON-RPC frame,
// written to the stream as one line; each line cairn writes is sent as one
// message. Nothing runs for the page while no page is open: no goroutine,
// no stream, no subscription.
//
// # Limits
//
// A frame from the page longer than Config.MaxInFrame, a binary message or
// text that is not one JSON value closes that connection. A line from cairn
// longer than Config.MaxOutFrame closes it too (the page would miss an
// answer otherwise). Frames for the page wait in a queue bounded in count
// and bytes; a page that falls so far behind that the queue is full is
// disconnected (it reloads the session when it reconnects), so a slow
// browser never holds cairn up. A page that closes its WebSocket closes
// its stream and nothing else.
//
// # Security
//
// Every request, the page, its files and the WebSocket alike, must carry
// the secret token as the first segment of its path (/TOKEN/...); it is
// compared in constant time, and a request without it, or with another,
// gets 403 and an empty body. The WebSocket also needs an Origin header
// naming the page's own origin. Responses carry a strict
// Content-Security-Policy: scripts, styles and connections only from the
// page's own origin, images from there or data: URLs, no frames, forms or
// plugins; the page renders the model's markdown through a sanitizer. Listen
// binds 127.0.0.1 unless told otherwise, and any other address only with a
// TLS certificate and key.
package webui
