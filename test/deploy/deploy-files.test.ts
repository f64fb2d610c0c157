import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, posix, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  crawlJobSchema,
  loadCatalog,
  loadRuntimeConfig,
  runtimeSettings,
  startHealthServer,
  type RuntimeConfig,
  type SettingsSpec,
} from '@crawler/core';
import { dedupSettings, loadDedupConfig } from '@crawler/dedup';
import { elasticsearchSettings, loadElasticsearchConfig } from '@crawler/elasticsearch';
import { fetcherSettings, loadFetcherConfig } from '@crawler/fetcher';
import { hbaseSettings, loadHbaseConfig } from '@crawler/hbase';
import { kafkaSettings, loadKafkaConfig } from '@crawler/kafka';
import { linkextractSettings, loadLinkextractConfig } from '@crawler/linkextract';
import { loadRedisConfig, redisSettings } from '@crawler/redis';
import { loadSchedulerConfig, schedulerSettings } from '@crawler/scheduler';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Secret } from 'kubernetes-models/v1/Secret';
import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';

/**
 * The deploy files (Dockerfiles, compose file, Kubernetes manifests) checked against the code,
 * without a Docker engine or a cluster: every variable they set is one the service reads, with a
 * value its settings schema accepts; connections, ports, probes, users and replica counts agree
 * with the health server, the images and schemas/catalog.json.
 */
const root = fileURLToPath(new URL('../../', import.meta.url));
const SERVICES = ['scheduler', 'fetcher', 'linkextract', 'dedup'] as const;
type Service = (typeof SERVICES)[number];
type Env = Record<string, string>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed YAML and JSON of any shape
type Json = Record<string, any>;

// ---------------------------------------------------------------------------------------------
// What each service reads, from the code: its composition root's ports and its settings schemas.

interface Backend {
  settings: SettingsSpec;
  load(env: Env): unknown;
  /** Connection settings whose defaults (127.0.0.1) cannot be right in a container: one of each group. */
  required: string[][];
}

const KAFKA: Backend = {
  settings: kafkaSettings,
  load: (env) => loadKafkaConfig({ env }),
  required: [['KAFKA_BROKERS']],
};
/** What each composition root imports from @crawler/adapters, by the backend it connects to. */
const BACKENDS: Record<string, Backend> = {
  createBus: KAFKA,
  // A service's side of the bus: createBus and the metrics every service has.
  createServiceBus: KAFKA,
  createLinkBase: {
    settings: elasticsearchSettings,
    load: (env) => loadElasticsearchConfig({ env }),
    required: [['ELASTICSEARCH_URL']],
  },
  createFingerprintStore: {
    settings: redisSettings,
    load: (env) => loadRedisConfig({ env }),
    required: [['REDIS_URL', 'REDIS_CLUSTER_NODES']],
  },
  createPageStore: { settings: hbaseSettings, load: (env) => loadHbaseConfig({ env }), required: [['HBASE_REST_URL']] },
};

const OWN: Record<Service, { settings: SettingsSpec; load(env: Env): unknown }> = {
  scheduler: { settings: schedulerSettings, load: (env) => loadSchedulerConfig({ env }) },
  fetcher: { settings: fetcherSettings, load: (env) => loadFetcherConfig({ env }) },
  linkextract: { settings: linkextractSettings, load: (env) => loadLinkextractConfig({ env }) },
  dedup: { settings: dedupSettings, load: (env) => loadDedupConfig({ env }) },
};

interface Profile {
  backends: Backend[];
  known: Set<string>;
  required: string[][];
  /** Parses every settings section the service reads, as it does at start; throws on a bad value. */
  load(env: Env): RuntimeConfig;
}

function envNames(spec: SettingsSpec): string[] {
  return Object.values(spec).map((item) => item.env);
}

function profileOf(service: Service): Profile {
  const source = readFileSync(join(root, 'services', service, 'src', `compose-${service}.ts`), 'utf8');
  const imported = /import\s*\{([^}]*)\}\s*from\s*'@crawler\/adapters'/.exec(source)?.[1] ?? '';
  const backends = imported
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name in BACKENDS)
    .map((name) => BACKENDS[name]!);
  // A composition root that no longer imports like this would silently drop every connection check.
  if (!backends.includes(KAFKA))
    throw new Error(`compose-${service}.ts: no createServiceBus import from @crawler/adapters`);
  const own = OWN[service];
  return {
    backends,
    known: new Set([runtimeSettings, ...backends.map((backend) => backend.settings), own.settings].flatMap(envNames)),
    required: [
      ...backends.flatMap((backend) => backend.required),
      ...(envNames(own.settings).includes('CRAWL_JOB_FILE') ? [['CRAWL_JOB_FILE']] : []),
    ],
    load(env) {
      const runtime = loadRuntimeConfig({ env });
      for (const backend of backends) backend.load(env);
      own.load(env);
      return runtime;
    },
  };
}

const PROFILES = Object.fromEntries(SERVICES.map((service) => [service, profileOf(service)])) as Record<
  Service,
  Profile
>;
const SECRET_SETTINGS = new Set(
  [
    runtimeSettings,
    kafkaSettings,
    elasticsearchSettings,
    redisSettings,
    hbaseSettings,
    schedulerSettings,
    fetcherSettings,
    linkextractSettings,
    dedupSettings,
  ]
    .flatMap((spec) => Object.values(spec))
    .filter((item) => item.secret)
    .map((item) => item.env),
);

/** The checks every deployment form must pass for one service's environment. */
function checkServiceEnv(service: Service, env: Env, where: string): RuntimeConfig {
  const profile = PROFILES[service];
  const unknown = Object.keys(env).filter((name) => !profile.known.has(name));
  expect(unknown, `${where}: variables ${service} does not read`).toEqual([]);
  for (const group of profile.required)
    expect(
      group.some((name) => env[name]),
      `${where}: ${service} needs ${group.join(' or ')}`,
    ).toBe(true);
  const runtime = profile.load(env);
  // The distributed adapters, whatever the defaults become.
  expect([runtime.bus, runtime.linkbase, runtime.fingerprints, runtime.pageStore], where).toEqual([
    'kafka',
    'elasticsearch',
    'redis',
    'hbase',
  ]);
  // Probes come from outside the container: the health server must not bind loopback only.
  expect(['0.0.0.0', '::'], `${where}: CRAWLER_HEALTH_HOST`).toContain(runtime.healthHost);
  return runtime;
}

// ---------------------------------------------------------------------------------------------
// Catalog: how many members each service's consumer groups can use.

const catalog = loadCatalog(join(root, 'schemas'));
function maxUsefulReplicas(service: Service): number {
  const topics = catalog.consumerGroups.filter((group) => group.service === service).flatMap((group) => group.topics);
  return Math.min(...topics.map((name) => catalog.topics.find((topic) => topic.name === name)!.partitions));
}
const largestMessage = Math.max(...catalog.topics.map((topic) => topic.maxMessageBytes));

/** What probes and scrapers ask the health server for. */
const HEALTH_PATHS = { live: '/healthz', ready: '/readyz', metrics: '/metrics' };

// ---------------------------------------------------------------------------------------------
// Dockerfiles.

interface Instruction {
  keyword: string;
  args: string;
}
interface Stage {
  name: string;
  base: string;
  instructions: Instruction[];
}
interface ImageConfig {
  image: string;
  env: Env;
  user?: string;
  workdir?: string;
  expose: string[];
  healthcheck?: string[];
  stopSignal?: string;
  entrypoint?: string[];
}

function parseDockerfile(path: string): { args: Env; stages: Stage[] } {
  const instructions: Instruction[] = [];
  let pending = '';
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (/^\s*#/.test(line) || (pending === '' && line.trim() === '')) continue;
    const continued = /\\\s*$/.test(line);
    pending += continued ? `${line.replace(/\\\s*$/, '')} ` : line;
    if (continued) continue;
    const match = /^\s*([A-Za-z]+)\s+([\s\S]*)$/.exec(pending)!;
    instructions.push({ keyword: match[1]!.toUpperCase(), args: match[2]!.trim() });
    pending = '';
  }
  const args: Env = {};
  const stages: Stage[] = [];
  for (const instruction of instructions) {
    if (instruction.keyword === 'FROM') {
      const [, base, name] = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args)!;
      stages.push({
        name: name ?? String(stages.length),
        base: base!.replace(/\$\{(\w+)\}/g, (_, arg: string) => args[arg] ?? ''),
        instructions: [],
      });
    } else if (stages.length === 0) {
      if (instruction.keyword === 'ARG') {
        const [name, value] = instruction.args.split('=');
        args[name!] = value ?? '';
      }
    } else {
      stages.at(-1)!.instructions.push(instruction);
    }
  }
  return { args, stages };
}

/** What a stage's image runs with: its own instructions over those of the stage it starts from. */
function imageConfig(stages: Stage[], name: string): ImageConfig {
  const stage = stages.find((candidate) => candidate.name === name)!;
  const parent = stages.find((candidate) => candidate.name === stage.base);
  const config: ImageConfig = parent
    ? structuredClone(imageConfig(stages, parent.name))
    : { image: stage.base, env: {}, expose: [] };
  for (const { keyword, args } of stage.instructions) {
    if (keyword === 'ENV')
      for (const [, key, value] of args.matchAll(/(\w+)=("[^"]*"|\S+)/g))
        config.env[key!] = value!.replace(/^"|"$/g, '');
    if (keyword === 'USER') config.user = args;
    if (keyword === 'WORKDIR') config.workdir = args;
    if (keyword === 'EXPOSE') config.expose.push(...args.split(/\s+/));
    if (keyword === 'STOPSIGNAL') config.stopSignal = args;
    if (keyword === 'ENTRYPOINT') config.entrypoint = JSON.parse(args) as string[];
    if (keyword === 'HEALTHCHECK') config.healthcheck = JSON.parse(args.slice(args.indexOf('CMD') + 3)) as string[];
  }
  return config;
}

function expectPinned(image: string): void {
  // A version down to the patch: an image that changes under the same tag is not reproducible.
  expect(image, `${image} is pinned`).toMatch(/:[^:]*\d+\.\d+\.\d+[^:]*$/);
}

function expectNonRootUser(user: string | undefined, what: string): number {
  // Numeric, so that Kubernetes can verify runAsNonRoot without reading /etc/passwd.
  expect(user, `${what}: USER`).toMatch(/^\d+(:\d+)?$/);
  const uid = Number(user!.split(':')[0]);
  expect(uid, `${what}: uid`).toBeGreaterThan(0);
  return uid;
}

const serviceDockerfile = parseDockerfile(join(root, 'deploy/docker/Dockerfile'));
const images = Object.fromEntries(
  SERVICES.map((service) => [service, imageConfig(serviceDockerfile.stages, service)]),
) as Record<Service, ImageConfig>;
const hbaseDockerfile = parseDockerfile(join(root, 'deploy/docker/hbase/Dockerfile'));

/** The port the health server listens on in a container with this environment (the image's ENV included). */
function healthPort(service: Service, env: Env): number {
  return loadRuntimeConfig({ env: { ...images[service].env, ...env } }).healthPort;
}

// ---------------------------------------------------------------------------------------------
// YAML.

function readYaml(path: string): Json[] {
  return parseAllDocuments(readFileSync(path, 'utf8')).map((doc) => {
    expect(doc.errors, path).toEqual([]);
    return doc.toJS() as Json;
  });
}

/** Keys of a mapping-form environment, values as strings (compose and ConfigMaps allow numbers). */
function stringValues(record: Json | undefined): Env {
  return Object.fromEntries(Object.entries(record ?? {}).map(([key, value]) => [key, String(value)]));
}

/** A compose environment as the services get it when the shell sets none of the ${VAR:-default} variables. */
function composeEnv(spec: Json): Env {
  return Object.fromEntries(
    Object.entries(stringValues(spec.environment)).map(([key, value]) => [
      key,
      value.replace(/\$\{\w+(?::?-([^}]*))?\}/g, (_, fallback?: string) => fallback ?? ''),
    ]),
  );
}

function hostPort(url: string): { host: string; port: number } {
  const parsed = new URL(url.includes('://') ? url : `tcp://${url}`);
  return { host: parsed.hostname, port: Number(parsed.port) };
}

// =============================================================================================

describe('health endpoints the deploy files probe', () => {
  it('are served by the health server: /healthz, /readyz and /metrics', async () => {
    const server = await startHealthServer('127.0.0.1', 0, {
      live: () => true,
      ready: () => true,
      metrics: async () => 'm 1\n',
    });
    try {
      for (const path of Object.values(HEALTH_PATHS))
        expect((await fetch(`http://127.0.0.1:${server.port}${path}`)).status, path).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('the images HEALTHCHECK (node, no curl) passes when the service is ready and fails when it is not', async () => {
    for (const ready of [true, false]) {
      const server = await startHealthServer('127.0.0.1', 0, { live: () => true, ready: () => ready });
      try {
        for (const service of SERVICES) {
          const [command, ...args] = images[service].healthcheck!;
          expect(command).toBe('node');
          const run = promisify(execFile)(process.execPath, args, {
            env: { ...images[service].env, CRAWLER_HEALTH_PORT: String(server.port) },
          });
          if (ready) await expect(run).resolves.toBeDefined();
          else await expect(run).rejects.toMatchObject({ code: 1 });
        }
      } finally {
        await server.close();
      }
    }
  });
});

describe('deploy/docker/Dockerfile', () => {
  const { stages } = serviceDockerfile;

  it('has one target per service, each running its own main.js', () => {
    const targets = stages.filter((stage) => imageConfig(stages, stage.name).entrypoint).map((stage) => stage.name);
    expect(targets.sort()).toEqual([...SERVICES].sort());
    expect(readdirSync(join(root, 'services')).sort()).toEqual([...SERVICES].sort());
    for (const service of SERVICES) {
      expect(images[service].entrypoint).toEqual(['node', `services/${service}/dist/main.js`]);
      expect(readFileSync(join(root, 'services', service, 'src', 'main.ts'), 'utf8')).toContain(`name: '${service}'`);
    }
  });

  it('builds in a full workspace and runs from a base image that has none of it', () => {
    const build = stages.find((stage) =>
      stage.instructions.some((step) => step.keyword === 'RUN' && step.args.includes('tsc -b')),
    )!;
    expect(build.instructions.some((step) => step.keyword === 'RUN' && /npm (install|ci)\b/.test(step.args))).toBe(
      true,
    );
    for (const service of SERVICES) {
      const stage = stages.find((candidate) => candidate.name === service)!;
      expect(stage.instructions.filter((step) => step.keyword === 'COPY').map((step) => step.args)).toEqual([
        `--from=${build.name} /out/${service} /app`,
      ]);
      // The runtime chain never starts from the build stage: no sources, dev dependencies or compilers.
      let link: Stage | undefined = stage;
      while (link) {
        expect(link.name).not.toBe(build.name);
        link = stages.find((candidate) => candidate.name === link!.base);
      }
    }
    for (const stage of stages.filter((candidate) => !stages.some((other) => other.name === candidate.base)))
      expectPinned(stage.base);
  });

  it('keeps schemas/ where the code looks for it, relative to packages/core/dist', () => {
    const source = readFileSync(join(root, 'packages/core/src/codec/schemas-dir.ts'), 'utf8');
    const relative = /new URL\('([^']+)', import\.meta\.url\)/.exec(source)![1]!;
    for (const service of SERVICES) {
      expect(images[service].workdir).toBe('/app');
      expect(posix.resolve('/app/packages/core/dist/codec', relative)).toBe('/app/schemas');
    }
    const assemble = readFileSync(join(root, 'deploy/docker/assemble-service.mjs'), 'utf8');
    expect(assemble).toContain("cpSync('schemas', join(out, 'schemas')");
  });

  it('runs as a numeric non-root user, exposes the health port and stops on SIGTERM', () => {
    for (const service of SERVICES) {
      const image = images[service];
      expectNonRootUser(image.user, service);
      expect(
        Object.keys(image.env).filter((name) => !PROFILES[service].known.has(name)),
        `${service}: image ENV`,
      ).toEqual([]);
      expect(image.expose).toEqual([String(healthPort(service, {}))]);
      expect(image.stopSignal).toBe('SIGTERM');
      expect(image.healthcheck!.join(' ')).toContain('process.env.CRAWLER_HEALTH_PORT');
      expect(image.healthcheck!.join(' ')).toContain(`'${HEALTH_PATHS.ready}'`);
    }
  });

  it('.dockerignore keeps local builds out, so that tsc -b compiles everything in the image', () => {
    const ignored = readFileSync(join(root, '.dockerignore'), 'utf8')
      .split('\n')
      .map((line) => line.trim());
    for (const pattern of ['**/node_modules', '**/dist', '**/*.tsbuildinfo', '.git', '.stack'])
      expect(ignored).toContain(pattern);
  });
});

describe('deploy/docker/hbase (compose demo only)', () => {
  const { args, stages } = hbaseDockerfile;
  const final = imageConfig(stages, stages.at(-1)!.name);

  it('runs the HBase the local stack runs, pinned, as a numeric non-root user', () => {
    const versions = Object.fromEntries(
      readFileSync(join(root, 'deploy/local/versions.env'), 'utf8')
        .split('\n')
        .filter((line) => /^\w+=/.test(line))
        .map((line) => line.split('=') as [string, string]),
    );
    for (const name of ['HBASE_VERSION', 'HBASE_LOG4J2_VERSION', 'MVN_DEPENDENCY_PLUGIN'])
      expect(args[name], name).toBe(versions[name]);
    expect(
      stages.some((stage) => stage.instructions.some((step) => step.args.startsWith('deploy/local/poms/hbase.xml'))),
    ).toBe(true);
    for (const stage of stages) expectPinned(stage.base);
    expectNonRootUser(final.user, 'hbase');
    expect(final.stopSignal).toBe('SIGTERM');
  });

  it('starts HBase with the JDK 17 flags the local stack uses, from the one shared list', () => {
    const flags = readFileSync(join(root, 'deploy/local/hbase-jvm-flags.txt'), 'utf8')
      .split('\n')
      .filter((line) => /^-/.test(line));
    expect(flags).toContain('--add-opens=java.base/java.nio=ALL-UNNAMED');
    const copied = stages
      .at(-1)!
      .instructions.filter((step) => step.keyword === 'COPY')
      .map((step) => step.args);
    expect(copied.some((args) => /deploy\/local\/hbase-jvm-flags\.txt .*\/opt\/hbase\/conf\/$/.test(args))).toBe(true);
    expect(readFileSync(join(root, 'deploy/docker/hbase/hbase-standalone.sh'), 'utf8')).toContain(
      '$HBASE_HOME/conf/hbase-jvm-flags.txt',
    );
    expect(readFileSync(join(root, 'deploy/local/hbase.sh'), 'utf8')).toContain('$LOCAL_DIR/hbase-jvm-flags.txt');
    for (const script of ['deploy/docker/hbase/hbase-standalone.sh', 'deploy/local/hbase.sh'])
      expect(readFileSync(join(root, script), 'utf8')).not.toContain('--add-opens');
  });

  it('exposes the REST gateway port its hbase-site.xml sets', () => {
    const site = readFileSync(join(root, 'deploy/docker/hbase/hbase-site.xml'), 'utf8');
    const restPort = /<name>hbase\.rest\.port<\/name><value>(\d+)<\/value>/.exec(site)![1]!;
    expect(final.expose).toEqual([restPort]);
    expect(final.healthcheck!.join(' ')).toContain(`/dev/tcp/127.0.0.1/${restPort}`);
  });
});

describe('deploy/compose/compose.yaml', () => {
  const composeDir = join(root, 'deploy/compose');
  const compose = parse(readFileSync(join(composeDir, 'compose.yaml'), 'utf8'), { merge: true }) as Json;
  const services = compose.services as Record<string, Json>;
  const INFRA = ['kafka', 'schema-registry', 'elasticsearch', 'hbase', 'redis'];
  const kafkaEnv = stringValues(services.kafka!.environment);
  const internalKafkaPort = Number(/INTERNAL:\/\/[^,]*:(\d+)/.exec(kafkaEnv.KAFKA_LISTENERS!)![1]);
  /** Where each store listens inside the compose network (Elasticsearch and Redis: their images' defaults). */
  const listeners: Record<string, number> = {
    kafka: internalKafkaPort,
    elasticsearch: 9200,
    redis: 6379,
    'schema-registry': 8080,
    hbase: Number(imageConfig(hbaseDockerfile.stages, hbaseDockerfile.stages.at(-1)!.name).expose[0]),
  };

  it('runs the four services, their stores and the schema registry, nothing else', () => {
    expect(Object.keys(services).sort()).toEqual([...SERVICES, ...INFRA].sort());
  });

  it('builds each service from its Dockerfile target, with the repository as context', () => {
    for (const service of SERVICES) {
      const build = services[service]!.build as Json;
      expect(resolve(composeDir, build.context)).toBe(resolve(root));
      expect(build.dockerfile).toBe('deploy/docker/Dockerfile');
      expect(build.target).toBe(service);
      // The same image names the Kubernetes manifests use, with a local tag.
      expect(services[service]!.image).toBe(`crawler/${service}:local`);
    }
    expect(resolve(composeDir, services.hbase!.build.context)).toBe(resolve(root));
    expect(services.hbase!.build.dockerfile).toBe('deploy/docker/hbase/Dockerfile');
    for (const name of ['kafka', 'elasticsearch', 'redis', 'schema-registry']) expectPinned(services[name]!.image);
  });

  it('gives each service exactly the variables it reads, with values its settings accept, pointing at the stores', () => {
    for (const service of SERVICES) {
      const spec = services[service]!;
      const env = composeEnv(spec);
      const runtime = checkServiceEnv(service, env, `compose ${service}`);
      expect(runtime.topicPrefix).toBe('');
      const dependsOn = spec.depends_on as Record<string, { condition: string }>;
      // Every service writes through the registry, so every one waits for it.
      expect(env.SCHEMA_REGISTRY_URL, service).toBeDefined();
      for (const name of [
        'KAFKA_BROKERS',
        'SCHEMA_REGISTRY_URL',
        'ELASTICSEARCH_URL',
        'REDIS_URL',
        'HBASE_REST_URL',
      ].filter((variable) => env[variable])) {
        for (const address of env[name]!.split(',')) {
          const { host, port } = hostPort(address);
          expect(INFRA, `${service}: ${name}`).toContain(host);
          expect(port, `${service}: ${name}`).toBe(listeners[host]);
          // Started only once the store answers.
          expect(dependsOn[host]?.condition, `${service} depends on ${host}`).toBe('service_healthy');
        }
      }
    }
  });

  it('mounts the crawl job where CRAWL_JOB_FILE points, and the job is valid', () => {
    for (const service of SERVICES) {
      const env = composeEnv(services[service]!);
      if (!env.CRAWL_JOB_FILE) continue;
      const mount = (services[service]!.volumes as string[])
        .map((volume) => volume.split(':'))
        .find(([, target]) => target === env.CRAWL_JOB_FILE);
      expect(mount, `${service}: job file mount`).toBeDefined();
      expect(mount![2]).toBe('ro');
      expect(() =>
        crawlJobSchema.parse(JSON.parse(readFileSync(resolve(composeDir, mount![0]!), 'utf8'))),
      ).not.toThrow();
    }
  });

  it('waits for healthy stores and starts the scheduler after its consumers', () => {
    for (const [name, spec] of Object.entries(services)) {
      for (const [dependency, { condition }] of Object.entries(
        (spec.depends_on ?? {}) as Record<string, { condition: string }>,
      )) {
        expect(condition).toBe('service_healthy');
        // A health state needs a healthcheck: in the compose file, or the image's HEALTHCHECK.
        const hasCheck =
          services[dependency]!.healthcheck || dependency === 'hbase' || SERVICES.includes(dependency as Service);
        expect(hasCheck, `${name} waits for ${dependency}`).toBeTruthy();
      }
    }
    expect(Object.keys(services.scheduler!.depends_on)).toEqual(
      expect.arrayContaining(['dedup', 'fetcher', 'linkextract']),
    );
  });

  it('publishes the health port (the scheduler also its admin API) on loopback, read-only, unprivileged, within the partitions', () => {
    for (const service of SERVICES) {
      const spec = services[service]!;
      expect(spec.ports[0]).toBe(`127.0.0.1::${healthPort(service, composeEnv(spec))}`);
      expect(spec.read_only).toBe(true);
      expect(spec.cap_drop).toEqual(['ALL']);
      expect(spec.privileged).toBeUndefined();
      expect(spec.user).toBeUndefined();
      expect(spec.stop_grace_period).toBe('30s');
      const replicas = spec.deploy?.replicas ?? 1;
      expect(replicas, `${service} replicas`).toBeLessThanOrEqual(maxUsefulReplicas(service));
    }
    const schedulers = services.scheduler!.deploy.replicas;
    expect(schedulers).toBeGreaterThan(1);
    // Besides the health port, only the schedulers' admin API, on the host's loopback, one port per replica.
    for (const service of ['fetcher', 'linkextract', 'dedup'] as const)
      expect(services[service]!.ports).toHaveLength(1);
    const { adminPort } = loadSchedulerConfig({ env: composeEnv(services.scheduler!) });
    expect(services.scheduler!.ports.slice(1)).toEqual([
      `127.0.0.1:${adminPort}-${adminPort + schedulers - 1}:${adminPort}`,
    ]);
  });

  it('runs Kafka so that the catalog can be applied: no auto-created topics, room for the largest message', () => {
    expect(kafkaEnv.KAFKA_AUTO_CREATE_TOPICS_ENABLE).toBe('false');
    expect(Number(kafkaEnv.KAFKA_MESSAGE_MAX_BYTES)).toBeGreaterThanOrEqual(largestMessage);
    expect(Number(kafkaEnv.KAFKA_REPLICA_FETCH_MAX_BYTES)).toBeGreaterThanOrEqual(largestMessage);
    // One broker: the topics the services create must fit on it.
    for (const service of SERVICES)
      expect(loadKafkaConfig({ env: composeEnv(services[service]!) }).replicationFactor).toBe(1);
  });
});

describe('deploy/k8s', () => {
  const dir = join(root, 'deploy/k8s');
  const kustomization = readYaml(join(dir, 'kustomization.yaml'))[0]!;
  const files = readdirSync(dir).filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml');
  const objects = files.flatMap((file) => readYaml(join(dir, file)).map((object) => ({ file, object })));
  const ofKind = (kind: string) => objects.filter(({ object }) => object.kind === kind).map(({ object }) => object);
  const byName = (kind: string, name: string) => ofKind(kind).find((object) => object.metadata.name === name);
  const deployments = ofKind('Deployment');

  it('kustomization lists every manifest and every image', () => {
    expect([...kustomization.resources].sort()).toEqual([...files].sort());
    expect(kustomization.images.map((image: Json) => image.name).sort()).toEqual(
      SERVICES.map((service) => `crawler/${service}`).sort(),
    );
  });

  it('every object has the shape of its kind (kubernetes-models schemas) and lives in the namespace', () => {
    const models: Record<string, new (data: Json) => { validate(): void }> = {
      'v1/Namespace': Namespace,
      'v1/ConfigMap': ConfigMap,
      'v1/Secret': Secret,
      'apps/v1/Deployment': Deployment,
      'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
      'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
    };
    const namespace = ofKind('Namespace')[0]!.metadata.name;
    expect(kustomization.namespace).toBe(namespace);
    for (const { file, object } of objects) {
      const Model = models[`${object.apiVersion}/${object.kind}`];
      expect(Model, `${file}: ${object.apiVersion} ${object.kind}`).toBeDefined();
      expect(() => new Model!(object).validate(), `${file}: ${object.kind} ${object.metadata?.name}`).not.toThrow();
      if (object.kind !== 'Namespace')
        expect(object.metadata.namespace, `${file}: ${object.kind} ${object.metadata.name}`).toBe(namespace);
    }
  });

  it('has one Deployment per service, each running its image with labels its selector matches', () => {
    expect(deployments.map((deployment) => deployment.metadata.name).sort()).toEqual([...SERVICES].sort());
    for (const deployment of deployments) {
      const service = deployment.metadata.name as Service;
      expect(deployment.spec.template.metadata.labels).toMatchObject(deployment.spec.selector.matchLabels);
      const containers = deployment.spec.template.spec.containers as Json[];
      expect(containers.map((container) => container.name)).toEqual([service]);
      expect(containers[0]!.image).toMatch(new RegExp(`^crawler/${service}:`));
    }
  });

  /** A container's environment as the kubelet builds it; Secret values count as unset ("") until filled in. */
  function containerEnv(deployment: Json): Env {
    const container = deployment.spec.template.spec.containers[0] as Json;
    const env: Env = {};
    for (const source of container.envFrom ?? []) {
      const configMap = byName('ConfigMap', source.configMapRef.name);
      expect(configMap, `${deployment.metadata.name}: ConfigMap ${source.configMapRef.name}`).toBeDefined();
      Object.assign(env, stringValues(configMap!.data));
    }
    for (const variable of container.env ?? []) {
      const ref = variable.valueFrom?.secretKeyRef as Json | undefined;
      if (!ref) {
        env[variable.name] = String(variable.value);
        continue;
      }
      expect(ref.optional, `${variable.name}: a missing credential is an unset one`).toBe(true);
      expect(
        Object.keys(byName('Secret', ref.name)?.stringData ?? {}),
        `${variable.name}: Secret ${ref.name}`,
      ).toContain(ref.key);
      env[variable.name] = byName('Secret', ref.name)!.stringData[ref.key];
    }
    return env;
  }

  it('gives each service exactly the variables it reads, with values its settings accept', () => {
    for (const deployment of deployments) {
      const service = deployment.metadata.name as Service;
      checkServiceEnv(service, containerEnv(deployment), `k8s ${service}`);
    }
  });

  it('keeps credentials in the Secret: no ConfigMap carries a secret setting with credentials in it', () => {
    const secretKeys = Object.keys(ofKind('Secret')[0]!.stringData);
    for (const key of secretKeys)
      expect(
        SERVICES.some((service) => PROFILES[service].known.has(key)),
        key,
      ).toBe(true);
    for (const configMap of ofKind('ConfigMap')) {
      for (const [key, value] of Object.entries(stringValues(configMap.data))) {
        if (!SECRET_SETTINGS.has(key)) continue;
        // URL-valued settings are marked secret because they may carry user:password@; these must not.
        expect(value, `${configMap.metadata.name}: ${key}`).not.toMatch(/\/\/[^/]*@/);
      }
    }
    for (const key of SECRET_SETTINGS) {
      if (['REDIS_URL', 'HBASE_REST_URL', 'SCHEMA_REGISTRY_URL'].includes(key)) continue;
      for (const configMap of ofKind('ConfigMap'))
        expect(Object.keys(configMap.data ?? {}), `${configMap.metadata.name}`).not.toContain(key);
    }
    // Every credential is used by some service.
    const referenced = new Set(
      deployments.flatMap((deployment) =>
        (deployment.spec.template.spec.containers[0].env ?? []).map(
          (variable: Json) => variable.valueFrom?.secretKeyRef?.key,
        ),
      ),
    );
    expect(secretKeys.filter((key) => !referenced.has(key))).toEqual([]);
  });

  it('mounts the crawl job where CRAWL_JOB_FILE points, and the job is valid', () => {
    for (const deployment of deployments) {
      const jobFile = containerEnv(deployment).CRAWL_JOB_FILE;
      if (!jobFile) continue;
      const pod = deployment.spec.template.spec as Json;
      const mount = (pod.containers[0].volumeMounts as Json[]).find(
        (candidate) => candidate.mountPath === dirname(jobFile),
      );
      expect(mount, `${deployment.metadata.name}: mount of ${dirname(jobFile)}`).toBeDefined();
      expect(mount!.readOnly).toBe(true);
      const volume = (pod.volumes as Json[]).find((candidate) => candidate.name === mount!.name)!;
      const job = byName('ConfigMap', volume.configMap.name)!.data[basename(jobFile)] as string;
      expect(() => crawlJobSchema.parse(JSON.parse(job))).not.toThrow();
    }
  });

  it('probes /healthz and /readyz and is scraped on /metrics, all on the health port', () => {
    for (const deployment of deployments) {
      const service = deployment.metadata.name as Service;
      const port = healthPort(service, containerEnv(deployment));
      const container = deployment.spec.template.spec.containers[0] as Json;
      const named = (container.ports as Json[]).find(
        (candidate) => candidate.name === container.livenessProbe.httpGet.port,
      );
      expect(named?.containerPort, service).toBe(port);
      expect(container.livenessProbe.httpGet).toEqual({ path: HEALTH_PATHS.live, port: named!.name });
      expect(container.readinessProbe.httpGet).toEqual({ path: HEALTH_PATHS.ready, port: named!.name });
      expect(deployment.spec.template.metadata.annotations).toEqual({
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': String(port),
        'prometheus.io/path': HEALTH_PATHS.metrics,
      });
    }
  });

  it('runs as the image user, non-root, on a read-only root filesystem, with bounded resources', () => {
    const quantity = (value: string) => {
      const match = /^(\d+(?:\.\d+)?)(m|Ki|Mi|Gi)?$/.exec(String(value))!;
      return Number(match[1]) * ({ m: 1e-3, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30 }[match[2] as 'm'] ?? 1);
    };
    for (const deployment of deployments) {
      const service = deployment.metadata.name as Service;
      const pod = deployment.spec.template.spec as Json;
      const container = pod.containers[0] as Json;
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      expect(pod.securityContext.runAsUser).toBe(expectNonRootUser(images[service].user, service));
      expect(pod.automountServiceAccountToken).toBe(false);
      expect(container.securityContext).toMatchObject({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      });
      for (const resource of ['cpu', 'memory']) {
        const { requests, limits } = container.resources;
        expect(quantity(requests[resource]), `${service} ${resource}`).toBeLessThanOrEqual(quantity(limits[resource]));
      }
      // The longest drain (10 s), the commit, leaving the group, closing the stores and the 2 s exit timer.
      expect(pod.terminationGracePeriodSeconds, service).toBeGreaterThanOrEqual(20);
    }
  });

  it('runs several schedulers, rolled one at a time, and scales every service within its partitions', () => {
    const scheduler = byName('Deployment', 'scheduler')!;
    expect(scheduler.spec.replicas).toBeGreaterThan(1);
    expect(scheduler.spec.strategy).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: 1, maxUnavailable: 0 },
    });
    const autoscalers = ofKind('HorizontalPodAutoscaler');
    for (const deployment of deployments) {
      const service = deployment.metadata.name as Service;
      expect(deployment.spec.replicas ?? 1, service).toBeLessThanOrEqual(maxUsefulReplicas(service));
    }
    expect(autoscalers.map((hpa) => hpa.spec.scaleTargetRef)).toEqual([
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'fetcher' },
    ]);
    const [fetchers] = autoscalers;
    expect(fetchers!.spec.minReplicas).toBeGreaterThanOrEqual(1);
    expect(fetchers!.spec.maxReplicas).toBe(maxUsefulReplicas('fetcher'));
    // The autoscaler owns the count; a replicas field would be reset on every apply.
    expect(byName('Deployment', 'fetcher')!.spec.replicas).toBeUndefined();
  });

  it('limits voluntary disruptions of the fetchers to one at a time', () => {
    const budgets = ofKind('PodDisruptionBudget');
    expect(budgets).toHaveLength(1);
    expect(budgets[0]!.spec.maxUnavailable).toBe(1);
    expect(byName('Deployment', 'fetcher')!.spec.template.metadata.labels).toMatchObject(
      budgets[0]!.spec.selector.matchLabels,
    );
  });
});
