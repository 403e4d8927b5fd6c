// Search playground: a retrieval on the token's tenant, showing passages with citations and scores, the
// diagnostics (legs, examined/rejected/returned, refusals) and the <retrieved_context> block an LLM would get.
import {request, problemView} from '../api.js';
import {h, show, field, table, announcer, announce} from '../dom.js';
import * as session from '../session.js';

export default function render(root) {
  const tenant = session.tenant();
  if (!tenant) {
    show(root, h('h1', {}, 'Search playground'), h('p', {class: 'problem', role: 'note'},
      'The token has no tenant claim; retrieval acts on the token\'s tenant only. Sign in with a tenant-scoped token.'));
    return;
  }
  const query = h('input', {id: 'query', required: true, autocomplete: 'off', size: 60});
  const mode = h('select', {id: 'mode'}, h('option', {value: ''}, 'tenant default'),
    ['hybrid', 'vector', 'keyword'].map(m => h('option', {value: m}, m)));
  const topK = h('input', {id: 'topK', type: 'number', min: 1, max: 100, placeholder: 'default'});
  const minScore = h('input', {id: 'minScore', type: 'number', step: 'any', placeholder: 'none'});
  const maxChars = h('input', {id: 'maxChars', type: 'number', min: 1, placeholder: 'default'});
  const partition = h('input', {id: 'partition', autocomplete: 'off', value: session.claims().partition || ''});
  const filter = h('textarea', {id: 'filter', rows: 3, spellcheck: 'false', placeholder: '{"lang": "en"}'});
  const rerank = h('input', {id: 'rerank', type: 'checkbox'});
  const results = h('div', {id: 'results'});
  const status = announcer('search-status');

  async function search(event) {
    event.preventDefault();
    const body = {query: query.value};
    if (mode.value) body.mode = mode.value;
    if (topK.value) body.topK = Number(topK.value);
    if (minScore.value) body.minScore = Number(minScore.value);
    if (maxChars.value) body.maxChars = Number(maxChars.value);
    if (partition.value) body.partition = partition.value;
    if (rerank.checked) body.rerank = true;
    if (filter.value.trim()) {
      try {
        body.filter = JSON.parse(filter.value);
      } catch (e) {
        show(results, h('div', {class: 'problem', role: 'alert'}, h('strong', {}, 'Filter is not JSON'), h('p', {}, e.message)));
        return;
      }
    }
    show(results, h('p', {}, 'Searching…'));
    announce(status, 'Searching…');
    try {
      const response = await request('POST', `/api/v1/tenants/${encodeURIComponent(tenant)}/retrieve`, {json: body});
      show(results, resultView(response));
      announce(status, `${response.passages.length} passage(s) found; ${response.diagnostics.refusals.length} left out.`);
    } catch (e) {
      show(results, problemView(e));
      announce(status, 'Search failed.');
    }
  }

  show(root,
    h('h1', {}, `Search playground (${tenant})`),
    h('form', {class: 'stack', onsubmit: search, 'aria-describedby': 'playground-help'},
      h('p', {id: 'playground-help', class: 'hint'}, 'Results are filtered by the token\'s access (tenant, partition, audience) exactly as for an application.'),
      field('Query', query),
      h('div', {class: 'row'}, field('Mode', mode), field('Top K', topK), field('Min score', minScore), field('Max chars', maxChars),
        field('Partition', partition), h('label', {class: 'row'}, rerank, 'Rerank')),
      field('Filter (JSON, ANDed with the access filter)', filter),
      h('div', {class: 'row'}, h('button', {type: 'submit', id: 'search-button'}, 'Search'))),
    status,
    results);
}

function resultView(response) {
  const d = response.diagnostics;
  return [
    h('h2', {}, `${response.passages.length} passage(s)`),
    d.corpusEmpty ? h('p', {class: 'problem', role: 'note'}, 'The corpus of this namespace is empty.') : null,
    h('ol', {id: 'passages'}, response.passages.map(p => h('li', {class: 'card passage', 'data-passage': p.id},
      h('p', {class: 'meta'},
        h('span', {class: 'citation'}, `[${p.citation.index}] ${p.citation.source || p.citation.documentId}`),
        ` · document `, h('code', {}, p.citation.documentId), ` · chunk ${p.citation.chunkIndex}`,
        p.citation.page ? ` · page ${p.citation.page}` : '',
        p.citation.headingPath ? ` · ${p.citation.headingPath.join(' › ')}` : '',
        ' · score ', h('span', {class: 'score'}, Number(p.score).toFixed(4))),
      h('p', {}, p.text)))),
    h('h2', {}, 'Diagnostics'),
    h('dl', {class: 'claims', id: 'diagnostics'},
      [['Examined', d.examined], ['Rejected', d.rejected], ['Returned', d.returned], ['Recall', d.recall], ['Embedder', d.embedder],
       ['Total', `${d.totalMillis} ms`], ['Degraded', d.degraded ? `yes: ${d.degradedReason || ''}` : 'no'],
       ['Notes', (d.notes || []).join('; ')]]
        .filter(([, v]) => v !== undefined && v !== null && v !== '')
        .map(([k, v]) => [h('dt', {}, k), h('dd', {'data-diagnostic': k.toLowerCase()}, String(v))])),
    table('Legs', ['Leg', 'Candidates', 'Milliseconds'], d.legs.map(l => h('tr', {}, h('td', {}, l.name), h('td', {}, l.candidates), h('td', {}, l.millis)))),
    table('Refusals (passages left out)', ['Passage', 'Reason', 'Score', 'Chars', 'Chars used'],
      d.refusals.map(r => h('tr', {}, h('td', {}, h('code', {}, r.passageId)), h('td', {}, r.reason), h('td', {}, Number(r.score).toFixed(4)),
        h('td', {}, r.chars), h('td', {}, r.charsUsed)))),
    h('h2', {}, 'Context block'),
    h('pre', {id: 'context', tabindex: 0, 'aria-label': 'Retrieved context block'}, response.context || ''),
  ];
}
