/** The parts of a V8 CPU profile (what `node --cpu-prof` writes, one file per thread) the summary reads. */
export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }[];
  /** The node on top of the stack at each sample. */
  samples: number[];
  /** Microseconds since the previous sample. */
  timeDeltas: number[];
}

export interface CpuShare {
  name: string;
  ms: number;
  /** Of the busy time of all threads together. */
  share: number;
}

/**
 * Where a profiled run spent its time: by the crawler package nearest on the stack (a library's
 * or Node's time counted to the package that called it), and self time by area (package),
 * module (file) and function.
 */
export interface CpuProfileSummary {
  threads: { name: string; busyMs: number; idleMs: number }[];
  busyMs: number;
  byCaller: CpuShare[];
  byArea: CpuShare[];
  byModule: CpuShare[];
  byFunction: CpuShare[];
}

interface Place {
  area: string;
  module: string;
}

// A Map, not an object literal: a function may be named `constructor` or `toString`.
const NO_SOURCE = new Map([
  ['(garbage collector)', 'garbage collection'],
  ['(program)', 'V8 and native code (no JavaScript frame)'],
]);

/**
 * Which area (our workspace package, an npm package, Node.js core, the engine) and module a
 * frame's script belongs to; paths are made relative to the repository.
 */
export function placeOf(functionName: string, url: string, repoRoot: string): Place {
  const engine = NO_SOURCE.get(functionName);
  if (engine) return { area: engine, module: functionName };
  if (url === '') return { area: 'V8 built-ins (no script)', module: `${functionName || '(anonymous)'} (V8 built-in)` };
  if (url.startsWith('node:')) return { area: 'Node.js core', module: url };
  const path = url.startsWith('file://') ? decodeURIComponent(new URL(url).pathname) : url;
  const npm = /.*\/node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(path);
  if (npm) return { area: `npm ${npm[1]}`, module: `${npm[1]}/${npm[2]}` };
  const root = repoRoot.endsWith('/') ? repoRoot : `${repoRoot}/`;
  const relative = path.startsWith(root) ? path.slice(root.length) : path;
  const workspace = /^(packages|services)\/([^/]+)\//.exec(relative);
  if (workspace) return { area: `@crawler/${workspace[2]}`, module: relative };
  if (relative.startsWith('bench/')) return { area: 'bench harness', module: relative };
  return { area: 'other scripts', module: relative };
}

function ranked(totals: Map<string, number>, busyMs: number, top: number): CpuShare[] {
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, ms]) => ({ name, ms, share: busyMs > 0 ? ms / busyMs : 0 }));
}

/**
 * Self time per area, module and function over the profiles of all threads of one run. A sample
 * counts for the time until the next one (as DevTools does); idle samples are kept apart, so a
 * share is of the time the threads were busy.
 */
export function summarizeCpuProfiles(
  profiles: readonly { thread: string; profile: CpuProfile }[],
  options: { repoRoot: string; top?: number },
): CpuProfileSummary {
  const top = options.top ?? 15;
  const callers = new Map<string, number>();
  const areas = new Map<string, number>();
  const modules = new Map<string, number>();
  const functions = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);
  const threads: CpuProfileSummary['threads'] = [];
  for (const { thread, profile } of profiles) {
    const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
    const parents = new Map<number, number>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
    const callerOf = new Map<number, string>();
    const nearestCaller = (id: number): string => {
      let caller = callerOf.get(id);
      if (caller !== undefined) return caller;
      const frame = frames.get(id)!;
      const place = placeOf(frame.functionName, frame.url, options.repoRoot);
      const parent = parents.get(id);
      if (place.area.startsWith('@crawler/') || parent === undefined || frames.get(parent)!.functionName === '(root)')
        caller = place.area;
      else caller = nearestCaller(parent);
      callerOf.set(id, caller);
      return caller;
    };
    let busyMs = 0;
    let idleMs = 0;
    for (let i = 0; i < profile.samples.length; i++) {
      const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
      const frame = frames.get(profile.samples[i]!);
      if (!frame || frame.functionName === '(idle)') {
        idleMs += ms;
        continue;
      }
      busyMs += ms;
      add(callers, nearestCaller(profile.samples[i]!), ms);
      const place = placeOf(frame.functionName, frame.url, options.repoRoot);
      add(areas, place.area, ms);
      add(modules, place.module, ms);
      // Engine frames and built-ins have no script to name a line of.
      const named = frame.url === '';
      add(
        functions,
        named ? place.module : `${frame.functionName || '(anonymous)'} (${place.module}:${frame.lineNumber + 1})`,
        ms,
      );
    }
    threads.push({ name: thread, busyMs, idleMs });
  }
  const busyMs = threads.reduce((sum, thread) => sum + thread.busyMs, 0);
  return {
    threads,
    busyMs,
    byCaller: ranked(callers, busyMs, Infinity),
    byArea: ranked(areas, busyMs, Infinity),
    byModule: ranked(modules, busyMs, top),
    byFunction: ranked(functions, busyMs, top),
  };
}
