/** Latency buckets in seconds, shared by every histogram: from a cache hit to a slow host's politeness wait. */
export const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
