import { describe, expect, it } from 'vitest';
import { KeySequencer } from './key-sequencer.js';

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

describe('KeySequencer', () => {
  it('runs work of one key in arrival order, each after the one before has finished', async () => {
    const sequencer = new KeySequencer();
    const events: string[] = [];
    const first = deferred();
    const a = sequencer.run('u', async () => {
      events.push('a start');
      await first.promise;
      events.push('a end');
    });
    const b = sequencer.run('u', async () => {
      events.push('b start');
    });
    await Promise.resolve();
    await Promise.resolve();
    expect(events).toEqual(['a start']);
    first.resolve();
    await Promise.all([a, b]);
    expect(events).toEqual(['a start', 'a end', 'b start']);
    expect(sequencer.size).toBe(0);
  });

  it('lets other keys and keyless work run alongside, and goes on after a failure', async () => {
    const sequencer = new KeySequencer();
    const held = deferred();
    const events: string[] = [];
    const a = sequencer.run('u', async () => {
      await held.promise;
      throw new Error('boom');
    });
    await sequencer.run('v', async () => void events.push('v'));
    await sequencer.run(null, async () => void events.push('keyless'));
    const c = sequencer.run('u', async () => void events.push('u again'));
    expect(events).toEqual(['v', 'keyless']);
    held.resolve();
    await expect(a).rejects.toThrow('boom');
    await c;
    expect(events).toEqual(['v', 'keyless', 'u again']);
    expect(sequencer.size).toBe(0);
  });
});
