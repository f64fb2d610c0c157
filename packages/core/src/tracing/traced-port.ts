import { failSpan, startCallSpan } from './trace-context.js';

/**
 * Wraps a port so that every call is a child span of the record being handled ("page store put"),
 * with its duration and failure. A Proxy, so a method added to the port is traced without an edit;
 * with tracing off the span is a no-op.
 */
export function tracePort<T extends object>(port: T, name: string): T {
  const wrapped = new Map<string, unknown>();
  return new Proxy(port, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      let method = wrapped.get(property);
      if (!method)
        wrapped.set(
          property,
          (method = traced(value as (...args: unknown[]) => unknown, target, `${name} ${property}`)),
        );
      return method;
    },
  });
}

function traced(call: (...args: unknown[]) => unknown, target: object, name: string) {
  return (...args: unknown[]) => {
    const span = startCallSpan(name, Array.isArray(args[0]) ? { 'crawler.items': args[0].length } : {});
    let result: unknown;
    try {
      result = call.apply(target, args);
    } catch (error) {
      failSpan(span, error).end();
      throw error;
    }
    if (!(result instanceof Promise)) {
      span.end();
      return result;
    }
    return result.then(
      (resolved: unknown) => {
        span.end();
        return resolved;
      },
      (error: unknown) => {
        failSpan(span, error).end();
        throw error;
      },
    );
  };
}
