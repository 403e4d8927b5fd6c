// Tenants (platform-admin): the fleet (state, sizes, quota bars, rate, p95; sortable, paginated, filterable by id), create
// from a tenant document, edit a definition, change state (ACTIVE, INACTIVE, OFFLOADED), check its plugins on this server.
import {ApiError, request, problemView} from '../api.js';
import {h, show, field, table} from '../dom.js';
import * as session from '../session.js';

const PAGE = 20;
// Column header, and the fleet sort key it toggles (null: not sortable).
const COLUMNS = [['id', 'Id'], [null, 'Name'], ['state', 'State'], ['documents', 'Documents'], ['chunks', 'Chunks'], ['bytes', 'Bytes'],
  ['quota', 'Quota use'], [null, 'Requests/min'], [null, 'p95 ms'], [null, 'Resources'], [null, '']];
// The list's sort, page and filter outlive a re-render of the view (returning from another view keeps them).
const view = {sort: 'created', order: 'desc', page: 0, filter: ''};

function bytes(n) {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = n / 1024, unit = 0;
  while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit++; }
  return `${value.toFixed(1)} ${units[unit]}`;
}

function quotaBar(what, use) {
  const percent = Math.round(Math.min(1, use.fraction) * 100);
  return h('div', {class: 'quota'},
    h('progress', {max: 100, value: percent, 'aria-label': `${what} quota ${percent}% used`}),
    h('span', {class: 'hint'}, ` ${what} ${percent}%`));
}
// Fields the server adds to a tenant (GET) that are not part of a tenant document (PUT body).
const RUNTIME_FIELDS = ['activeEmbedder', 'created', 'updated', 'revision', 'state'];

function template(id) {
  return JSON.stringify({
    id, displayName: id ? `Tenant ${id}` : '',
    store: {provider: 'lucene'},
    embedder: {provider: 'onnx'},
    retrieval: {mode: 'hybrid', topK: 5, maxChars: 6000},
  }, null, 2);
}

export default async function render(root, ctx) {
  const list = h('div', {id: 'tenant-list'});
  const editor = h('div', {id: 'tenant-editor'});

  async function load() {
    show(list, h('p', {}, 'Loading tenants…'));
    try {
      const body = await request('GET', '/admin/v1/fleet',
        {query: {sort: view.sort, order: view.order, page: view.page, size: PAGE, q: view.filter || undefined}});
      if (!ctx.isCurrent()) return;
      const pages = Math.max(1, Math.ceil(body.total / PAGE));
      const rows = body.tenants.map(t => h('tr', {'data-tenant': t.id},
        h('td', {}, h('code', {}, t.id)),
        h('td', {}, t.displayName || ''),
        h('td', {class: 'state'}, t.state || ''),
        h('td', {class: 'num'}, String(t.documents)),
        h('td', {class: 'num'}, String(t.chunks)),
        h('td', {class: 'num'}, bytes(t.bytes)),
        h('td', {}, quotaBar('documents', t.documentsQuota), quotaBar('chunks', t.chunksQuota), quotaBar('bytes', t.bytesQuota)),
        h('td', {class: 'num'}, t.requestsPerMinute == null ? '–' : String(t.requestsPerMinute)),
        h('td', {class: 'num'}, t.p95Millis == null ? '–' : t.p95Millis.toFixed(1)),
        h('td', {}, t.open ? 'open' : 'closed'),
        h('td', {}, h('button', {type: 'button', class: 'secondary', onclick: () => edit(t.id),
          'aria-label': `Edit tenant ${t.id}`}, 'Edit'))));
      const filter = h('input', {id: 'tenant-filter', type: 'search', value: view.filter, autocomplete: 'off', placeholder: 'id starts with…'});
      show(list,
        h('form', {class: 'row', role: 'search', onsubmit: event => { event.preventDefault(); view.filter = filter.value.trim(); view.page = 0; load(); }},
          field('Find tenants', filter), h('button', {type: 'submit', id: 'tenant-filter-apply', class: 'secondary'}, 'Find')),
        h('p', {class: 'hint', id: 'fleet-summary'}, `${body.total} tenant(s) · ${body.workingSet} of at most ${body.workingSetMax} open now · `
          + 'rate and p95 over the last minute'),
        table(`Tenants, page ${view.page + 1} of ${pages}, by ${view.sort} (${view.order})`,
          COLUMNS.map(([key, title]) => key ? sortButton(key, title) : title), rows),
        h('div', {class: 'row'},
          h('button', {type: 'button', class: 'secondary', disabled: view.page === 0, onclick: () => { view.page--; load(); }}, 'Previous page'),
          h('button', {type: 'button', class: 'secondary', disabled: view.page + 1 >= pages, onclick: () => { view.page++; load(); }}, 'Next page')));
    } catch (e) {
      show(list, problemView(e));
    }
  }

  function sortButton(key, title) {
    const current = view.sort === key;
    return h('button', {type: 'button', class: 'link', 'data-sort': key, 'aria-pressed': String(current),
      'aria-label': `Sort by ${title}${current ? (view.order === 'asc' ? ', ascending' : ', descending') : ''}`,
      onclick: () => {
        view.order = current ? (view.order === 'asc' ? 'desc' : 'asc') : (key === 'id' || key === 'state' ? 'asc' : 'desc');
        view.sort = key; view.page = 0; load();
      }}, title + (current ? (view.order === 'asc' ? ' ▲' : ' ▼') : ''));
  }

  // A purge refused because the tenant's store will not open: the operator may remove the tenant all the same.
  function storeUnavailable(error) {
    return error instanceof ApiError && String(error.problem.type || '').endsWith('/store-unavailable');
  }

  function purgeLeavingStoreData(id, result) {
    return h('button', {type: 'button', class: 'danger', id: 'purge-tenant-leave-store', onclick: async () => {
      if (!window.confirm(`Purge tenant ${id} without its store? What that store holds of it stays there, to be removed by hand.`)) return;
      try {
        const purged = await request('POST', `/admin/v1/tenants/${encodeURIComponent(id)}:purge`, {query: {leaveStoreData: true}});
        show(editor, h('p', {class: 'success', id: 'tenant-purged'},
          `Purged ${id} (${purged.documents} document(s) removed; its store's data was left in place).`));
        load();
      } catch (e) { show(result, problemView(e)); }
    }}, "Purge, leaving the store's data");
  }

  // Starts the tenant's plugins on the server that answers and shows which started (the problems are the plugins' own words).
  function pluginCheck(id) {
    const out = h('div', {id: 'tenant-plugins', 'aria-live': 'polite'});
    const button = h('button', {type: 'button', id: 'check-tenant-plugins', onclick: async () => {
      show(out, h('p', {}, 'Starting the plugins…'));
      try {
        const status = await request('GET', `/admin/v1/tenants/${encodeURIComponent(id)}/plugins`);
        show(out, table(status.up ? 'Every plugin started on this server' : 'Not every plugin started on this server',
          ['Field', 'Kind', 'Provider', 'Status', 'Problem'],
          status.plugins.map(p => h('tr', {}, h('td', {}, p.field), h('td', {}, p.kind), h('td', {}, h('code', {}, p.provider)),
            h('td', {class: p.up ? 'success' : 'problem'}, p.up ? 'up' : 'down'), h('td', {}, p.problem || '')))));
      } catch (e) { show(out, problemView(e)); }
    }}, 'Check plugins on this server');
    return [h('h3', {}, 'Plugins'),
      h('p', {class: 'hint'}, 'Starts each plugin the tenant chose, as its first call would, and asks its store for its health. The answer is this server\'s.'),
      button, out];
  }

  async function edit(id) {
    show(editor, h('p', {}, `Loading ${id}…`));
    try {
      const tenant = await request('GET', `/admin/v1/tenants/${encodeURIComponent(id)}`);
      const documentOnly = Object.fromEntries(Object.entries(tenant).filter(([k]) => !RUNTIME_FIELDS.includes(k)));
      const text = h('textarea', {id: 'edit-tenant-json', rows: 16, spellcheck: 'false'});
      text.value = JSON.stringify(documentOnly, null, 2);
      const result = h('div', {id: 'edit-tenant-result', 'aria-live': 'polite'});
      const state = h('select', {id: 'tenant-state'}, ['ACTIVE', 'INACTIVE', 'OFFLOADED'].map(s => h('option', {value: s, selected: tenant.state === s}, s)));
      const deletion = tenant.state === 'DELETING'
        ? h('button', {type: 'button', class: 'danger', id: 'purge-tenant', onclick: async () => {
          if (!window.confirm(`Purge tenant ${id}? Its documents and chunks are removed for good.`)) return;
          try {
            const purged = await request('POST', `/admin/v1/tenants/${encodeURIComponent(id)}:purge`);
            show(editor, h('p', {class: 'success', id: 'tenant-purged'}, `Purged ${id} (${purged.documents} document(s) removed).`));
            load();
          } catch (e) { show(result, problemView(e), storeUnavailable(e) ? purgeLeavingStoreData(id, result) : null); }
        }}, 'Purge tenant and corpus')
        : h('button', {type: 'button', class: 'danger', id: 'mark-tenant-deleting', onclick: async () => {
          if (!window.confirm(`Mark tenant ${id} for deletion? Its data-plane calls stop at once; purging is a second step.`)) return;
          try {
            await request('DELETE', `/admin/v1/tenants/${encodeURIComponent(id)}`);
            load();
            edit(id);
          } catch (e) { show(result, problemView(e)); }
        }}, 'Mark for deletion');
      show(editor,
        h('h2', {}, `Tenant ${id}`),
        h('p', {}, `State ${tenant.state} · revision ${tenant.revision} · active embedder `, h('code', {}, tenant.activeEmbedder || '(none yet)')),
        h('form', {class: 'stack', onsubmit: async event => {
          event.preventDefault();
          try {
            await request('POST', `/admin/v1/tenants/${encodeURIComponent(id)}/state`, {json: {state: state.value}});
            show(result, h('p', {class: 'success'}, `State of ${id} set to ${state.value}.`));
            load();
          } catch (e) { show(result, problemView(e)); }
        }}, h('div', {class: 'row'}, field('State', state), h('button', {type: 'submit'}, 'Set state'))),
        h('form', {class: 'stack', onsubmit: async event => {
          event.preventDefault();
          try {
            const saved = await request('PUT', `/admin/v1/tenants/${encodeURIComponent(id)}`, {json: text.value});
            show(result, h('p', {class: 'success'}, `Saved ${id} (revision ${saved.revision}).`));
            load();
          } catch (e) { show(result, problemView(e)); }
        }}, field('Definition (JSON tenant document)', text, 'Validated by the server against tenants-config/tenant.schema.json; problems are listed with their JSON pointer.'),
          h('div', {class: 'row'}, h('button', {type: 'submit'}, 'Save definition'))),
        ...pluginCheck(id),
        h('h3', {}, 'Deletion'),
        h('p', {class: 'hint'}, 'Two steps: mark the tenant DELETING (nothing is removed yet), then purge it with its corpus.'),
        deletion,
        result);
    } catch (e) {
      show(editor, problemView(e));
    }
  }

  const newId = h('input', {id: 'new-tenant-id', name: 'id', required: true, pattern: '[a-z0-9][a-z0-9_\\-]{0,62}', autocomplete: 'off'});
  const newDocument = h('textarea', {id: 'new-tenant-json', rows: 12, spellcheck: 'false'});
  const suggested = session.tenant() || '';
  newId.value = suggested;
  newDocument.value = template(suggested);
  newId.addEventListener('input', () => {
    try {
      const doc = JSON.parse(newDocument.value);
      doc.id = newId.value;
      if (!doc.displayName || doc.displayName.startsWith('Tenant ')) doc.displayName = `Tenant ${newId.value}`;
      newDocument.value = JSON.stringify(doc, null, 2);
    } catch { /* the user is editing invalid JSON by hand: leave it alone, the server will say what is wrong */ }
  });
  const createResult = h('div', {id: 'create-tenant-result', 'aria-live': 'polite'});
  const createForm = h('form', {class: 'stack', onsubmit: async event => {
    event.preventDefault();
    try {
      const created = await request('POST', '/admin/v1/tenants', {json: newDocument.value});
      show(createResult, h('p', {class: 'success', id: 'tenant-created'}, `Created tenant ${created.id} (${created.state}).`));
      view.page = 0;
      await load();
    } catch (e) {
      show(createResult, problemView(e));
    }
  }},
  field('Tenant id', newId, 'Lower-case letters, digits, _ and -. Data-plane views need a token whose tenant claim is this id.'),
  field('Tenant document (JSON)', newDocument),
  h('div', {class: 'row'}, h('button', {type: 'submit', id: 'create-tenant'}, 'Create tenant')));

  show(root,
    h('h1', {}, 'Tenants'),
    session.hasRole('platform-admin') ? null : h('p', {class: 'problem', role: 'note'}, 'This view needs the platform-admin role; the server will refuse your token.'),
    list,
    editor,
    h('h2', {}, 'Create a tenant'),
    createForm,
    createResult);
  await load();
}
