#!/usr/bin/env node
import { portSettings } from '@crawler/adapters';
import { runService } from '@crawler/core';
import { composeDedup } from './compose-dedup.js';
import { loadDedupConfig, dedupSettings } from './config.js';

void runService({
  name: 'dedup',
  settings: [
    { name: 'dedup', title: 'dedup', spec: dedupSettings, check: (_runtime, env) => void loadDedupConfig({ env }) },
    ...portSettings(['bus', 'fingerprints', 'pageStore']),
  ],
  start: composeDedup,
});
