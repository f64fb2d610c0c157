/** Options or arguments outside what the synthetic web can build. */
export class InvalidOptionsError extends Error {
  override name = 'InvalidOptionsError';
}

/** The synthetic web's own model contradicts itself (a builder bug, never a crawler's fault). */
export class ModelError extends Error {
  override name = 'ModelError';
}
