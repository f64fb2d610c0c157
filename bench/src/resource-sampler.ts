/** Peak RSS and CPU seconds of this process over a measured section. */
export function sampleResources(intervalMs = 100) {
  const cpuStart = process.cpuUsage();
  let peakRss = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      peakRss = Math.max(peakRss, process.memoryUsage.rss());
      const cpu = process.cpuUsage(cpuStart);
      return { peakRssMb: Math.round(peakRss / 1024 / 1024), cpuSeconds: (cpu.user + cpu.system) / 1e6 };
    },
  };
}
