// Hash router: #/tenants etc. Each view module renders into #view; views needing a token send the user to sign-in.
import * as session from './session.js';
import {h, show} from './dom.js';
import signIn from './views/sign-in.js';
import tenants from './views/tenants.js';
import plugins from './views/plugins.js';
import documents from './views/documents.js';
import playground from './views/playground.js';
import ask from './views/ask.js';
import audit from './views/audit.js';
import evaluations from './views/evaluations.js';

const VIEWS = {
  'sign-in': {render: signIn, title: 'Sign in', needsToken: false},
  tenants: {render: tenants, title: 'Tenants', needsToken: true},
  plugins: {render: plugins, title: 'Plugins', needsToken: true},
  documents: {render: documents, title: 'Documents', needsToken: true},
  playground: {render: playground, title: 'Search playground', needsToken: true},
  ask: {render: ask, title: 'Ask', needsToken: true},
  evaluations: {render: evaluations, title: 'Evaluations', needsToken: true},
  audit: {render: audit, title: 'Audit log', needsToken: true},
};

let renderCount = 0;

export function refreshIdentity() {
  const identity = document.getElementById('identity');
  const claims = session.claims();
  const signOut = document.getElementById('sign-out');
  if (!claims) {
    identity.textContent = 'Not signed in';
    signOut.hidden = true;
    return;
  }
  const roles = Array.isArray(claims.groups) ? claims.groups.join(', ') : 'no roles';
  identity.textContent = `Signed in as ${claims.sub || claims.upn || '?'} · tenant ${claims.tenant || '(none)'} · ${roles}`;
  signOut.hidden = false;
}

/** @param moveFocus after a navigation, focus goes to the new view's heading; on page load it stays at the top (skip link first). */
async function route(moveFocus) {
  const name = (window.location.hash.replace(/^#\/?/, '').split('?')[0]) || (session.token() ? 'tenants' : 'sign-in');
  const view = VIEWS[name] || VIEWS['sign-in'];
  const key = VIEWS[name] ? name : 'sign-in';
  for (const link of document.querySelectorAll('.nav a')) {
    if (link.getAttribute('href') === `#/${key}`) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  document.title = `${view.title} · Corpora console`;
  const root = document.getElementById('view');
  const current = ++renderCount;
  if (view.needsToken && !session.token()) {
    show(root, h('h1', {}, view.title), h('p', {}, 'Sign in with a token first: ', h('a', {href: '#/sign-in'}, 'Sign in'), '.'));
    return;
  }
  root.replaceChildren();
  root.dataset.view = key;
  await view.render(root, {isCurrent: () => current === renderCount, refreshIdentity});
  if (moveFocus && current === renderCount) {
    const heading = root.querySelector('h1');
    if (heading) {
      heading.tabIndex = -1;
      heading.focus({preventScroll: true});
    }
  }
}

// The skip link must not change the hash: the router would read '#main' as a view name.
document.querySelector('.skip-link').addEventListener('click', event => {
  event.preventDefault();
  document.getElementById('main').focus();
});
document.getElementById('sign-out').addEventListener('click', () => {
  session.signOut();
  refreshIdentity();
  window.location.hash = '#/sign-in';
});
window.addEventListener('hashchange', () => route(true));
refreshIdentity();
route(false);
