// The dashboard's shell: sign-in, the navigation between screens, and following Watch so that
// what another device logs appears without a reload.

import { call, session, hooks, watch } from './api.js';
import { h, put, field, status } from './dom.js';
import { app, nameOf } from './state.js';
import { screens } from './screens.js';

const main = document.getElementById('main');
const nav = document.getElementById('nav');
const who = document.getElementById('who');
const live = document.getElementById('live');
/** What the header says of the connection: Watch's state, and whether calls reach the server. */
const connection = { watch: '', reachable: true };
let stopWatching = null;
let drawing = 0;
let pending = null;
let firstToday = true;
let drawn = 0;

function current() {
  const name = location.hash.slice(1);
  return screens[name] ? name : 'today';
}

/** Draws the current screen. `force` redraws even a screen with an open edit form. */
async function draw(force = false) {
  if (!session.token) return signIn();
  const name = current();
  const screen = screens[name];
  if (!force && main.querySelector('form.editing')) { pending = true; return; }
  pending = false;
  for (const link of nav.querySelectorAll('a')) {
    if (link.hash === `#${name}`) link.setAttribute('aria-current', 'page'); else link.removeAttribute('aria-current');
  }
  document.title = `${screen.title} · Workout`;
  const serial = ++drawing;
  main.setAttribute('aria-busy', 'true');
  try {
    const content = await screen.render();
    if (serial !== drawing) return;
    put(main, content);
    main.dataset.screen = name;
    main.dataset.drawn = String(++drawn);
    if (name === 'today' && firstToday) {
      firstToday = false;
      performance.mark('today-drawn');
    }
  } catch (error) {
    if (serial !== drawing || !session.token) return;
    put(main, h('div', { class: 'problem', role: 'alert' }, h('h1', {}, 'Something went wrong'), h('p', {}, error.message),
      h('button', { type: 'button', onclick: () => draw(true) }, 'Try again')));
  } finally {
    if (serial === drawing) main.removeAttribute('aria-busy');
  }
}

let refreshTimer = null;
app.refresh = (force = false) => {
  clearTimeout(refreshTimer);
  if (force) return draw(true);
  refreshTimer = setTimeout(() => { if (screens[current()].live) draw(false); }, 120);
};

function showMember() {
  who.textContent = nameOf(app.profile);
}

function startWatching() {
  stopWatching?.();
  stopWatching = watch(app.revision, (event) => {
    if (event.totals) app.totals = event.totals;
    let changed = false;
    for (const change of event.changes || []) {
      changed = true;
      if (change.profile) { app.setProfile(change.profile); showMember(); }
    }
    if (changed) app.refresh();
  }, (state) => {
    connection.watch = state;
    if (state === 'live') connection.reachable = true;
    showConnection();
  });
}

/**
 * The header's word on the connection, from what was last seen: nothing while signed out;
 * "Not connected" while the browser is offline or the last call did not reach the server;
 * else Watch's state ("Live", "Reconnecting…").
 */
function showConnection() {
  const signedOut = document.body.classList.contains('signed-out');
  const state = signedOut ? '' : !navigator.onLine || !connection.reachable ? 'offline' : connection.watch;
  live.textContent = { live: 'Live', reconnecting: 'Reconnecting…', offline: 'Not connected' }[state] || '';
  if (state) live.dataset.state = state; else delete live.dataset.state;
}
hooks.reached = (reached) => {
  if (connection.reachable === reached) return;
  connection.reachable = reached;
  showConnection();
};
window.addEventListener('online', showConnection);
window.addEventListener('offline', showConnection);

/** After sign-in or a reload with a session: the shell, the screen, then Watch. */
async function start(known) {
  document.body.classList.remove('signed-out');
  nav.hidden = false;
  if (known) {
    app.totals = known.totals || {};
    app.revision = known.revision || '0';
    app.setProfile(known.profile);
    showMember();
    draw(true);
    startWatching();
    return;
  }
  // A reload: draw with the profile kept in this tab while GetProfile confirms the session.
  showMember();
  const answer = call('Profile.GetProfile');
  const drewEarly = !!app.profile;
  if (drewEarly) draw(true);
  try {
    const fresh = await answer;
    const zoneChanged = fresh.profile?.timeZone !== app.profile?.timeZone;
    app.setProfile(fresh.profile);
    app.totals = fresh.totals || {};
    app.revision = fresh.revision || '0';
    showMember();
    if (!drewEarly || zoneChanged) draw(true);
    startWatching();
  } catch (error) {
    if (!session.token) return;
    put(main, h('p', { class: 'problem', role: 'alert' }, error.message));
  }
}

function signIn(message) {
  stopWatching?.();
  stopWatching = null;
  document.body.classList.add('signed-out');
  nav.hidden = true;
  who.textContent = '';
  connection.watch = '';
  showConnection();
  delete main.dataset.screen;
  document.title = 'Sign in · Workout';
  const line = status();
  if (message) line.textContent = message;
  const email = h('input', { type: 'email', name: 'email', required: true, autocomplete: 'username' });
  const form = h('form', { class: 'sign-in', 'aria-label': 'Sign in' },
    h('h1', {}, 'Sign in'),
    field('Email', email),
    field('Password', h('input', { type: 'password', name: 'password', required: true, autocomplete: 'current-password' })),
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Sign in')),
    line);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const button = form.querySelector('button');
    button.disabled = true;
    line.className = 'status';
    line.textContent = 'Signing in…';
    try {
      const answer = await call('Auth.Login', { email: data.get('email').trim(), password: data.get('password'), deviceName: 'Web dashboard' });
      session.token = answer.sessionToken;
      line.textContent = '';
      await start(answer);
    } catch (error) {
      line.className = 'status error';
      line.textContent = error.code === 'resource_exhausted' ? `Too many attempts: ${error.message}` : error.message;
    } finally {
      button.disabled = false;
    }
  });
  put(main, form);
  main.dataset.screen = 'sign-in';
  main.dataset.drawn = String(++drawn);
  email.focus();
}

hooks.signedOut = () => signIn('Your session ended; sign in again.');
document.addEventListener('profile-changed', showMember);
document.addEventListener('sign-out', async () => {
  try { await call('Auth.Logout'); } catch { /* the session ends here either way */ }
  session.token = null;
  app.setProfile(null);
  signIn('Signed out.');
});
window.addEventListener('hashchange', () => draw(true));

if (session.token) start(); else signIn();
