import { Codec, createLogger, parseCrawlJob } from '@crawler/core';
import { InProcessBus } from '@crawler/embedded';
import { describe, expect, it } from 'vitest';
import { loadLinkextractConfig } from './config.js';
import type { FrameFetcher } from './frame-splicing.js';
import { createLinkextractService } from './linkextract-service.js';

function build(spliceFrames: boolean, frames?: FrameFetcher) {
  const lines: string[] = [];
  const logger = createLogger('test', { destination: { write: (line: string) => void lines.push(line) } });
  const bus = new InProcessBus();
  createLinkextractService(
    loadLinkextractConfig({ env: {} }),
    parseCrawlJob({ extraction: { spliceFrames } }),
    { bus, producer: bus.producer(), codec: new Codec() },
    logger,
    frames ? { frames } : {},
  );
  return lines.map((line) => JSON.parse(line) as { level: string; msg: string });
}

describe('link extraction service', () => {
  it('says at start that a job asking for frame splicing gets none when no frame fetcher backs it', () => {
    const warned = build(true).filter((line) => line.level === 'warn');
    expect(warned).toHaveLength(1);
    expect(warned[0]!.msg).toMatch(/frame splicing .* frames are followed as links and not spliced/);
    expect(build(false)).toEqual([]);
    expect(build(true, { fetchFrame: async () => null })).toEqual([]);
  });
});
