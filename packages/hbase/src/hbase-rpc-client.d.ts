// hbase-rpc-client 0.1.15 ships no types. Only what the evidence test and the benchmark use;
// errors reach callbacks as strings ('timedout') or protobuf exception objects.
declare module 'hbase-rpc-client' {
  import type { EventEmitter } from 'node:events';
  import type { Socket } from 'node:net';

  /** CommonJS: module.exports is this function, with Put and Get on it. */
  function hbase(options: hbase.ClientOptions): hbase.Client;

  namespace hbase {
    export interface ClientOptions {
      zookeeperHosts: string[];
      zookeeperRoot?: string;
      zookeeperReconnectTimeout?: number;
      /** Gives up finding ZooKeeper or a region server after this long (emits 'error', see README). */
      rpcTimeout?: number;
      /** Per call. */
      callTimeout?: number;
      tcpNoDelay?: boolean;
    }

    /** A server-side exception as the client hands it over. */
    export interface RemoteException {
      exceptionClassName: string;
      stackTrace?: string;
    }

    export type RpcError = string | RemoteException | Error;
    export type Callback<T> = (error: RpcError | null | undefined, result: T) => void;

    export interface CellValue {
      value: Buffer;
      /** A protobufjs Long. */
      timestamp: { toNumber(): number };
    }

    export interface GetResult {
      row: Buffer;
      /** 'family:qualifier' -> one cell, or an array when several versions came back. */
      cols: Record<string, CellValue | CellValue[]>;
    }

    export class Put {
      constructor(row: string | Buffer, timestamp?: number);
      add(family: string, qualifier: string, value: string | Buffer, timestamp?: number): this;
    }

    export class Get {
      constructor(row: string | Buffer);
      addColumn(family: string, qualifier?: string): this;
      setMaxVersions(versions: number): this;
      setTimeRange(from: number, to: number): this;
    }

    export interface Client extends EventEmitter {
      put(table: string, put: Put, callback: Callback<unknown>): void;
      mput(table: string, puts: Put[], callback: Callback<unknown[]>): void;
      get(table: string, get: Get, callback: Callback<GetResult | null>): void;
      /** Internals: the client has no close(), so its ZooKeeper session and sockets are shut by hand. */
      zk: { close(): void };
      servers: Record<string, { socket?: Socket }>;
    }
  }

  export = hbase;
}
