import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const deployDir = fileURLToPath(new URL('../../deploy/prometheus/', import.meta.url));
const run = promisify(execFile);

/** The shipped alert rules, checked and run on synthetic series by Prometheus' own promtool (Debian's prometheus). */
describe('deploy/prometheus alert rules', () => {
  it('are valid, and fire (and clear) as alerts.test.yml expects', async () => {
    const checked = await run('promtool', ['check', 'rules', 'alerts.yml'], { cwd: deployDir });
    expect(checked.stdout).toMatch(/SUCCESS: \d+ rules found/);
    const tested = await run('promtool', ['test', 'rules', 'alerts.test.yml'], { cwd: deployDir });
    expect(tested.stdout).toContain('SUCCESS');
  });
});
