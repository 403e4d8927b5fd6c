// Calls the Corpora REST API with the signed-in token. Errors are RFC 9457 problem+json; they surface as ApiError.
import {token} from './session.js';
import {h} from './dom.js';

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

/** request('GET', '/admin/v1/tenants', {query: {limit: 20}}) → parsed JSON (or null for 204). */
export async function request(method, path, {json, form, query} = {}) {
  const url = new URL(path, window.location.origin);
  for (const [name, value] of Object.entries(query || {})) {
    if (value !== null && value !== undefined && value !== '') url.searchParams.set(name, value);
  }
  const headers = {Accept: 'application/json, application/problem+json'};
  const current = token();
  if (current) headers.Authorization = `Bearer ${current}`;
  let body;
  if (json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = typeof json === 'string' ? json : JSON.stringify(json);
  } else if (form !== undefined) {
    body = form; // the browser sets multipart/form-data with its boundary
  }
  let response;
  try {
    response = await fetch(url, {method, headers, body, credentials: 'same-origin'});
  } catch (e) {
    throw new ApiError(0, {title: 'Server unreachable', detail: `${method} ${url.pathname}: ${e.message}`});
  }
  if (response.status === 204) return null;
  const type = response.headers.get('Content-Type') || '';
  const text = await response.text();
  let parsed = null;
  if (text && (type.includes('json'))) {
    try { parsed = JSON.parse(text); } catch { parsed = null; }
  }
  if (!response.ok) {
    const problem = parsed && typeof parsed === 'object' ? parsed
      : {title: response.statusText || `HTTP ${response.status}`, status: response.status,
         detail: response.status === 401 ? 'The token is missing, expired or not accepted: sign in again.' : text.slice(0, 300)};
    throw new ApiError(response.status, problem);
  }
  return parsed;
}

/** A problem box (role=alert) showing title, status, detail and any validation errors the server listed. */
export function problemView(error) {
  const problem = error instanceof ApiError ? error.problem : {title: 'Error', detail: String(error.message || error)};
  const status = error instanceof ApiError && error.status ? ` (${error.status})` : '';
  const errors = Array.isArray(problem.errors) ? problem.errors : [];
  return h('div', {class: 'problem', role: 'alert'},
    h('strong', {}, `${problem.title || 'Error'}${status}`),
    problem.detail && !errors.length ? h('p', {}, problem.detail) : null,
    errors.length ? h('ul', {}, errors.map(e => h('li', {},
      e.pointer ? h('code', {}, e.pointer) : null, e.pointer ? ': ' : '', e.reason || JSON.stringify(e)))) : null);
}
