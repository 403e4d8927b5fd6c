// Ask: a question answered by the tenant's generator from the passages the token may see, streamed (server-sent
// events over fetch, so the token goes in the Authorization header). Each [n] of the answer is a button that shows
// passage n; the sources list only the passages the answer cites.
import {ApiError, problemView} from '../api.js';
import {h, show, field, announcer, announce} from '../dom.js';
import * as session from '../session.js';

export default function render(root) {
  const tenant = session.tenant();
  if (!tenant) {
    show(root, h('h1', {}, 'Ask'), h('p', {class: 'problem', role: 'note'},
      'The token has no tenant claim; answers act on the token\'s tenant only. Sign in with a tenant-scoped token.'));
    return;
  }
  const question = h('input', {id: 'question', required: true, autocomplete: 'off', size: 60});
  const mode = h('select', {id: 'ask-mode'}, h('option', {value: ''}, 'tenant default'),
    ['hybrid', 'vector', 'keyword'].map(m => h('option', {value: m}, m)));
  const topK = h('input', {id: 'ask-topK', type: 'number', min: 1, max: 100, placeholder: 'default'});
  const partition = h('input', {id: 'ask-partition', autocomplete: 'off', value: session.claims().partition || ''});
  const answer = h('div', {id: 'answer', class: 'card', 'aria-live': 'polite'});
  const passage = h('div', {id: 'passage', class: 'card', hidden: true});
  const sources = h('div', {id: 'sources'});
  const status = announcer('ask-status');
  let controller = null;

  async function ask(event) {
    event.preventDefault();
    if (controller) controller.abort(); // a new question cancels the answer under way (and its model call)
    controller = new AbortController();
    const body = {question: question.value, stream: true};
    if (mode.value) body.mode = mode.value;
    if (topK.value) body.topK = Number(topK.value);
    if (partition.value) body.partition = partition.value;
    let context = [];
    let text = '';
    show(answer, h('p', {}, 'Retrieving…'));
    passage.hidden = true;
    show(sources);
    announce(status, 'Asking…');
    try {
      const response = await fetch(`/api/v1/tenants/${encodeURIComponent(tenant)}/ask`, {method: 'POST', signal: controller.signal,
        credentials: 'same-origin', headers: {'Content-Type': 'application/json', Accept: 'text/event-stream, application/problem+json',
          Authorization: `Bearer ${session.token()}`}, body: JSON.stringify(body)});
      if (!response.ok) {
        const raw = await response.text();
        let problem;
        try { problem = JSON.parse(raw); } catch { problem = {title: `HTTP ${response.status}`, detail: raw.slice(0, 300)}; }
        throw new ApiError(response.status, problem);
      }
      await readEvents(response.body, (name, data) => {
        if (name === 'retrieval') {
          context = data.context;
          show(answer, h('p', {}, context.length ? `${context.length} passage(s) retrieved; answering…` : 'No passage found.'));
        } else if (name === 'delta') {
          text += data.text;
          show(answer, answerView(text, context, passage));
        } else if (name === 'done') {
          show(answer, answerView(data.answer, context, passage),
            h('p', {class: 'meta', id: 'answer-meta'}, diagnosticsLine(data)));
          show(sources, sourcesView(data.citations, context, passage));
          announce(status, data.diagnostics.noSource ? 'No source found.' : `Answered with ${data.citations.length} citation(s).`);
        } else if (name === 'error') {
          throw new ApiError(data.status || 500, data);
        }
      });
    } catch (e) {
      if (e.name === 'AbortError') return;
      show(answer, problemView(e));
      announce(status, 'Asking failed.');
    }
  }

  show(root,
    h('h1', {}, `Ask (${tenant})`),
    h('form', {class: 'stack', onsubmit: ask, 'aria-describedby': 'ask-help'},
      h('p', {id: 'ask-help', class: 'hint'}, 'Answered by the tenant\'s generator from the passages this token may see; [n] cites passage n.'),
      field('Question', question),
      h('div', {class: 'row'}, field('Mode', mode), field('Top K', topK), field('Partition', partition)),
      h('div', {class: 'row'}, h('button', {type: 'submit', id: 'ask-button'}, 'Ask'))),
    status, answer, passage, sources);
}

/** Calls onEvent(name, json) for every server-sent event of the body, as it arrives. */
async function readEvents(body, onEvent) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const {value, done} = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, {stream: true});
    let end;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const frame = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = 'message';
      let data = '';
      for (const line of frame.split('\n')) {
        if (line.startsWith('event: ')) name = line.slice(7);
        else if (line.startsWith('data: ')) data += line.slice(6);
      }
      if (data) onEvent(name, JSON.parse(data));
    }
  }
}

/** The answer text with every [n] of a known passage as a button showing that passage. */
function answerView(text, context, panel) {
  const parts = text.split(/(\[\d+\])/);
  return h('p', {id: 'answer-text'}, parts.map(part => {
    const m = /^\[(\d+)\]$/.exec(part);
    const cited = m && context.find(c => c.n === Number(m[1]));
    return cited ? h('button', {type: 'button', class: 'citation-link', 'data-cite': cited.n,
      'aria-label': `Show passage ${cited.n}`, onclick: () => showPassage(panel, cited)}, part) : part;
  }));
}

function showPassage(panel, c) {
  show(panel, h('h2', {}, `[${c.n}] ${c.source || c.documentId}`),
    h('p', {class: 'meta'}, 'document ', h('code', {}, c.documentId), c.headingPath.length ? ` · ${c.headingPath.join(' › ')}` : ''),
    h('p', {id: 'passage-text'}, c.text));
  panel.hidden = false;
}

function sourcesView(citations, context, panel) {
  if (!citations.length) return [];
  return [h('h2', {}, 'Sources'), h('ol', {id: 'citations'}, citations.map(c => h('li', {'data-source': c.n},
    h('button', {type: 'button', class: 'citation-link', onclick: () => showPassage(panel, c)}, `[${c.n}]`), ' ',
    c.source || c.documentId)))];
}

function diagnosticsLine(data) {
  const d = data.diagnostics;
  const usage = data.usage && data.usage.totalTokens != null ? ` · ${data.usage.totalTokens} tokens` : '';
  const removed = d.removedCitations ? ` · ${d.removedCitations} invented citation(s) removed` : '';
  const fallbacks = (d.transforms || []).filter(t => t.fellBack).map(t => ` · ${t.name} fell back`).join('');
  return `${d.noSource ? 'no source found, model not called' : `model ${d.model}`}${usage}${removed}${fallbacks}`;
}
