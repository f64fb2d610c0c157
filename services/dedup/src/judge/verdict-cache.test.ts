import { describe, expect, it } from 'vitest';
import { createDedupMetrics } from '../dedup-metrics.js';
import type { Judge } from './judge.js';
import { VerdictCache } from './verdict-cache.js';

const input = { url: 'http://a.test/', title: null, text: 'text', lang: null };

function countingJudge(
  answer: () => Promise<{ verdict: string; category: string | null; reasons: string[] }>,
): Judge & { calls: number } {
  const judge = { name: 'counting', calls: 0, judge: async () => (judge.calls++, answer()) };
  return judge;
}

describe('VerdictCache', () => {
  it('reuses a stored verdict and judges only content without one', async () => {
    const judge = countingJudge(async () => ({ verdict: 'harmful', category: 'weapons', reasons: ['pipe bomb'] }));
    const cache = new VerdictCache(judge, ['harmful'], createDedupMetrics(), null);
    expect(await cache.resolve('ok', input)).toEqual({
      label: 'ok',
      judged: false,
      judgement: { verdict: 'ok', category: null, reasons: [] },
    });
    expect(judge.calls).toBe(0);
    const fresh = await cache.resolve(null, input);
    expect(fresh).toMatchObject({ label: 'harmful:weapons', judged: true });
    expect(judge.calls).toBe(1);
    expect(cache.isHarmful(fresh.label)).toBe(true);
    expect(cache.isHarmful('ok')).toBe(false);
  });

  it('passes a page on unjudged when the judge fails, and when there is none', async () => {
    const failing = countingJudge(async () => {
      throw new Error('classifier down');
    });
    expect(await new VerdictCache(failing, ['harmful'], createDedupMetrics(), null).resolve(null, input)).toEqual({
      label: null,
      judged: false,
      judgement: null,
    });
    expect(await new VerdictCache(null, ['harmful'], createDedupMetrics(), null).resolve(null, input)).toEqual({
      label: null,
      judged: false,
      judgement: null,
    });
  });
});
