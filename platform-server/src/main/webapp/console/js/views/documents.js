// Documents of the token's tenant: list (paginated), view chunks, upload files with live job progress, delete.
// Documents are addressed by the id query parameter (document?id=…), which takes any id, including ones with '/'.
import {request, problemView} from '../api.js';
import {h, show, field, table, announcer, announce} from '../dom.js';
import * as session from '../session.js';

const PAGE = 25;
const POLL_MS = 700;
const FINISHED = ['SUCCEEDED', 'FAILED', 'PARTIALLY_FAILED'];

export default async function render(root, ctx) {
  const tenant = session.tenant();
  if (!tenant) {
    show(root, h('h1', {}, 'Documents'), h('p', {class: 'problem', role: 'note'},
      'The token has no tenant claim. Sign in with a token scoped to a tenant (e.g. bin/corpora token --tenant T --roles tenant-admin,writer,reader).'));
    return;
  }
  const base = `/api/v1/tenants/${encodeURIComponent(tenant)}`;
  const partition = h('input', {id: 'documents-partition', autocomplete: 'off', value: session.claims().partition || ''});
  const list = h('div', {id: 'document-list'});
  const jobs = h('div', {id: 'job-list'});
  const progress = h('div', {id: 'job-progress'});
  const chunksView = h('div', {id: 'document-chunks', 'aria-live': 'polite'});
  const status = announcer('job-announcer');
  const pages = [null];
  let page = 0;

  async function load() {
    try {
      const body = await request('GET', `${base}/documents`, {query: {limit: PAGE, after: pages[page], partition: partition.value}});
      if (!ctx.isCurrent()) return;
      if (body.next && pages.length === page + 1) pages.push(body.next);
      show(list,
        table(`Documents of ${tenant}, page ${page + 1}`, ['Id', 'Source', 'Type', 'Status', 'Version', 'Chunks', 'Bytes', 'Updated', ''],
          body.documents.map(d => h('tr', {'data-document': d.id},
            h('td', {}, h('code', {}, d.id)), h('td', {}, d.source || ''), h('td', {}, d.mediaType || ''),
            h('td', {}, d.status + (d.error ? `: ${d.error}` : '')), h('td', {}, d.version), h('td', {}, d.chunks), h('td', {}, d.bytes),
            h('td', {}, d.updated),
            h('td', {}, h('div', {class: 'row'},
              h('button', {type: 'button', class: 'secondary', 'aria-label': `View chunks of document ${d.id}`, onclick: () => viewChunks(d.id)}, 'Chunks'),
              h('button', {type: 'button', class: 'danger', 'aria-label': `Delete document ${d.id}`, onclick: () => remove(d.id)}, 'Delete')))))),
        h('div', {class: 'row'},
          h('button', {type: 'button', class: 'secondary', disabled: page === 0, onclick: () => { page--; load(); }}, 'Previous page'),
          h('button', {type: 'button', class: 'secondary', disabled: !body.next, onclick: () => { page++; load(); }}, 'Next page')));
      const recent = await request('GET', `${base}/jobs`, {query: {limit: 10}});
      if (!ctx.isCurrent()) return;
      show(jobs, table('Recent ingest jobs', ['Job', 'Status', 'Done', 'Succeeded', 'Skipped', 'Failed', 'Updated'],
        recent.jobs.map(j => h('tr', {}, h('td', {}, h('code', {}, j.id)), h('td', {}, j.status), h('td', {}, `${j.percent}%`),
          h('td', {}, j.succeeded), h('td', {}, j.skipped), h('td', {}, j.failed), h('td', {}, j.updated)))));
    } catch (e) {
      show(list, problemView(e));
    }
  }

  async function viewChunks(id) {
    show(chunksView, h('p', {}, `Loading the chunks of ${id}…`));
    try {
      const body = await request('GET', `${base}/document/chunks`, {query: {id, partition: partition.value}});
      if (!ctx.isCurrent()) return;
      show(chunksView, h('h2', {}, `Chunks of ${body.documentId}`),
        h('ol', {}, body.chunks.map(c => h('li', {'data-chunk': c.index},
          c.headingPath && c.headingPath.length ? h('p', {}, h('strong', {}, c.headingPath.join(' › '))) : null,
          h('p', {}, c.text)))));
    } catch (e) {
      show(chunksView, problemView(e));
    }
  }

  async function remove(id) {
    if (!window.confirm(`Delete document ${id} and its chunks from ${tenant}?`)) return;
    try {
      await request('DELETE', `${base}/document`, {query: {id, partition: partition.value}});
      show(progress, h('p', {class: 'success'}, `Deleted ${id}.`));
      await load();
    } catch (e) {
      show(progress, problemView(e));
    }
  }

  function jobView(job) {
    return h('div', {class: 'card', id: 'job', 'data-job': job.id, 'data-status': job.status},
      h('p', {}, h('strong', {}, `Job ${job.id}: `), h('span', {id: 'job-status'}, job.status),
        ` · ${job.succeeded} stored, ${job.skipped} unchanged, ${job.failed} failed of ${job.total}`),
      h('progress', {max: 100, value: job.percent, 'aria-label': `Ingest progress of job ${job.id}`}, `${job.percent}%`),
      job.outcomes.length ? h('ul', {}, job.outcomes.map(o => h('li', {},
        h('code', {}, o.documentId), `: ${o.result}`, o.chunks ? ` (${o.chunks} chunks, version ${o.version})` : '',
        o.error ? ` — ${o.error}` : ''))) : null);
  }

  function report(job) {
    show(progress, jobView(job));
    const step = Math.floor(job.percent / 25) * 25; // announce quarters, not every poll
    announce(status, FINISHED.includes(job.status)
      ? `Job ${job.id} ${job.status}: ${job.succeeded} stored, ${job.skipped} unchanged, ${job.failed} failed.`
      : `Job ${job.id} ${job.status}, at least ${step}% done.`);
  }

  async function follow(job) {
    report(job);
    while (ctx.isCurrent() && !FINISHED.includes(job.status)) {
      await new Promise(resolve => setTimeout(resolve, POLL_MS));
      try {
        job = await request('GET', `${base}/jobs/${encodeURIComponent(job.id)}`);
      } catch (e) {
        show(progress, problemView(e));
        return;
      }
      if (ctx.isCurrent()) report(job);
    }
    if (ctx.isCurrent()) await load();
  }

  const verifyResult = h('div', {id: 'verify-result', 'aria-live': 'polite'});
  async function verify() {
    show(verifyResult, h('p', {}, 'Comparing the registry with the store…'));
    try {
      const report = await request('GET', `${base}/index:verify`, {query: {partition: partition.value}});
      const rows = [['Namespace', report.namespace], ['Consistent', report.consistent ? 'yes' : 'NO'], ['Documents', report.documents],
        ['Chunks', report.chunks], ['Missing', report.missing.count], ['Orphaned', report.orphaned.count], ['Stale', report.stale.count],
        ['Unstamped', report.unstamped.count]];
      show(verifyResult, h('dl', {class: 'claims'}, rows.map(([k, v]) => [h('dt', {}, k), h('dd', {'data-verify': k.toLowerCase()}, String(v))])),
        report.consistent ? null : h('p', {class: 'problem', role: 'alert'},
          'The store and the registry diverge; a tenant-admin can repair with POST …/index:rebuild.'));
    } catch (e) {
      show(verifyResult, problemView(e));
    }
  }

  const files = h('input', {id: 'upload-files', type: 'file', multiple: true, required: true});
  const metadata = h('input', {id: 'upload-metadata', autocomplete: 'off', placeholder: '{"audience": ["public"]}'});
  const uploadForm = h('form', {class: 'stack', onsubmit: async event => {
    event.preventDefault();
    if (!files.files.length) return;
    const form = new FormData();
    if (partition.value) form.append('partition', partition.value);
    if (metadata.value.trim()) form.append('metadata', metadata.value.trim());
    for (const file of files.files) form.append('file', file, file.name);
    show(progress, h('p', {}, `Uploading ${files.files.length} file(s)…`));
    try {
      const job = await request('POST', `${base}/documents`, {form});
      files.value = '';
      await follow(job);
    } catch (e) {
      show(progress, problemView(e));
    }
  }},
  h('div', {class: 'row'},
    field('Files', files, 'Any format a loaded document loader accepts (text, Markdown, HTML, PDF, JSON, CSV…)'),
    field('Metadata (JSON, optional)', metadata),
    h('button', {type: 'submit', id: 'upload-button'}, 'Upload')));

  show(root,
    h('h1', {}, `Documents of ${tenant}`),
    h('form', {class: 'row', onsubmit: event => { event.preventDefault(); pages.length = 1; page = 0; load(); }},
      field('Partition (optional)', partition), h('button', {type: 'submit', class: 'secondary'}, 'Show')),
    h('h2', {}, 'Upload'),
    uploadForm,
    status,
    progress,
    list,
    chunksView,
    jobs,
    h('h2', {}, 'Index consistency'),
    h('p', {}, 'Reports chunks missing from the store, orphaned or stale ones, without repairing anything.'),
    h('button', {type: 'button', id: 'verify-button', class: 'secondary', onclick: verify}, 'Verify index'),
    verifyResult);
  await load();
}
