// Building the page: elements made with text nodes and attributes only. Nothing a member typed
// is ever parsed as markup (strings become text nodes), and no style attribute is set (the CSP allows
// only its own style sheet).

const SVG = 'http://www.w3.org/2000/svg';

function fill(node, attributes, children) {
  for (const [name, value] of Object.entries(attributes || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      node.addEventListener(name.slice(2), value);
    } else if (name === 'style') {
      throw new Error('style attributes are not allowed; use a class');
    } else {
      node.setAttribute(name, value === true ? '' : String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An HTML element: `h('p', {class: 'note'}, 'text', otherNode)`. */
export function h(tag, attributes, ...children) {
  return fill(document.createElement(tag), attributes, children);
}

/** An SVG element, likewise. */
export function s(tag, attributes, ...children) {
  return fill(document.createElementNS(SVG, tag), attributes, children);
}

/** Replaces `node`'s children. */
export function put(node, ...children) {
  node.replaceChildren();
  return fill(node, {}, children);
}

let serial = 0;
/** A labelled input: a `<label>` wrapping its text and the control. */
export function field(label, control, hint) {
  if (!control.id) control.id = `f${++serial}`;
  return h('div', { class: 'field' },
    h('label', { for: control.id }, label),
    control,
    hint ? h('small', {}, hint) : null);
}

/** A status line that screen readers announce. */
export function status() {
  return h('p', { class: 'status', role: 'status', 'aria-live': 'polite' });
}
