// Rendering of what a session sends: markdown (sanitized: the model's
// text is untrusted), thoughts, tool calls with their arguments, output
// and diffs, and the task list.

import { marked } from './vendor/marked.esm.js';
import DOMPurify from './vendor/purify.es.mjs';

marked.setOptions({ gfm: true, breaks: false, async: false });

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'A') {
    node.setAttribute('target', '_blank');
    node.setAttribute('rel', 'noopener noreferrer');
  }
  // The model's text makes the browser fetch nothing: only images carried
  // inline (data:image/...) are shown.
  if (node.tagName === 'IMG') {
    node.removeAttribute('srcset');
    if (!/^data:image\//i.test(node.getAttribute('src') || '')) node.removeAttribute('src');
  }
});

// markdown returns the model's markdown as sanitized HTML: no script,
// event handler, form, frame or style survives.
export function markdown(text) {
  const html = marked.parse(text);
  return DOMPurify.sanitize(html, {
    USE_PROFILE: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select'],
    FORBID_ATTR: ['style'],
  });
}

// el builds an element with a class and text.
export function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

// textOf is the text of an ACP content block, or a note of its type.
function textOf(block) {
  if (!block) return '';
  if (block.type === 'text') return block.text || '';
  if (block.type === 'resource_link') return block.uri || '';
  if (block.type === 'resource' && block.resource) return block.resource.text || block.resource.uri || '';
  return `[${block.type}]`;
}

// A message of the agent, streamed in chunks and re-rendered at most once
// a frame; rendered is called after each rendering.
export class AgentMessage {
  constructor(log, rendered) {
    this.text = '';
    this.rendered = rendered || (() => {});
    this.node = el('div', 'msg agent markdown');
    this.scheduled = false;
    log.append(this.node);
  }

  add(block) {
    this.text += textOf(block);
    if (this.scheduled) return;
    this.scheduled = true;
    requestAnimationFrame(() => {
      this.scheduled = false;
      this.node.innerHTML = markdown(this.text);
      this.rendered();
    });
  }
}

// A thought of the agent: plain text, folded.
export class Thought {
  constructor(log) {
    this.node = el('details', 'msg thought');
    this.node.append(el('summary', '', 'Thinking'));
    this.body = el('div', 'thought-text');
    this.node.append(this.body);
    log.append(this.node);
  }

  add(block) {
    this.body.textContent += textOf(block);
  }
}

// A message of the person: plain text. local marks one this page sent.
export class UserMessage {
  constructor(log, text, local) {
    this.text = text || '';
    this.node = el('div', 'msg user', this.text);
    if (local) this.node.dataset.local = 'true';
    log.append(this.node);
  }

  add(block) {
    this.text += textOf(block);
    this.node.textContent = this.text;
  }
}

// A tool call's card: kind, title and status, its arguments, and its
// content (output text, diffs, terminals), which each update replaces.
export class ToolCard {
  constructor(log, id) {
    this.id = id;
    this.node = el('div', 'tool');
    this.node.dataset.toolCallId = id;
    const head = el('div', 'tool-head');
    this.kind = el('span', 'kind');
    this.title = el('span', 'title');
    this.status = el('span', 'badge');
    head.append(this.kind, this.title, this.status);
    this.args = el('details', 'args');
    this.args.hidden = true;
    this.args.append(el('summary', '', 'Arguments'));
    this.argsBody = el('pre', 'code');
    this.args.append(this.argsBody);
    this.where = el('div', 'where muted');
    this.content = el('div', 'tool-content');
    this.node.append(head, this.where, this.args, this.content);
    log.append(this.node);
  }

  update(u) {
    if (u.kind) this.kind.textContent = u.kind;
    if (u.title) this.title.textContent = u.title;
    if (u.status) {
      this.status.textContent = u.status.replace('_', ' ');
      this.node.dataset.status = u.status;
    }
    if (u.rawInput !== undefined) {
      this.args.hidden = false;
      this.argsBody.textContent = JSON.stringify(u.rawInput, null, 2);
    }
    if (Array.isArray(u.locations) && u.locations.length) {
      this.where.textContent = u.locations.map((l) => (l.line ? `${l.path}:${l.line}` : l.path)).join(', ');
    }
    if (Array.isArray(u.content)) this.setContent(u.content);
    if (u.rawOutput !== undefined && !(Array.isArray(u.content) && u.content.length)) {
      this.content.replaceChildren(el('pre', 'output', typeof u.rawOutput === 'string' ? u.rawOutput : JSON.stringify(u.rawOutput, null, 2)));
    }
  }

  setContent(items) {
    const nodes = [];
    for (const c of items) {
      if (c.type === 'diff') nodes.push(diffView(c.path, c.oldText, c.newText));
      else if (c.type === 'terminal') nodes.push(el('div', 'muted', `terminal ${c.terminalId}`));
      else if (c.type === 'content') {
        const t = textOf(c.content);
        if (t) nodes.push(el('pre', 'output', t));
      }
    }
    this.content.replaceChildren(...nodes);
  }
}

// diffView shows a file's change: the lines around it, the old ones and
// the new ones.
export function diffView(path, oldText, newText) {
  const box = el('div', 'diff');
  box.append(el('div', 'diff-path', path || ''));
  const pre = el('pre', 'diff-body');
  const a = oldText == null ? [] : oldText.split('\n');
  const b = newText == null ? [] : newText.split('\n');
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const context = 3;
  const line = (cls, prefix, text) => pre.append(el('span', cls, prefix + text + '\n'));
  if (start - context > 0) line('hunk', '', `@@ line ${start - context + 1} @@`);
  for (let i = Math.max(0, start - context); i < start; i++) line('ctx', '  ', a[i]);
  for (let i = start; i < endA; i++) line('del', '- ', a[i]);
  for (let i = start; i < endB; i++) line('add', '+ ', b[i]);
  for (let i = endA; i < Math.min(a.length, endA + context); i++) line('ctx', '  ', a[i]);
  box.append(pre);
  return box;
}

// renderPlan shows the task list.
export function renderPlan(list, entries) {
  const marks = { completed: '☑', in_progress: '▶', pending: '☐' };
  list.replaceChildren(
    ...entries.map((e) => {
      const li = el('li', `task ${e.status || 'pending'}`);
      li.append(el('span', 'mark', marks[e.status] || '☐'), el('span', 'task-text', e.content || ''));
      return li;
    }),
  );
}
