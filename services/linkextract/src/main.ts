#!/usr/bin/env node
import { runService } from '@crawler/core';
import { composeLinkextract } from './compose-linkextract.js';

void runService('linkextract', composeLinkextract);
