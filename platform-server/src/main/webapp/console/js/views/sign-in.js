// Sign-in: paste a JWT (e.g. from `bin/corpora token`); its claims are shown so the user knows what they can do.
import * as session from '../session.js';
import {h, show, field} from '../dom.js';

export default function render(root, {refreshIdentity}) {
  const input = h('textarea', {id: 'token', name: 'token', rows: 5, required: true, spellcheck: 'false', autocomplete: 'off'});
  const status = h('div', {id: 'sign-in-status', 'aria-live': 'polite'});
  const form = h('form', {class: 'stack', onsubmit: event => {
    event.preventDefault();
    try {
      session.signIn(input.value);
      input.value = '';
      refreshIdentity();
      show(status, h('p', {class: 'success'}, 'Signed in.'), claimsView(session.claims()));
    } catch (e) {
      show(status, h('div', {class: 'problem', role: 'alert'}, h('strong', {}, 'Not a usable token'), h('p', {}, e.message)));
    }
  }},
  field('Token (JWT)', input, 'Kept in this tab only (sessionStorage). Development tokens: bin/corpora token --tenant T --roles platform-admin,tenant-admin,writer,reader'),
  h('div', {class: 'row'}, h('button', {type: 'submit', id: 'sign-in-button'}, 'Sign in')));

  show(root,
    h('h1', {}, 'Sign in'),
    h('p', {}, 'Admin views need the platform-admin role. Documents and the search playground act on the tenant named by the token\'s ',
      h('code', {}, 'tenant'), ' claim: the server refuses any other tenant.'),
    form, status);
  const current = session.claims();
  if (current) show(status, h('p', {}, 'Currently signed in:'), claimsView(current));
}

function claimsView(claims) {
  const left = session.secondsLeft(claims);
  const rows = [
    ['Subject', claims.sub || claims.upn || '(none)'],
    ['Tenant', claims.tenant || '(none: tenant data is out of reach)'],
    ['Roles', Array.isArray(claims.groups) && claims.groups.length ? claims.groups.join(', ') : '(none)'],
    ['ACL groups', Array.isArray(claims.acl_groups) ? claims.acl_groups.join(', ') : '(none)'],
    ['Partition', claims.partition || '(any)'],
    ['Issuer', claims.iss || '(none)'],
    ['Expires', left === null ? '(no exp)' : left > 0 ? `in ${Math.round(left / 60)} min` : 'EXPIRED'],
  ];
  return h('dl', {class: 'claims', id: 'claims'}, rows.map(([name, value]) => [h('dt', {}, name), h('dd', {'data-claim': name.toLowerCase()}, value)]));
}
