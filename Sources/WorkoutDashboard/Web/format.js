// Numbers with their units, and days and times in the member's profile zone.

const cache = new Map();
function formatter(locale, options) {
  const key = locale + JSON.stringify(options);
  if (!cache.has(key)) cache.set(key, new Intl.DateTimeFormat(locale, options));
  return cache.get(key);
}

const number = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

export const kcal = (value) => `${number.format(value || 0)} kcal`;
export const grams = (value) => `${decimal.format(value || 0)} g`;
export const kg = (value) => `${decimal.format(value || 0)} kg`;
export const steps = (value) => `${number.format(value || 0)} steps`;
export const points = (value) => `${number.format(Number(value || 0))} pts`;
export const count = (value) => number.format(Number(value || 0));
export const days = (value) => `${number.format(value || 0)} ${value === 1 ? 'day' : 'days'}`;

/** Seconds as "1 h 05 min" or "40 min". */
export function duration(seconds) {
  const minutes = Math.round(Number(seconds || 0) / 60);
  if (minutes < 60) return `${minutes} min`;
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** The calendar fields of `ms` in `zone`. */
export function partsIn(ms, zone) {
  const parts = {};
  const options = { timeZone: zone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' };
  for (const part of formatter('en-US', options).formatToParts(new Date(ms))) parts[part.type] = Number(part.value);
  return parts;
}

/** Today (a LocalDate: {year, month, day}) in `zone`. */
export function todayIn(zone, now = Date.now()) {
  const { year, month, day } = partsIn(now, zone);
  return { year, month, day };
}

/** `date` plus `count` days. */
export function addDays(date, count) {
  const d = new Date(Date.UTC(date.year, date.month - 1, date.day + count));
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

export const sameDay = (a, b) => !!a && !!b && a.year === b.year && a.month === b.month && a.day === b.day;

/** The instant of a wall-clock time in `zone` (two passes settle any offset change). */
export function zonedToMs(year, month, day, hour = 0, minute = 0, zone = 'UTC') {
  const wall = Date.UTC(year, month - 1, day, hour, minute);
  let guess = wall;
  for (let i = 0; i < 2; i++) {
    const p = partsIn(guess, zone);
    const shown = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
    guess += wall - shown;
  }
  return guess;
}

/** The first millisecond of `date` in `zone`. */
export const startOfDay = (date, zone) => zonedToMs(date.year, date.month, date.day, 0, 0, zone);

/** `ms` as a `datetime-local` input's value, in `zone`. */
export function inputValue(ms, zone) {
  const p = partsIn(ms, zone);
  const two = (n) => String(n).padStart(2, '0');
  return `${p.year}-${two(p.month)}-${two(p.day)}T${two(p.hour)}:${two(p.minute)}`;
}

/** A `datetime-local` input's value, read in `zone`. */
export function fromInputValue(value, zone) {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value);
  if (!m) return Date.now();
  return zonedToMs(+m[1], +m[2], +m[3], +m[4], +m[5], zone);
}

/** A LocalDate as "Thu 26 Nov" (or with the year when `long`). */
export function localDate(date, long = false) {
  const options = long
    ? { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }
    : { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' };
  return formatter(undefined, options).format(new Date(Date.UTC(date.year, date.month - 1, date.day)));
}

/** An instant as a time of day in `zone`. */
export const time = (ms, zone) => formatter(undefined, { timeZone: zone, hour: 'numeric', minute: '2-digit' }).format(new Date(Number(ms)));

/** An instant as day and time in `zone`. */
export const dateTime = (ms, zone) => formatter(undefined, { timeZone: zone, dateStyle: 'medium', timeStyle: 'short' }).format(new Date(Number(ms)));

/** An instant as a day in `zone`. */
export const date = (ms, zone) => formatter(undefined, { timeZone: zone, dateStyle: 'medium' }).format(new Date(Number(ms)));

/** "MEAL_TYPE_LUNCH" as "Lunch". */
export function enumName(value, prefix) {
  const rest = String(value || '').replace(prefix, '').toLowerCase().replace(/_/g, ' ');
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}
