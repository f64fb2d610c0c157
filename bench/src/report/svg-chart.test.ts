import { describe, expect, it } from 'vitest';
import { escapeXml, formatCompact, formatValue, horizontalBarChart, lineChart } from './svg-chart.js';

const barWidths = (svg: string) =>
  [...svg.matchAll(/class="bar" x="[\d.]+" y="[\d.]+" width="([\d.]+)"/g)].map((match) => Number(match[1]));

describe('horizontalBarChart', () => {
  it('draws one bar per value, longer for larger values, on a log scale too', () => {
    const svg = horizontalBarChart({
      title: 'pages/s',
      unit: 'pages per second',
      log: true,
      bars: [
        { label: 'raw', value: 10_000 },
        { label: 'ours', value: 1_000, accent: true },
        { label: 'peer', value: 100 },
      ],
    });
    const widths = barWidths(svg);
    expect(widths).toHaveLength(3);
    expect(widths[0]!).toBeGreaterThan(widths[1]!);
    expect(widths[1]!).toBeGreaterThan(widths[2]!);
    expect(svg).toContain('(log scale)');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
  });

  it('draws a whisker for a range and escapes labels', () => {
    const svg = horizontalBarChart({
      title: 'a <b> & "c"',
      unit: 'x',
      bars: [{ label: 'ours', value: 5, low: 4, high: 6 }],
    });
    expect(svg).toContain('<path d="M');
    expect(svg).toContain('a &lt;b&gt; &amp; &quot;c&quot;');
  });
});

describe('lineChart', () => {
  it('draws a line and a legend entry per series', () => {
    const svg = lineChart({
      title: 'cost',
      xLabel: 'known URLs',
      yLabel: 'ms',
      logX: true,
      series: [
        {
          name: 'embedded',
          points: [
            { x: 1_000, y: 1 },
            { x: 1_000_000, y: 1.2 },
          ],
        },
        { name: 'stack', points: [{ x: 1_000, y: 3 }] },
      ],
    });
    expect(svg.match(/class="series"/g)).toHaveLength(2);
    expect(svg).toContain('>embedded<');
    expect(svg).toContain('>1M<');
  });
});

describe('number formats', () => {
  it('keeps enough digits to compare', () => {
    expect(formatValue(12_345.6)).toBe('12,346');
    expect(formatValue(12.34)).toBe('12.3');
    expect(formatValue(0.0456)).toBe('0.046');
    expect(formatCompact(100_000)).toBe('100k');
    expect(escapeXml('<&>')).toBe('&lt;&amp;&gt;');
  });
});
