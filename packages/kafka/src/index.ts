export { createKafkaBus } from './kafka-bus.js';
export { checkKafkaConfig, kafkaSettings, loadKafkaConfig, type KafkaConfig } from './kafka-settings.js';
