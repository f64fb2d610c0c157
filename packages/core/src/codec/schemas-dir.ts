import { fileURLToPath } from 'node:url';

let resolved: string | undefined;

/** schemas/ at the repository root; src/ and dist/ sit at the same depth, so one relative path serves both. */
export function schemasDir(): string {
  resolved ??= process.env.CRAWLER_SCHEMAS_DIR ?? fileURLToPath(new URL('../../../../schemas/', import.meta.url));
  return resolved;
}
