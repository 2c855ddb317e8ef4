/* global requestAnimationFrame */
// The web chat page: the `ai` package's framework-free chat client (AbstractChat,
// the base of React's useChat) with a small DOM renderer. Bundled by esbuild
// (npm run build), no framework.
// First, so it runs before the AI SDK's modules build their zod schemas (see the file).
import './zod-jitless.js';
import { AbstractChat, DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';

/** Chat state that re-renders on every change (what useChat keeps in React state). */
function createState(onChange) {
  let status = 'ready';
  let error;
  return {
    messages: [],
    get status() {
      return status;
    },
    set status(value) {
      status = value;
      onChange();
    },
    get error() {
      return error;
    },
    set error(value) {
      error = value;
      onChange();
    },
    pushMessage(message) {
      this.messages = [...this.messages, message];
      onChange();
    },
    popMessage() {
      this.messages = this.messages.slice(0, -1);
      onChange();
    },
    replaceMessage(index, message) {
      this.messages = this.messages.map((item, position) => (position === index ? structuredClone(message) : item));
      onChange();
    },
    snapshot: (thing) => structuredClone(thing),
  };
}

class PageChat extends AbstractChat {
  constructor(onChange) {
    super({
      state: createState(onChange),
      // The server keeps the whole conversation (reasoning included) in its session:
      // send only the new message, with the chat id that names the session.
      transport: new DefaultChatTransport({
        api: '/api/chat',
        prepareSendMessagesRequest: ({ id, messages }) => ({ body: { id, message: messages.at(-1) } }),
      }),
      // Once every waiting call is approved or rejected, send the answers: the server resumes the episode.
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    });
  }
}

const elements = {
  messages: document.getElementById('messages'),
  error: document.getElementById('error'),
  form: document.getElementById('composer'),
  prompt: document.getElementById('prompt'),
  send: document.getElementById('send'),
  stop: document.getElementById('stop'),
};

/** The DOM of each message, by id, so that updates keep what the user opened or closed. */
const views = new Map();
let scheduled = false;

const chat = new PageChat(() => {
  if (scheduled) return;
  scheduled = true;
  requestAnimationFrame(() => {
    scheduled = false;
    render();
  });
});

function render() {
  for (const message of chat.messages) renderMessage(message);
  const busy = chat.status === 'submitted' || chat.status === 'streaming';
  document.body.dataset.status = chat.status;
  elements.send.disabled = busy;
  elements.stop.hidden = !busy;
  elements.error.hidden = !chat.error;
  elements.error.textContent = chat.error ? chat.error.message : '';
}

function renderMessage(message) {
  let view = views.get(message.id);
  if (!view) {
    const article = element('article', `message ${message.role}`);
    article.dataset.role = message.role;
    article.append(element('div', 'role', message.role === 'user' ? 'You' : 'Assistant'));
    const parts = element('div', 'parts');
    const meta = element('div', 'meta');
    article.append(parts, meta);
    elements.messages.append(article);
    view = { article, parts, meta, slots: [] };
    views.set(message.id, view);
  }
  message.parts.forEach((part, index) => renderPart(view, part, index));
  view.meta.textContent = describeMetadata(message.metadata);
}

function renderPart(view, part, index) {
  const kind = part.type.startsWith('tool-') ? 'tool' : part.type;
  let slot = view.slots[index];
  if (!slot || slot.kind !== kind) {
    const created = createPart(kind);
    if (slot) slot.element.replaceWith(created);
    else view.parts.append(created);
    slot = { kind, element: created, state: undefined };
    view.slots[index] = slot;
  }
  const target = slot.element;
  if (kind === 'text') renderMarkdown(target, part.text);
  if (kind === 'reasoning') {
    target.querySelector('.body').textContent = part.text;
    // Open while the model thinks, collapsed once the thought is done.
    if (slot.state !== part.state) target.open = part.state !== 'done';
    target.dataset.state = part.state ?? 'done';
  }
  if (kind === 'tool') {
    const name = part.type.slice('tool-'.length);
    target.dataset.tool = name;
    target.dataset.state = part.state;
    target.querySelector('.call').textContent = `${name}(${JSON.stringify(part.input ?? {})})`;
    const output = part.state === 'output-error' ? part.errorText : part.output;
    const waiting = part.state === 'approval-requested';
    target.querySelector('.output').textContent = waiting ? 'waiting for your approval' : output === undefined ? 'running…' : String(output);
    target.querySelector('.decision').hidden = !waiting;
    target.dataset.approvalId = waiting ? part.approval.id : '';
  }
  slot.state = part.state;
}

/** The little Markdown the answers use (paragraphs, quotes, bold, code), built as DOM nodes: never as HTML. */
function renderMarkdown(target, text) {
  target.replaceChildren();
  for (const block of text.split(/\n{2,}/)) {
    const quote = block.startsWith('>');
    const paragraph = element(quote ? 'blockquote' : 'p');
    for (const piece of (quote ? block.replace(/^> ?/gm, '') : block).split(/(\*\*[^*]+\*\*|`[^`]+`)/)) {
      if (/^\*\*.+\*\*$/.test(piece)) paragraph.append(element('strong', '', piece.slice(2, -2)));
      else if (/^`.+`$/.test(piece)) paragraph.append(element('code', '', piece.slice(1, -1)));
      else if (piece) paragraph.append(piece);
    }
    target.append(paragraph);
  }
}

function createPart(kind) {
  if (kind === 'step-start') return element('hr', 'step');
  if (kind === 'reasoning') {
    const details = element('details', 'reasoning');
    details.append(element('summary', '', 'Reasoning'), element('div', 'body'));
    return details;
  }
  if (kind === 'tool') {
    const tool = element('div', 'tool');
    const decision = element('div', 'decision');
    decision.hidden = true;
    for (const [label, approved] of [['Approve', true], ['Reject', false]]) {
      const button = element('button', approved ? 'approve' : 'reject', label);
      button.type = 'button';
      button.addEventListener('click', () => {
        decision.hidden = true;
        void chat.addToolApprovalResponse({ id: tool.dataset.approvalId, approved, ...(approved ? {} : { reason: 'Rejected in the chat.' }) });
      });
      decision.append(button);
    }
    tool.append(element('div', 'call'), element('pre', 'output'), decision);
    return tool;
  }
  return element('div', kind === 'text' ? 'text' : `part ${kind}`);
}

function describeMetadata(metadata) {
  if (!metadata?.pack) return '';
  const { pack, usage, retries } = metadata;
  const facts = [`context ${pack.tokens.total.toLocaleString('en')} / ${pack.budget.toLocaleString('en')} tokens`];
  if (pack.reasoningDroppedParts > 0) facts.push(`${pack.reasoningDroppedParts} past reasoning parts dropped`);
  if (pack.evictedEpisodes > 0) facts.push(`${pack.evictedEpisodes} episodes evicted`);
  if (retries) facts.push(`${retries} retries`);
  if (usage) facts.push(`${usage.modelCalls} model calls`, `${usage.cachedInputTokens.toLocaleString('en')} cached input tokens`);
  return facts.join(' · ');
}

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

elements.form.addEventListener('submit', (event) => {
  event.preventDefault();
  const text = elements.prompt.value.trim();
  if (!text || chat.status === 'submitted' || chat.status === 'streaming') return;
  elements.prompt.value = '';
  void chat.sendMessage({ text });
});
elements.stop.addEventListener('click', () => void chat.stop());
render();
