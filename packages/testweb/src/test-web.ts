import { InvalidOptionsError } from './errors.js';
import { buildWebModel } from './model/build-web.js';
import { resolveOptions, type TestWebOptions } from './options.js';
import { createRequestHandler } from './server/handle-request.js';
import { closeServer, listenHosts } from './server/listen-hosts.js';
import type { DetectionThresholds, DetectionVerdict } from './detection/crawler-classifier.js';
import type { BlockAnswer } from './hosts/guarded-host.js';
import type { RequestLog } from './server/request-log.js';
import { createWebState } from './server/web-state.js';
import type { GroundTruth } from './truth/ground-truth.js';

export interface TestWeb {
  hosts: { name: string; origin: string }[];
  seeds: string[];
  /** The current content round, starting at 0. */
  readonly round: number;
  /** Switches content to round n (an integer >= 0) and resets the flaky pages' failure counters. */
  setRound(n: number): void;
  /** The ground truth of the current round (a fresh copy on every call). */
  groundTruth(): GroundTruth;
  requests: RequestLog;
  /** Guarded profile: the classifier's thresholds and what it judged (null in the other profiles). */
  detection: {
    thresholds: DetectionThresholds;
    blockAnswer: BlockAnswer;
    /** Networks judged crawlers, with the rule and what their window showed then. */
    verdicts(): DetectionVerdict[];
  } | null;
  /** Stops every listener, drops open connections (including endless responses) and pending timers. */
  close(): Promise<void>;
}

/** Starts every host of the synthetic web on 127.0.0.1 and returns it once all are listening. */
export async function startTestWeb(options?: TestWebOptions): Promise<TestWeb> {
  const resolved = resolveOptions(options);
  const listeners = await listenHosts(resolved.hosts, resolved.basePort);
  const web = buildWebModel(
    resolved,
    listeners.map((l) => l.origin),
  );
  const state = createWebState(web);
  web.hosts.forEach((host, i) => listeners[i]!.attach(createRequestHandler(state, host)));
  let closing: Promise<void> | undefined;

  return {
    hosts: web.hosts.map((h) => ({ name: h.name, origin: h.origin })),
    seeds: web.seeds.slice(),
    get round() {
      return state.round;
    },
    setRound(n) {
      if (!Number.isInteger(n) || n < 0) throw new InvalidOptionsError(`round must be an integer >= 0, got ${n}`);
      state.round = n;
      state.flakyServed.clear();
    },
    groundTruth: () => structuredClone(state.truth()),
    requests: state.log,
    detection: web.detector
      ? {
          thresholds: web.detector.thresholds,
          blockAnswer: resolved.detection.blockAnswer,
          verdicts: () => web.detector!.verdicts(),
        }
      : null,
    close() {
      closing ??= (async () => {
        for (const timer of state.timers) clearTimeout(timer);
        state.timers.clear();
        await Promise.all(listeners.map((l) => closeServer(l.server)));
      })();
      return closing;
    },
  };
}
