// The audit log (platform-admin): newest first, filtered by tenant, action and time.
import {request, problemView} from '../api.js';
import {h, show, field, table} from '../dom.js';

export default async function render(root, ctx) {
  const tenant = h('input', {id: 'audit-tenant', autocomplete: 'off'});
  const action = h('input', {id: 'audit-action', autocomplete: 'off', placeholder: 'e.g. tenant.create'});
  const since = h('input', {id: 'audit-since', autocomplete: 'off', placeholder: '2026-01-31T12:00:00Z'});
  const limit = h('input', {id: 'audit-limit', type: 'number', min: 1, max: 1000, value: 100});
  const results = h('div', {id: 'audit-results'});

  async function load() {
    show(results, h('p', {}, 'Loading…'));
    try {
      const body = await request('GET', '/admin/v1/audit', {query: {tenant: tenant.value, action: action.value, since: since.value, limit: limit.value}});
      if (!ctx.isCurrent()) return;
      show(results, table(`${body.events.length} audit events, newest first`, ['When', 'Actor', 'Tenant', 'Action', 'Target', 'Outcome', 'Details'],
        body.events.map(e => h('tr', {},
          h('td', {}, e.at), h('td', {}, e.actor), h('td', {}, e.tenant || ''), h('td', {}, h('code', {}, e.action)),
          h('td', {}, e.target || ''), h('td', {}, e.outcome),
          h('td', {}, e.details && Object.keys(e.details).length ? h('code', {}, JSON.stringify(e.details)) : '')))));
    } catch (e) {
      show(results, problemView(e));
    }
  }

  show(root,
    h('h1', {}, 'Audit log'),
    h('form', {class: 'stack', onsubmit: event => { event.preventDefault(); load(); }},
      h('div', {class: 'row'}, field('Tenant', tenant), field('Action', action), field('Since (ISO-8601)', since), field('Limit', limit),
        h('button', {type: 'submit'}, 'Filter'))),
    results);
  await load();
}
