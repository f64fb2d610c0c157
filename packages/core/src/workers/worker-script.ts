import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The compiled file of a worker module next to the calling module. Run from TypeScript sources
 * (tests load src/ through vitest), a worker thread cannot load a .ts file itself, so the module's
 * build in dist/ is used: `npm run build` comes before the tests.
 */
export function workerScript(callerUrl: string, name: string): URL {
  const beside = new URL(`./${name}.js`, callerUrl);
  if (!fileURLToPath(callerUrl).endsWith('.ts')) return beside;
  const built = pathToFileURL(fileURLToPath(beside).replace(/\/src\/(?!.*\/src\/)/, '/dist/'));
  if (!existsSync(built)) throw new Error(`worker module ${fileURLToPath(built)} is not built: run npm run build`);
  return built;
}
