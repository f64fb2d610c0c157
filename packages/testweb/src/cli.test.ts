import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { waitFor } from '@crawler/core/testing';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './cli.js';
import { InvalidOptionsError } from './errors.js';
import type { TestWeb } from './test-web.js';

function streams() {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const lines: string[] = [];
  let buffered = '';
  stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop() ?? '';
    lines.push(...parts);
  });
  return { stdin, stdout, lines };
}

const until = (check: () => boolean) => waitFor(check, 10_000, 10, 'the command line to print');

describe('command line', () => {
  const started: TestWeb[] = [];
  afterAll(() => Promise.all(started.map((w) => w.close())));

  it('prints one JSON line with hosts and seeds, writes the truth file and switches rounds from stdin', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'testweb-cli-'));
    try {
      const io = streams();
      const truthFile = join(dir, 'truth.json');
      const web = (await runCli(
        ['--profile', 'bench', '--hosts', '2', '--pages-per-host', '50', '--seed', '5', '--truth', truthFile],
        io,
      ))!;
      started.push(web);
      await until(() => io.lines.length >= 1);
      expect(io.lines).toHaveLength(1);
      expect(JSON.parse(io.lines[0]!)).toEqual({ hosts: web.hosts, seeds: web.seeds });
      expect(JSON.parse(await readFile(truthFile, 'utf8'))).toEqual(web.groundTruth());

      io.stdin.write('round 3\n');
      await until(() => io.lines.length >= 2);
      expect(JSON.parse(io.lines[1]!)).toEqual({ round: 3 });
      expect(JSON.parse(await readFile(truthFile, 'utf8')).round).toBe(3);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('prints usage for --help without starting anything', async () => {
    const io = streams();
    expect(await runCli(['--help'], io)).toBeUndefined();
    await until(() => io.lines.length > 0);
    expect(io.lines.join('\n')).toContain('--pages-per-host');
  });

  it('rejects bad flags and values', async () => {
    await expect(runCli(['--profile', 'huge'], streams())).rejects.toThrow(InvalidOptionsError);
    await expect(runCli(['--hosts', 'many'], streams())).rejects.toThrow(InvalidOptionsError);
    await expect(runCli(['--profile', 'full', '--hosts', '2'], streams())).rejects.toThrow(/hosts/);
    await expect(runCli(['--colour'], streams())).rejects.toThrow(/colour/);
  });
});
