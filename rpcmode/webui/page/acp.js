// A small ACP client (JSON-RPC 2.0 over a WebSocket, one frame per text
// message): requests with promises, notifications, and the agent's own
// requests handed to the page.

export class RPCError extends Error {
  constructor(err) {
    super(err && err.message ? err.message : 'request failed');
    this.code = err && err.code;
    this.data = err && err.data;
  }
}

export class Connection {
  // handlers: onNotification(method, params), onRequest(method, params, id)
  // (returns a result, a promise of one, or undefined to answer later
  // with respond), onOpen(), onClose(event).
  constructor(url, handlers) {
    this.handlers = handlers;
    this.nextId = 1;
    this.pending = new Map();
    this.ws = new WebSocket(url);
    this.ws.addEventListener('open', () => handlers.onOpen());
    this.ws.addEventListener('message', (ev) => this.receive(ev.data));
    this.ws.addEventListener('close', (ev) => {
      for (const p of this.pending.values()) p.reject(new RPCError({ message: 'the connection to cairn closed' }));
      this.pending.clear();
      handlers.onClose(ev);
    });
  }

  send(frame) {
    if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(frame));
  }

  call(method, params) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method, params) {
    this.send({ jsonrpc: '2.0', method, params });
  }

  respond(id, result) {
    this.send({ jsonrpc: '2.0', id, result });
  }

  respondError(id, code, message) {
    this.send({ jsonrpc: '2.0', id, error: { code, message } });
  }

  close() {
    this.ws.close(1000, 'the page closed');
  }

  receive(text) {
    let m;
    try {
      m = JSON.parse(text);
    } catch {
      return;
    }
    if (m === null || typeof m !== 'object') return;
    if (typeof m.method === 'string') {
      if (m.id === undefined || m.id === null) {
        this.handlers.onNotification(m.method, m.params || {});
        return;
      }
      this.answer(m);
      return;
    }
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    if (m.error) p.reject(new RPCError(m.error));
    else p.resolve(m.result);
  }

  async answer(m) {
    try {
      const result = await this.handlers.onRequest(m.method, m.params || {}, m.id);
      if (result !== undefined) this.respond(m.id, result);
    } catch (err) {
      this.respondError(m.id, err.code || -32603, err.message || String(err));
    }
  }
}
