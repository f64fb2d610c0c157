import { silentLogger, type PageStore } from '@crawler/core';
import { describePageStoreContract } from '@crawler/core/testing';
import { createHbasePageStore } from './hbase-page-store.js';
import { dropTable, localHbaseConfig } from './testing/index.js';

describePageStoreContract('hbase (REST gateway)', async () => {
  const config = localHbaseConfig();
  let current: PageStore = await createHbasePageStore(config, silentLogger());
  return {
    store: current,
    reopen: async () => {
      await current.close();
      current = await createHbasePageStore(config, silentLogger());
      return current;
    },
    cleanup: () => dropTable(config),
  };
});
