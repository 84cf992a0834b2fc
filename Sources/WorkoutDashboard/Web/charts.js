// Charts as SVG, drawn by this small code: grouped bars per day, and a line over time. Each
// mark carries a <title> (its value with the unit) and data-value for the tests; the SVG has an
// accessible name and a table beside it gives the same figures as text.

import { s } from './dom.js';

const WIDTH = 340;
const HEIGHT = 160;
const PAD = { top: 12, right: 8, bottom: 22, left: 8 };

/**
 * Bars: `labels` along the bottom, one group per label, one bar per series
 * (`{name, values, className, format}`). Answers the <svg>.
 */
export function bars({ title, labels, keys, series }) {
  const max = Math.max(1, ...series.flatMap((one) => one.values));
  const inner = WIDTH - PAD.left - PAD.right;
  const slot = inner / labels.length;
  const barWidth = Math.max(2, (slot - 6) / series.length);
  const height = HEIGHT - PAD.top - PAD.bottom;
  const chart = s('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'chart', role: 'img', 'aria-label': title });
  chart.append(s('title', {}, title));
  chart.append(s('line', { x1: PAD.left, x2: WIDTH - PAD.right, y1: HEIGHT - PAD.bottom, y2: HEIGHT - PAD.bottom, class: 'axis' }));
  labels.forEach((label, i) => {
    const x0 = PAD.left + i * slot + 3;
    series.forEach((one, j) => {
      const value = one.values[i] || 0;
      const barHeight = value > 0 ? Math.max(1, (value / max) * height) : 0;
      chart.append(s('rect', {
        x: (x0 + j * barWidth).toFixed(1), y: (HEIGHT - PAD.bottom - barHeight).toFixed(1),
        width: (barWidth - 1).toFixed(1), height: barHeight.toFixed(1), class: `bar ${one.className}`,
        'data-series': one.name, 'data-key': keys ? keys[i] : label, 'data-value': value,
      }, s('title', {}, `${label}: ${one.name} ${one.format(value)}`)));
    });
    chart.append(s('text', { x: (x0 + (slot - 6) / 2).toFixed(1), y: HEIGHT - 6, class: 'label', 'text-anchor': 'middle' }, label));
  });
  const peak = Math.max(0, ...series.flatMap((one) => one.values));
  chart.append(s('text', { x: WIDTH - PAD.right, y: PAD.top - 2, class: 'label', 'text-anchor': 'end' }, peak > 0 ? `max ${series[0].format(peak)}` : 'nothing yet'));
  return chart;
}

/**
 * A line through `points` (`{x: ms, y}`), x from `from` to `to`; the y axis spans the values
 * with a margin. `label(point)` names a point. Answers the <svg>.
 */
export function line({ title, points, from, to, format, label }) {
  const chart = s('svg', { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'chart', role: 'img', 'aria-label': title, 'data-points': points.length });
  chart.append(s('title', {}, title));
  if (points.length === 0) {
    chart.append(s('text', { x: WIDTH / 2, y: HEIGHT / 2, class: 'label', 'text-anchor': 'middle' }, 'No weigh-ins in this range'));
    return chart;
  }
  const ys = points.map((p) => p.y);
  let low = Math.min(...ys);
  let high = Math.max(...ys);
  const margin = Math.max(0.5, (high - low) * 0.15);
  low -= margin;
  high += margin;
  const left = PAD.left + 34;
  const xOf = (x) => left + ((x - from) / Math.max(1, to - from)) * (WIDTH - left - PAD.right);
  const yOf = (y) => PAD.top + (1 - (y - low) / (high - low)) * (HEIGHT - PAD.top - PAD.bottom);
  for (const y of [high - margin, low + margin]) {
    chart.append(s('line', { x1: left, x2: WIDTH - PAD.right, y1: yOf(y).toFixed(1), y2: yOf(y).toFixed(1), class: 'grid' }));
    chart.append(s('text', { x: left - 4, y: (yOf(y) + 4).toFixed(1), class: 'label', 'text-anchor': 'end' }, format(y)));
  }
  const path = points.map((p, i) => `${i ? 'L' : 'M'}${xOf(p.x).toFixed(1)},${yOf(p.y).toFixed(1)}`).join(' ');
  chart.append(s('path', { d: path, class: 'line' }));
  for (const p of points) {
    chart.append(s('circle', { cx: xOf(p.x).toFixed(1), cy: yOf(p.y).toFixed(1), r: 3, class: 'dot', 'data-value': p.y }, s('title', {}, label(p))));
  }
  return chart;
}
