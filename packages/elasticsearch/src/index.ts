export { elasticsearchSettings, loadElasticsearchConfig, type ElasticsearchConfig } from './elasticsearch-settings.js';
export { createElasticsearchLinkBase } from './elasticsearch-linkbase.js';
export { createElasticsearchClient } from './elasticsearch-client.js';
export { BulkItemsError, type BulkFailure } from './elasticsearch-errors.js';
export { LINK_MAPPINGS, linkIndexTemplate } from './link-index-template.js';
export { deleteLinkBase } from './link-index.js';
export { queueIndexName } from './queue-index.js';
