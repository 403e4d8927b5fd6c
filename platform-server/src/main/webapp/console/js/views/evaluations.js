// Retrieval-quality history of the token's tenant (tenant-admin): nDCG@10 per evaluation run as an inline SVG chart,
// and the regressions the server flagged (a candidate's nDCG@10 fell by more than maxDrop against the previous
// comparable run) with the queries that got worse. Read-only: evaluations are started with POST …/evaluations.
import {request, problemView} from '../api.js';
import {h, show, table} from '../dom.js';
import * as session from '../session.js';

const HISTORY = 100;
const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 640;
const HEIGHT = 220;
const PAD = {left: 44, right: 16, top: 14, bottom: 30};

/** An SVG element (dom.h builds HTML elements only). */
function s(tag, attributes = {}, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  for (const child of children) element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  return element;
}

const fixed = value => (typeof value === 'number' ? value.toFixed(4) : '–');
const signed = value => (typeof value === 'number' ? (value >= 0 ? '+' : '') + value.toFixed(4) : '–');

/** The recommended candidate of a succeeded run (the one the chart follows). */
function best(run) {
  return run.candidates && run.recommended !== null && run.recommended !== undefined ? run.candidates[run.recommended] : null;
}

/** nDCG@10 of the recommended candidate per succeeded run, oldest left; a flagged run is drawn as a red square. */
function chart(runs) {
  const points = runs.filter(r => r.status === 'SUCCEEDED' && best(r)).map(r => ({run: r, ndcg: best(r).ndcg10}));
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = i => PAD.left + (points.length === 1 ? plotW / 2 : (i * plotW) / (points.length - 1));
  const y = v => PAD.top + (1 - Math.max(0, Math.min(1, v))) * plotH;
  const svg = s('svg', {id: 'evaluation-chart', viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-labelledby': 'evaluation-chart-title evaluation-chart-desc'},
    s('title', {id: 'evaluation-chart-title'}, 'nDCG@10 per evaluation run'),
    s('desc', {id: 'evaluation-chart-desc'}, points.length
      ? `${points.length} succeeded runs, oldest first; ${points.filter(p => p.run.regression).length} flagged as a regression. The table below has every number.`
      : 'No succeeded run yet.'));
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    svg.append(s('line', {class: 'grid', x1: PAD.left, x2: WIDTH - PAD.right, y1: y(tick), y2: y(tick)}),
      s('text', {class: 'axis', x: PAD.left - 6, y: y(tick) + 4, 'text-anchor': 'end'}, tick.toFixed(2)));
  }
  svg.append(s('text', {class: 'axis', x: PAD.left, y: HEIGHT - 8}, 'oldest'),
    s('text', {class: 'axis', x: WIDTH - PAD.right, y: HEIGHT - 8, 'text-anchor': 'end'}, 'newest'));
  if (points.length > 1) {
    svg.append(s('polyline', {class: 'series', fill: 'none', points: points.map((p, i) => `${x(i)},${y(p.ndcg)}`).join(' ')}));
  }
  points.forEach((p, i) => {
    const label = `${p.run.id} (${p.run.created}): nDCG@10 ${fixed(p.ndcg)}, ${best(p.run).label}${p.run.regression ? ', REGRESSION' : ''}`;
    const mark = p.run.regression
      ? s('rect', {class: 'point regression', x: x(i) - 5, y: y(p.ndcg) - 5, width: 10, height: 10}, s('title', {}, label))
      : s('circle', {class: 'point', cx: x(i), cy: y(p.ndcg), r: 4}, s('title', {}, label));
    mark.setAttribute('data-run', p.run.id);
    mark.setAttribute('data-ndcg', p.ndcg.toFixed(4));
    svg.append(mark);
  });
  return h('figure', {class: 'chart'}, svg,
    h('figcaption', {}, 'nDCG@10 of each run\'s recommended candidate; a red square is a run the server flagged as a regression.'));
}

/** Every candidate that regressed in a run: its fall and the queries that got worse. */
function regressions(run) {
  const flagged = (run.candidates || []).filter(c => c.comparison && c.comparison.regression);
  if (!flagged.length) return run.status === 'SUCCEEDED' ? 'no' : '';
  return h('ul', {class: 'regressions'}, flagged.map(c => h('li', {},
    h('strong', {class: 'flag'}, 'REGRESSION'), ` ${c.label}: nDCG@10 ${signed(c.comparison.ndcg10Delta)} vs `, h('code', {}, c.comparison.previous),
    ` (more than ${c.comparison.maxDrop})`,
    c.comparison.worse.length ? h('span', {class: 'hint'}, ' worse: ' + c.comparison.worse
      .map(w => `${w.queryId} ${fixed(w.before)} → ${fixed(w.after)}`).join(', ')) : null)));
}

export default async function render(root, ctx) {
  const tenant = session.tenant();
  if (!tenant) {
    show(root, h('h1', {}, 'Evaluations'), h('p', {class: 'problem', role: 'note'},
      'The token has no tenant claim. Sign in with a tenant-admin token of the tenant (bin/corpora token --tenant T --roles tenant-admin).'));
    return;
  }
  const results = h('div', {id: 'evaluation-history'}, h('p', {}, 'Loading…'));
  show(root, h('h1', {}, 'Evaluations'),
    h('p', {}, `Retrieval quality of ${tenant} over time. Start a run with `, h('code', {}, `bin/corpora eval --tenant ${tenant} …`),
      ' or POST /api/v1/tenants/{tenant}/evaluations.'),
    results);
  try {
    const body = await request('GET', `/api/v1/tenants/${encodeURIComponent(tenant)}/evaluations`, {query: {limit: HISTORY}});
    if (!ctx.isCurrent()) return;
    const runs = body.evaluations.slice().reverse(); // oldest first
    show(results, chart(runs),
      table(`${runs.length} evaluation runs of ${tenant}, newest first`, ['Created', 'Run', 'Status', 'Recommended', 'nDCG@10', 'vs previous', 'Regression'],
        runs.slice().reverse().map(r => {
          const b = best(r);
          return h('tr', {'data-evaluation': r.id, class: r.regression ? 'regressed' : null},
            h('td', {}, r.created), h('td', {}, h('code', {}, r.id)), h('td', {}, r.status + (r.error ? `: ${r.error}` : '')),
            h('td', {}, b ? b.label : ''), h('td', {}, b ? fixed(b.ndcg10) : ''),
            h('td', {}, b && b.comparison ? signed(b.comparison.ndcg10Delta) : ''), h('td', {}, regressions(r)));
        })));
  } catch (e) {
    show(results, problemView(e));
  }
}
