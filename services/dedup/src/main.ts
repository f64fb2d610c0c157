#!/usr/bin/env node
import { runService } from '@crawler/core';
import { composeDedup } from './compose-dedup.js';

void runService('dedup', composeDedup);
