import { randomBytes } from 'node:crypto';
import {
  defaultTextMapGetter,
  defaultTextMapSetter,
  isSpanContextValid,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { errorCode, errorMessage } from '../errors.js';

/**
 * The one owner of how trace context travels: W3C `traceparent` (and `tracestate`) in each
 * message's headers. With tracing off the API's tracer records nothing and a stage passes the
 * context it was handed on unchanged, so the trace id still runs from the frontier to the page.
 */
const propagator = new W3CTraceContextPropagator();

export const TRACEPARENT_HEADER = 'traceparent';

/** The crawler's tracer: the SDK's when startTracing installed one, else a no-op. */
export function crawlerTracer(): Tracer {
  return trace.getTracer('crawler');
}

/** The trace context a message carries (the root context when it carries none or a malformed one). */
export function contextFromHeaders(headers: Record<string, string>): Context {
  return propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
}

/** `traceparent` (and `tracestate`) for the messages produced in a context; none outside a trace. */
export function traceHeaders(context: Context): Record<string, string> {
  const carrier: Record<string, string> = {};
  propagator.inject(context, carrier, defaultTextMapSetter);
  return carrier;
}

/**
 * A span that starts a trace (the scheduler handing a URL out). With tracing off a random W3C
 * trace id still names it, so the traceparent header, the message's traceId and the logs agree.
 */
export function startTrace(name: string, attributes: Attributes): { span: Span; context: Context; traceId: string } {
  let span = crawlerTracer().startSpan(name, { kind: SpanKind.PRODUCER, attributes, root: true });
  if (!isSpanContextValid(span.spanContext())) {
    span = trace.wrapSpanContext({
      traceId: randomBytes(16).toString('hex'),
      spanId: randomBytes(8).toString('hex'),
      traceFlags: TraceFlags.SAMPLED,
    });
  }
  return { span, context: trace.setSpan(ROOT_CONTEXT, span), traceId: span.spanContext().traceId };
}

/** A child span of the active context for one outgoing call: an HTTP request, a store call. */
export function startCallSpan(name: string, attributes: Attributes = {}): Span {
  return crawlerTracer().startSpan(name, { kind: SpanKind.CLIENT, attributes });
}

/** Marks a span failed with the error's code and message. */
export function failSpan(span: Span, error: unknown): Span {
  return span
    .setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(error).slice(0, 300) })
    .setAttribute('error.type', errorCode(error));
}
