import { describe, expect, it } from 'vitest';
import { parseCpuSeconds, parseListeningInodes, parseReapedChildrenCpuSeconds, parseStatusKb } from './proc-stats.js';

describe('/proc readers', () => {
  it('reads user + system ticks after the command name, even one with spaces and parentheses', () => {
    // Fields 14 and 15 (utime, stime) are 250 and 50 ticks.
    const stat = '4242 (node (bench) x) S 1 4242 4242 0 -1 4194304 100 0 0 0 250 50 0 0 20 0 11 0 1000 0 0';
    expect(parseCpuSeconds(stat, 100)).toBe(3);
  });

  it('reads the CPU of children that exited and were waited for, apart from the process own', () => {
    // Fields 16 and 17 (cutime, cstime) are 120 and 30 ticks; utime and stime 250 and 50.
    const stat = '4242 (node (bench) x) S 1 4242 4242 0 -1 4194304 100 0 0 0 250 50 120 30 20 0 11 0 1000 0 0';
    expect(parseReapedChildrenCpuSeconds(stat, 100)).toBe(1.5);
    expect(parseCpuSeconds(stat, 100)).toBe(3);
  });

  it('reads memory fields in bytes', () => {
    const status = 'Name:\tnode\nVmHWM:\t  409600 kB\nVmRSS:\t  204800 kB\n';
    expect(parseStatusKb(status, 'VmHWM')).toBe(409_600 * 1024);
    expect(parseStatusKb(status, 'VmRSS')).toBe(204_800 * 1024);
    expect(parseStatusKb(status, 'VmSwap')).toBe(0);
  });

  it('finds the socket listening on a port, not connections to it', () => {
    const tcp = [
      '  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode',
      '   0: 0100007F:4AF0 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1001        0 3799167 1 0 100 0 0 10 0',
      '   1: 0100007F:C350 0100007F:4AF0 01 00000000:00000000 00:00000000 00000000     0        0 3788591 1 0 20 4 30 10 -1',
      '   2: 0100007F:4B00 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1001        0 3711111 1 0 100 0 0 10 0',
    ].join('\n');
    expect(parseListeningInodes(tcp, 19184)).toEqual(['3799167']);
    expect(parseListeningInodes(tcp, 19200)).toEqual(['3711111']);
    expect(parseListeningInodes(tcp, 80)).toEqual([]);
  });
});
