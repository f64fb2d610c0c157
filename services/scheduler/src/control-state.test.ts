import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileLinkBase } from '@crawler/embedded';
import { describe, expect, it } from 'vitest';
import { ControlState } from './control-state.js';

describe('ControlState', () => {
  it('pauses and resumes jobs and queues, keeps added jobs, and survives a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'control-'));
    const first = await FileLinkBase.open(dir);
    const control = new ControlState(first);
    await control.load();
    await Promise.all([
      control.setJobPaused('j1', true),
      control.setQueuePaused('a.test', true),
      control.setQueuePaused('b.test', true),
      control.saveJob({ id: 'j2' }),
    ]);
    await control.setQueuePaused('b.test', false);
    await control.saveJob({ id: 'j2', seeds: ['http://c.test/'] } as { id: string });
    expect(control.exclude()).toEqual({ queues: ['a.test'], jobs: ['j1'] });
    expect([control.isJobPaused('j1'), control.isQueuePaused('b.test')]).toEqual([true, false]);
    await first.close();
    const second = await FileLinkBase.open(dir);
    const reloaded = new ControlState(second);
    expect(await reloaded.load()).toEqual({
      pausedJobs: ['j1'],
      pausedQueues: ['a.test'],
      jobs: [{ id: 'j2', seeds: ['http://c.test/'] }],
    });
    await second.close();
    rmSync(dir, { recursive: true, force: true });
  });
});
