#!/usr/bin/env node
import { portSettings } from '@crawler/adapters';
import { runService } from '@crawler/core';
import { composeLinkextract } from './compose-linkextract.js';
import { loadLinkextractConfig, linkextractSettings } from './config.js';

void runService({
  name: 'linkextract',
  settings: [
    {
      name: 'linkextract',
      title: 'linkextract',
      spec: linkextractSettings,
      check: (_runtime, env) => void loadLinkextractConfig({ env }),
    },
    ...portSettings(['bus']),
  ],
  start: composeLinkextract,
});
