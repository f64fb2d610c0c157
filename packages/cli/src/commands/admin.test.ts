import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatchingProducer, Codec, loadCatalog, parseCrawlJob, silentLogger } from '@crawler/core';
import { FileLinkBase, InProcessBus } from '@crawler/embedded';
import { createSchedulerService, loadSchedulerConfig, startAdminServer } from '@crawler/scheduler';
import { describe, expect, it, vi } from 'vitest';
import { AdminCallError, adminCommand, adminRequest } from './admin.js';

describe('crawler admin', () => {
  it('maps each command to its request', () => {
    const dir = mkdtempSync(join(tmpdir(), 'admin-cli-'));
    writeFileSync(join(dir, 'job.json'), JSON.stringify({ id: 'news', seeds: ['http://n.test/'] }));
    writeFileSync(join(dir, 'seeds.txt'), '# more\nhttp://n.test/b\n\n');
    expect(adminRequest('add-job', [join(dir, 'job.json')])).toEqual({
      method: 'POST',
      path: '/jobs',
      body: { id: 'news', seeds: ['http://n.test/'] },
    });
    expect(adminRequest('add-seeds', ['news', 'http://n.test/a'], join(dir, 'seeds.txt'))).toEqual({
      method: 'POST',
      path: '/jobs/news/seeds',
      body: { urls: ['http://n.test/a', 'http://n.test/b'] },
    });
    expect(adminRequest('pause-host', ['a.test:8080'])).toEqual({ method: 'POST', path: '/hosts/a.test%3A8080/pause' });
    expect(adminRequest('resume-job', ['news'])).toEqual({ method: 'POST', path: '/jobs/news/resume' });
    expect(adminRequest('url', ['http://a.test/?q=1'])).toEqual({
      method: 'GET',
      path: '/urls?url=http%3A%2F%2Fa.test%2F%3Fq%3D1',
    });
    expect(() => adminRequest('add-seeds', ['news'])).toThrow(/give seed URLs/);
    expect(() => adminRequest('pause-job', [])).toThrow(/name the job/);
    expect(() => adminRequest('reboot', [])).toThrow(/unknown command/);
    rmSync(dir, { recursive: true, force: true });
  });

  it('calls a running scheduler with the token from the environment, and fails on a wrong one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'admin-cli-'));
    const bus = new InProcessBus();
    await bus.createTopics(loadCatalog().topics);
    const linkbase = await FileLinkBase.open(dir);
    const service = await createSchedulerService(
      loadSchedulerConfig({ env: {} }),
      parseCrawlJob({ seeds: ['http://a.test/'] }),
      { bus, producer: new BatchingProducer(bus.producer()), codec: new Codec(), linkbase },
      silentLogger(),
    );
    await service.start();
    const token = 'cli-test-token-0123456789';
    const server = await startAdminServer(service.admin, { token, port: 0, host: '127.0.0.1' }, silentLogger());
    const out = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      const env = { SCHEDULER_ADMIN_TOKEN: token, SCHEDULER_ADMIN_URL: `http://127.0.0.1:${server.port}` };
      expect(await adminCommand(['url', 'http://a.test/'], env)).toBe(0);
      expect(JSON.parse(String(out.mock.calls.at(-1)![0]))).toMatchObject({ url: 'http://a.test/', source: 'seed' });
      expect(await adminCommand(['pause-host', 'a.test'], env)).toBe(0);
      expect(JSON.parse(String(out.mock.calls.at(-1)![0]))).toEqual({ pausedQueues: ['a.test'] });
      await expect(
        adminCommand(['stats'], { ...env, SCHEDULER_ADMIN_TOKEN: 'wrong-token-0123456789' }),
      ).rejects.toThrow(AdminCallError);
      await expect(adminCommand(['stats'], { SCHEDULER_ADMIN_URL: env.SCHEDULER_ADMIN_URL })).rejects.toThrow(
        /no token/,
      );
    } finally {
      out.mockRestore();
      await server.close();
      await service.stop();
      await linkbase.close();
      await bus.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
