import type { TopicName } from '../catalog.js';
import type { IncomingMessage } from '../ports/bus.js';
import type { Logger } from '../log/logger.js';

/** One message a stage wants produced. */
export interface Emission {
  topic: TopicName;
  /** Avro full name of the value's schema. */
  schema: string;
  key: string | null;
  value: unknown;
}

export interface StageContext {
  message: IncomingMessage;
  traceId: string;
  log: Logger;
}

/**
 * The shape every service's handler has (StormCrawler's bolt: prepare / execute / declare
 * outputs): built from config and ports, handles one decoded record, returns what it emits.
 * URL-level failures are emissions (status records), not exceptions.
 */
export interface Stage<In> {
  readonly name: string;
  readonly input: { topic: TopicName; schema: string };
  readonly outputs: readonly TopicName[];
  handle(input: In, context: StageContext): Promise<Emission[]>;
  /**
   * Inputs with the same order key are handled (with their retries and produces) one after another
   * in arrival order, others alongside: two fetches of one URL must not race through a stage.
   */
  orderKey?(input: In): string | null;
  /** Emissions recording that processing gave up on this input (e.g. a status for its URL). */
  onGiveUp?(input: In, error: unknown): Emission[];
  close?(): Promise<void>;
}
