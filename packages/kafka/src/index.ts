export { createKafkaBus, type KafkaBusPort } from './kafka-bus.js';
export { RegistryFraming, type TopicSchema } from './registry-framing.js';
export {
  createSchemaRegistryClient,
  SchemaRegistryError,
  type SchemaRegistryClient,
} from './schema-registry-client.js';
export { checkKafkaConfig, kafkaSettings, loadKafkaConfig, type KafkaConfig } from './kafka-settings.js';
export { RecentRecords, type Following, type RecentRecord } from './recent-records.js';
