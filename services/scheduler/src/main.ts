#!/usr/bin/env node
import { runService } from '@crawler/core';
import { composeScheduler } from './compose-scheduler.js';

void runService('scheduler', composeScheduler);
