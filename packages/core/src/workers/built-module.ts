import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The compiled file of a module next to the calling one, for a worker thread to load. Under the
 * test runner the caller is a TypeScript source, which a worker cannot load, so the build in dist/
 * is used (`npm run build` runs before the tests).
 */
export function builtModule(callerUrl: string, name: string): URL {
  const beside = new URL(`./${name}.js`, callerUrl);
  if (!fileURLToPath(callerUrl).endsWith('.ts')) return beside;
  const built = pathToFileURL(fileURLToPath(beside).replace(/\/src\/(?!.*\/src\/)/, '/dist/'));
  if (!existsSync(built)) throw new Error(`worker module ${fileURLToPath(built)} is not built: run npm run build`);
  return built;
}
