import { ErrorCode } from '@crawler/core';
import type { Outcome } from '@crawler/core';

/** The outcome class of a final HTTP status (redirects are handled hop by hop before this). */
export function outcomeOfStatus(status: number): { outcome: Outcome; retriable: boolean } {
  if (status >= 200 && status < 300) return { outcome: 'ok', retriable: false };
  if (status === 304) return { outcome: 'not_modified', retriable: false };
  if (status >= 300 && status < 400) return { outcome: 'client_error', retriable: false };
  if (status === 404 || status === 410) return { outcome: 'gone', retriable: false };
  if (status === 401 || status === 403) return { outcome: 'denied', retriable: false };
  if (status === 429) return { outcome: 'throttled', retriable: true };
  if (status >= 500) return { outcome: 'server_error', retriable: true };
  if (status === 408) return { outcome: 'timeout', retriable: true };
  return { outcome: 'client_error', retriable: false };
}

/** The outcome class of a failed request, read from the error code (undici UND_ERR_*, Node's errno). */
export function outcomeOfError(error: unknown): { outcome: Outcome; retriable: boolean; code: string } {
  const code = codeOf(error);
  if (code === ErrorCode.BLOCKED_ADDRESS) return { outcome: 'blocked_address', retriable: false, code };
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NODATA' || code === 'EAI_NONAME')
    return { outcome: 'dns_failure', retriable: code === 'EAI_AGAIN', code };
  if (code === 'ECONNREFUSED') return { outcome: 'connection_refused', retriable: true, code };
  if (code.includes('TIMEOUT') || code === 'ETIMEDOUT' || code === 'ABORT_ERR' || code === ErrorCode.FETCH_DEADLINE)
    return { outcome: 'timeout', retriable: true, code };
  if (code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || code.includes('CERT') || code === 'EPROTO')
    return { outcome: 'tls_error', retriable: false, code };
  if (code === 'UND_ERR_HEADERS_OVERFLOW' || code === 'HPE_HEADER_OVERFLOW')
    return { outcome: 'too_large', retriable: false, code };
  // A server that answers with something other than HTTP (another protocol on the port) will do so again: not worth an attempt.
  if (code === HTTP_PARSE_ERROR || code.startsWith('HPE_')) return { outcome: 'network_error', retriable: false, code };
  if (code === ErrorCode.ERR_INVALID_URL || code === 'ERR_INVALID_ARG_VALUE' || code === 'UND_ERR_INVALID_ARG')
    return { outcome: 'invalid_url', retriable: false, code };
  return { outcome: 'network_error', retriable: true, code };
}

/** The code of undici's HTTPParserError, which carries none when the answer does not even start like HTTP. */
const HTTP_PARSE_ERROR = ErrorCode.HTTP_PARSE_ERROR;

function codeOf(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET') return code;
    if ((current as { name?: string }).name === 'TimeoutError') return ErrorCode.FETCH_DEADLINE;
    if ((current as { name?: string }).name === 'HTTPParserError') return HTTP_PARSE_ERROR;
    current = (current as { cause?: unknown }).cause;
  }
  const top = (error as { code?: unknown })?.code;
  return typeof top === 'string' ? top : 'UNKNOWN';
}
