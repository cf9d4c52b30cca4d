/** Raised at start-up when environment variables are missing or malformed. */
export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID' as const;

  constructor(readonly problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}
