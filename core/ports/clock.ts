/** Time and randomness come from here so tests can drive them. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export interface IdGenerator {
  /** Random UUID v4. */
  uuid(): string;
  /** URL-safe random token of the given byte length. */
  token(bytes?: number): string;
}
