import { z } from 'zod';
import { ErrorCode } from '@crawler/core';
import { JudgeUnavailableError } from '../errors.js';
import type { Judge, Judgement, JudgeInput } from './judge.js';

export interface HttpJudgeOptions {
  /** The classifier: POST JSON {url, title, lang, text}, answers {verdict, category?, reasons?}. */
  url: string;
  /** Per attempt, connecting included. */
  timeoutMs: number;
  attempts: number;
  /** Sent as "Authorization: Bearer <token>" when set. */
  token?: string | null;
  /** Text sent per page; classifiers read the start of a text anyway. */
  maxTextChars?: number;
  /** First pause between attempts; it doubles, with jitter. */
  backoffMs?: number;
}

const answerSchema = z.object({
  verdict: z.string().min(1),
  category: z.string().min(1).nullish(),
  reasons: z.array(z.string()).optional(),
});

/** Longest Retry-After honoured: a judge that wants longer is treated as down. */
const MAX_RETRY_AFTER_MS = 5000;

/**
 * An external classifier behind HTTP. Network errors, timeouts, 5xx and 429 are retried (429 after
 * its Retry-After); other 4xx and malformed answers are not, since asking again cannot fix them.
 * Whatever fails ends as JudgeUnavailableError: the stage then passes the page on unjudged.
 */
export function createHttpJudge(options: HttpJudgeOptions): Judge {
  const maxTextChars = options.maxTextChars ?? 20_000;
  const backoffMs = options.backoffMs ?? 200;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (options.token) headers.authorization = `Bearer ${options.token}`;

  async function attempt(
    body: string,
  ): Promise<Judgement | { retryAfterMs: number | null; error: JudgeUnavailableError }> {
    let response: Response;
    try {
      response = await fetch(options.url, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (cause) {
      const reason =
        (cause as Error).name === 'TimeoutError'
          ? `no answer within ${options.timeoutMs} ms`
          : (cause as Error).message;
      return { retryAfterMs: null, error: new JudgeUnavailableError(`judge ${options.url}: ${reason}`, { cause }) };
    }
    const text = await response.text().catch(() => '');
    if (response.status === 429 || response.status >= 500) {
      return {
        retryAfterMs: retryAfter(response.headers.get('retry-after')),
        error: new JudgeUnavailableError(`judge ${options.url} answered HTTP ${response.status}`),
      };
    }
    if (!response.ok)
      throw new JudgeUnavailableError(`judge ${options.url} answered HTTP ${response.status}: ${text.slice(0, 200)}`, {
        code: ErrorCode.DEDUP_JUDGE_REFUSED,
      });
    let parsed: z.infer<typeof answerSchema>;
    try {
      parsed = answerSchema.parse(JSON.parse(text));
    } catch (cause) {
      throw new JudgeUnavailableError(
        `judge ${options.url} answered something other than {verdict, category?, reasons?}: ${text.slice(0, 200)}`,
        { code: ErrorCode.DEDUP_JUDGE_REFUSED, cause },
      );
    }
    return { verdict: parsed.verdict, category: parsed.category ?? null, reasons: parsed.reasons ?? [] };
  }

  return {
    name: 'http',
    async judge(input: JudgeInput): Promise<Judgement> {
      const body = JSON.stringify({
        url: input.url,
        title: input.title,
        lang: input.lang,
        text: input.text.slice(0, maxTextChars),
      });
      let last: JudgeUnavailableError | undefined;
      for (let n = 1; n <= options.attempts; n++) {
        const result = await attempt(body);
        if ('verdict' in result) return result;
        last = result.error;
        if (n === options.attempts) break;
        if (result.retryAfterMs !== null && result.retryAfterMs > MAX_RETRY_AFTER_MS) break;
        const pause = result.retryAfterMs ?? backoffMs * 2 ** (n - 1) * (0.5 + Math.random());
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
      throw new JudgeUnavailableError(`${last!.message} (after ${options.attempts} attempts)`, { cause: last });
    },
  };
}

function retryAfter(value: string | null): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? null : Math.max(0, date - Date.now());
}
