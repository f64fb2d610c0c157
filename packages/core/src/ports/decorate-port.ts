/** A port method, unbound from its object. */
export type PortCall = (...args: unknown[]) => unknown;

/**
 * The port with each of its methods replaced by `wrap(method, name)` (made once per method, the
 * method bound to the port); other properties pass through. A Proxy rather than a class per port:
 * a method added to a port is covered without an edit in any decorator.
 */
export function decoratePort<T extends object>(port: T, wrap: (call: PortCall, operation: string) => PortCall): T {
  const wrapped = new Map<string, PortCall>();
  return new Proxy(port, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      let method = wrapped.get(property);
      if (!method) wrapped.set(property, (method = wrap((value as PortCall).bind(target), property)));
      return method;
    },
  });
}
