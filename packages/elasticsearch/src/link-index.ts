import type { Client } from '@elastic/elasticsearch';
import { responseCause } from './elasticsearch-errors.js';
import type { ElasticsearchConfig } from './elasticsearch-settings.js';
import { controlIndexName } from './link-control.js';
import { LINK_MAPPINGS, dynamicIndexSettings, linkIndexTemplate } from './link-index-template.js';
import { queueIndexName } from './queue-index.js';

/**
 * Installs the index template, then creates the index if it is missing. An existing index gets
 * the current mappings (new fields are added; a changed type fails with the cluster's reason) and
 * dynamic settings, so running this again, from any number of processes, is harmless.
 * Returns true when this call created the index.
 */
export async function installLinkIndex(
  client: Client,
  config: Pick<ElasticsearchConfig, 'index' | 'shards' | 'replicas'>,
): Promise<boolean> {
  await client.indices.putIndexTemplate(linkIndexTemplate(config));
  try {
    await client.indices.create({ index: config.index });
    return true;
  } catch (error) {
    if (responseCause(error).type !== 'resource_already_exists_exception') throw error;
  }
  await client.indices.putMapping({ index: config.index, ...LINK_MAPPINGS });
  await client.indices.putSettings({ index: config.index, settings: dynamicIndexSettings(config) });
  return false;
}

/** Deletes a link base: its index, the control and queue indices beside it, and its template, by exact name (the cluster refuses wildcard deletes). */
export async function deleteLinkBase(client: Client, index: string): Promise<void> {
  for (const name of [index, controlIndexName(index), queueIndexName(index)])
    await client.indices.delete({ index: name }, { ignore: [404] });
  await client.indices.deleteIndexTemplate({ name: index }, { ignore: [404] });
}
