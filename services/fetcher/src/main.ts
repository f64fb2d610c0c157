#!/usr/bin/env node
import { portSettings } from '@crawler/adapters';
import { runService } from '@crawler/core';
import { composeFetcher } from './compose-fetcher.js';
import { loadFetcherConfig, fetcherSettings } from './config.js';

void runService({
  name: 'fetcher',
  settings: [
    {
      name: 'fetcher',
      title: 'fetcher',
      spec: fetcherSettings,
      check: (_runtime, env) => void loadFetcherConfig({ env }),
    },
    ...portSettings(['bus', 'fingerprints']),
  ],
  start: composeFetcher,
});
