// The logging forms (a workout, a meal with its items, a weigh-in, steps), used to log and to
// edit, and the two-step delete button.

import { call } from './api.js';
import { h, field, status } from './dom.js';
import { app } from './state.js';
import { inputValue, fromInputValue, todayIn, enumName } from './format.js';

const MEAL_TYPES = ['MEAL_TYPE_BREAKFAST', 'MEAL_TYPE_LUNCH', 'MEAL_TYPE_DINNER', 'MEAL_TYPE_SNACK', 'MEAL_TYPE_OTHER'];
const WORKOUT_TYPES = ['running', 'cycling', 'walking', 'strength', 'yoga', 'swimming', 'hiit'];

function input(attributes) {
  return h('input', attributes);
}

function numberInput(name, value, attributes = {}) {
  return input({ type: 'number', name, inputmode: 'decimal', step: 'any', min: 0, value: value ?? '', ...attributes });
}

function whenInput(ms) {
  return input({ type: 'datetime-local', name: 'when', required: true, value: inputValue(ms ?? Date.now(), app.zone) });
}

function actions(submitLabel, onCancel) {
  return h('div', { class: 'actions' },
    h('button', { type: 'submit' }, submitLabel),
    onCancel ? h('button', { type: 'button', class: 'secondary', onclick: onCancel }, 'Cancel') : null);
}

/** Runs `work` when `form` is submitted, reporting success or the server's message. */
function submitting(form, work, doneMessage) {
  const line = status();
  form.append(line);
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = form.querySelector('button[type=submit]');
    button.disabled = true;
    line.className = 'status';
    line.textContent = 'Saving…';
    try {
      await work(new FormData(form));
      line.textContent = doneMessage;
    } catch (error) {
      line.className = 'status error';
      line.textContent = error.message;
    } finally {
      button.disabled = false;
    }
  });
  return form;
}

const num = (data, name) => Number(data.get(name) || 0);

/** A form logging a workout, or editing `existing`; calls `done(response)` after. */
export function workoutForm(existing, done, onCancel) {
  const w = existing || {};
  const form = h('form', { class: existing ? 'editing' : '', 'aria-label': existing ? 'Edit workout' : 'Log a workout' },
    field('Type', input({ name: 'type', required: true, maxlength: 64, list: 'workout-types', value: w.workoutType || '', autocomplete: 'off' })),
    h('datalist', { id: 'workout-types' }, WORKOUT_TYPES.map((type) => h('option', { value: type }))),
    h('div', { class: 'row' },
      field('Duration (min)', numberInput('minutes', w.durationSeconds ? Math.round(w.durationSeconds / 60) : '', { required: true, min: 1, max: 1440, step: 1 })),
      field('Calories burned (kcal)', numberInput('calories', w.caloriesBurned ?? '', { max: 20000 }))),
    h('div', { class: 'row' },
      field('Exercises', numberInput('exercises', w.exercisesCompleted ?? '', { max: 1000, step: 1 })),
      field('When', whenInput(w.performedAtMs ? Number(w.performedAtMs) : undefined))),
    field('Notes', h('textarea', { name: 'notes', maxlength: 1000, rows: 2 }, w.notes || '')),
    actions(existing ? 'Save workout' : 'Log workout', onCancel));
  return submitting(form, async (data) => {
    const workout = {
      workoutType: data.get('type').trim(),
      durationSeconds: Math.round(num(data, 'minutes') * 60),
      caloriesBurned: num(data, 'calories'),
      exercisesCompleted: Math.round(num(data, 'exercises')),
      performedAtMs: String(fromInputValue(data.get('when'), existing?.timeZone || app.zone)),
      notes: data.get('notes'),
    };
    let response;
    if (existing) {
      response = await call('Logging.UpdateWorkout', { workout: { ...workout, id: w.id, timeZone: w.timeZone }, expectedRevision: w.revision });
    } else {
      response = await call('Logging.LogWorkout', { workout }, { idempotent: true });
      form.reset();
    }
    if (response.totals) app.totals = response.totals;
    done?.(response);
  }, existing ? 'Saved.' : 'Workout logged.');
}

function itemRow(item, rows) {
  const index = rows.children.length + 1;
  const row = h('fieldset', { class: 'item' },
    h('legend', {}, `Item ${index}`),
    field('Food', input({ name: 'item-name', required: true, maxlength: 128, value: item.name || '', autocomplete: 'off' })),
    h('div', { class: 'row' },
      field('Energy (kcal)', numberInput('item-calories', item.calories ?? '', { required: true, max: 10000 })),
      field('Servings', numberInput('item-servings', item.servings || '', { max: 100 }))),
    h('div', { class: 'row three' },
      field('Protein (g)', numberInput('item-protein', item.proteinG ?? '', { max: 1000 })),
      field('Carbs (g)', numberInput('item-carbs', item.carbsG ?? '', { max: 1000 })),
      field('Fat (g)', numberInput('item-fat', item.fatG ?? '', { max: 1000 }))));
  row.append(h('button', {
    type: 'button', class: 'secondary small', 'aria-label': `Remove item ${index}`,
    onclick: () => { row.remove(); renumber(rows); },
  }, 'Remove item'));
  rows.append(row);
}

function renumber(rows) {
  [...rows.children].forEach((row, i) => {
    row.querySelector('legend').textContent = `Item ${i + 1}`;
    row.querySelector('button').setAttribute('aria-label', `Remove item ${i + 1}`);
  });
}

/** A form logging a meal with its items, or editing `existing`. */
export function mealForm(existing, done, onCancel) {
  const m = existing || {};
  const rows = h('div', { class: 'items' });
  for (const item of m.items?.length ? m.items : [{}]) itemRow(item, rows);
  const type = h('select', { name: 'type', required: true },
    MEAL_TYPES.map((value) => h('option', { value, selected: value === (m.mealType || defaultMealType()) }, enumName(value, 'MEAL_TYPE_'))));
  const form = h('form', { class: existing ? 'editing' : '', 'aria-label': existing ? 'Edit meal' : 'Log a meal' },
    h('div', { class: 'row' }, field('Meal', type), field('When', whenInput(m.eatenAtMs ? Number(m.eatenAtMs) : undefined))),
    field('Name (optional)', input({ name: 'name', maxlength: 128, value: m.name || '', autocomplete: 'off' })),
    rows,
    h('button', { type: 'button', class: 'secondary', onclick: () => itemRow({}, rows) }, 'Add item'),
    actions(existing ? 'Save meal' : 'Log meal', onCancel));
  return submitting(form, async (data) => {
    const all = (name) => data.getAll(name);
    const items = all('item-name').map((name, i) => ({
      name: name.trim(),
      calories: Number(all('item-calories')[i] || 0),
      servings: Number(all('item-servings')[i] || 0),
      proteinG: Number(all('item-protein')[i] || 0),
      carbsG: Number(all('item-carbs')[i] || 0),
      fatG: Number(all('item-fat')[i] || 0),
    }));
    const meal = {
      mealType: data.get('type'),
      eatenAtMs: String(fromInputValue(data.get('when'), existing?.timeZone || app.zone)),
      name: data.get('name').trim(),
      items,
    };
    let response;
    if (existing) {
      response = await call('Logging.UpdateMeal', { meal: { ...meal, id: m.id, timeZone: m.timeZone }, expectedRevision: m.revision });
    } else {
      response = await call('Logging.LogMeal', { meal }, { idempotent: true });
      form.reset();
      rows.replaceChildren();
      itemRow({}, rows);
    }
    done?.(response);
  }, existing ? 'Saved.' : 'Meal logged.');
}

function defaultMealType() {
  const hour = new Date().getHours();
  if (hour < 10) return 'MEAL_TYPE_BREAKFAST';
  if (hour < 15) return 'MEAL_TYPE_LUNCH';
  if (hour < 21) return 'MEAL_TYPE_DINNER';
  return 'MEAL_TYPE_SNACK';
}

/** A form logging a weigh-in, or editing `existing`. */
export function weightForm(done, existing, onCancel) {
  const e = existing || {};
  const form = h('form', { class: existing ? 'editing' : '', 'aria-label': existing ? 'Edit weigh-in' : 'Log a weigh-in' },
    h('div', { class: 'row' },
      field('Weight (kg)', numberInput('weight', e.weightKg || app.profile?.weightKg || '', { required: true, min: 10, max: 500 })),
      field('When', whenInput(e.measuredAtMs ? Number(e.measuredAtMs) : undefined))),
    field('Note (optional)', input({ name: 'note', maxlength: 256, autocomplete: 'off', value: e.note || '' })),
    actions(existing ? 'Save weigh-in' : 'Log weigh-in', onCancel));
  return submitting(form, async (data) => {
    const entry = { weightKg: num(data, 'weight'), measuredAtMs: String(fromInputValue(data.get('when'), e.timeZone || app.zone)), note: data.get('note').trim() };
    const response = existing
      ? await call('Logging.UpdateWeight', { entry: { ...entry, id: e.id, timeZone: e.timeZone }, expectedRevision: e.revision })
      : await call('Logging.LogWeight', { entry }, { idempotent: true });
    done?.(response);
  }, existing ? 'Saved.' : 'Weigh-in logged.');
}

/** A form reporting a day's steps (one figure per day and source; a later one replaces it). */
export function stepsForm(done) {
  const today = todayIn(app.zone);
  const two = (n) => String(n).padStart(2, '0');
  const form = h('form', { 'aria-label': 'Report steps' },
    h('div', { class: 'row' },
      field('Steps', numberInput('steps', '', { required: true, max: 200000, step: 1 })),
      field('Day', input({ type: 'date', name: 'day', required: true, value: `${today.year}-${two(today.month)}-${two(today.day)}` }))),
    field('Counted by', input({ name: 'source', required: true, maxlength: 64, value: 'manual', autocomplete: 'off' }), 'The day’s figure per device; a new one replaces it.'),
    actions('Report steps'));
  return submitting(form, async (data) => {
    const [year, month, day] = data.get('day').split('-').map(Number);
    const report = { day: { year, month, day }, source: data.get('source').trim(), steps: Math.round(num(data, 'steps')), reportedAtMs: String(Date.now()) };
    const response = await call('Logging.ReportSteps', { report });
    done?.(response);
  }, 'Steps reported.');
}

/** A button that asks once more before `action` runs. */
export function deleteButton(what, action) {
  let armed = false;
  const button = h('button', { type: 'button', class: 'danger small', 'aria-label': `Delete ${what}` }, 'Delete');
  button.addEventListener('click', async () => {
    if (!armed) {
      armed = true;
      button.textContent = 'Confirm delete';
      setTimeout(() => { armed = false; if (button.isConnected) button.textContent = 'Delete'; }, 4000);
      return;
    }
    button.disabled = true;
    try {
      await action();
    } catch (error) {
      button.disabled = false;
      button.textContent = 'Delete failed';
      button.title = error.message;
    }
  });
  return button;
}
