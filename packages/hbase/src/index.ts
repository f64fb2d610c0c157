export { hbaseSettings, loadHbaseConfig, type HbaseConfig } from './hbase-settings.js';
export { createHbasePageStore, pageRowKey } from './hbase-page-store.js';
export { CellEncodingError, CellTooLargeError } from './hbase-errors.js';
export { CellEncoding, decodeCell, encodeCell } from './cell-codec.js';
export { PAGE_FAMILY, PageQualifier } from './page-cells.js';
export {
  createHbaseRestClient,
  type HbaseCell,
  type HbaseRestClient,
  type HbaseRestClientOptions,
  type HbaseRow,
  type TableSchema,
} from './rest-client.js';
export { scanCaptures, type CaptureRange } from './scan-captures.js';
