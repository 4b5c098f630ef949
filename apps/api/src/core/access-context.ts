/** Per-app facts the auth layer needs, fixed at start. */
export interface AccessContext {
  /** The stored user the dev-mode anonymous principal acts as; null outside dev mode. */
  readonly devUserId: string | null;
}
