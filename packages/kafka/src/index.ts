export { createKafkaBus } from './kafka-bus.js';
export { checkKafkaConfig, kafkaSettings, loadKafkaConfig, type KafkaConfig } from './kafka-settings.js';
export { RecentRecords, type Following, type RecentRecord } from './recent-records.js';
