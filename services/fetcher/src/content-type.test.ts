import { describe, expect, it } from 'vitest';
import { effectiveMediaType, isTruncatable, mediaType } from './content-type.js';

describe('effectiveMediaType', () => {
  it('believes a specific header, but not a textual one over binary bytes', () => {
    expect(effectiveMediaType('text/html', Buffer.from('<p>hi'))).toEqual({ type: 'text/html', sniffed: false });
    expect(effectiveMediaType('text/html', Buffer.from('%PDF-1.7 ...'))).toEqual({
      type: 'application/pdf',
      sniffed: true,
    });
    expect(effectiveMediaType('text/html', Buffer.from('89504e470d0a1a0a0000', 'hex'))).toEqual({
      type: 'image/png',
      sniffed: true,
    });
    expect(effectiveMediaType('application/pdf', Buffer.from('<!DOCTYPE html>'))).toEqual({
      type: 'application/pdf',
      sniffed: false,
    });
  });

  it('sniffs missing and generic types', () => {
    expect(effectiveMediaType(null, Buffer.from('\n  <!DOCTYPE html><title>x</title>')).type).toBe('text/html');
    expect(effectiveMediaType('application/octet-stream', Buffer.from('<html><body>')).type).toBe('text/html');
    expect(effectiveMediaType('text/plain', Buffer.from('<?xml version="1.0"?><rss version="2.0">')).type).toBe(
      'application/rss+xml',
    );
    expect(effectiveMediaType('text/plain', Buffer.from('<?xml version="1.0"?>\n<urlset xmlns="x">')).type).toBe(
      'application/xml',
    );
    expect(effectiveMediaType('text/plain', Buffer.from('Just some notes.'))).toEqual({
      type: 'text/plain',
      sniffed: false,
    });
    expect(effectiveMediaType(null, Buffer.from('GIF89a...')).type).toBe('image/gif');
  });

  it('knows which types are still useful when cut', () => {
    expect(['text/html', 'application/xhtml+xml', 'application/rss+xml', 'application/xml'].every(isTruncatable)).toBe(
      true,
    );
    expect(['application/pdf', 'image/png'].some(isTruncatable)).toBe(false);
    expect(mediaType('Text/HTML; charset=UTF-8')).toBe('text/html');
  });
});
