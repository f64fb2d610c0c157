import type { StageComparison } from '../bench-results.js';
import { formatCount, formatRatio, markdownTable } from './format.js';

/** One row per comparison; gaps and failures stay in the table, marked, with the reason. */
export function renderStages(stages: readonly StageComparison[]): string {
  return markdownTable(
    ['stage', 'ours', 'physical limit', 'ratio', 'notes'],
    stages.map((stage) => {
      if (stage.status !== 'measured')
        return [
          stage.stage,
          `**${stage.status === 'gap' ? 'GAP' : 'FAILED'}**`,
          '',
          '',
          (stage.note ?? '').split('\n')[0]!,
        ];
      const notes = [stage.note, stage.loadAverage === undefined ? undefined : `load ${stage.loadAverage.toFixed(1)}`]
        .filter(Boolean)
        .join('; ');
      return [
        stage.stage,
        `${formatCount(stage.ours!.perSecond)} ${stage.ours!.what}`,
        `${formatCount(stage.limit!.perSecond)} ${stage.limit!.what}`,
        formatRatio(stage.ratio!),
        notes,
      ];
    }),
  );
}
