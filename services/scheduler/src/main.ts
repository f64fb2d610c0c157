#!/usr/bin/env node
import { portSettings } from '@crawler/adapters';
import { runService } from '@crawler/core';
import { composeScheduler } from './compose-scheduler.js';
import { loadSchedulerConfig, schedulerSettings } from './config.js';

void runService({
  name: 'scheduler',
  settings: [
    {
      name: 'scheduler',
      title: 'scheduler',
      spec: schedulerSettings,
      check: (_runtime, env) => void loadSchedulerConfig({ env }),
    },
    ...portSettings(['bus', 'linkbase']),
  ],
  start: composeScheduler,
});
