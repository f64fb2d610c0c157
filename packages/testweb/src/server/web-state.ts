import type { WebModel } from '../model/web-model.js';
import { computeGroundTruth } from '../truth/compute-ground-truth.js';
import type { GroundTruth } from '../truth/ground-truth.js';
import { createPageRenderer, type PageRenderer } from './page-renderer.js';
import { createRequestLog, type RequestRecorder } from './request-log.js';

/** Mutable state shared by every host's handler. */
export interface WebState {
  readonly web: WebModel;
  round: number;
  readonly log: RequestRecorder;
  /** Failures already served per flaky URL in this round. */
  readonly flakyServed: Map<string, number>;
  readonly renderer: PageRenderer;
  /** Timers of slow and endless responses, cleared on close. */
  readonly timers: Set<NodeJS.Timeout>;
  truth(): GroundTruth;
}

export function createWebState(web: WebModel): WebState {
  let cached: GroundTruth | undefined;
  const state: WebState = {
    web,
    round: 0,
    log: createRequestLog(),
    flakyServed: new Map(),
    renderer: createPageRenderer(web.seed),
    timers: new Set(),
    truth() {
      if (cached?.round !== state.round) cached = computeGroundTruth(web, state.round);
      return cached;
    },
  };
  return state;
}
