import { describe, expect, it } from 'vitest';
import { CookieJars } from './cookie-jars.js';

describe('CookieJars', () => {
  it('keeps cookies only for jobs that opted in, per site', async () => {
    const jars = new CookieJars(new Set(['shop-job']));
    const a = new URL('http://www.shop.example.co.uk/login');
    await jars.remember('shop-job', a, 'session=1; Path=/\ntheme=dark; Path=/account');
    await jars.remember('other-job', a, 'session=2; Path=/');
    expect(await jars.header('shop-job', new URL('http://static.shop.example.co.uk/'))).toBeNull(); // host-only cookie
    expect(await jars.header('shop-job', new URL('http://www.shop.example.co.uk/cart'))).toBe('session=1');
    expect(await jars.header('shop-job', new URL('http://www.shop.example.co.uk/account/x'))).toBe(
      'theme=dark; session=1',
    );
    expect(await jars.header('other-job', a)).toBeNull();
    expect(await jars.header('shop-job', new URL('http://www.other.example.co.uk/'))).toBeNull();
  });

  it('shares a Domain cookie across one site and refuses one for a public suffix', async () => {
    const jars = new CookieJars(new Set(['*']));
    await jars.remember('j', new URL('http://a.example.com/'), 'wide=1; Domain=example.com; Path=/');
    await jars.remember('j', new URL('http://a.example.co.uk/'), 'evil=1; Domain=co.uk; Path=/');
    expect(await jars.header('j', new URL('http://b.example.com/'))).toBe('wide=1');
    expect(await jars.header('j', new URL('http://a.example.co.uk/'))).toBeNull();
  });

  it('forgets the least recently used sites past its bound', async () => {
    const jars = new CookieJars(new Set(['*']), 2);
    for (const site of ['a', 'b', 'c']) await jars.remember('j', new URL(`http://${site}.example/`), 'x=1');
    expect(jars.size).toBe(2);
    expect(await jars.header('j', new URL('http://a.example/'))).toBeNull();
    expect(await jars.header('j', new URL('http://c.example/'))).toBe('x=1');
  });
});
