import { describe, expect, it } from 'vitest';
import { registrableDomain } from './registrable-domain.js';

describe('registrableDomain', () => {
  it.each([
    ['www.example.com', 'example.com'],
    ['news.bbc.co.uk', 'bbc.co.uk'],
    ['Deep.Sub.Example.COM.', 'example.com'],
    ['a.b.github.io', 'b.github.io'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['127.0.0.1', '127.0.0.1'],
    ['[::1]', '::1'],
    ['localhost', 'localhost'],
  ])('%s -> %s', (host, domain) => {
    expect(registrableDomain(host)).toBe(domain);
  });

  it('takes a URL and ignores its port', () => {
    expect(registrableDomain(new URL('http://shop.example.org:8080/x'))).toBe('example.org');
  });
});
