import { silentLogger, Topics, type FetchResult, type FingerprintStore, type StageContext } from '@crawler/core';
import { createRedisFingerprintStore } from '@crawler/redis';
import { deleteKeysWithPrefix, localRedisConfig } from '@crawler/redis/testing';
import { startTestWeb, type TestWeb } from '@crawler/testweb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRenderRig, frontierRequest, type RenderRig } from './render-test-kit.js';

describe.each(['standalone', 'cluster'] as const)('two rendering fetchers learning through Redis (%s)', (mode) => {
  const config = localRedisConfig(mode);
  let web: TestWeb;
  const stores: FingerprintStore[] = [];
  const rigs: RenderRig[] = [];
  /** A fetcher process of its own: its own Redis connection, browser and learning cache. */
  const fetcher = () => {
    const store = createRedisFingerprintStore(config, silentLogger());
    stores.push(store);
    const rig = createRenderRig({ renderLearnSamples: 3, renderPages: 1 }, store);
    rigs.push(rig);
    return async (url: string) => {
      const emissions = await rig.stage.handle(frontierRequest(url), {} as StageContext);
      return (emissions.find((e) => e.topic === Topics.fetched)!.value as FetchResult).meta.rendered === 'true'
        ? 'rendered'
        : 'plain';
    };
  };

  beforeAll(async () => {
    web = await startTestWeb({ profile: 'render' });
  });
  afterAll(async () => {
    for (const rig of rigs) await rig.close();
    for (const store of stores) await store.close();
    await web?.close();
    await deleteKeysWithPrefix(config);
  });

  it('share the samples of a site and the decision they lead to', async () => {
    const [first, second] = [fetcher(), fetcher()];
    const inert = web.groundTruth().rendering.inert;
    // The samples come from both fetchers; the decision the third one takes holds for both.
    expect(await first(inert[0]!)).toBe('rendered');
    expect(await second(inert[1]!)).toBe('rendered');
    expect(await first(inert[2]!)).toBe('rendered');
    expect(await second(inert[3]!)).toBe('plain');
    expect(await first(inert[4]!)).toBe('plain');
  });
});
