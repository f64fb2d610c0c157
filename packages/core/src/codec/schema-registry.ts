import { ErrorCode } from '../error-codes.js';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import avro from 'avsc';
import { CodecError } from '../errors.js';
import { fingerprintHex, rabinFingerprint } from './rabin-fingerprint.js';
import { schemasDir } from './schemas-dir.js';

export interface SchemaVersion {
  /** Full name, e.g. crawler.FrontierRequest. */
  name: string;
  version: number;
  fingerprint: bigint;
  fingerprintHex: string;
  type: avro.Type;
  /** The schema as written in its .avsc file (docs and defaults kept), compact: what a schema registry is given. */
  definition: string;
  current: boolean;
}

interface LockFile {
  [name: string]: { version: number; fingerprint: string }[];
}

/**
 * Every schema version the crawler has ever written: the current ones in schemas/avro and the
 * superseded ones in schemas/history. schemas/fingerprints.json pins which version each is, so a
 * schema edited without a version bump is caught instead of silently breaking old messages.
 */
export class SchemaRegistry {
  private readonly byFingerprint = new Map<bigint, SchemaVersion>();
  private readonly currentByName = new Map<string, SchemaVersion>();

  static load(dir: string = schemasDir()): SchemaRegistry {
    const lock = JSON.parse(readFileSync(join(dir, 'fingerprints.json'), 'utf8')) as LockFile;
    const registry = new SchemaRegistry();
    const listed = (folder: string) =>
      existsSync(join(dir, folder)) ? readdirSync(join(dir, folder)).filter((f) => f.endsWith('.avsc')) : [];
    const files = [
      ...listed('avro').map((f) => ({ path: join(dir, 'avro', f), current: true })),
      ...listed('history').map((f) => ({ path: join(dir, 'history', f), current: false })),
    ];
    for (const file of files) registry.add(file.path, file.current, lock);
    return registry;
  }

  private add(path: string, current: boolean, lock: LockFile): void {
    const json: unknown = JSON.parse(readFileSync(path, 'utf8'));
    const type = avro.Type.forSchema(json as avro.Schema);
    const name = type.name;
    if (!name) throw new CodecError(ErrorCode.CODEC_INVALID_VALUE, `${path}: top-level schema must be a named record`);
    const fingerprint = rabinFingerprint(JSON.stringify(type.schema()));
    const hex = fingerprintHex(fingerprint);
    const pinned = lock[name]?.find((entry) => entry.fingerprint === hex);
    if (!pinned) {
      throw new CodecError(
        ErrorCode.CODEC_UNKNOWN_SCHEMA,
        `${path}: fingerprint ${hex} of ${name} is not in schemas/fingerprints.json; a changed schema needs a new version (see schemas/README.md)`,
      );
    }
    const entry: SchemaVersion = {
      name,
      version: pinned.version,
      fingerprint,
      fingerprintHex: hex,
      type,
      definition: JSON.stringify(json),
      current,
    };
    this.byFingerprint.set(fingerprint, entry);
    if (current) this.currentByName.set(name, entry);
  }

  current(name: string): SchemaVersion {
    const entry = this.currentByName.get(name);
    if (!entry) throw new CodecError(ErrorCode.CODEC_UNKNOWN_SCHEMA, `no current schema named ${name}`);
    return entry;
  }

  find(fingerprint: bigint): SchemaVersion | undefined {
    return this.byFingerprint.get(fingerprint);
  }

  all(): SchemaVersion[] {
    return [...this.byFingerprint.values()];
  }

  /** The version whose Parsing Canonical Form a schema text has (as a registry hands it back), if it is one of ours. */
  identify(definition: string): SchemaVersion | undefined {
    try {
      return this.find(
        rabinFingerprint(JSON.stringify(avro.Type.forSchema(JSON.parse(definition) as avro.Schema).schema())),
      );
    } catch {
      return undefined;
    }
  }

  /** Every known version of one schema, oldest first. */
  versionsOf(name: string): SchemaVersion[] {
    return this.all()
      .filter((entry) => entry.name === name)
      .sort((a, b) => a.version - b.version);
  }

  /** Problems that would stop the current schemas from reading bytes written by older versions. */
  backwardCompatibilityProblems(): string[] {
    const problems: string[] = [];
    for (const writer of this.byFingerprint.values()) {
      if (writer.current) continue;
      const reader = this.currentByName.get(writer.name);
      if (!reader) {
        problems.push(`${writer.name} v${writer.version} has no current schema to be read with`);
        continue;
      }
      try {
        reader.type.createResolver(writer.type);
      } catch (error) {
        problems.push(`${writer.name} v${reader.version} cannot read v${writer.version}: ${(error as Error).message}`);
      }
    }
    return problems;
  }

  currentNames(): string[] {
    return [...this.currentByName.keys()].sort();
  }
}
