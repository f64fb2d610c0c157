import { describe, expect, it } from 'vitest';
import { recognizeChallenge } from './recognize-challenge.js';

const html = (head: string, body: string) =>
  Buffer.from(`<!DOCTYPE html><html><head>${head}</head><body>${body}</body></html>`);
const prose = '<p>' + 'A real article about gardening, with enough words to read for a while. '.repeat(40) + '</p>';

describe('recognizeChallenge', () => {
  it('knows interstitials by their title, whatever the status', () => {
    expect(recognizeChallenge({}, html('<title>Just a moment...</title>', '<p>Checking your browser</p>'))).toBe(
      'challenge',
    );
    expect(recognizeChallenge({}, html('<title>Attention Required! | Cloudflare</title>', ''))).toBe('challenge');
    expect(recognizeChallenge({}, html('<title>Are you a robot?</title>', '<div class="h-captcha"></div>'))).toBe(
      'captcha',
    );
    expect(recognizeChallenge({}, html('<title>Access denied</title>', ''))).toBe('challenge');
  });

  it('knows challenge platforms by their markers and header', () => {
    expect(
      recognizeChallenge(
        {},
        html('<title>x</title>', '<script src="/cdn-cgi/challenge-platform/h/b/orchestrate"></script>'),
      ),
    ).toBe('challenge');
    expect(recognizeChallenge({ 'cf-mitigated': 'challenge' }, Buffer.alloc(0))).toBe('challenge');
    expect(recognizeChallenge({}, html('', '<script src="https://ct.captcha-delivery.com/c.js"></script>'))).toBe(
      'challenge',
    );
  });

  it('tells a CAPTCHA wall from a real page with a form that has a CAPTCHA', () => {
    const widget = '<form><div class="g-recaptcha" data-sitekey="k"></div><button>Send</button></form>';
    expect(
      recognizeChallenge({}, html('<title>Verification</title>', `<p>Please complete the check.</p>${widget}`)),
    ).toBe('captcha');
    expect(recognizeChallenge({}, html('<title>Contact us</title>', `${prose}${widget}`))).toBeNull();
  });

  it('leaves ordinary pages alone, pages about CAPTCHAs included', () => {
    expect(recognizeChallenge({}, html('<title>Gardening</title>', prose))).toBeNull();
    expect(recognizeChallenge({}, html('<title>How CAPTCHAs work</title>', prose))).toBeNull();
    expect(recognizeChallenge({}, Buffer.alloc(0))).toBeNull();
  });
});
