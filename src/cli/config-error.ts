/** A config or data problem: the runner exits with code 2 and this message. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** The environment variable a role's key comes from: SKILLWRIGHT_USER_SIMULATOR_API_KEY for `userSimulator`. */
export function keyVariable(role: string): string {
  return `SKILLWRIGHT_${role.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase()}_API_KEY`;
}
