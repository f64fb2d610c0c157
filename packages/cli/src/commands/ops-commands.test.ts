import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../cli.js';
import { capture } from '../test-support/capture-output.js';

describe("operators' commands without a stack", () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it.each(['status', 'lag', 'tap', 'errors'])('has --help for %s and lists it in the usage', async (command) => {
    const io = capture();
    expect(await runCli([command, '--help'])).toBe(0);
    expect(io.out()).toContain(`Usage: crawler ${command}`);
    expect(await runCli(['--help'])).toBe(0);
    expect(io.out()).toMatch(new RegExp(`\\n  ${command} +\\S`));
  });

  it.each([
    [['lag', '--topic', 'x'], /--topic needs --group/],
    [['lag', '--group', 'nobody'], /"nobody" is not a group of the crawl/],
    [['tap'], /give exactly one topic/],
    [['tap', 'crawl.pages', '--from', 'middle'], /--from must be beginning or latest/],
    [['tap', 'crawl.pages', '--filter', 'host'], /--filter must be field=value/],
    [['status', '--interval', 'soon'], /--interval must be a duration/],
    [['errors', '--limit', '0'], /--limit must be a whole number >= 1/],
  ])('refuses %j with one line and exit code 2 before connecting', async (argv, message) => {
    const io = capture();
    expect(await runCli(argv)).toBe(2);
    expect(io.err()).toMatch(message);
    expect(io.err().trim().split('\n')).toHaveLength(1);
  });

  it('says that an embedded bus cannot be read from another process', async () => {
    const io = capture();
    vi.stubEnv('CRAWLER_BUS', 'embedded');
    expect(await runCli(['lag'])).toBe(2);
    expect(io.err()).toMatch(/CRAWLER_BUS=embedded: an embedded bus lives inside its crawling process/);
  });
});
