import { describeLinkBaseContract } from '@crawler/core/testing';
import { createElasticsearchLinkBase } from './elasticsearch-linkbase.js';
import { dropTestIndex, quiet, testConfig } from './testing/test-index.js';

describeLinkBaseContract('elasticsearch', async () => {
  const config = testConfig();
  let current = await createElasticsearchLinkBase(config, quiet);
  return {
    linkbase: current,
    reopen: async () => {
      await current.close();
      current = await createElasticsearchLinkBase(config, quiet);
      return current;
    },
    cleanup: () => dropTestIndex(config.index),
  };
});
