/** A use case's answer: what it made, or why not, in words a person can act on. */
export interface ServiceError {
  kind: string;
  message: string;
}

export type Outcome<T extends object = object> = ({ ok: true } & T) | { ok: false; error: ServiceError };

export const fail = (kind: string, message: string) => ({ ok: false as const, error: { kind, message } });
