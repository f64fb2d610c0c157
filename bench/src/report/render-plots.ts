import type { BenchResults } from '../bench-results.js';
import { summarizePeers } from '../peer-summary.js';
import { horizontalBarChart, lineChart, type Series } from './svg-chart.js';

const OURS = new Set(['embedded', 'stack', 'services']);

/** The plots beside the page, by file name (docs/bench/<name>). Charts without data are left out. */
export function renderPlots(results: BenchResults): Record<string, string> {
  const plots: Record<string, string> = {};
  const label = (id: string) => results.peers.specs.find((spec) => spec.id === id)?.label ?? id;
  const summaries = summarizePeers(
    results.peers.specs.map((spec) => spec.id),
    results.peers.rounds,
  );
  const machine = `${results.machine.cpus} × ${results.machine.cpuModel}, Node ${results.machine.node}; absolute figures are machine-dependent`;
  if (summaries.length > 0) {
    plots['peers-throughput.svg'] = horizontalBarChart({
      title: `Pages/s on the same ${results.workload.pages.toLocaleString('en-US')}-page test web (median, range of rounds)`,
      unit: 'pages per second',
      log: true,
      bars: summaries.map((summary) => ({
        label: label(summary.peer),
        value: summary.pagesPerSecond.median,
        low: summary.pagesPerSecond.min,
        high: summary.pagesPerSecond.max,
        accent: OURS.has(summary.peer),
      })),
      note: machine,
    });
    plots['peers-cpu.svg'] = horizontalBarChart({
      title: 'CPU per page of the crawler process(es) (median, range of rounds)',
      unit: 'CPU ms per page',
      bars: summaries.map((summary) => ({
        label: label(summary.peer),
        value: summary.cpuSecondsPer1000.median,
        low: summary.cpuSecondsPer1000.min,
        high: summary.cpuSecondsPer1000.max,
        accent: OURS.has(summary.peer),
      })),
      note: 'the stack services (Kafka, Elasticsearch, Redis, HBase) are not included here; see the table',
    });
  }
  const measured = results.stages.filter((stage) => stage.status === 'measured');
  if (measured.length > 0) {
    plots['stages.svg'] = horizontalBarChart({
      title: 'Each stage against its physical limit (ours ÷ limit, same run)',
      unit: 'ratio to the limit (1 = as fast as the bare tool)',
      labelWidth: 330,
      bars: measured.map((stage) => ({ label: stage.short ?? stage.stage, value: stage.ratio!, accent: true })),
    });
  }
  const series = (pick: (point: BenchResults['scale'][number]) => number): Series[] =>
    (['embedded', 'stack'] as const)
      .map((mode) => ({
        name: mode === 'embedded' ? 'embedded (file)' : 'stack (Elasticsearch)',
        points: results.scale
          .filter((point) => point.mode === mode)
          .map((point) => ({ x: point.knownUrls, y: pick(point) })),
      }))
      .filter((entry) => entry.points.length > 0);
  if (results.scale.length > 0) {
    plots['scale-cpu.svg'] = lineChart({
      title: 'Crawler CPU per new page as the link base grows',
      xLabel: 'URLs already in the link base',
      yLabel: 'CPU ms per page',
      logX: true,
      series: series((point) => point.cpuMsPerPage),
      note: machine,
    });
    plots['scale-throughput.svg'] = lineChart({
      title: 'Pages/s on new pages as the link base grows',
      xLabel: 'URLs already in the link base',
      yLabel: 'pages per second',
      logX: true,
      series: series((point) => point.pagesPerSecond),
      note: machine,
    });
  }
  return plots;
}
