import type { HostModel } from '../model/web-model.js';
import { buildAppHost } from './app-host.js';
import { buildInertHost } from './inert-host.js';
import { buildMixedHost } from './mixed-host.js';

/** The hosts of the 'render' profile, in listening order. */
export const RENDER_HOST_NAMES = ['app', 'mixed', 'inert'] as const;
export type RenderHostName = (typeof RENDER_HOST_NAMES)[number];

export interface RenderBuildContext {
  seed: number;
  /** Plain articles of the mixed host. */
  articles: number;
  origins: Record<RenderHostName, string>;
}

/**
 * The render profile: pages whose links and text appear only after JavaScript runs. app is a
 * single-page app (every page a script shell), mixed a mostly plain site with a few scripted
 * pages, inert a site whose pages look like shells although their scripts change nothing.
 */
export function buildRenderHosts(ctx: RenderBuildContext): HostModel[] {
  return [buildAppHost(ctx), buildMixedHost(ctx), buildInertHost(ctx)];
}
