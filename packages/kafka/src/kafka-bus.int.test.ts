import { silentLogger } from '@crawler/core';
import { describeBusContract } from '@crawler/core/testing';
import { createKafkaBus } from './kafka-bus.js';
import { loadKafkaConfig } from './kafka-settings.js';

const brokers = process.env.KAFKA_BROKERS ?? '127.0.0.1:19092';

// A rebalance needs the other members' next heartbeat (1 s) plus a JoinGroup/SyncGroup round.
describeBusContract('kafka', async () => ({
  bus: createKafkaBus(loadKafkaConfig({ env: { KAFKA_BROKERS: brokers } }), silentLogger()),
  rebalanceMs: 3000,
}));
