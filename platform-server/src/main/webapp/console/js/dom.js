// Builds DOM nodes from data without innerHTML, so text from the API can never become markup.

/** h('button', {type: 'submit', onclick: f}, 'Save') → an element; null/false children are skipped. */
export function h(tag, attributes = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      element.addEventListener(name.slice(2), value);
    } else if (name === 'class') {
      element.className = value;
    } else if (name in element && typeof value !== 'string') {
      element[name] = value;
    } else {
      element.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's content. */
export function show(element, ...children) {
  element.replaceChildren();
  append(element, children);
}

/** A labelled form control: the label wraps the control so clicking the label focuses it. */
export function field(labelText, control, hint) {
  return h('label', {}, labelText, hint ? h('span', {class: 'hint'}, hint) : null, control);
}

/** A table with a caption, header cells and one row per item. */
export function table(caption, headers, rows) {
  return h('table', {},
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, headers.map(title => h('th', {scope: 'col'}, title)))),
    h('tbody', {}, rows.length ? rows : h('tr', {}, h('td', {colspan: headers.length}, 'Nothing to show.'))));
}

/**
 * A visually hidden status line that screen readers announce when its text changes. Views put short sentences here
 * ("Job 3f… RUNNING, 40%") instead of making whole tables live, which would re-read everything on each refresh.
 */
export function announcer(id) {
  return h('p', {id, class: 'visually-hidden', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true'});
}

/** Sets an announcer's text only when it changes, so repeated polls stay silent. */
export function announce(region, text) {
  if (region.textContent !== text) region.textContent = text;
}
