/**
 * Two small SVG charts for the benchmarks page, written by hand so the plots need no dependency
 * and diff as text: horizontal bars (optionally on a log scale, with a range whisker) and lines.
 */
export interface Bar {
  label: string;
  value: number;
  /** Range of the runs behind the value, drawn as a whisker. */
  low?: number;
  high?: number;
  /** Drawn in the accent colour (our crawler). */
  accent?: boolean;
}

export interface Series {
  name: string;
  points: { x: number; y: number }[];
}

const FONT = 'font-family="system-ui, -apple-system, Segoe UI, sans-serif"';
const PALETTE = ['#2563eb', '#dc2626', '#059669', '#d97706', '#7c3aed'];

export function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** 1,234 / 12.3 / 0.123: enough digits to compare, no more. */
export function formatValue(value: number): string {
  if (value >= 100) return Math.round(value).toLocaleString('en-US');
  if (value >= 10) return value.toFixed(1);
  return value.toPrecision(2);
}

/** 1k, 10k, 1M for axis ticks. */
export function formatCompact(value: number): string {
  if (value >= 1e6) return `${value / 1e6}M`;
  if (value >= 1e3) return `${value / 1e3}k`;
  return String(value);
}

function niceMax(value: number): number {
  const power = 10 ** Math.floor(Math.log10(value || 1));
  return [1, 2, 2.5, 5, 10].map((step) => step * power).find((candidate) => candidate >= value)!;
}

function svg(width: number, height: number, body: string[]): string {
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ${FONT} font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    ...body,
    '</svg>',
    '',
  ].join('\n');
}

export function horizontalBarChart(options: {
  title: string;
  unit: string;
  bars: Bar[];
  log?: boolean;
  note?: string;
  labelWidth?: number;
}): string {
  const labelWidth = options.labelWidth ?? 270;
  const area = 400;
  const rowHeight = 28;
  const top = 44;
  const width = labelWidth + area + 110;
  const height = top + options.bars.length * rowHeight + 44 + (options.note ? 16 : 0);
  const values = options.bars.flatMap((bar) => [bar.value, bar.high ?? bar.value]).filter((value) => value > 0);
  const max = Math.max(...values, 1e-9);
  const min = Math.min(
    ...options.bars.flatMap((bar) => [bar.value, bar.low ?? bar.value]).filter((value) => value > 0),
    max,
  );
  const [lo, hi] = options.log
    ? [10 ** Math.floor(Math.log10(min)), 10 ** Math.ceil(Math.log10(max))]
    : [0, niceMax(max)];
  const x = (value: number) =>
    labelWidth +
    (options.log
      ? ((Math.log10(Math.max(value, lo)) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * area
      : (value / hi) * area);
  const ticks = options.log
    ? Array.from({ length: Math.round(Math.log10(hi / lo)) + 1 }, (_, i) => lo * 10 ** i)
    : Array.from({ length: 5 }, (_, i) => (hi / 4) * i);
  const bottom = top + options.bars.length * rowHeight;
  const body = [`<text x="12" y="24" font-size="15" font-weight="600">${escapeXml(options.title)}</text>`];
  for (const tick of ticks) {
    body.push(
      `<line x1="${x(tick).toFixed(1)}" y1="${top - 6}" x2="${x(tick).toFixed(1)}" y2="${bottom}" stroke="#e5e7eb"/>`,
    );
    body.push(
      `<text x="${x(tick).toFixed(1)}" y="${bottom + 16}" text-anchor="middle" fill="#6b7280">${formatCompact(tick)}</text>`,
    );
  }
  body.push(
    `<text x="${labelWidth + area / 2}" y="${bottom + 34}" text-anchor="middle" fill="#374151">${escapeXml(options.unit)}${options.log ? ' (log scale)' : ''}</text>`,
  );
  options.bars.forEach((bar, i) => {
    const y = top + i * rowHeight;
    const end = x(bar.value);
    body.push(`<text x="${labelWidth - 8}" y="${y + 17}" text-anchor="end">${escapeXml(bar.label)}</text>`);
    body.push(
      `<rect class="bar" x="${labelWidth}" y="${y + 5}" width="${Math.max(1, end - labelWidth).toFixed(1)}" height="${rowHeight - 10}" fill="${bar.accent ? PALETTE[0] : '#9ca3af'}"/>`,
    );
    if (bar.low !== undefined && bar.high !== undefined && bar.high > bar.low) {
      const [a, b, mid] = [x(bar.low).toFixed(1), x(bar.high).toFixed(1), y + rowHeight / 2];
      body.push(
        `<path d="M${a} ${mid}H${b}M${a} ${mid - 5}V${mid + 5}M${b} ${mid - 5}V${mid + 5}" stroke="#111827" fill="none"/>`,
      );
    }
    body.push(
      `<text x="${(Math.max(end, x(bar.high ?? bar.value)) + 6).toFixed(1)}" y="${y + 17}">${formatValue(bar.value)}</text>`,
    );
  });
  if (options.note) body.push(`<text x="12" y="${height - 10}" fill="#6b7280">${escapeXml(options.note)}</text>`);
  return svg(width, height, body);
}

export function lineChart(options: {
  title: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  logX?: boolean;
  note?: string;
}): string {
  const [width, height] = [780, 380];
  const [left, right, top, bottom] = [70, 180, 44, height - 76];
  const points = options.series.flatMap((series) => series.points);
  const xs = points.map((point) => point.x);
  const [xLo, xHi] = options.logX
    ? [10 ** Math.floor(Math.log10(Math.min(...xs))), 10 ** Math.ceil(Math.log10(Math.max(...xs)))]
    : [0, niceMax(Math.max(...xs))];
  const yHi = niceMax(Math.max(...points.map((point) => point.y), 1e-9));
  const x = (value: number) =>
    left +
    (options.logX
      ? (Math.log10(value / xLo) / Math.log10(xHi / xLo)) * (width - left - right)
      : (value / xHi) * (width - left - right));
  const y = (value: number) => bottom - (value / yHi) * (bottom - top);
  const body = [`<text x="12" y="24" font-size="15" font-weight="600">${escapeXml(options.title)}</text>`];
  const xTicks = options.logX
    ? Array.from({ length: Math.round(Math.log10(xHi / xLo)) + 1 }, (_, i) => xLo * 10 ** i)
    : Array.from({ length: 5 }, (_, i) => (xHi / 4) * i);
  for (const tick of xTicks) {
    body.push(
      `<line x1="${x(tick).toFixed(1)}" y1="${top}" x2="${x(tick).toFixed(1)}" y2="${bottom}" stroke="#e5e7eb"/>`,
    );
    body.push(
      `<text x="${x(tick).toFixed(1)}" y="${bottom + 16}" text-anchor="middle" fill="#6b7280">${formatCompact(tick)}</text>`,
    );
  }
  for (let i = 0; i <= 4; i++) {
    const tick = (yHi / 4) * i;
    body.push(
      `<line x1="${left}" y1="${y(tick).toFixed(1)}" x2="${width - right}" y2="${y(tick).toFixed(1)}" stroke="#e5e7eb"/>`,
    );
    body.push(
      `<text x="${left - 6}" y="${(y(tick) + 4).toFixed(1)}" text-anchor="end" fill="#6b7280">${formatValue(tick)}</text>`,
    );
  }
  body.push(
    `<text x="${(left + width - right) / 2}" y="${bottom + 36}" text-anchor="middle" fill="#374151">${escapeXml(options.xLabel)}${options.logX ? ' (log scale)' : ''}</text>`,
  );
  body.push(
    `<text transform="translate(18 ${(top + bottom) / 2}) rotate(-90)" text-anchor="middle" fill="#374151">${escapeXml(options.yLabel)}</text>`,
  );
  options.series.forEach((series, i) => {
    const colour = PALETTE[i % PALETTE.length];
    const path = series.points.map((point) => `${x(point.x).toFixed(1)},${y(point.y).toFixed(1)}`).join(' ');
    body.push(`<polyline class="series" points="${path}" fill="none" stroke="${colour}" stroke-width="2"/>`);
    for (const point of series.points)
      body.push(`<circle cx="${x(point.x).toFixed(1)}" cy="${y(point.y).toFixed(1)}" r="3.5" fill="${colour}"/>`);
    body.push(`<rect x="${width - right + 16}" y="${top + i * 20}" width="12" height="12" fill="${colour}"/>`);
    body.push(`<text x="${width - right + 34}" y="${top + i * 20 + 10}">${escapeXml(series.name)}</text>`);
  });
  if (options.note) body.push(`<text x="12" y="${height - 10}" fill="#6b7280">${escapeXml(options.note)}</text>`);
  return svg(width, height, body);
}
