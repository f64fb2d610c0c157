import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { withFreshStack } from '../stack/stack-cleanup.js';
import { stackPids } from '../stack/stack-env.js';
import type { TimeBudget } from '../time-budget.js';
import { runPeerProcess, type PeerRun, type PeerSettings } from './peer-process.js';
import { ensurePythonEnv, pythonDir } from './python-env.js';
import { runServicesPeer } from './services-peer.js';

/** What the peers need beyond Node, set up once per suite. */
export interface PeerTools {
  /** The Python of bench/.venv (Scrapy), or null when Scrapy is not among the peers or could not be installed. */
  python: string | null;
  /** How to reach the stack, or null when it is not running. */
  stack: Record<string, string> | null;
}

/** The built file of a Node peer runner in this folder, e.g. `crawler-runner`. */
export const runnerPath = (name: string) => fileURLToPath(new URL(`./${name}.js`, import.meta.url));
const STACK_PEERS = new Set(['stack', 'services']);

/** Debian's wget, installed with apt-get when missing and we may (as the bench makes its own venv); else why not. */
function ensureWget(log: (line: string) => void): string | null {
  const present = () => {
    try {
      execFileSync('wget', ['--version'], { stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };
  if (present()) return null;
  if (process.getuid?.() !== 0) return 'wget is missing: sudo apt-get install -y --no-install-recommends wget';
  try {
    log('[peers] installing wget with apt-get (not counted)');
    execFileSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', 'wget'], { stdio: 'ignore' });
    return present() ? null : 'apt-get installed no wget';
  } catch (error) {
    return `apt-get install wget failed: ${(error as Error).message.split('\n')[0]}`;
  }
}

/**
 * Sets up the tools the named peers need and returns the peers that can run: a stack peer needs
 * the stack, Scrapy its virtual environment, wget the Debian package. Each one left out is
 * recorded in the budget's skipped list with the reason.
 */
export function preparePeers(
  peers: readonly string[],
  stack: Record<string, string> | null,
  budget: TimeBudget,
  log: (line: string) => void,
): { peers: string[]; tools: PeerTools } {
  const unavailable = new Map<string, string>();
  if (!stack)
    for (const peer of peers)
      if (STACK_PEERS.has(peer)) unavailable.set(peer, 'the local stack is not reachable (npm run stack:up)');
  let python: string | null = null;
  if (peers.includes('scrapy')) {
    try {
      const env = ensurePythonEnv();
      python = env.python;
      if (env.installedSeconds > 0)
        log(`[peers] created bench/.venv with Scrapy in ${env.installedSeconds.toFixed(0)} s (not counted)`);
    } catch (error) {
      unavailable.set('scrapy', `could not create the Python environment: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  if (peers.includes('wget')) {
    const problem = ensureWget(log);
    if (problem) unavailable.set('wget', problem);
  }
  for (const [peer, why] of unavailable) budget.skip(`peer ${peer}`, why);
  return { peers: peers.filter((peer) => !unavailable.has(peer)), tools: { python, stack } };
}

/**
 * Runs one peer by its id on `settings`. A stack peer gets topics, an index, a table and keys of
 * its own, dropped after `within` has seen the run with them (the real-web bed reads the stores);
 * other peers get `within(run, null)`.
 */
export async function launchPeer<T>(
  peer: string,
  settings: PeerSettings,
  tools: PeerTools,
  within: (run: PeerRun, stackNames: Record<string, string> | null) => Promise<T>,
): Promise<T> {
  const node = (name: string) => runPeerProcess(process.execPath, [runnerPath(name)], settings);
  if (peer === 'raw') return within(await node('raw-runner'), null);
  if (peer === 'floor') return within(await node('floor-runner'), null);
  if (peer === 'embedded') return within(await node('crawler-runner'), null);
  if (peer === 'crawlee') return within(await node('crawlee-runner'), null);
  if (peer === 'wget') return within(await node('wget-runner'), null);
  if (peer === 'scrapy') {
    if (!tools.python) throw new Error('Scrapy has no Python environment');
    return within(await runPeerProcess(tools.python, [`${pythonDir}/scrapy_runner.py`], settings), null);
  }
  if (!STACK_PEERS.has(peer)) throw new Error(`unknown peer ${peer}`);
  if (!tools.stack) throw new Error(`peer ${peer} needs the stack`);
  return withFreshStack(tools.stack, 'bench', async (env) => {
    const run =
      peer === 'stack'
        ? await runPeerProcess(
            process.execPath,
            [runnerPath('crawler-runner')],
            { ...settings, extra: { ...settings.extra, ...env, stack: 'true' } },
            { stackPids: stackPids() },
          )
        : await runServicesPeer(settings, env, stackPids());
    return within(run, env);
  });
}
