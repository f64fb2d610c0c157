import { renderCpuProfile } from '../report/render-cpu-profile.js';
import { repoRoot } from '../stack/stack-env.js';
import { summarizeCpuProfiles } from './cpu-profile-summary.js';
import { readProfiles } from './profile-files.js';

/**
 * `node bench/dist/realweb/summarize-cpu-profile.js PATH...`: where a `node --cpu-prof` run spent
 * its time, as the markdown docs/BENCHMARKS.md shows (by calling package, area and function).
 * PATH is a .cpuprofile file or a folder of them (--cpu-prof-dir); all threads are summed.
 */
const paths = process.argv.slice(2);
if (paths.length === 0) {
  process.stderr.write('usage: summarize-cpu-profile.js PROFILE_OR_FOLDER...\n');
  process.exit(2);
}
process.stdout.write(`${renderCpuProfile(summarizeCpuProfiles(readProfiles(paths), { repoRoot }))}\n`);
