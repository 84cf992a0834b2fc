// The screens: each `render()` answers a finished element (drawn off the page, then swapped in).

import { call } from './api.js';
import { h, field, status } from './dom.js';
import { app, nameOf } from './state.js';
import { bars, line } from './charts.js';
import { workoutForm, mealForm, weightForm, stepsForm, deleteButton } from './forms.js';
import * as f from './format.js';

const DAY_MS = 86400000;

function section(title, ...children) {
  return h('section', { 'aria-label': title }, h('h2', {}, title), ...children);
}

function stat(label, value, name) {
  return h('div', { class: 'stat', 'data-stat': name }, h('span', { class: 'stat-value' }, value), h('span', { class: 'stat-label' }, label));
}

/** Swaps `node` for an edit form made by `makeForm(done, cancel)`, and back. */
function editInPlace(node, makeForm) {
  const form = makeForm(() => app.refresh(true), () => form.replaceWith(node));
  node.replaceWith(form);
  form.querySelector('input, select')?.focus();
}

async function allPages(method, request, key) {
  const result = [];
  let token = '';
  do {
    const page = await call(method, { ...request, ...(token ? { pageToken: token } : {}) });
    result.push(...(page[key] || []));
    token = page.nextPageToken || '';
  } while (token);
  return result;
}

function workoutItem(w, editable) {
  const zone = w.timeZone || app.zone;
  const item = h('li', { class: 'card', 'data-workout': w.id },
    h('h3', {}, f.enumName(w.workoutType, '')),
    h('p', {}, `${f.dateTime(w.performedAtMs, app.zone)} · ${f.duration(w.durationSeconds)} · ${f.kcal(w.caloriesBurned)}`
      + (w.exercisesCompleted ? ` · ${f.count(w.exercisesCompleted)} exercises` : '')),
    w.notes ? h('p', { class: 'note' }, w.notes) : null);
  if (editable) {
    item.append(h('div', { class: 'actions' },
      h('button', { type: 'button', class: 'secondary small', 'aria-label': `Edit ${w.workoutType} workout`, onclick: () => editInPlace(item, (done, cancel) => workoutForm({ ...w, timeZone: zone }, done, cancel)) }, 'Edit'),
      deleteButton(`${w.workoutType} workout`, async () => {
        const response = await call('Logging.DeleteWorkout', { id: w.id });
        if (response.totals) app.totals = response.totals;
        app.refresh(true);
      })));
  }
  return item;
}

function mealItem(m) {
  const t = m.totals || {};
  const item = h('li', { class: 'card', 'data-meal': m.id },
    h('h3', {}, `${f.enumName(m.mealType, 'MEAL_TYPE_')} · ${f.time(m.eatenAtMs, app.zone)}`, m.name ? h('span', { class: 'meal-name' }, ` · ${m.name}`) : null),
    h('ul', { class: 'food' }, (m.items || []).map((i) => h('li', {},
      h('span', { class: 'food-name' }, i.name),
      h('span', { class: 'food-figures' }, [f.kcal(i.calories), i.servings ? `${i.servings} × serving` : null,
        `P ${f.grams(i.proteinG)} · C ${f.grams(i.carbsG)} · F ${f.grams(i.fatG)}`].filter(Boolean).join(' · '))))),
    h('p', { class: 'meal-total' }, `Meal: ${f.kcal(t.calories)}`),
    h('div', { class: 'actions' },
      h('button', { type: 'button', class: 'secondary small', 'aria-label': `Edit ${f.enumName(m.mealType, 'MEAL_TYPE_')}`, onclick: () => editInPlace(item, (done, cancel) => mealForm(m, done, cancel)) }, 'Edit'),
      deleteButton(f.enumName(m.mealType, 'MEAL_TYPE_'), async () => { await call('Logging.DeleteMeal', { id: m.id }); app.refresh(true); })));
  return item;
}

async function today() {
  const zone = app.zone;
  const day = f.todayIn(zone);
  const start = f.startOfDay(day, zone);
  const end = f.startOfDay(f.addDays(day, 1), zone);
  const mealsOfDay = async () => {
    const first = await call('Queries.MealsOfDay', { day, timeZone: zone });
    let meals = first.meals || [];
    let token = first.nextPageToken;
    while (token) {
      const next = await call('Queries.MealsOfDay', { day, timeZone: zone, pageToken: token });
      meals = meals.concat(next.meals || []);
      token = next.nextPageToken;
    }
    return { ...first, meals };
  };
  const [meals, summary, workouts] = await Promise.all([
    mealsOfDay(),
    call('Queries.Summaries', { fromDay: day, toDay: day, granularity: 'GRANULARITY_DAY' }),
    call('Queries.WorkoutHistory', { fromMs: String(start), toMs: String(end), pageSize: 100 }),
  ]);
  const period = summary.periods?.[0] || {};
  const n = meals.totals || {};
  return h('div', {},
    h('h1', {}, 'Today ', h('span', { class: 'sub' }, f.localDate(day, true))),
    h('div', { class: 'stats' },
      stat('eaten', f.kcal(n.calories), 'eaten'),
      stat('burned', f.kcal(period.caloriesBurned), 'burned'),
      stat('steps', f.count(period.steps), 'steps'),
      stat('active', f.duration(period.activeSeconds), 'active')),
    h('p', { class: 'macros' }, `Protein ${f.grams(n.proteinG)} · Carbs ${f.grams(n.carbsG)} · Fat ${f.grams(n.fatG)}`),
    section('Meals',
      meals.meals.length ? h('ul', { class: 'list' }, meals.meals.map(mealItem)) : h('p', { class: 'empty' }, 'No meals logged today.')),
    section('Workouts',
      workouts.workouts?.length ? h('ul', { class: 'list' }, workouts.workouts.map((w) => workoutItem(w, true))) : h('p', { class: 'empty' }, 'No workouts today.')),
    h('p', {}, h('a', { href: '#log', class: 'button' }, 'Log something')));
}

async function week() {
  const zone = app.zone;
  const last = f.todayIn(zone);
  const first = f.addDays(last, -6);
  const { periods = [] } = await call('Queries.Summaries', { fromDay: first, toDay: last, granularity: 'GRANULARITY_DAY' });
  const dayList = Array.from({ length: 7 }, (_, i) => f.addDays(first, i));
  const byDay = dayList.map((d) => periods.find((p) => f.sameDay(p.start, d)) || {});
  const labels = dayList.map((d) => f.localDate(d).split(/[ ,]/)[0]);
  const keys = dayList.map((d) => `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`);
  const pick = (key) => byDay.map((p) => Number(p[key] || 0));
  return h('div', {},
    h('h1', {}, 'Week ', h('span', { class: 'sub' }, `${f.localDate(first)} – ${f.localDate(last)}`)),
    section('Calories in and out',
      h('p', { class: 'legend' }, h('span', { class: 'key eaten' }), 'eaten ', h('span', { class: 'key burned' }), 'burned'),
      bars({ title: 'Calories eaten and burned per day', labels, keys, series: [
        { name: 'eaten', values: pick('caloriesEaten'), className: 'eaten', format: f.kcal },
        { name: 'burned', values: pick('caloriesBurned'), className: 'burned', format: f.kcal }] })),
    section('Steps', bars({ title: 'Steps per day', labels, keys, series: [{ name: 'steps', values: pick('steps'), className: 'steps', format: f.steps }] })),
    section('Active time', bars({ title: 'Active minutes per day', labels, keys, series: [
      { name: 'active', values: pick('activeSeconds').map((v) => Math.round(v / 60)), className: 'active', format: (v) => `${f.count(v)} min` }] })),
    section('Figures', h('div', { class: 'table-wrap' }, h('table', {},
      h('thead', {}, h('tr', {}, ['Day', 'Eaten', 'Burned', 'Steps', 'Active'].map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, dayList.map((d, i) => h('tr', {},
        h('th', { scope: 'row' }, f.localDate(d)), h('td', {}, f.kcal(byDay[i].caloriesEaten)), h('td', {}, f.kcal(byDay[i].caloriesBurned)),
        h('td', {}, f.count(byDay[i].steps)), h('td', {}, f.duration(byDay[i].activeSeconds)))))))));
}

let weightRange = 30;

function weighIn(e) {
  const item = h('li', { class: 'card', 'data-weight': e.id },
    h('p', {}, `${f.kg(e.weightKg)} · ${f.dateTime(e.measuredAtMs, app.zone)}`, e.note ? h('span', { class: 'note' }, ` · ${e.note}`) : null));
  item.append(h('div', { class: 'actions' },
    h('button', { type: 'button', class: 'secondary small', 'aria-label': `Edit weigh-in of ${f.kg(e.weightKg)}`, onclick: () => editInPlace(item, (done, cancel) => weightForm(done, e, cancel)) }, 'Edit'),
    deleteButton(`weigh-in of ${f.kg(e.weightKg)}`, async () => { await call('Logging.DeleteWeight', { id: e.id }); app.refresh(true); })));
  return item;
}

async function weight() {
  const now = Date.now();
  const from = now - weightRange * DAY_MS;
  const entries = await allPages('Queries.WeightProgress', { fromMs: String(from), pageSize: 500 }, 'entries');
  const points = entries.map((e) => ({ x: Number(e.measuredAtMs), y: e.weightKg, entry: e }));
  const latest = entries[entries.length - 1];
  const change = entries.length > 1 ? latest.weightKg - entries[0].weightKg : 0;
  const ranges = h('div', { class: 'segmented', role: 'group', 'aria-label': 'Range' },
    [30, 90, 365].map((n) => h('button', { type: 'button', 'aria-pressed': String(n === weightRange), onclick: () => { weightRange = n; app.refresh(true); } }, `${n} days`)));
  return h('div', {},
    h('h1', {}, 'Weight'),
    ranges,
    h('div', { class: 'stats' },
      stat('latest', latest ? f.kg(latest.weightKg) : '–', 'latest'),
      stat(`change in ${weightRange} days`, `${change > 0 ? '+' : ''}${f.kg(change)}`, 'change'),
      stat('weigh-ins', f.count(entries.length), 'count')),
    line({ title: `Weight over the last ${weightRange} days`, points, from, to: now, format: f.kg,
      label: (p) => `${f.dateTime(p.x, app.zone)}: ${f.kg(p.y)}` }),
    section('Weigh-ins', entries.length ? h('ul', { class: 'list' }, entries.slice(-10).reverse().map(weighIn)) : h('p', { class: 'empty' }, 'No weigh-ins in this range.')),
    section('Log a weigh-in', weightForm(() => app.refresh(true))));
}

function totalsStrip() {
  const t = app.totals || {};
  return h('div', { class: 'stats', 'aria-label': 'Totals' },
    stat('workouts', f.count(t.totalWorkouts), 'workouts'),
    stat('burned', f.kcal(t.totalCaloriesBurned), 'total-burned'),
    stat('streak', f.days(t.currentStreakDays || 0), 'streak'),
    stat('points', f.points(t.points), 'points'));
}

async function history() {
  const list = h('ul', { class: 'list' });
  const empty = h('p', { class: 'empty', hidden: true }, 'No workouts yet.');
  const more = h('button', { type: 'button', class: 'secondary', hidden: true }, 'Show older');
  // The next page's token; '' once the last page is shown (there is no page after it to ask
  // for: a request without a token would be the first page again).
  let token = '';
  async function load() {
    more.disabled = true;
    const page = await call('Queries.WorkoutHistory', { pageSize: 10, ...(token ? { pageToken: token } : {}) });
    list.append(...(page.workouts || []).map((w) => workoutItem(w, true)));
    token = page.nextPageToken || '';
    more.disabled = false;
    more.hidden = !token;
    empty.hidden = list.children.length > 0;
  }
  more.addEventListener('click', () => { if (token && !more.disabled) load(); });
  const [profile] = await Promise.all([call('Profile.GetProfile'), load()]);
  app.totals = profile.totals || app.totals;
  return h('div', {}, h('h1', {}, 'History'), totalsStrip(), section('Workouts, newest first', empty, list, more));
}

async function achievements() {
  const [profile, { achievements: list = [] }] = await Promise.all([call('Profile.GetProfile'), call('Queries.Achievements')]);
  const t = profile.totals || {};
  app.totals = t;
  list.sort((a, b) => Number(!!b.unlocked) - Number(!!a.unlocked));
  return h('div', {},
    h('h1', {}, 'Achievements'),
    h('div', { class: 'stats' },
      stat('level', f.count(t.level || 1), 'level'),
      stat('points', f.points(t.points), 'points'),
      stat('current streak', f.days(t.currentStreakDays || 0), 'streak'),
      stat('longest streak', f.days(t.longestStreakDays || 0), 'longest'),
      stat('workouts', f.count(t.totalWorkouts), 'workouts'),
      stat('active', f.duration(t.totalActiveSeconds), 'active'),
      stat('burned', f.kcal(t.totalCaloriesBurned), 'total-burned'),
      stat('unlocked', `${f.count(t.achievementsUnlocked)} of ${list.length}`, 'unlocked')),
    section('Badges', h('ul', { class: 'list' }, list.map((a) => h('li', { class: `card ${a.unlocked ? 'unlocked' : 'locked'}` },
      h('h3', {}, a.title, ' ', h('span', { class: 'sub' }, a.unlocked ? `unlocked ${f.date(a.unlockedAtMs, app.zone)}` : 'locked')),
      h('p', {}, a.description, ` · ${f.points(a.points)}`),
      a.target ? h('label', {}, h('progress', { max: a.target, value: Math.min(a.progress || 0, a.target) }), ` ${f.count(a.progress)} of ${f.count(a.target)}`) : null)))));
}

async function household() {
  const isAdmin = ['ROLE_ADMIN', 'ROLE_OWNER'].includes(app.profile?.role);
  const [view, members] = await Promise.all([
    call('Household.HouseholdView'),
    isAdmin ? call('Admin.ListMembers').catch(() => null) : Promise.resolve(null),
  ]);
  const shown = (view.members || []).slice().sort((a, b) => Number(b.points || 0) - Number(a.points || 0));
  const shownIds = new Set(shown.map((m) => m.userId));
  const statements = [];
  if (app.profile && !app.profile.shareWithHousehold) {
    statements.push('You do not share: the others do not see you here. You can change that in Profile.');
  }
  if (members) {
    const hidden = (members.members || []).filter((m) => !m.shareWithHousehold && !shownIds.has(m.userId));
    if (hidden.length) {
      statements.push(`${hidden.map((m) => [m.firstName, m.lastName].filter(Boolean).join(' ') || m.email).join(', ')} ${hidden.length === 1 ? 'does' : 'do'} not share, so ${hidden.length === 1 ? 'is' : 'are'} not on the leaderboard.`);
    } else {
      statements.push('Everyone in the household shares.');
    }
  } else {
    statements.push('Members who do not share are not listed here; only they can change that, in their profile.');
  }
  return h('div', {},
    h('h1', {}, 'Household'),
    section('Leaderboard', h('div', { class: 'table-wrap' }, h('table', { class: 'leaderboard' },
      h('thead', {}, h('tr', {}, ['#', 'Member', 'Level', 'Points', 'Streak (days)', 'Workouts'].map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, shown.map((m, i) => h('tr', { class: m.isYou ? 'you' : '' },
        h('td', {}, String(i + 1)),
        h('th', { scope: 'row', class: 'member-name' }, m.displayName, m.isYou ? ' (you)' : ''),
        h('td', {}, f.count(m.level || 1)), h('td', {}, f.count(m.points)),
        h('td', {}, f.count(m.currentStreakDays)), h('td', {}, f.count(m.totalWorkouts)))))))),
    h('div', { class: 'statement' }, statements.map((text) => h('p', { class: 'not-sharing' }, text))));
}

function log() {
  const done = () => {};
  return h('div', {},
    h('h1', {}, 'Log'),
    section('Workout', workoutForm(null, done)),
    section('Meal', mealForm(null, done)),
    section('Weigh-in', weightForm(done)),
    section('Steps', stepsForm(done)));
}

const GOALS = ['FITNESS_GOAL_UNSPECIFIED', 'FITNESS_GOAL_LOSE_WEIGHT', 'FITNESS_GOAL_MAINTAIN_WEIGHT', 'FITNESS_GOAL_GAIN_MUSCLE', 'FITNESS_GOAL_IMPROVE_ENDURANCE', 'FITNESS_GOAL_GENERAL_FITNESS'];

async function profile() {
  const answer = await call('Profile.GetProfile');
  const p = answer.profile || {};
  app.setProfile(p);
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const text = (name, value, attributes = {}) => h('input', { name, value: value || '', autocomplete: 'off', ...attributes });
  // The revision this form shows: a change made meanwhile on another device is not overwritten.
  let shownRevision = p.revision;
  const line = status();
  const form = h('form', { 'aria-label': 'Profile' },
    h('div', { class: 'row' }, field('First name', text('firstName', p.firstName, { required: true, maxlength: 64 })), field('Last name', text('lastName', p.lastName, { maxlength: 64 }))),
    field('Display name', text('displayName', p.displayName, { maxlength: 64 }), 'What the household sees.'),
    field('Email', text('email', p.email, { type: 'email', required: true })),
    h('div', { class: 'row three' },
      field('Age (years)', text('age', p.age, { type: 'number', min: 0, max: 150, step: 1 })),
      field('Height (cm)', text('heightCm', p.heightCm, { type: 'number', min: 0, max: 300, step: 'any' })),
      field('Weight (kg)', text('weightKg', p.weightKg, { type: 'number', min: 0, max: 500, step: 'any' }))),
    field('Goal', h('select', { name: 'fitnessGoal' }, GOALS.map((g) => h('option', { value: g, selected: g === (p.fitnessGoal || GOALS[0]) }, g === GOALS[0] ? 'Not set' : f.enumName(g, 'FITNESS_GOAL_'))))),
    field('Time zone', text('timeZone', p.timeZone, { list: 'zones', required: true }), 'Days and times are shown in this zone.'),
    h('datalist', { id: 'zones' }, zones.map((z) => h('option', { value: z }))),
    h('div', { class: 'check' },
      h('input', { type: 'checkbox', name: 'shareWithHousehold', id: 'share', checked: !!p.shareWithHousehold }),
      h('label', { for: 'share' }, 'Share my level, points and streak with the household')),
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Save profile')),
    line);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const request = {
      firstName: data.get('firstName').trim(), lastName: data.get('lastName').trim(), displayName: data.get('displayName').trim(),
      email: data.get('email').trim(), fitnessGoal: data.get('fitnessGoal'), timeZone: data.get('timeZone').trim(),
      shareWithHousehold: data.get('shareWithHousehold') === 'on', expectedRevision: shownRevision,
    };
    for (const key of ['age', 'heightCm', 'weightKg']) if (data.get(key) !== '') request[key] = Number(data.get(key));
    line.className = 'status';
    line.textContent = 'Saving…';
    try {
      const saved = await call('Profile.UpdateProfile', request);
      app.setProfile(saved.profile);
      shownRevision = saved.profile?.revision;
      if (saved.totals) app.totals = saved.totals;
      document.dispatchEvent(new CustomEvent('profile-changed'));
      line.textContent = 'Profile saved.';
    } catch (error) {
      line.className = 'status error';
      line.textContent = error.message;
    }
  });
  return h('div', {}, h('h1', {}, 'Profile'), section(nameOf(p), form),
    section('Device tokens', await deviceTokens(p.timeZone)),
    section('Session', h('p', {}, 'Signed in on this tab until you sign out or close it.'),
      h('button', { type: 'button', class: 'secondary', onclick: () => document.dispatchEvent(new CustomEvent('sign-out')) }, 'Sign out')));
}

const SCOPES = [['TOKEN_SCOPE_READ', 'Read my data'], ['TOKEN_SCOPE_LOG', 'Log records'], ['TOKEN_SCOPE_IMPORT', 'Import history (Health Auto Export)']];

/** The member's device tokens: listed, revoked, and made (the token shown this once). */
async function deviceTokens(zone) {
  const list = h('ul', { class: 'tokens' });
  const line = status();
  async function refresh() {
    const { deviceTokens: tokens = [] } = await call('Auth.ListDeviceTokens');
    list.replaceChildren(...(tokens.length ? tokens.map((token) => h('li', {},
      h('strong', {}, token.name), ' ',
      h('span', { class: 'muted' }, (token.scopes || []).map((scope) => f.enumName(scope, 'TOKEN_SCOPE_')).join(', '),
        ` · made ${f.date(token.createdAtMs, zone)} · `, token.lastUsedAtMs ? `last used ${f.dateTime(token.lastUsedAtMs, zone)}` : 'never used'), ' ',
      h('button', { type: 'button', class: 'secondary', 'aria-label': `Revoke ${token.name}`, onclick: async () => {
        await call('Auth.RevokeDeviceToken', { tokenId: token.tokenId });
        line.textContent = `${token.name} revoked: it stops working at once.`;
        await refresh();
      } }, 'Revoke'))) : [h('li', { class: 'muted' }, 'No device tokens.')]));
  }
  const shown = h('output', { class: 'token', 'aria-live': 'polite' });
  const form = h('form', { 'aria-label': 'New device token' },
    field('Name', h('input', { name: 'name', required: true, maxlength: 64, autocomplete: 'off' }), 'e.g. Home Assistant'),
    h('fieldset', {}, h('legend', {}, 'What it may do'),
      SCOPES.map(([value, label]) => h('div', { class: 'check' },
        h('input', { type: 'checkbox', name: 'scope', value, id: `scope-${value}` }),
        h('label', { for: `scope-${value}` }, label)))),
    h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Make token')),
    shown);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    line.className = 'status';
    try {
      const made = await call('Auth.CreateDeviceToken', { name: data.get('name').trim(), scopes: data.getAll('scope') });
      shown.replaceChildren(h('p', {}, 'Copy it now: it is not shown again. Send it as “Authorization: Bearer …”.'),
        h('input', { readonly: true, value: made.token, 'aria-label': 'The new token', class: 'token-value' }));
      form.reset();
      await refresh();
    } catch (error) {
      line.className = 'status error';
      line.textContent = error.message;
    }
  });
  await refresh();
  return [list, line, form];
}

/** The screens by their address (#today …), in the navigation's order. */
export const screens = {
  today: { title: 'Today', render: today, live: true },
  week: { title: 'Week', render: week, live: true },
  weight: { title: 'Weight', render: weight, live: true },
  history: { title: 'History', render: history, live: true },
  achievements: { title: 'Achievements', render: achievements, live: true },
  household: { title: 'Household', render: household, live: true },
  log: { title: 'Log', render: log, live: false },
  profile: { title: 'Profile', render: profile, live: false },
};
