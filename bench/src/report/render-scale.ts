import type { ScalePoint } from '../bench-results.js';
import { formatCount, formatFixed, markdownTable } from './format.js';

export function renderScale(points: readonly ScalePoint[]): string {
  if (points.length === 0) return 'No point of the scale curve fitted in this run.';
  return markdownTable(
    [
      'link base',
      'known URLs',
      'new pages',
      'pages/s',
      'CPU ms / page (crawler)',
      'CPU ms / page (stack services)',
      'peak RSS MB',
      'pre-fill s',
      'open s',
      'load',
    ],
    points.map((point) => [
      point.mode === 'embedded' ? 'embedded (file)' : 'Elasticsearch (stack)',
      formatCount(point.knownUrls),
      formatCount(point.pages),
      formatCount(point.pagesPerSecond),
      point.cpuMsPerPage.toFixed(2),
      point.stackCpuMsPerPage === undefined ? '' : point.stackCpuMsPerPage.toFixed(2),
      formatCount(point.peakRssMb),
      formatFixed(1)(point.prefillSeconds),
      formatFixed(1)(point.openSeconds),
      point.loadAverage.toFixed(1),
    ]),
  );
}
