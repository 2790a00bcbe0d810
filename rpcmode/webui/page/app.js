// cairn's web page: an ACP client that lists the sessions, follows one as
// it streams, sends prompts, stops turns and answers cairn's questions.

import { Connection } from './acp.js';
import { AgentMessage, Thought, UserMessage, ToolCard, el, renderPlan } from './render.js';

const $ = (id) => document.getElementById(id);
const ui = {
  log: $('log'), sessions: $('sessions'), cwd: $('cwd'), newSession: $('new-session'),
  prompt: $('prompt'), composer: $('composer'), send: $('send'), stop: $('stop'),
  status: $('status'), usage: $('usage'), plan: $('plan'), planBox: $('plan-box'),
  title: $('title'), menu: $('menu'), side: $('side'),
};

const state = {
  conn: null,
  sessions: [], // as session/list gives them
  current: null, // the session shown
  currentCwd: '',
  running: new Set(), // sessions with a prompt of this page's in flight
  questions: new Map(), // request id -> {sessionId, params, node}
  tail: null, // the item chunks append to
  cards: new Map(), // toolCallId -> ToolCard
  retry: 0,
};

const params = new URLSearchParams(location.search);
ui.cwd.value = params.get('cwd') || '';

function wsURL() {
  const u = new URL('acp', location.href);
  u.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  u.search = '';
  u.hash = '';
  return u.href;
}

function setStatus(text, cls) {
  ui.status.textContent = text;
  ui.status.className = `status ${cls || ''}`;
}

function notice(text, cls) {
  ui.log.append(el('div', `notice ${cls || ''}`, text));
  state.tail = null;
  scroll();
}

// The log follows what streams in while the person is at its end; one who
// scrolled up to read stays where they are.
let following = true;

function scroll() {
  if (following) ui.log.scrollTop = ui.log.scrollHeight;
}

// --- the connection ---

function connect() {
  setStatus('connecting…');
  state.conn = new Connection(wsURL(), {
    onOpen: opened,
    onClose: closed,
    onNotification: notified,
    onRequest: requested,
  });
}

async function opened() {
  state.retry = 0;
  setStatus('connected', 'ok');
  try {
    await state.conn.call('initialize', {
      protocolVersion: 1,
      clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false },
      clientInfo: { name: 'cairn-web', title: 'cairn web page', version: '1' },
    });
    await refreshSessions();
    const wanted = state.current || (location.hash.startsWith('#session=') ? decodeURIComponent(location.hash.slice(9)) : '');
    const known = state.sessions.find((s) => s.sessionId === wanted) || (!wanted && state.sessions[0]);
    if (known) await loadSession(known.sessionId, known.cwd);
    else if (wanted) notice(`Session ${wanted} is not listed.`, 'error');
  } catch (err) {
    notice(`cairn refused: ${err.message}`, 'error');
  }
}

function closed(ev) {
  state.running.clear();
  updateButtons();
  for (const q of state.questions.values()) closeQuestion(q, 'The connection closed before this was answered.');
  state.questions.clear();
  const why = ev.reason ? `: ${ev.reason}` : '';
  const wait = Math.min(10, 2 ** state.retry++);
  setStatus(`disconnected${why}; retrying in ${wait}s`, 'error');
  setTimeout(connect, wait * 1000);
}

// --- sessions ---

async function refreshSessions() {
  try {
    const res = await state.conn.call('session/list', {});
    state.sessions = (res && res.sessions) || [];
  } catch (err) {
    state.sessions = [];
    notice(`Sessions could not be listed: ${err.message}`, 'error');
  }
  if (!ui.cwd.value && state.sessions.length) ui.cwd.value = state.sessions[0].cwd;
  drawSessions();
}

function drawSessions() {
  const items = state.sessions.map((s) => {
    const li = el('li');
    const b = el('button', 'session', '');
    b.type = 'button';
    b.dataset.sessionId = s.sessionId;
    b.append(el('span', 'session-title', s.title || s.sessionId.slice(0, 8)));
    b.append(el('span', 'session-cwd muted', s.cwd + (s.updatedAt ? ` · ${new Date(s.updatedAt).toLocaleString()}` : '')));
    if (s.sessionId === state.current) b.setAttribute('aria-current', 'true');
    if ([...state.questions.values()].some((q) => q.sessionId === s.sessionId)) b.append(el('span', 'waiting', 'waiting for you'));
    b.addEventListener('click', () => {
      showSide(false);
      loadSession(s.sessionId, s.cwd);
    });
    li.append(b);
    return li;
  });
  ui.sessions.replaceChildren(...items);
}

function resetView(sessionId, cwd) {
  state.current = sessionId;
  state.currentCwd = cwd;
  state.tail = null;
  state.cards.clear();
  ui.log.replaceChildren();
  following = true;
  ui.plan.replaceChildren();
  ui.planBox.hidden = true;
  ui.usage.textContent = '';
  const s = state.sessions.find((x) => x.sessionId === sessionId);
  ui.title.textContent = (s && s.title) || 'cairn';
  if (sessionId) history.replaceState(null, '', `${location.pathname}${location.search}#session=${encodeURIComponent(sessionId)}`);
  drawSessions();
  updateButtons();
}

async function loadSession(sessionId, cwd) {
  resetView(sessionId, cwd);
  setStatus('loading…');
  try {
    await state.conn.call('session/load', { sessionId, cwd, mcpServers: [] });
    setStatus('connected', 'ok');
  } catch (err) {
    setStatus('connected', 'ok');
    notice(`The session could not be opened: ${err.message}`, 'error');
    return;
  }
  // Questions asked before this session was shown.
  for (const q of state.questions.values()) {
    if (q.sessionId === sessionId && !q.node.isConnected) ui.log.append(q.node);
  }
  scroll();
}

async function newSession(cwd) {
  if (!cwd) {
    notice('Name the directory the new session works in.', 'error');
    ui.cwd.focus();
    return null;
  }
  try {
    const res = await state.conn.call('session/new', { cwd, mcpServers: [] });
    resetView(res.sessionId, cwd);
    state.sessions.unshift({ sessionId: res.sessionId, cwd, title: 'New session' });
    drawSessions();
    return res.sessionId;
  } catch (err) {
    notice(`No new session: ${err.message}`, 'error');
    return null;
  }
}

// --- prompts ---

async function send() {
  const text = ui.prompt.value;
  if (!text.trim() || !state.conn) return;
  let sid = state.current;
  if (!sid) sid = await newSession(ui.cwd.value.trim());
  if (!sid) return;
  ui.prompt.value = '';
  new UserMessage(ui.log, text, true);
  // cairn's echo of it (user_message_chunk) is not shown twice.
  state.tail = null;
  scroll();
  state.running.add(sid);
  updateButtons();
  try {
    const res = await state.conn.call('session/prompt', { sessionId: sid, prompt: [{ type: 'text', text }] });
    if (sid === state.current && res && res.stopReason && res.stopReason !== 'end_turn') notice(`Stopped: ${res.stopReason.replace('_', ' ')}`);
  } catch (err) {
    if (sid === state.current) notice(`The prompt failed: ${err.message}`, 'error');
  } finally {
    state.running.delete(sid);
    updateButtons();
    refreshSessions();
  }
}

function stop() {
  const sid = state.current;
  if (!sid) return;
  // ACP: the cancel first, then the client answers its open questions of
  // the session as cancelled. The other order would let cairn read a
  // refused question before the cancel and go on with the turn.
  state.conn.notify('session/cancel', { sessionId: sid });
  for (const [id, q] of state.questions) {
    if (q.sessionId !== sid) continue;
    state.conn.respond(id, { outcome: { outcome: 'cancelled' } });
    closeQuestion(q, 'Cancelled.');
    state.questions.delete(id);
  }
}

function updateButtons() {
  const running = state.current && state.running.has(state.current);
  ui.stop.hidden = !running;
  ui.send.disabled = !!running;
}

// --- what cairn sends ---

function notified(method, p) {
  if (method === '$/cancel_request') {
    const q = state.questions.get(p.requestId);
    if (q) {
      state.questions.delete(p.requestId);
      closeQuestion(q, 'Answered elsewhere.');
      drawSessions();
    }
    return;
  }
  if (method !== 'session/update' || p.sessionId !== state.current || !p.update) return;
  update(p.update);
  scroll();
}

function update(u) {
  switch (u.sessionUpdate) {
    case 'agent_message_chunk':
      if (!(state.tail instanceof AgentMessage)) state.tail = new AgentMessage(ui.log, scroll);
      state.tail.add(u.content);
      break;
    case 'agent_thought_chunk':
      if (!(state.tail instanceof Thought)) state.tail = new Thought(ui.log);
      state.tail.add(u.content);
      break;
    case 'user_message_chunk': {
      const last = ui.log.lastElementChild;
      if (state.tail === null && last && last.dataset.local) {
        // This page's own prompt, echoed: shown already.
        break;
      }
      if (!(state.tail instanceof UserMessage)) state.tail = new UserMessage(ui.log, '');
      state.tail.add(u.content);
      break;
    }
    case 'tool_call': {
      const card = new ToolCard(ui.log, u.toolCallId);
      state.cards.set(u.toolCallId, card);
      card.update(u);
      state.tail = null;
      break;
    }
    case 'tool_call_update': {
      let card = state.cards.get(u.toolCallId);
      if (!card) {
        card = new ToolCard(ui.log, u.toolCallId);
        state.cards.set(u.toolCallId, card);
        state.tail = null;
      }
      card.update(u);
      break;
    }
    case 'plan':
      ui.planBox.hidden = !(u.entries && u.entries.length);
      renderPlan(ui.plan, u.entries || []);
      break;
    case 'usage_update':
      if (u.size) ui.usage.textContent = `context ${Math.round((100 * u.used) / u.size)}%`;
      break;
    case 'session_info_update':
      if (u.title) {
        ui.title.textContent = u.title;
        const s = state.sessions.find((x) => x.sessionId === state.current);
        if (s) s.title = u.title;
        drawSessions();
      }
      break;
    default:
      // Modes, config options and commands: not shown.
      break;
  }
}

function requested(method, p, id) {
  if (method !== 'session/request_permission') {
    const err = new Error(`the web page does not offer ${method}`);
    err.code = -32601;
    throw err;
  }
  const q = { sessionId: p.sessionId, params: p, node: questionNode(p, id) };
  state.questions.set(id, q);
  if (p.sessionId === state.current) {
    ui.log.append(q.node);
    state.tail = null;
    scroll();
  }
  drawSessions();
  return undefined; // answered when the person chooses
}

function questionNode(p, id) {
  const box = el('div', 'question');
  box.setAttribute('role', 'group');
  const tc = p.toolCall || {};
  const card = tc.toolCallId && state.cards.get(tc.toolCallId);
  const title = tc.title || (card && card.title.textContent) || 'cairn asks';
  box.append(el('div', 'question-title', title));
  if (tc.rawInput !== undefined) box.append(el('pre', 'code', JSON.stringify(tc.rawInput, null, 2)));
  const buttons = el('div', 'options');
  for (const o of p.options || []) {
    const b = el('button', `option ${o.kind || ''}`, o.name || o.optionId);
    b.type = 'button';
    b.dataset.optionId = o.optionId;
    b.addEventListener('click', () => {
      const q = state.questions.get(id);
      if (!q) return;
      state.questions.delete(id);
      state.conn.respond(id, { outcome: { outcome: 'selected', optionId: o.optionId } });
      closeQuestion(q, `You chose: ${o.name || o.optionId}`);
      drawSessions();
    });
    buttons.append(b);
  }
  box.append(buttons);
  return box;
}

function closeQuestion(q, outcome) {
  for (const b of q.node.querySelectorAll('button')) b.disabled = true;
  q.node.classList.add('closed');
  q.node.append(el('div', 'outcome', outcome));
}

// --- the controls ---

function showSide(open) {
  ui.side.classList.toggle('open', open);
  ui.menu.setAttribute('aria-expanded', String(open));
}

ui.log.addEventListener('scroll', () => {
  following = ui.log.scrollHeight - ui.log.scrollTop - ui.log.clientHeight < 40;
});
ui.menu.addEventListener('click', () => showSide(!ui.side.classList.contains('open')));
ui.composer.addEventListener('submit', (ev) => {
  ev.preventDefault();
  send();
});
ui.prompt.addEventListener('keydown', (ev) => {
  if (ev.key === 'Enter' && !ev.shiftKey && !ev.isComposing) {
    ev.preventDefault();
    if (!ui.send.disabled) send();
  }
});
ui.stop.addEventListener('click', stop);
ui.newSession.addEventListener('submit', (ev) => {
  ev.preventDefault();
  showSide(false);
  newSession(ui.cwd.value.trim());
});

connect();
