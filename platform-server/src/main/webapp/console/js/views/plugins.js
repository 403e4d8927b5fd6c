// Plugins loaded from the server's plugins directory, their providers with declared options, and load failures.
import {request, problemView} from '../api.js';
import {h, show, table} from '../dom.js';

export default async function render(root, ctx) {
  show(root, h('h1', {}, 'Plugins'), h('p', {}, 'Loading…'));
  let body;
  try {
    body = await request('GET', '/admin/v1/plugins');
  } catch (e) {
    show(root, h('h1', {}, 'Plugins'), problemView(e));
    return;
  }
  if (!ctx.isCurrent()) return;
  show(root,
    h('h1', {}, 'Plugins'),
    h('p', {}, `SPI version ${body.spiVersion} · directory `, h('code', {}, body.directory)),
    body.problems.length ? h('div', {class: 'problem', role: 'alert'}, h('strong', {}, 'Plugins that failed to load'),
      h('ul', {}, body.problems.map(p => h('li', {}, h('code', {}, p.plugin), ` (${p.location}): ${p.message}`)))) : null,
    body.plugins.map(plugin => h('section', {class: 'card', 'aria-labelledby': `plugin-${plugin.name}`},
      h('h2', {id: `plugin-${plugin.name}`}, `${plugin.name} ${plugin.version}`),
      h('p', {class: 'hint'}, `SPI ${plugin.spiVersion} · ${plugin.location} · jars: ${plugin.jars.join(', ')}`),
      plugin.providers.map(provider => [
        h('h3', {}, `${provider.kind}: ${provider.name}`),
        provider.description ? h('p', {}, provider.description) : null,
        table(`Options of ${provider.kind} ${provider.name}`, ['Option', 'Type', 'Default', 'Required', 'Description'],
          provider.options.map(o => h('tr', {},
            h('td', {}, h('code', {}, o.name)),
            h('td', {}, o.type + (o.allowedValues ? ` (${o.allowedValues.join(' | ')})` : '')),
            h('td', {}, o.secret ? '(secret)' : o.default === null ? '' : String(o.default)),
            h('td', {}, o.required ? 'yes' : 'no'),
            h('td', {}, o.description || '')))),
      ]))));
}
