import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg, release, totalmem } from 'node:os';
import type { MachineInfo } from './bench-results.js';

function osName(): string {
  try {
    return /^PRETTY_NAME="?([^"\n]*)"?/m.exec(readFileSync('/etc/os-release', 'utf8'))?.[1] ?? `Linux ${release()}`;
  } catch {
    return `${process.platform} ${release()}`;
  }
}

function pythonVersion(python: string): string {
  try {
    return execFileSync(python, ['--version'], { encoding: 'utf8' })
      .trim()
      .replace(/^Python /, '');
  } catch {
    return 'not found';
  }
}

/** The machine as the docs page states it; peer versions are filled in from the runs. */
export function describeMachine(python = process.env.PYTHON ?? 'python3'): MachineInfo {
  return {
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    memoryGb: Math.round(totalmem() / 1024 ** 3),
    node: process.version,
    os: osName(),
    python: pythonVersion(python),
    versions: {},
    loadAverageStart: loadavg()[0]!,
    loadAverageEnd: loadavg()[0]!,
  };
}
