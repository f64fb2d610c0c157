// A subpath of its own (`@crawler/core/html`): only the processes that parse HTML load htmlparser2.
export * from './html-collector.js';
export * from './html-pass.js';
export * from './page-blocks.js';
export * from './text-tags.js';
