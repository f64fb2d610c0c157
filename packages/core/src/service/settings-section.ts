import type { SettingsSpec } from '../config/define-config.js';
import type { RuntimeConfig } from './runtime-settings.js';

/** One group of a standalone service's settings: listed by --help, checked before anything connects. */
export interface SettingsSection {
  /** Key of the group's section in the CRAWLER_CONFIG file, e.g. "kafka" or "fetcher". */
  name: string;
  /** Heading in --help, saying when the group applies. */
  title: string;
  spec: SettingsSpec;
  /**
   * Parses the group as its loader will, cross-checks included, and throws a ConfigError naming the
   * bad variable; a group the runtime does not use (an adapter not selected) is not checked.
   */
  check(runtime: RuntimeConfig, env: NodeJS.ProcessEnv): void;
}
