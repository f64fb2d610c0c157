import { BackendError, type Logger, ErrorCode } from '@crawler/core';
import { Cluster, type ChainableCommander } from 'ioredis';
import type { RedisClient, RedisConnection } from './redis-connection.js';
import { describeRedisError, isAuthError, isRedirection, toBackendError } from './redis-errors.js';

/** One command of a batch: the slot its keys hash to (0 in standalone) and the ioredis method to call. */
export interface RoutedCommand {
  slot: number;
  /** A built-in command (get, mget, set, ...) or a script defined on the client. */
  method: string;
  args: (string | number)[];
}

/** One pipeline written to one node: a network round trip. */
export interface PipelineEvent {
  operation: string;
  /** host:port of the node, or "redirected" for a command resent alone after MOVED/ASK/TRYAGAIN/CLUSTERDOWN. */
  node: string;
  commands: number;
}

export interface PipelineRunnerOptions {
  timeoutMs: number;
  logger: Logger;
  onPipeline?: (event: PipelineEvent) => void;
}

/** What a call ran into so far, for the message if its deadline passes. */
interface Trace {
  lastError?: unknown;
}

type Invoker = Record<string, (...args: (string | number)[]) => unknown>;

function invoke<T>(target: ChainableCommander | RedisClient, command: RoutedCommand): T {
  return (target as unknown as Invoker)[command.method]!(...command.args) as T;
}

/**
 * Sends a batch as one pipeline per node, in parallel: a batch of thousands is a round trip per
 * node, not per key. The whole call, waiting for a connection included, has one deadline.
 */
export class PipelineRunner {
  private closed = false;
  /** Settles when the client is next ready; shared by every call waiting for it. */
  private readiness: Promise<'ready' | 'end' | { error: unknown }> | undefined;

  constructor(
    private readonly connection: RedisConnection,
    private readonly options: PipelineRunnerOptions,
  ) {}

  /** Replies in the order of `commands`; any failure becomes a BackendError naming `operation`. */
  async execute(operation: string, commands: RoutedCommand[]): Promise<unknown[]> {
    if (this.closed)
      throw new BackendError(`redis ${operation} failed: the store is closed`, { code: ErrorCode.BACKEND_REFUSED });
    if (commands.length === 0) return [];
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.options.timeoutMs);
    try {
      await this.ready(operation, deadline.signal);
      const trace: Trace = {};
      const expired = this.expiry(deadline.signal, () => {
        const why =
          trace.lastError === undefined
            ? ''
            : `; last error: ${describeRedisError(trace.lastError, this.connection.secrets)}`;
        return `redis ${operation} failed: no reply within ${this.options.timeoutMs} ms${why}`;
      });
      return await Promise.race([this.dispatch(operation, commands, trace), expired]);
    } catch (error) {
      throw toBackendError(operation, error, this.connection.secrets);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Quits cleanly when connected; otherwise just stops reconnecting. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const { client } = this.connection;
    if (client.status === 'ready') {
      const quit = client.quit().then(
        () => undefined,
        () => undefined,
      );
      const gaveUp = new Promise<void>((resolve) => setTimeout(resolve, this.options.timeoutMs).unref());
      await Promise.race([quit, gaveUp]);
    }
    client.disconnect();
  }

  /**
   * Waits for the client to be ready rather than queueing commands offline, so an outage costs each
   * call its deadline and no memory. A rejected password fails at once: waiting cannot fix it.
   */
  private async ready(operation: string, signal: AbortSignal): Promise<void> {
    const { client } = this.connection;
    if (client.status === 'ready') return;
    const closed = () =>
      new BackendError(`redis ${operation} failed: the connection was closed`, { code: ErrorCode.BACKEND_REFUSED });
    if (client.status === 'end') throw closed();
    if (isAuthError(this.connection.lastError())) throw this.connection.lastError();
    this.readiness ??= this.watchReadiness().finally(() => (this.readiness = undefined));
    const outcome = await Promise.race([
      this.readiness,
      this.expiry(signal, () => {
        const last = this.connection.lastError();
        const why = last === undefined ? '' : `; last error: ${describeRedisError(last, this.connection.secrets)}`;
        return `redis ${operation} failed: no connection to ${this.connection.nodes.join(',')} within ${this.options.timeoutMs} ms${why}`;
      }),
    ]);
    if (outcome === 'end') throw closed();
    if (outcome !== 'ready') throw outcome.error;
  }

  /**
   * One set of listeners however many calls wait (no listener pile-up in an outage), settled by the
   * next ready, end, or rejected login.
   */
  private watchReadiness(): Promise<'ready' | 'end' | { error: unknown }> {
    const { client } = this.connection;
    return new Promise((resolve) => {
      const settle = (outcome: 'ready' | 'end' | { error: unknown }) => {
        client.off('ready', onReady);
        client.off('error', onError);
        client.off('end', onEnd);
        resolve(outcome);
      };
      const onReady = () => settle('ready');
      const onError = (error: unknown) => {
        if (isAuthError(error)) settle({ error });
      };
      const onEnd = () => settle('end');
      client.on('ready', onReady);
      client.on('error', onError);
      client.on('end', onEnd);
    });
  }

  private expiry(signal: AbortSignal, message: () => string): Promise<never> {
    return new Promise((_, reject) =>
      signal.addEventListener('abort', () => reject(new BackendError(message())), { once: true }),
    );
  }

  private async dispatch(operation: string, commands: RoutedCommand[], trace: Trace): Promise<unknown[]> {
    const replies = new Array<unknown>(commands.length);
    const errors = new Array<unknown>(commands.length);
    const { groups, unrouted } = this.groupByNode(commands);
    // A pipeline goes to one node as a whole. Commands whose slot has moved come back with
    // MOVED/ASK/TRYAGAIN/CLUSTERDOWN and are resent one by one, so that ioredis follows the
    // redirection and refreshes its slot map, up to its maxRedirections.
    const resend = [...unrouted];
    await Promise.all(
      [...groups].map(async ([node, indexes]) => {
        const pipeline = this.connection.client.pipeline();
        for (const index of indexes) invoke(pipeline, commands[index]!);
        this.options.onPipeline?.({ operation, node, commands: indexes.length });
        let results: [Error | null, unknown][] | null;
        try {
          results = await pipeline.exec();
        } catch (error) {
          trace.lastError = error;
          // ioredis refuses a whole pipeline when its slot map changed under the grouping; alone, each command finds its node.
          if (!(this.connection.client instanceof Cluster)) throw error;
          resend.push(...indexes);
          return;
        }
        (results ?? []).forEach(([error, reply], position) => {
          const index = indexes[position]!;
          if (!error) replies[index] = reply;
          else if (isRedirection(error)) resend.push(index);
          else errors[index] = error;
          if (error) trace.lastError = error;
        });
      }),
    );
    if (resend.length > 0) {
      this.options.logger.debug(
        { operation, commands: resend.length, error: describeRedisError(trace.lastError, this.connection.secrets) },
        'resending commands one by one after a cluster redirection',
      );
      await Promise.all(
        resend.map(async (index) => {
          this.options.onPipeline?.({ operation, node: 'redirected', commands: 1 });
          try {
            replies[index] = await invoke<Promise<unknown>>(this.connection.client, commands[index]!);
          } catch (error) {
            errors[index] = trace.lastError = error;
          }
        }),
      );
    }
    const failed = errors.find((error) => error !== undefined);
    if (failed !== undefined) throw failed;
    return replies;
  }

  /** Command indexes per node (by the client's current slot map); commands of unserved slots aside. */
  private groupByNode(commands: RoutedCommand[]): { groups: Map<string, number[]>; unrouted: number[] } {
    const { client, nodes } = this.connection;
    const groups = new Map<string, number[]>();
    const unrouted: number[] = [];
    commands.forEach((command, index) => {
      // ioredis accepts a cluster pipeline only when every key is served by the same node set.
      const node = client instanceof Cluster ? client.slots[command.slot]?.join(',') : nodes[0];
      if (node === undefined) return unrouted.push(index);
      const group = groups.get(node);
      if (group) group.push(index);
      else groups.set(node, [index]);
    });
    return { groups, unrouted };
  }
}
