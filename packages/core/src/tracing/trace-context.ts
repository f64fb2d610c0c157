import { randomBytes } from 'node:crypto';
import {
  defaultTextMapGetter,
  defaultTextMapSetter,
  INVALID_SPAN_CONTEXT,
  isSpanContextValid,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { errorCode, errorMessage } from '../errors.js';

/**
 * The one owner of how trace context travels: W3C `traceparent` (and `tracestate`) in each
 * message's headers. With tracing off nothing is parsed or recorded: a stage hands on the
 * traceparent it was handed, so the trace id still runs from the frontier to the stored page.
 */
const propagator = new W3CTraceContextPropagator();

export const TRACEPARENT_HEADER = 'traceparent';
const TRACESTATE_HEADER = 'tracestate';

/** A span that records nothing, for work done with tracing off. */
const NO_SPAN = trace.wrapSpanContext(INVALID_SPAN_CONTEXT);

let recording = false;

/** Set by startTracing: spans are recorded and exported from now on. */
export function setTracingOn(on: boolean): void {
  recording = on;
}

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

/** The span of one record a stage handles, the context its work runs in, and the headers of what it produces. */
export interface RecordTrace {
  span: Span;
  context: Context;
  headers: Record<string, string>;
}

/**
 * Opens the span of one record as a child of the context its headers carry. Off, it parses
 * nothing (a few µs a message saved on every stage) and passes the incoming headers on.
 */
export function traceRecord(name: string, incoming: Record<string, string>, attributes: Attributes): RecordTrace {
  if (!recording) {
    const headers: Record<string, string> = {};
    if (incoming[TRACEPARENT_HEADER]) headers[TRACEPARENT_HEADER] = incoming[TRACEPARENT_HEADER];
    if (incoming[TRACESTATE_HEADER]) headers[TRACESTATE_HEADER] = incoming[TRACESTATE_HEADER];
    return { span: NO_SPAN, context: ROOT_CONTEXT, headers };
  }
  const parent = contextFromHeaders(incoming);
  const span = crawlerTracer().startSpan(name, { kind: SpanKind.CONSUMER, attributes }, parent);
  const context = trace.setSpan(parent, span);
  return { span, context, headers: traceHeaders(context) };
}

/**
 * A span that starts a trace (the scheduler handing a URL out). Off, a random W3C trace id still
 * names it, so the traceparent header, the message's traceId and the logs agree.
 */
export function startTrace(
  name: string,
  attributes: Attributes,
): { span: Span; traceId: string; headers: Record<string, string> } {
  const span = recording
    ? crawlerTracer().startSpan(name, { kind: SpanKind.PRODUCER, attributes, root: true })
    : NO_SPAN;
  if (!isSpanContextValid(span.spanContext())) {
    const traceId = randomBytes(16).toString('hex');
    return { span, traceId, headers: { [TRACEPARENT_HEADER]: `00-${traceId}-${randomBytes(8).toString('hex')}-01` } };
  }
  return { span, traceId: span.spanContext().traceId, headers: traceHeaders(trace.setSpan(ROOT_CONTEXT, span)) };
}

/** A child span of the active context for one outgoing call: an HTTP request, a store call. */
export function startCallSpan(name: string, attributes: Attributes = {}): Span {
  return recording ? crawlerTracer().startSpan(name, { kind: SpanKind.CLIENT, attributes }) : NO_SPAN;
}

/** Marks a span failed with the error's code and message. */
export function failSpan(span: Span, error: unknown): Span {
  return span
    .setStatus({ code: SpanStatusCode.ERROR, message: errorMessage(error).slice(0, 300) })
    .setAttribute('error.type', errorCode(error));
}
