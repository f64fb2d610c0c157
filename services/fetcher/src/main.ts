#!/usr/bin/env node
import { runService } from '@crawler/core';
import { composeFetcher } from './compose-fetcher.js';

void runService('fetcher', composeFetcher);
