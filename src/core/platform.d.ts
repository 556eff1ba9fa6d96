// The only platform APIs the core may use: pure computations available alike in pages,
// workers and Node ≥ 20. Declared by hand because the core compiles without the DOM lib.
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
// `subtle` is missing outside secure contexts (a page on plain http from another host than localhost).
declare const crypto: {
  readonly subtle?: {
    digest(algorithm: 'SHA-256', data: Uint8Array): Promise<ArrayBuffer>;
  };
};
