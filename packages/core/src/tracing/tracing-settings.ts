import { z } from 'zod';
import { loadConfig, setting, type ConfigOf, type LoadOptions } from '../config/define-config.js';

/** OpenTelemetry tracing, shared by every service; the variables are OpenTelemetry's own. */
export const tracingSettings = {
  endpoint: setting(
    'OTEL_EXPORTER_OTLP_ENDPOINT',
    z
      .string()
      .regex(
        /^https?:\/\/[^\s/]+(\/[^\s]*)?$/,
        'expected the http(s) base URL of an OTLP receiver, e.g. http://otel-collector:4318',
      )
      .optional(),
    'OTLP/HTTP receiver (an OpenTelemetry Collector, Jaeger) that spans are exported to, as protobuf to <endpoint>/v1/traces. Unset (the default), no span is recorded or exported; the W3C traceparent header still travels with every message.',
  ),
  sampleRatio: setting(
    'OTEL_TRACES_SAMPLER_ARG',
    z.number().min(0).max(1).default(1),
    "Share of new traces recorded (0 to 1), decided where a URL is handed out; every later stage follows the scheduler's decision (parent-based sampling).",
  ),
  serviceName: setting(
    'OTEL_SERVICE_NAME',
    z.string().min(1).optional(),
    'service.name of the spans (default crawler-<service>).',
  ),
};

export type TracingConfig = ConfigOf<typeof tracingSettings>;

export function loadTracingConfig(options?: LoadOptions): TracingConfig {
  return loadConfig('tracing', tracingSettings, options);
}
