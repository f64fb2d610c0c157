import type { Logger } from '@crawler/core';
import { PAGE_FAMILY } from './page-cells.js';
import type { HbaseRestClient, TableSchema } from './rest-client.js';

export function pageTableSchema(table: string, maxVersions: number): TableSchema {
  // ROW blooms let a get for an unknown page skip store files; HBase-side compression stays off
  // because cells arrive gzip-compressed already.
  return {
    name: table,
    ColumnSchema: [{ name: PAGE_FAMILY, VERSIONS: String(maxVersions), BLOOMFILTER: 'ROW', COMPRESSION: 'NONE' }],
  };
}

export interface PageTableState {
  action: 'created' | 'family-added' | 'exists';
  /** Versions the page family keeps, as the table says (an existing table may differ from HBASE_MAX_VERSIONS). */
  versions: number;
}

/**
 * Creates the table, or its page family, when missing; an existing family is left as it is. The
 * gateway's schema writes disable the table while they run, so they are made only when needed.
 */
export async function ensurePageTable(
  client: HbaseRestClient,
  table: string,
  maxVersions: number,
  log: Logger,
): Promise<PageTableState> {
  const schema = pageTableSchema(table, maxVersions);
  const existing = await client.getSchema(table);
  if (!existing) {
    // Two instances starting at once may both get here; the second PUT rewrites the same schema.
    await client.createTable(schema);
    log.info({ versions: maxVersions }, 'created the page table');
    return { action: 'created', versions: maxVersions };
  }
  const family = existing.ColumnSchema.find((candidate) => candidate.name === PAGE_FAMILY);
  if (!family) {
    await client.alterFamilies(schema);
    log.warn(
      { family: PAGE_FAMILY, versions: maxVersions },
      'added the missing page column family to an existing table',
    );
    return { action: 'family-added', versions: maxVersions };
  }
  const versions = Number(family.VERSIONS ?? 1);
  if (versions !== maxVersions) {
    // Changing VERSIONS needs the table disabled for a moment; that is for an operator to do.
    log.warn(
      { tableVersions: versions, maxVersions },
      'the page family keeps a different number of versions than HBASE_MAX_VERSIONS; the table wins',
    );
  }
  return { action: 'exists', versions };
}
