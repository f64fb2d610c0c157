// The bed's client (bed.py's truth and scores) is shared with the benchmarks, which own it.
export * from '../../bench/src/realweb/bed-client.js';
