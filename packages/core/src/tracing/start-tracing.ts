import { context, trace } from '@opentelemetry/api';
import { setTracingOn } from './trace-context.js';
import type { TracingConfig } from './tracing-settings.js';

export interface Tracing {
  /** Exports what is still buffered, then stops recording. */
  shutdown(): Promise<void>;
}

const OFF: Tracing = { shutdown: async () => {} };

/**
 * Installs the OpenTelemetry SDK when OTEL_EXPORTER_OTLP_ENDPOINT is set: spans batched and sent
 * as OTLP/protobuf over HTTP, context carried across awaits by AsyncLocalStorage. Off, nothing is
 * loaded: the SDK's modules are imported only here.
 */
export async function startTracing(config: TracingConfig, service: string): Promise<Tracing> {
  if (!config.endpoint) return OFF;
  const [sdk, { OTLPTraceExporter }, { resourceFromAttributes }, { AsyncLocalStorageContextManager }] =
    await Promise.all([
      import('@opentelemetry/sdk-trace'),
      import('@opentelemetry/exporter-trace-otlp-proto'),
      import('@opentelemetry/resources'),
      import('@opentelemetry/context-async-hooks'),
    ]);
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  const provider = new sdk.TracerProvider({
    resource: resourceFromAttributes({ 'service.name': config.serviceName ?? `crawler-${service}` }),
    sampler: new sdk.ParentBasedSampler({ root: new sdk.TraceIdRatioBasedSampler(config.sampleRatio) }),
    spanProcessors: [
      new sdk.BatchSpanProcessor({
        exporter: new OTLPTraceExporter({ url: `${config.endpoint.replace(/\/$/, '')}/v1/traces` }),
        scheduledDelayMillis: 1000,
      }),
    ],
  });
  trace.setGlobalTracerProvider(provider);
  setTracingOn(true);
  return {
    async shutdown() {
      setTracingOn(false);
      await provider.shutdown();
      trace.disable();
      context.disable();
    },
  };
}
