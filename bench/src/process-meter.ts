import { cpuSecondsOf, memoryOf } from './proc-stats.js';

export interface MeterReading {
  cpuSeconds: number;
  /** Peak resident memory of the processes together, MB. */
  peakRssMb: number;
}

/**
 * CPU and peak memory of other processes over a measured section, read from /proc, so a Node
 * crawler, a Python crawler and a group of service processes are measured the same way. Pids may
 * join later (a service started mid-run); their CPU counts from when they joined.
 */
export function meterProcesses(pids: number[], intervalMs = 100) {
  const baseline = new Map<number, number>();
  const add = (pid: number) => baseline.set(pid, cpuSecondsOf(pid) ?? 0);
  pids.forEach(add);
  let peakSum = 0;
  const sample = () => {
    let sum = 0;
    for (const pid of baseline.keys()) sum += memoryOf(pid)?.rss ?? 0;
    peakSum = Math.max(peakSum, sum);
  };
  sample();
  const timer = setInterval(sample, intervalMs);
  return {
    add,
    /** Call while the processes are still alive: /proc forgets a process once it is reaped. */
    stop(): MeterReading {
      clearInterval(timer);
      sample();
      let cpu = 0;
      for (const [pid, start] of baseline) cpu += (cpuSecondsOf(pid) ?? start) - start;
      // One process: the kernel's own high-water mark is exact, sampling can miss a short peak.
      const only = baseline.size === 1 ? (memoryOf([...baseline.keys()][0]!)?.peak ?? 0) : 0;
      return { cpuSeconds: cpu, peakRssMb: Math.round(Math.max(peakSum, only) / 1024 / 1024) };
    },
  };
}
